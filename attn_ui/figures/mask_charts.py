"""Plotly builders for the lesson pages on masks and dropout. They draw what attn_core.lessons.masks computed.

Attention maps are drawn by `maps.attention_map`; this module draws the other pictures: the
change-a-later-word table, the four routes on one row, a row of A @ V term by term, True/False mask tables,
the masks of a padded batch, and the mean row sum over many dropout re-rolls. Never calls st.*.
Like `maps`, the builders write plain figure dicts (Plotly's validation costs tens of ms a figure);
the page tests build them again with validation on. Words and numbers are in the run's language (attn_lang).
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import plotly.graph_objects as go

from attn_core.lessons.masks import SAME, DropoutRolls, LaterWordChange, PaddedBatch, RouteRows, RowTimesValues
from attn_lang import N_, _, _n, current_language, number
from attn_lang.languages import language
from attn_ui.figures.layout import base_layout, heatmap_cells
from attn_ui.figures.palette import (
    CHANGE_SCALE,
    GREY_FUTURE,
    GREY_TEXT,
    LINE_RESCALED,
    LINE_UNSCALED,
    MASK_SCALE,
    OPEN_CELL,
    OPEN_TEXT,
    SELECT_COLOUR,
    SIGNED_SCALE,
    TEXT_ON_LIGHT,
    WEIGHT_SCALE,
)
from attn_ui.figures.plotly_fast import figure_from_spec
from attn_ui.words.escape import plotly_escape

FONT = 13
# Translators: the short names of the ways of removing a blocked cell, a table's column heads; the lesson's text
# names them in bold (mask_words.ROUTES_HOW), so write them as it does
SETUP_SHORT = (N_("no mask"), N_("−∞ first"), N_("zero after"), N_("score → 0"))  # column heads of the experiment
ROUTE_SHORT = MappingProxyType({"neg_inf": N_("−∞ first"), "zero_after": N_("zero after"),
               "renormalize": N_("zero, renorm."), "zero_score": N_("score → 0")})  # fmt: skip


# --- small pieces ---------------------------------------------------------------------------------


def _words(labels) -> list[str]:
    return [plotly_escape(label) for label in labels]


def _fmt(values: np.ndarray, digits: int = 2) -> np.ndarray:
    """Numbers as text in the language's decimal sign; anything that rounds to zero prints as 0.00 (never -0.00)."""
    rounded = np.round(values, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    text = np.char.mod(f"%.{digits}f", rounded)
    decimal = language(current_language()).decimal
    return (text if decimal == "." else np.char.replace(text, ".", decimal)).astype(object)


def _heatmap(z: np.ndarray, text: np.ndarray, name: str, **extra) -> dict:
    """One grid of cells with a label in each; `extra` sets colours, axes, hover."""
    return {
        "type": "heatmap", "name": name, "z": heatmap_cells(z), "text": heatmap_cells(text), "texttemplate": "%{text}",
        "textfont": {"size": FONT}, "xgap": 2, "ygap": 2, "showscale": False, "hoverongaps": False, **extra,
    }  # fmt: skip


def _axes(x_labels: list[str], y_labels: list[str], **extra) -> tuple[dict, dict]:
    """A category grid: words as ticks, the first row on top, x ticks above the grid."""
    common = {"showgrid": False, "zeroline": False, "fixedrange": True, "tickmode": "array"}
    x = {**common, "tickvals": list(range(len(x_labels))), "ticktext": x_labels, "side": "top",
         "range": [-0.5, len(x_labels) - 0.5], **extra.get("x", {})}  # fmt: skip
    y = {**common, "tickvals": list(range(len(y_labels))), "ticktext": y_labels, "autorange": False,
         "range": [len(y_labels) - 0.5, -0.5], **extra.get("y", {})}  # fmt: skip
    return x, y


def _box(x1: float, y1: float, x0: float = -0.5, y0: float = -0.5) -> dict:
    return {"type": "rect", "x0": x0, "x1": x1, "y0": y0, "y1": y1, "layer": "above",
            "line": {"color": SELECT_COLOUR, "width": 3}, "fillcolor": "rgba(0,0,0,0)"}  # fmt: skip


def _title(text: str, y: float, x: float = 0.5) -> dict:
    return {"text": text, "xref": "paper", "yref": "paper", "x": x, "y": y, "showarrow": False,
            "xanchor": "center", "yanchor": "bottom", "font": {"size": FONT}}  # fmt: skip


def _figure(traces: list[dict], height: int, top: int = 10, **layout) -> go.Figure:
    base = base_layout(height, {"l": 8, "r": 8, "t": top, "b": 8}, font={"size": FONT})
    return figure_from_spec({"data": traces, "layout": {**base, **layout}})


# --- page 1 ---------------------------------------------------------------------------------------


def later_change_table(change: LaterWordChange) -> go.Figure:
    """Rows: query words. Columns: the four set-ups. Cell: how far that row's output moved (0 = not a bit)."""
    moved = change.output_change.T  # (T, S)
    text = np.where(moved > SAME, _fmt(moved, 3), "0").astype(object)
    words = _words(change.labels)
    words[change.position - 1] = f"<b>{words[change.position - 1]} → {plotly_escape(change.new_word)}</b>"
    trace = _heatmap(
        np.where(moved > SAME, moved, 0.0), text, "output change", zmin=0, zmax=max(float(moved.max()), 1e-9),
        colorscale=CHANGE_SCALE, customdata=[[_(name) for name in change.setups]] * moved.shape[0],
        textfont={"size": FONT, "color": TEXT_ON_LIGHT},  # black stays >= 4.8:1 up to the strongest orange
        # Translators: Plotly's hover template: keep %{customdata}, %{z:.3g} and the <...> marks as they are
        hovertemplate=_("%{customdata}<br>row moved by %{z:.3g}<extra></extra>"),
    )  # fmt: skip
    xaxis, yaxis = _axes([_(name) for name in SETUP_SHORT], words)
    shapes = [_box(len(change.setups) - 0.5, change.earlier_rows - 0.5)] if change.earlier_rows else []
    return _figure([trace], 70 + 40 * len(words), top=40, xaxis=xaxis, yaxis=yaxis, shapes=shapes)


def routes_table(rows: RouteRows) -> go.Figure:
    """One query row under the four routes, as columns: weights coloured like the map, blocked cells grey,
    leaks marked, and each column's sum in the last row."""
    weights = rows.weights.T  # (T, K)
    blocked = np.broadcast_to(rows.blocked[:, None], weights.shape)
    grey = blocked & (weights == 0)
    text = _fmt(weights)
    # Translators: a cell the mask blocks that still got weight (the zero-score trap); short, a cell is small
    text[blocked & (weights > 0)] = [_("{weight:.2f} leak", weight=w) for w in weights[blocked & (weights > 0)]]
    nothing = np.full((1, weights.shape[1]), np.nan)  # (1, K) the sum row, empty in the first two layers
    # Translators: the word in a blocked cell of a small table
    grey_text = np.where(grey, _("blocked"), "")
    blank = np.full((1, weights.shape[1]), "", dtype=object)
    traces = [
        _heatmap(np.vstack([np.where(grey, np.nan, weights), nothing]), np.vstack([np.where(grey, "", text), blank]),
                 "weights", zmin=0, zmax=1, colorscale=WEIGHT_SCALE,
                 # Translators: Plotly's hover template: keep %{z:.3f} and <extra></extra> as they are
                 hovertemplate=_("weight %{z:.3f}<extra></extra>")),
        _heatmap(np.vstack([np.where(grey, 1.0, np.nan), nothing]), np.vstack([grey_text, blank]),
                 "blocked", zmin=0, zmax=1, colorscale=[[0, GREY_FUTURE], [1, GREY_FUTURE]], hoverinfo="skip",
                 textfont={"size": FONT - 1, "color": GREY_TEXT}),
        _heatmap(np.vstack([np.full(weights.shape, np.nan), rows.sums[None]]),
                 np.vstack([np.full(weights.shape, "", dtype=object), _fmt(rows.sums[None])]), "row sum",
                 zmin=0, zmax=1, colorscale=[[0, OPEN_CELL], [1, OPEN_CELL]], hoverinfo="skip",
                 texttemplate="<b>%{text}</b>", textfont={"size": FONT, "color": OPEN_TEXT}),
    ]  # fmt: skip
    row_sum = _("row sum")  # a literal outside the f-string below: the catalog's extraction reads no f-string
    xaxis, yaxis = _axes([_(ROUTE_SHORT[r]) for r in rows.routes], _words(rows.labels) + [f"<b>{row_sum}</b>"])
    return _figure(traces, 70 + 40 * (len(rows.labels) + 1), top=40, xaxis=xaxis, yaxis=yaxis)


def row_times_values(terms: RowTimesValues) -> go.Figure:
    """Top: every key's value vector. Below: weight times value, the future rows exactly 0, and their sum."""
    words = _words(terms.labels)
    columns = [f"v{c + 1}" for c in range(terms.values.shape[1])]  # value components count from 1, like columns
    limit = max(float(np.abs(terms.values).max()), 1e-9)
    stacked = np.vstack([terms.terms, terms.context[None]])  # (T + 1, dh)
    colours = {"zmin": -limit, "zmax": limit, "colorscale": SIGNED_SCALE, "hovertemplate": "%{z:.3f}<extra></extra>",
               "textfont": {"size": FONT, "color": TEXT_ON_LIGHT}}
    traces = [
        _heatmap(terms.values, _fmt(terms.values), "values", **colours),
        _heatmap(stacked, _fmt(stacked), "terms", xaxis="x2", yaxis="y2", **colours),
    ]
    length = len(words)
    split = (length + 1) / (2 * length + 1)  # the lower grid has one row more (the sum)
    gap = 0.14
    x1, y1 = _axes(columns, words, y={"domain": [split + gap / 2, 1.0]})
    # Translators: the last row's label: the sum of the rows above it
    total = _("sum")  # outside the f-string below: the catalog's extraction reads no f-string
    weighted = [f"{number(w, '.2f')} × {word}" for w, word in zip(terms.weights, words, strict=True)]
    weighted.append(f"<b>{total}</b>")
    x2, y2 = _axes(columns, weighted, x={"anchor": "y2"}, y={"domain": [0.0, split - gap / 2], "anchor": "x2"})
    titles = [_title(_("the value vectors v: all still there"), 1.0, 0.5),
              _title(_("weight × v, and their sum (this row of A @ V)"), split - gap / 2, 0.5)]
    for title in titles:
        title["yshift"] = 30
    return _figure(traces, 170 + 34 * (2 * length + 1), top=66, xaxis=x1, yaxis=y1, xaxis2=x2, yaxis2=y2,
                   annotations=titles)


# --- page 2 ---------------------------------------------------------------------------------------


def _mask_trace(future: np.ndarray, padding: np.ndarray, font: int, **extra) -> dict:
    """A code per cell (0 open, 1 blocked as future, 2 blocked as PAD) and the 0/1 shown in it."""
    code = np.where(padding, 2.0, np.where(future, 1.0, 0.0))
    text = np.where(future | padding, "1", "0").astype(object)
    return _heatmap(code, text, "mask", zmin=0, zmax=2, colorscale=MASK_SCALE, hoverinfo="skip",
                    textfont={"size": font, "color": OPEN_TEXT}, **extra)  # fmt: skip


def mask_table(future: np.ndarray, padding: np.ndarray, labels, title: str) -> go.Figure:
    """One True/False table (1 = blocked): light grey where the future blocks, darker where PAD blocks."""
    words = _words(labels)
    xaxis, yaxis = _axes(words, words, x={"tickangle": -45, "tickfont": {"size": 11}},
                         y={"tickfont": {"size": 11}, "scaleanchor": "x"})  # fmt: skip
    title_spec = {"text": f"<b>{plotly_escape(title)}</b>", "x": 0.5, "xref": "container", "y": 0.99,
                  "yref": "container", "yanchor": "top", "font": {"size": FONT}}  # fmt: skip
    return _figure([_mask_trace(future, padding, FONT)], 330, top=86, xaxis=xaxis, yaxis=yaxis, title=title_spec)


def batch_masks(batch: PaddedBatch) -> list[go.Figure]:
    """The (B, L, L) mask of a padded batch: one table per sentence (the page lays them side by side)."""
    count, length = batch.is_pad.shape
    future = batch.combined & ~batch.broadcast  # blocked only because the key lies in the future
    figures = []
    for b in range(count):
        pads = length - batch.lengths[b]
        # English keeps "words" for any count; _n gives other languages their singular
        if pads:
            title = _n("sentence {number}: {count} words + {pads} PAD", "sentence {number}: {count} words + {pads} PAD",
                       batch.lengths[b], number=b + 1, pads=pads)
        else:
            title = _n("sentence {number}: {count} words", "sentence {number}: {count} words", batch.lengths[b],
                       number=b + 1)
        figures.append(mask_table(future[b], batch.broadcast[b], batch.grid[b], title))
    return figures


# --- page 3 ---------------------------------------------------------------------------------------


def row_sum_rolls(rolls: DropoutRolls) -> go.Figure:
    """Running mean of the mean row sum over the re-rolls, with and without the 1 / (1 - p) rescale."""
    x = list(range(1, len(rolls.with_rescale) + 1))
    traces = []
    # Translators: Plotly's hover templates: keep %{x}, %{y:.3f} and <extra></extra> as they are
    one_roll, mean_of = _("roll %{x}: %{y:.3f}<extra></extra>"), _("mean of %{x} rolls: %{y:.3f}<extra></extra>")
    for values, running, colour, point, line in (
        (rolls.with_rescale, rolls.running_with, LINE_RESCALED, N_("with rescale: one roll"),
         N_("with rescale: mean {mean:.3f}")),
        (rolls.without_rescale, rolls.running_without, LINE_UNSCALED, N_("rescale forgotten: one roll"),
         N_("rescale forgotten: mean {mean:.3f}")),
    ):
        traces.append({
            "type": "scatter", "x": x, "y": values.tolist(), "mode": "markers", "name": _(point),
            "marker": {"size": 4, "color": colour, "opacity": 0.3}, "showlegend": False, "hovertemplate": one_roll,
        })  # fmt: skip
        traces.append({
            "type": "scatter", "x": x, "y": running.tolist(), "mode": "lines", "line": {"color": colour, "width": 3},
            "name": _(line, mean=running[-1]), "hovertemplate": mean_of,
        })  # fmt: skip
    levels = [(1.0, "1"), (1.0 - rolls.p, f"1 − p = {number(1 - rolls.p, '.2f')}")]
    shapes = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": y, "y1": y,
               "line": {"dash": "dot", "color": "#7f7f7f"}} for y, __ in levels]  # fmt: skip
    notes = [{"text": text, "xref": "paper", "x": 0.99, "y": y, "yanchor": "bottom", "xanchor": "right",
              "showarrow": False} for y, text in levels]  # fmt: skip
    top = max(1.2, float(max(rolls.with_rescale.max(), rolls.without_rescale.max())) + 0.05)
    return _figure(
        traces, 380, top=10, shapes=shapes, annotations=notes, hovermode="closest",
        xaxis={"title": {"text": _("re-rolls of the dropout pattern")}, "fixedrange": True, "showgrid": False},
        yaxis={"title": {"text": _("mean row sum")}, "fixedrange": True, "range": [0, top]},
        legend={"orientation": "h", "y": -0.25, "x": 0},
    )  # fmt: skip


def mask_tables(result) -> list[go.Figure]:
    """The three True/False tables of a Result: causal, padding, and their OR."""
    future, padding = result.blocked_by_causal, result.blocked_by_padding
    nothing = np.zeros_like(future)
    return [
        # Translators: a True/False table's title; {cells} is how many cells the mask blocks
        mask_table(future, nothing, result.labels, _("causal: {cells} blocked", cells=int(future.sum()))),
        mask_table(nothing, padding, result.labels, _("padding: {cells} blocked", cells=int(padding.sum()))),
        mask_table(future & ~padding, padding, result.labels,
                   # Translators: keep OR (the logical operation that joins the masks)
                   _("causal OR padding: {cells}", cells=result.masked_cells)),
    ]
