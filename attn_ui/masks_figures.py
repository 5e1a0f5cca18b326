"""Plotly builders for the lesson pages on masks and dropout. They draw what attn_core.masks_lessons computed.

Attention maps are drawn by `figures.attention_map`; this module draws the other pictures: the
change-a-later-word table, the four routes on one row, a row of A @ V term by term, True/False mask tables,
the masks of a padded batch, and the mean row sum over many dropout re-rolls. Never calls st.*.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attn_core.masks_lessons import SAME, DropoutRolls, LaterWordChange, PaddedBatch, RouteRows, RowTimesValues
from attn_ui.figures import GREY_FUTURE, GREY_PADDING, GREY_TEXT, SELECT_COLOUR, WEIGHT_SCALE
from attn_ui.text import plotly_escape

OPEN_CELL = "#f4f7fb"  # a legal cell in a True/False table: near white, so the blocked greys stand out
OPEN_TEXT = "#3a3a3a"
CHANGE_SCALE = [[0.0, "#fff4e6"], [1.0, "#d94801"]]  # how far a row moved: pale to strong orange
VALUE_SCALE = "RdBu"  # signed numbers of the value vectors
LINE_RESCALED = "#1f77b4"
LINE_UNSCALED = "#d62728"
FONT = 13


def _words(labels: tuple[str, ...] | list[str]) -> list[str]:
    return [plotly_escape(label) for label in labels]


def _frame(figure: go.Figure, height: int, top: int = 10) -> go.Figure:
    figure.update_layout(
        height=height, margin={"l": 8, "r": 8, "t": top, "b": 8}, dragmode=False,
        plot_bgcolor="rgba(0,0,0,0)", paper_bgcolor="rgba(0,0,0,0)", font={"size": FONT},
    )  # fmt: skip
    return figure


def _grid_axes(figure: go.Figure, x_labels: list[str], y_labels: list[str], row=None, col=None) -> None:
    common = {"showgrid": False, "zeroline": False, "fixedrange": True, "tickmode": "array"}
    figure.update_xaxes(
        **common, tickvals=list(range(len(x_labels))), ticktext=x_labels, side="top",
        range=[-0.5, len(x_labels) - 0.5], row=row, col=col,
    )  # fmt: skip
    figure.update_yaxes(
        **common, tickvals=list(range(len(y_labels))), ticktext=y_labels,
        range=[len(y_labels) - 0.5, -0.5], autorange=False, row=row, col=col,
    )  # fmt: skip


# --- page 1 ---------------------------------------------------------------------------------------


SETUP_SHORT = ("no mask", "−∞ first", "zero after", "score → 0")  # column heads of the experiment
ROUTE_SHORT = {"neg_inf": "−∞ first", "zero_after": "zero after", "renormalize": "zero, renorm.",
               "zero_score": "score → 0"}  # fmt: skip


def _fmt(values: np.ndarray, digits: int = 2) -> np.ndarray:
    """Numbers as text; anything that rounds to zero prints as 0.00 (never -0.00)."""
    rounded = np.round(values, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    return np.char.mod(f"%.{digits}f", rounded).astype(object)


def later_change_table(change: LaterWordChange) -> go.Figure:
    """Rows: query words. Columns: the four set-ups. Cell: how far that row's output moved (0 = not a bit)."""
    moved = change.output_change.T  # (T, S)
    text = np.where(moved > SAME, _fmt(moved, 3), "0").astype(object)
    words = _words(change.labels)
    words[change.position - 1] = f"<b>{words[change.position - 1]} → {plotly_escape(change.new_word)}</b>"
    figure = go.Figure(
        go.Heatmap(
            z=np.where(moved > SAME, moved, 0.0), zmin=0, zmax=max(float(moved.max()), 1e-9),
            colorscale=CHANGE_SCALE, showscale=False, text=text, texttemplate="%{text}", textfont={"size": FONT},
            xgap=2, ygap=2, customdata=np.array([list(change.setups)] * moved.shape[0], dtype=object),
            hovertemplate="%{customdata}<br>row moved by %{z:.3g}<extra></extra>", name="output change",
        )
    )  # fmt: skip
    if change.earlier_rows:
        figure.add_shape(
            type="rect", x0=-0.5, x1=len(change.setups) - 0.5, y0=-0.5, y1=change.earlier_rows - 0.5,
            line={"color": SELECT_COLOUR, "width": 3}, fillcolor="rgba(0,0,0,0)", layer="above",
        )  # fmt: skip
    _grid_axes(figure, list(SETUP_SHORT), words)
    return _frame(figure, height=70 + 40 * len(words), top=40)


def routes_table(rows: RouteRows) -> go.Figure:
    """One query row under the four routes, as columns: weights coloured like the map, blocked cells grey,
    leaks marked, and each column's sum in the last row."""
    weights = rows.weights.T  # (T, K)
    blocked = np.broadcast_to(rows.blocked[:, None], weights.shape)
    grey = blocked & (weights == 0)
    leak = blocked & (weights > 0)
    text = _fmt(weights)
    text[leak] = [f"{w:.2f} leak" for w in weights[leak]]
    sums = rows.sums[None, :]  # (1, K)
    shown = np.vstack([np.where(grey, np.nan, weights), np.full_like(sums, np.nan)])  # (T + 1, K)
    greys = np.vstack([np.where(grey, 1.0, np.nan), np.full_like(sums, np.nan)])
    figure = go.Figure()
    figure.add_trace(go.Heatmap(
        z=shown, zmin=0, zmax=1, colorscale=WEIGHT_SCALE, showscale=False,
        text=np.vstack([np.where(grey, "", text), np.full(sums.shape, "", dtype=object)]), texttemplate="%{text}",
        textfont={"size": FONT}, xgap=2, ygap=2, hoverongaps=False, hovertemplate="weight %{z:.3f}<extra></extra>",
        name="weights",
    ))  # fmt: skip
    figure.add_trace(go.Heatmap(
        z=greys, zmin=0, zmax=1, colorscale=[[0, GREY_FUTURE], [1, GREY_FUTURE]], showscale=False,
        text=np.where(np.isnan(greys), "", "blocked").astype(object), texttemplate="%{text}",
        textfont={"size": FONT - 1, "color": GREY_TEXT}, xgap=2, ygap=2, hoverinfo="skip", hoverongaps=False,
        name="blocked",
    ))  # fmt: skip
    figure.add_trace(go.Heatmap(
        z=np.vstack([np.full(weights.shape, np.nan), sums]), zmin=0, zmax=1, showscale=False,
        colorscale=[[0, OPEN_CELL], [1, OPEN_CELL]], text=np.vstack([np.full(weights.shape, ""), _fmt(sums)]),
        texttemplate="<b>%{text}</b>", textfont={"size": FONT, "color": OPEN_TEXT}, xgap=2, ygap=2,
        hoverinfo="skip", hoverongaps=False, name="row sum",
    ))  # fmt: skip
    _grid_axes(figure, [ROUTE_SHORT[r] for r in rows.routes], _words(rows.labels) + ["<b>row sum</b>"])
    return _frame(figure, height=70 + 40 * (len(rows.labels) + 1), top=40)


def row_times_values(terms: RowTimesValues) -> go.Figure:
    """Top: every key's value vector. Below: weight times value, the future rows exactly 0, and their sum."""
    words = _words(terms.labels)
    width = terms.values.shape[1]
    columns = [f"v[{c}]" for c in range(width)]
    limit = max(float(np.abs(terms.values).max()), 1e-9)
    length = len(words)
    figure = make_subplots(
        rows=2, cols=1, vertical_spacing=0.16, row_heights=[length, length + 1],
        subplot_titles=("the value vectors v: all still there", "weight × v, and their sum (this row of A @ V)"),
    )  # fmt: skip
    stacked = np.vstack([terms.terms, terms.context[None]])  # (T + 1, dh)
    for row, z in ((1, terms.values), (2, stacked)):
        figure.add_trace(go.Heatmap(
            z=z, zmin=-limit, zmax=limit, colorscale=VALUE_SCALE, showscale=False, text=_fmt(z),
            texttemplate="%{text}", textfont={"size": FONT - 1}, xgap=2, ygap=2,
            hovertemplate="%{z:.3f}<extra></extra>", name="values" if row == 1 else "terms",
        ), row=row, col=1)  # fmt: skip
    _grid_axes(figure, columns, words, row=1, col=1)
    weighted = [f"{w:.2f} × {word}" for w, word in zip(terms.weights, words, strict=True)] + ["<b>sum</b>"]
    _grid_axes(figure, columns, weighted, row=2, col=1)
    figure.update_annotations(font={"size": FONT}, yshift=36)
    return _frame(figure, height=170 + 34 * (2 * length + 1), top=66)


# --- page 2 ---------------------------------------------------------------------------------------


def _mask_cells(causal: np.ndarray, padding: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A code per cell (0 open, 1 blocked as future, 2 blocked as PAD) and the 0/1 shown in it."""
    code = np.where(padding, 2.0, np.where(causal, 1.0, 0.0))
    return code, np.where(causal | padding, "1", "0").astype(object)


MASK_SCALE = [[0.0, OPEN_CELL], [0.33, OPEN_CELL], [0.34, GREY_FUTURE], [0.66, GREY_FUTURE],
              [0.67, GREY_PADDING], [1.0, GREY_PADDING]]  # fmt: skip


def _mask_trace(causal: np.ndarray, padding: np.ndarray, font: int) -> go.Heatmap:
    code, text = _mask_cells(causal, padding)
    return go.Heatmap(
        z=code, zmin=0, zmax=2, colorscale=MASK_SCALE, showscale=False, text=text, texttemplate="%{text}",
        textfont={"size": font, "color": OPEN_TEXT}, xgap=2, ygap=2, hoverinfo="skip", name="mask",
    )  # fmt: skip


def mask_table(causal: np.ndarray, padding: np.ndarray, labels: tuple[str, ...], title: str) -> go.Figure:
    """One True/False table (1 = blocked): light grey where the future blocks, darker where PAD blocks."""
    figure = go.Figure(_mask_trace(causal, padding, FONT))
    words = _words(labels)
    _grid_axes(figure, words, words)
    figure.update_xaxes(tickangle=-45, tickfont={"size": 11})
    figure.update_yaxes(scaleanchor="x", tickfont={"size": 11})
    figure.update_layout(title={"text": plotly_escape(title), "x": 0.5, "y": 0.98, "font": {"size": FONT}})
    return _frame(figure, height=300, top=40)


def batch_masks(batch: PaddedBatch) -> go.Figure:
    """The (B, L, L) mask of a padded batch, one panel per sentence."""
    count = len(batch.grid)
    titles = [
        f"sentence {b + 1}: {n} words" + (f" + {len(batch.grid[b]) - n} PAD" if n < len(batch.grid[b]) else "")
        for b, n in enumerate(batch.lengths)
    ]
    figure = make_subplots(rows=1, cols=count, subplot_titles=titles, horizontal_spacing=0.12)
    length = batch.is_pad.shape[1]
    future = batch.combined & ~batch.broadcast  # cells blocked only because they lie in the future
    for b in range(count):
        figure.add_trace(_mask_trace(future[b], batch.broadcast[b], 12), row=1, col=b + 1)
        words = _words(batch.grid[b])
        _grid_axes(figure, words, words, row=1, col=b + 1)
        figure.update_xaxes(tickangle=-45, tickfont={"size": 11}, row=1, col=b + 1)
        figure.update_yaxes(tickfont={"size": 11}, row=1, col=b + 1)
    figure.update_annotations(font={"size": FONT}, yshift=62)
    return _frame(figure, height=140 + 34 * length, top=92)


# --- page 3 ---------------------------------------------------------------------------------------


def row_sum_rolls(rolls: DropoutRolls) -> go.Figure:
    """Running mean of the mean row sum over the re-rolls, with and without the 1 / (1 - p) rescale."""
    count = len(rolls.with_rescale)
    x = np.arange(1, count + 1)
    figure = go.Figure()
    for values, running, colour, name in (
        (rolls.with_rescale, rolls.running_with, LINE_RESCALED, "with rescale"),
        (rolls.without_rescale, rolls.running_without, LINE_UNSCALED, "rescale forgotten"),
    ):
        figure.add_trace(go.Scatter(
            x=x, y=values, mode="markers", marker={"size": 4, "color": colour, "opacity": 0.25},
            name=f"{name}: one roll", showlegend=False, hovertemplate="roll %{x}: %{y:.3f}<extra></extra>",
        ))  # fmt: skip
        figure.add_trace(go.Scatter(
            x=x, y=running, mode="lines", line={"color": colour, "width": 3},
            name=f"{name}: mean so far {running[-1]:.3f}", hovertemplate="mean of %{x} rolls: %{y:.3f}<extra></extra>",
        ))  # fmt: skip
    for level, text in ((1.0, "1"), (1.0 - rolls.p, f"1 − p = {1 - rolls.p:.2f}")):
        figure.add_hline(y=level, line={"dash": "dot", "color": "#7f7f7f"}, annotation_text=text,
                         annotation_position="top left")
    figure.update_xaxes(title="re-rolls of the dropout pattern", fixedrange=True, showgrid=False)
    figure.update_yaxes(title="mean row sum", fixedrange=True, rangemode="tozero")
    figure.update_layout(legend={"orientation": "h", "y": -0.3, "x": 0}, hovermode="closest")
    return _frame(figure, height=380)
