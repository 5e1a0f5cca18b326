"""Plotly figure builders: a Result in, a Figure out. They draw; they never compute attention or call st.*.

The attention map is three layers on one pair of axes, and an outline:
1. the weights of legal cells (viridis, fixed to 0..1),
2. blocked cells in grey: light for a future key, darker for a PAD key,
3. a scatter over the cell centres: it draws each cell's label (the weight, "drop", "future" or "PAD", each in
   its own colour), carries the hover text and makes cells clickable,
4. an outline around the selected query row.
Few layers and margins worked out from the labels keep a click's redraw in the browser short (Plotly draws
every layer, and draws the whole chart again when it has to grow its margins).

Words and numbers are in the run's language (attn_lang), so a cache of these figures keys on the language too
(widgets/panels.py).
"""

from __future__ import annotations

import re
from typing import Protocol

import numpy as np
import plotly.graph_objects as go

from attn_core.engine import HeadMap
from attn_lang import N_, _, current_language
from attn_lang.languages import language
from attn_ui.figures.layout import LAB, MIN_TEXT, MapStyle, base_layout, heatmap_cells
from attn_ui.figures.map_fit import BAND_GAP, LINE_GAP, MapFit, Words, fit_map
from attn_ui.figures.palette import (
    BLACK_TEXT_FROM,
    GREY_SCALE,
    GREY_TEXT,
    SELECT_COLOUR,
    TEXT_ON_DARK,
    TEXT_ON_LIGHT,
    WEIGHT_SCALE,
)
from attn_ui.figures.plotly_fast import FIRST_LINE, figure_from_spec
from attn_ui.words.escape import plotly_escape

# Translators: the mark drawn in a map's cell that dropout zeroed (a cell is small: 4 or 5 letters at most)
DROP_MARK = N_("drop")
_LABEL = re.compile(r'<span style="color:(#[0-9a-f]{6})">(.*)</span>', re.DOTALL)  # see _coloured

X_TICK_ANGLE = 35  # key labels lean this much (degrees) from 7 words on




class ShowsAttention(Protocol):
    """Anything the map can draw: a Result, the cheating head of lesson 1, a trained model's head."""

    def head_map(self, head: int | None = None) -> HeadMap: ...


def axis_labels(view: HeadMap, joiner: str = " · ") -> list[str]:
    """Words as tick labels, PAD words marked; escaped so markup shows as text."""
    padded = set(view.padded)
    return [
        plotly_escape(label) + (f"{joiner}PAD" if pos in padded else "")
        for pos, label in enumerate(view.labels, start=1)
    ]


def cell_status(view: HeadMap) -> np.ndarray:
    """One word per cell: 'legal', 'future', 'padding', 'both' or 'dropped'."""
    future, padding = view.blocked_by_causal, view.blocked_by_padding
    status = np.full(future.shape, "legal", dtype=object)  # (T, T)
    status[future] = "future"
    status[padding] = "padding"
    status[future & padding] = "both"
    status[view.dropped] = "dropped"
    return status


def hover_lines(view: HeadMap, status: np.ndarray) -> list[list[str]]:
    """What the mouse says over each cell: query, key, weight, and why a cell is blocked or dropped.

    A map has up to 256 cells, so each message is looked up once and filled per cell with weights already written
    in the language's decimal sign (a lookup and a language-aware format per cell tripled the time a map takes to
    build)."""
    words = [plotly_escape(label) for label in view.labels]
    decimal = language(current_language()).decimal
    weights = _three_decimals(view.weights, decimal)  # (T, T)
    before = _three_decimals(view.weights_before_dropout, decimal) if view.dropped.any() else weights
    status = status.tolist()
    why = {
        "future": _("blocked: this key comes after the query (future)"),
        "padding": _("blocked: this key is a PAD token"),
        "both": _("blocked: future and PAD"),
        "legal": "",
    }
    # Translators: the text over a map's cell; keep <b>, </b> and <br> (Plotly's bold and line break); {weight} is
    # a weight with three decimals (0.250)
    looks = _("query <b>{query}</b> looks at key <b>{key}</b><br>weight {weight}")
    # Translators: over a map's cell that dropout zeroed; {before} is its weight before, with three decimals
    dropped = _("dropped by dropout (was {before})")
    rows = []
    for i, query in enumerate(words):
        row = []
        for j, key in enumerate(words):
            note = dropped.format(before=before[i][j]) if status[i][j] == "dropped" else why[status[i][j]]
            text = looks.format(query=query, key=key, weight=weights[i][j])
            row.append(text + (f"<br>{note}" if note else ""))
        rows.append(row)
    return rows


def attention_map(source: ShowsAttention, **options) -> go.Figure:
    """attention_map_spec(source, **options) as a go.Figure: the map of one head, blocked cells grey."""
    return figure_from_spec(attention_map_spec(source, **options))


def attention_map_spec(
    source: ShowsAttention,
    head: int | None = None,
    selected_row: int | None = None,
    style: MapStyle = LAB,
    title: str | None = None,
) -> dict:
    """The weight table of one head (0-based; default: the head in view), blocked cells grey, as the plain
    figure dict (the Lab hands it to st.plotly_chart as ReadyFigure(spec); attention_map wraps it). Its words and
    numbers are in the run's language; `title` is drawn as it is given (a framed map puts it at the top left)."""
    return fitted_map(source, head, selected_row, style, title)[0]


def fitted_map(
    source: ShowsAttention,
    head: int | None = None,
    selected_row: int | None = None,
    style: MapStyle = LAB,
    title: str | None = None,
) -> tuple[dict, MapFit | None]:
    """attention_map_spec's figure dict, and for a framed style (style.word_room) how it fits a phone too: what the
    browser must draw smaller there and which words were cut (None for other styles)."""
    view = source.head_map(head)
    length = len(view.labels)
    weights = view.weights  # (T, T)
    blocked = view.blocked & (weights == 0)  # the zero-score trap gives blocked cells weight
    status = cell_status(view)
    positions = list(range(length))

    shown = np.where(blocked, np.nan, weights)  # (T, T) grey cells are gaps in this layer
    cell_text = np.where(status == "dropped", _(DROP_MARK), _cell_numbers(weights)).astype(object)
    if not style.cell_text:
        cell_text[:] = ""  # too many cells for readable numbers: colour, hover and the table carry them
    cell_text[blocked] = ""
    kind = np.where(blocked & (status == "future"), 0.0, np.where(blocked, 1.0, np.nan))  # (T, T) grey layer
    grey = ~np.isnan(kind)
    fit = None if style.word_room is None else fit_map(map_words(view, cell_text[~blocked], title), style)
    font, grey_font, future_mark = _cell_fonts(fit, style, length)
    texts = np.where(kind == 0, future_mark, np.where(grey, "PAD", cell_text))
    if font <= MIN_TEXT:  # ...but none below 11 px: small cells keep only the grey (the legend names the two greys)
        texts[grey] = ""
    if font < MIN_TEXT:  # the numbers go too; "The map as a table" is their text form
        texts[~grey] = ""
    colours = np.where(grey, GREY_TEXT, np.where(weights >= BLACK_TEXT_FROM, TEXT_ON_LIGHT, TEXT_ON_DARK))
    labels_drawn = [_coloured(colour, text) for colour, text in zip(colours.ravel(), texts.ravel(), strict=True)]
    sizes = np.where(grey, grey_font, max(MIN_TEXT, font)).ravel().tolist()
    cols, rows = np.meshgrid(positions, positions)
    traces = [
        {
            "type": "heatmap", "name": "weights", "z": heatmap_cells(shown), "x": positions, "y": positions,
            "zmin": 0, "zmax": 1, "colorscale": WEIGHT_SCALE, "hoverinfo": "skip", "hoverongaps": False,
            "showscale": style.show_scale, "xgap": 2, "ygap": 2,
            "colorbar": {"title": {"text": _("weight"), "font": {"size": style.axis_font}}, "thickness": 14,
                         "len": 0.9,
                         "tickvals": [0, 0.5, 1], "tickfont": {"size": style.axis_font}},
        },
        {
            "type": "heatmap", "name": "blocked", "z": heatmap_cells(kind), "x": positions, "y": positions,
            "zmin": 0, "zmax": 1, "showscale": False, "colorscale": GREY_SCALE,
            "hoverinfo": "skip", "hoverongaps": False, "xgap": 2, "ygap": 2,
        },
        {
            "type": "scatter", "name": "cells", "x": cols.ravel().tolist(), "y": rows.ravel().tolist(),
            "mode": "markers+text", "marker": {"symbol": "square", "size": 28 if style.cell_text else 12,
                                               "opacity": 0},
            "text": labels_drawn, "textposition": "middle center", "textfont": {"size": sizes},
            "selected": {"marker": {"opacity": 0}}, "unselected": {"marker": {"opacity": 0}},
            "hovertext": [line for row in hover_lines(view, status) for line in row],
            "hovertemplate": "%{hovertext}<extra></extra>", "showlegend": False,
        },
    ]
    if fit is None:
        layout = _layout(axis_labels(view, joiner="<br>"), axis_labels(view), style, title)
    else:
        layout = _framed_layout(fit, length, style, title)
    if selected_row is not None and 0 <= selected_row < length:
        layout["shapes"] = [{
            "type": "rect", "x0": -0.5, "x1": length - 0.5, "y0": selected_row - 0.5, "y1": selected_row + 0.5,
            "line": {"color": SELECT_COLOUR, "width": 4}, "fillcolor": "rgba(0,0,0,0)", "layer": "above",
        }]
    return {"data": traces, "layout": layout}, fit


def map_words(view: HeadMap, numbers, title: str | None = None) -> Words:
    """What a framed map's axes and cells say, in the run's language, before map_fit fits it."""
    return Words(
        labels=[plotly_escape(label) for label in view.labels], padded=frozenset(p - 1 for p in view.padded),
        numbers=sorted({str(text) for text in numbers if text}),
        # Translators: the mark drawn in a map's grey cell whose key comes after the query (6 letters at most)
        future=_("future"), key_title=_("key: the word being looked at →"),
        # Translators: the map's corner above its rows, which are the queries (the words looking); a short label
        corner=_("query ↓"), title=plotly_escape(title) if title else None,
    )


def _cell_fonts(fit: MapFit | None, style: MapStyle, length: int) -> tuple[int, int, str]:
    """(numbers' font, marks' font, the future mark) of a map's cells: from its fit, or for an unframed style
    smaller numbers for longer sentences."""
    if fit is not None:
        return fit.cell_font, fit.mark_font, fit.future_mark
    font = style.cell_font - max(0, length - 8)
    future_mark = ("·" if length > 10 else _("future")) if style.cell_text else ""
    return font, max(MIN_TEXT, font - 3), future_mark


def _three_decimals(weights: np.ndarray, decimal: str) -> list[list[str]]:
    """(T, T) weights as text with three decimals and the decimal sign `decimal` ("0.250", "0,250")."""
    rows = [[f"{weight:.3f}" for weight in row] for row in weights.tolist()]
    return rows if decimal == "." else [[text.replace(".", decimal) for text in row] for row in rows]


def _cell_numbers(weights: np.ndarray) -> np.ndarray:
    """(T, T) weights as the cells print them, two decimals with the language's decimal sign ("0.25", "0,25")."""
    text = np.char.mod("%.2f", weights)
    decimal = language(current_language()).decimal
    return text if decimal == "." else np.char.replace(text, ".", decimal)


def _coloured(colour: str, text: str) -> str:
    """A cell's label in its own colour, as a <span> (a scatter's per-point colours dim while a click selects
    a point; the span's colour holds). label_parts reads it back."""
    return f'<span style="color:{colour}">{text}</span>' if text else ""


def label_parts(label: str) -> tuple[str | None, str]:
    """(colour, text) of one drawn cell label; (None, "") for an empty one."""
    match = _LABEL.fullmatch(label or "")
    return (match[1], match[2]) if match else (None, label or "")


def drawn_labels(traces: list[dict]) -> np.ndarray:
    """(T, T) the text drawn in each cell of an attention map (a number, "drop", "future", "·" or "PAD"), from
    the figure's traces as plain dicts (a spec, AppTest's JSON or the browser's gd.data)."""
    (cells,) = [trace for trace in traces if trace.get("name") == "cells"]
    length = int(round(len(cells["text"]) ** 0.5))
    return np.array([label_parts(label)[1] for label in cells["text"]], dtype=object).reshape(length, length)


def _x_tick_angle(length: int) -> int:
    """How far (degrees) the key labels lean: 0 up to 6 words, then X_TICK_ANGLE."""
    return X_TICK_ANGLE if length > 6 else 0


def axis_font(style: MapStyle, length: int) -> int:
    """The words' size: smaller for long sentences, so 16 rows do not overlap on a phone, never below 11 px."""
    return max(MIN_TEXT, min(style.axis_font, style.axis_font - (length - 8) // 2))


def _margins(style: MapStyle, title: str | None) -> dict:
    """An unframed map's margins: the style's, and room for a title; Plotly's automargin makes room for the labels."""
    title_room = 34 if title else 0
    return {"l": style.margin, "r": style.margin, "t": style.margin + title_room, "b": style.margin}


def _layout(x_labels: list[str], y_labels: list[str], style: MapStyle, title: str | None) -> dict:
    length = len(y_labels)
    angle = _x_tick_angle(length)
    axis = {
        "tickmode": "array", "tickvals": list(range(length)),
        "tickfont": {"size": axis_font(style, length)}, "showgrid": False, "zeroline": False, "fixedrange": True,
        "range": [-0.5, length - 0.5],
    }
    layout = base_layout(
        style.height, _margins(style, title),
        xaxis={**axis, "ticktext": x_labels, "side": "top", **({"tickangle": -angle} if angle else {}),
                  "title": {"text": _("key: the word being looked at →") if style.show_titles else "",
                            "font": {"size": max(MIN_TEXT, style.axis_font - 2)}}},
        yaxis={**axis, "ticktext": y_labels, "autorange": False, "range": [length - 0.5, -0.5],
                  "scaleanchor": "x",
                  "title": {"text": _("query: the word looking ↓") if style.show_titles else "",
                            "font": {"size": max(MIN_TEXT, style.axis_font - 2)}}},
        hovermode="closest", clickmode="event+select",
    )
    if title:
        layout["title"] = {"text": plotly_escape(title), "x": 0.5, "font": {"size": style.axis_font}}
    return layout


def _framed_layout(fit: MapFit, length: int, style: MapStyle, title: str | None) -> dict:
    """A framed map's layout: the margins and sizes of its fit, kept as they are (no automargin: Plotly draws once),
    the plot a square at the top of the chart (a phone's chart is cut to it: look.phone_map_css), and three titles as
    annotations: "query ↓" in the corner above the rows, the key title over the keys, the head's name at the top
    left."""
    axis = {
        "tickmode": "array", "tickvals": list(range(length)), "ticks": "", "showgrid": False, "zeroline": False,
        "fixedrange": True, "automargin": False, "constrain": "domain", "title": {"text": ""},
    }
    line = fit.title_font * FIRST_LINE
    above = fit.margin["t"] - line - 2 - (line + LINE_GAP if fit.head_above else 0)  # plot top to the key title
    annotations = [{
        "text": text, "xref": "x domain", "yref": "y domain", "x": x, "y": 1, "xanchor": anchor, "yanchor": "bottom",
        "xshift": shift, "yshift": lift, "showarrow": False, "font": {"size": size},
    } for text, x, anchor, shift, lift, size, shown in (
        (_("query ↓"), 0, "right", -fit.corner_shift, BAND_GAP - 2, fit.corner_font, style.show_titles),
        (_("key: the word being looked at →"), 1 if fit.key_title_right else 0.5,
         "right" if fit.key_title_right else "center", 0, above, fit.title_font, style.show_titles),
        (f"<b>{plotly_escape(title)}</b>" if title else "", 0, "left", -fit.margin["l"],
         above + (line + LINE_GAP if fit.head_above else 0), fit.title_font, bool(title)),
    ) if shown]
    return base_layout(
        style.height, fit.margin,
        xaxis={**axis, "ticktext": list(fit.columns), "side": "top", "tickangle": -90 if fit.upright else 0,
               "tickfont": {"size": fit.column_font}, "range": [-0.5, length - 0.5], "constraintoward": "center"},
        yaxis={**axis, "ticktext": list(fit.rows), "tickfont": {"size": fit.row_font}, "autorange": False,
               "range": [length - 0.5, -0.5], "scaleanchor": "x", "constraintoward": "top"},
        annotations=annotations, hovermode="closest", clickmode="event+select",
    )
