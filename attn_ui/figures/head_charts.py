"""Figures and tables for the lesson pages on heads, shapes and one row by hand. They draw; they never call st.*.

Every number comes from `attn_core.lessons.heads` (and so from a Result); words are escaped on the way out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attn_core import ROUTE_NAMES, Result
from attn_core.lessons import heads as lessons
from attn_ui.figures import maps
from attn_ui.figures.layout import MIN_TEXT, SMALL, base_layout
from attn_ui.figures.palette import BF16_COLOUR, FLOAT32_COLOUR, GREY_TEXT, SELECT_COLOUR, SHARE_SCALE, SIGNED_SCALE
from attn_ui.words.escape import md_escape

DIGITS = 4  # decimals shown in the step tables (the tests compare at this precision)
CELL_TEXT = GREY_TEXT  # dark text on the light ends of both scales, in the light and the dark theme


# --- page 4: many heads -------------------------------------------------------------------------------


def head_title(result: Result, head: int) -> str:
    columns = lessons.head_columns(result.settings.d_model, result.settings.heads)[head]
    return f"head {head + 1} → concat columns {lessons.span(columns)}"


def small_multiples(result: Result) -> list[go.Figure]:
    """One small map per head, each titled with the concat columns its output fills."""
    figures = []
    for head in range(result.settings.heads):
        figure = maps.attention_map(result, head=head, style=SMALL, title=head_title(result, head))
        figure.layout.xaxis.tickangle = -40  # six words side by side do not fit a small map's width
        figure.layout.margin.t = 84  # room for the slanted words and, above them, the title
        figure.layout.title.update(y=0.99, yref="container", yanchor="top")
        figures.append(figure)
    return figures


def _plain_layout(height: int, top: int = 10, **extra) -> dict:
    return base_layout(height, {"l": 10, "r": 10, "t": top, "b": 10}, **extra)


def concat_figure(result: Result) -> go.Figure:
    """Concat (T, d) as numbers, each head's block outlined and named above its columns."""
    length, width = result.context.shape
    blocks = lessons.head_columns(result.settings.d_model, result.settings.heads)
    heatmap = {
        "type": "heatmap", "name": "concat", "z": result.context.tolist(), "x": list(range(width)),
        "y": list(range(length)), "colorscale": SIGNED_SCALE, "zmid": 0, "showscale": False, "xgap": 1, "ygap": 1,
        "texttemplate": "%{z:.2f}" if width <= 8 else "%{z:.1f}",
        "textfont": {"size": MIN_TEXT, "color": CELL_TEXT},
        "customdata": [[[r + 1, c + 1] for c in range(width)] for r in range(length)],
        "hovertemplate": "row %{customdata[0]}, column %{customdata[1]}: %{z:.4f}<extra></extra>",
    }
    shapes = [{"type": "rect", "x0": b[0] - 0.5, "x1": b[-1] + 0.5, "y0": -0.5, "y1": length - 0.5,
               "line": {"color": SELECT_COLOUR, "width": 3}, "layer": "above"} for b in blocks]
    notes = [{"x": (b[0] + b[-1]) / 2, "y": -0.5, "yshift": 4, "yanchor": "bottom", "text": f"head {head + 1}",
              "showarrow": False, "font": {"size": 12}} for head, b in enumerate(blocks)]
    layout = _plain_layout(
        90 + 34 * length, top=30, shapes=shapes, annotations=notes,
        xaxis={"tickmode": "array", "tickvals": list(range(width)), "ticktext": [str(c + 1) for c in range(width)],
               "fixedrange": True, "title": {"text": "column of concat (counted from 1)"}},
        yaxis={"tickmode": "array", "tickvals": list(range(length)), "ticktext": maps.axis_labels(result.head_map()),
               "autorange": "reversed", "fixedrange": True},
    )
    return maps.figure_from_spec({"data": [heatmap], "layout": layout})


def mixing_figure(result: Result) -> go.Figure:
    """Share of each head in each output column, with W_o (everyone everywhere) and without (one head a column)."""
    heads, width = result.settings.heads, result.settings.d_model
    panels = {
        "with W_o: every output column draws on every head": lessons.head_shares(lessons.head_contributions(result)),
        "without W_o: each column hears a single head": lessons.head_shares(lessons.contributions_without_w_o(result)),
    }
    traces, layout = [], _plain_layout(150 + 2 * 32 * heads + 40, top=34, annotations=[])
    for index, (title, shares) in enumerate(panels.items()):
        suffix = "" if index == 0 else "2"
        top, bottom = (1.0, 0.61) if index == 0 else (0.39, 0.0)
        traces.append({
            "type": "heatmap", "name": title.split(":")[0], "z": shares.tolist(), "x": list(range(width)),
            "y": [f"head {h + 1}" for h in range(heads)], "zmin": 0, "zmax": 1, "colorscale": SHARE_SCALE,
            "showscale": False, "xgap": 1, "ygap": 1, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}",
            "texttemplate": "%{z:.0%}" if width * heads <= 48 else "",
            "textfont": {"size": MIN_TEXT, "color": CELL_TEXT},
            "customdata": [[c + 1 for c in range(width)] for _ in range(heads)],
            "hovertemplate": "%{y} → output column %{customdata}: %{z:.1%}<extra></extra>",
        })
        layout[f"xaxis{suffix}"] = {"tickmode": "array", "tickvals": list(range(width)), "fixedrange": True,
                                    "ticktext": [str(c + 1) for c in range(width)],
                                    "anchor": f"y{suffix}", "title": {"text": "output column" if index else ""}}
        layout[f"yaxis{suffix}"] = {"domain": [bottom, top], "autorange": "reversed", "fixedrange": True,
                                    "anchor": f"x{suffix}"}
        layout["annotations"].append({"text": title, "x": 0.5, "xref": "paper", "y": top, "yref": "paper",
                                      "yanchor": "bottom", "showarrow": False, "font": {"size": 13}})
    return maps.figure_from_spec({"data": traces, "layout": layout})


# --- page 5: memory ---------------------------------------------------------------------------------------


def _short_length(length: int) -> str:
    return f"{length // 1024}k" if length >= 1024 else str(length)


def memory_figure(batch: int, heads: int, chosen: int | None = None) -> go.Figure:
    """Bytes of the (B, h, T, T) score tensor against T, both axes logarithmic: a straight line of slope 2."""
    lengths = list(lessons.CONTEXT_LENGTHS)
    traces = [
        {"type": "scatter", "name": dtype, "x": lengths, "y": values, "mode": "lines+markers",
         "line": {"color": colour, "width": 3}, "customdata": [lessons.human_bytes(v) for v in values],
         "hovertemplate": f"{dtype}, T = %{{x:,}}: %{{customdata}}<extra></extra>"}
        for (dtype, values), colour in zip(lessons.memory_curve(batch, heads).items(), (FLOAT32_COLOUR, BF16_COLOUR),
                                           strict=True)
    ]
    if chosen is not None:
        size = lessons.score_tensor_bytes(batch, heads, chosen, lessons.BYTES_PER_NUMBER["float32"])
        traces.append({"type": "scatter", "name": f"T = {chosen:,}", "x": [chosen], "y": [size], "mode": "markers",
                       "hoverinfo": "skip", "marker": {"size": 16, "symbol": "circle-open",
                                                       "color": SELECT_COLOUR, "line": {"width": 3}}})
    marks = lessons.MARKED_LENGTHS
    shapes = [{"type": "line", "x0": t, "x1": t, "xref": "x", "y0": 0, "y1": 1, "yref": "paper",
               "line": {"dash": "dot", "color": "#888", "width": 1}} for t in marks]
    notes = [{"x": float(np.log10(t)), "y": 1, "yref": "paper", "text": name, "showarrow": False,
              "yanchor": "bottom", "font": {"size": 12}} for t, name in marks.items()]
    ticks = [10.0**k for k in range(5, 15)]
    layout = _plain_layout(
        400, top=26, shapes=shapes, annotations=notes, hovermode="closest",
        legend={"x": 0.01, "y": 0.99, "xanchor": "left", "yanchor": "top", "bgcolor": "rgba(0,0,0,0)"},
        xaxis={"type": "log", "tickvals": lengths, "ticktext": [_short_length(t) for t in lengths],
               "title": {"text": "context length T (tokens)"}, "fixedrange": True},
        yaxis={"type": "log", "tickvals": ticks, "ticktext": [lessons.human_bytes(t) for t in ticks],
               "title": {"text": "score tensor, one layer"}, "fixedrange": True},
    )
    return maps.figure_from_spec({"data": traces, "layout": layout})


# --- page 6: one row by hand ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepTable:
    """One step of the row: a heading, a Markdown line with its scalars, and the table (column -> values)."""

    title: str
    note: str
    columns: dict[str, list]

    @property
    def numbers(self) -> list[str]:
        """The columns that hold numbers (shown with DIGITS decimals)."""
        return [name for name, values in self.columns.items() if isinstance(values[0], float)]


def _round(values: np.ndarray) -> list[float]:
    return np.round(np.asarray(values, dtype=float), DIGITS).tolist()


def _kept_word(kept: bool, weight: float) -> str:
    """Dropout only matters where there is weight to drop."""
    if weight == 0:
        return "–"
    return "yes" if kept else "dropped"


def row_steps(row: lessons.RowByHand) -> list[StepTable]:
    """The row's numbers in four tables: scores, softmax, dropout, weighted sum of the values."""
    result, settings = row.result, row.result.settings
    keys = list(result.labels)
    reasons = [result.block_reason(row.query, j) or "no" for j in range(len(keys))]
    route = settings.route
    scores = StepTable(
        "1 · Query against every key",
        f"q · k for each key, divided by √d_head = √{settings.d_head} = {row.root:.{DIGITS}f}. "
        f"Masking route: {ROUTE_NAMES[route]}.",
        {"key": keys, "q · k": _round(row.dots), "÷ √d_head": _round(row.scaled), "blocked?": reasons,
         "into softmax": _round(row.softmax_input)},
    )
    softmax_columns = {"key": keys, "into softmax": _round(row.softmax_input),
                       "− max": _round(row.softmax_input - row.shift), "exp": _round(row.exps),
                       "exp ÷ sum": _round(row.softmax_output)}
    if route in ("zero_after", "renormalize"):
        softmax_columns["after the route"] = _round(row.weights_before_dropout)
    softmax = StepTable(
        "2 · Softmax",
        f"Largest input (taken off before exp, so nothing overflows): {row.shift:.{DIGITS}f}. "
        f"Sum of the exps: {row.total:.{DIGITS}f}. Weights before dropout add up to "
        f"{row.weights_before_dropout.sum():.{DIGITS}f}.",
        softmax_columns,
    )
    if settings.dropout_active:
        rescale = f"survivors × 1 / (1 − {settings.dropout:g}) = {row.dropout_scale:.{DIGITS}f}"
        note = f"p = {settings.dropout:g} while training: {rescale if settings.rescale else 'no rescale (the bug)'}."
    else:
        why = "inference" if settings.dropout > 0 else "p = 0"
        note = f"Dropout does nothing here ({why}): every weight passes unchanged."
    dropout = StepTable(
        "3 · Dropout",
        note + f" Final weights add up to {row.weights.sum():.{DIGITS}f}.",
        {"key": keys, "weight": _round(row.weights_before_dropout),
         "kept?": [_kept_word(kept, weight) for kept, weight in zip(row.kept, row.weights_before_dropout, strict=True)],
         "final weight": _round(row.weights)},
    )
    components = range(settings.d_head)
    values = {"key": keys, **{f"v[{c}]": _round(row.value_vectors[:, c]) for c in components}}
    weighted = {"key": [*keys, "sum"], "weight": [*_round(row.weights), round(float(row.weights.sum()), DIGITS)],
                **{f"weight × v[{c}]": [*_round(row.weighted_values[:, c]), round(float(row.output[c]), DIGITS)]
                   for c in components}}
    return [
        scores,
        softmax,
        dropout,
        StepTable("4a · The value vectors",
                  f"Head {row.head + 1}'s value vector of every key ({settings.d_head} numbers).", values),
        StepTable("4b · Weighted sum", f"Each value times its final weight; the last row adds them up. That sum fills "
                  f"concat columns {lessons.span(row.columns)} of this word's row.", weighted),
    ]


def row_heading(row: lessons.RowByHand) -> str:
    """A Markdown line naming the row, the word escaped."""
    word = md_escape(row.result.labels[row.query])
    return f"Query **{word}** (word {row.query + 1}), head {row.head + 1} of {row.result.settings.heads}."


def row_metrics(row: lessons.RowByHand) -> dict[str, str]:
    """The row's scalars as metric tiles."""
    return {
        "√d_head": f"{row.root:.{DIGITS}f}",
        "Max, taken off": f"{row.shift:.{DIGITS}f}",
        "Sum of exps": f"{row.total:.{DIGITS}f}",
        "Dropout scale": f"{row.dropout_scale:.{DIGITS}f}",
        "Row sum": f"{row.weights.sum():.{DIGITS}f}",
    }


def word_options(result: Result) -> dict[int, str]:
    """0-based position -> escaped word, for pills and segmented controls."""
    return {pos: md_escape(label) for pos, label in enumerate(result.labels)}



# --- page 4 text: sentences whose numbers come from the core -------------------------------------------


def concat_sentence(result: Result) -> str:
    d_head = result.d_head
    blocks = lessons.head_columns(result.settings.d_model, result.settings.heads)
    places = ", ".join(f"head {i + 1} → columns {lessons.span(b)}" for i, b in enumerate(blocks))
    return (f"Each head writes {d_head} numbers per word. They are laid side by side in one table, **concat**, head 1 "
            f"first: head n fills columns (n − 1)·{d_head} + 1 to n·{d_head}. Here: {places}.")


def worked_sentence(worked: Result) -> str:
    s = worked.settings
    start_number = lessons.head_columns(s.d_model, s.heads)[1].start + 1
    words = " ".join(md_escape(word) for word in worked.tokens)
    return (f"**Small enough to check by eye:** d_model = {s.d_model}, {s.heads} heads, the {len(worked.tokens)} "
            f"words *{words}*. Concat has shape **{worked.context.shape}**, and head 2's numbers begin at "
            f"**column {start_number}**.")


def w_o_sentence(result: Result) -> str:
    d_model = result.settings.d_model
    blocks = lessons.head_columns(d_model, result.settings.heads)
    rows = ", ".join(f"rows {lessons.span(b)} weigh head {i + 1}'s numbers" for i, b in enumerate(blocks))
    return (f"Left alone, head 1's numbers would stay in columns {lessons.span(blocks[0])} for good. W_o is a "
            f"({d_model}, {d_model}) matrix: output column j is a weighted sum of *all* {d_model} concat columns, so "
            f"every output number can draw on every head. In W_o, {rows}.")


def cost_metrics(result: Result) -> dict[str, str]:
    """Weights and FLOPs of this layer with h slim heads and with one wide head (d_in = 3 in this app)."""
    length, d_model, heads, d_in = len(result.tokens), result.settings.d_model, result.settings.heads, result.x.shape[1]
    slim = lessons.attention_cost(length, d_model, heads, d_in)
    wide = lessons.attention_cost(length, d_model, 1, d_in)
    return {
        f"Weights, {heads} heads": f"{slim.parameters:,}",
        "Weights, 1 wide head": f"{wide.parameters:,}",
        f"FLOPs, {heads} heads": f"{slim.flops:,}",
        "FLOPs, 1 wide head": f"{wide.flops:,}",
    }


def cost_sentence(result: Result, model: lessons.ModelSize = lessons.GPT2) -> str:
    length, heads = len(result.tokens), result.settings.heads
    slim = lessons.attention_cost(length, result.settings.d_model, heads, result.x.shape[1])
    big = lessons.attention_cost(model.context, model.d_model, model.heads)
    return (f"The heads share the columns of W_q, W_k and W_v out instead of each taking a full copy (last column), so "
            f"h changes neither count. Only the softmax sees more numbers: h·T² = {slim.softmax_cells:,} instead of "
            f"{length * length:,}. **{model.name}:** d = {model.d_model}, h = {model.heads}, d_head = "
            f"{model.d_model} / {model.heads} = {model.d_head}. One attention layer has {big.parameters:,} weights "
            f"(biases left out) and spends {big.flops / 1e9:.2f} GFLOPs on its products at T = {model.context:,}, "
            "with one head or twelve.")


# --- page 5 text -----------------------------------------------------------------------------------------


def here_sentence(result: Result) -> str:
    s = result.settings
    return (f"*here, now* is this app at the Lab's settings (or the page's own until you use the Lab): "
            f"{len(result.tokens)} words, h = {s.heads}, d = {s.d_model}, "
            f"one sentence (B = 1), each word coming in as d_in = {result.x.shape[1]} numbers (in GPT-2, d_in = d). "
            f"Its score tensor {result.score_shape} takes {result.score_bytes:,} bytes in float32.")


def memory_metrics(batch: int, heads: int, length: int) -> dict[str, str]:
    """The score tensor at T and at 2T (float32 and bf16), and the ratio between them."""
    size = lessons.BYTES_PER_NUMBER
    at_t = lessons.score_tensor_bytes(batch, heads, length, size["float32"])
    at_2t = lessons.score_tensor_bytes(batch, heads, 2 * length, size["float32"])
    return {
        f"T = {length:,}, float32": lessons.human_bytes(at_t),
        f"T = {length:,}, bf16": lessons.human_bytes(lessons.score_tensor_bytes(batch, heads, length, size["bf16"])),
        f"T = {2 * length:,}, float32": lessons.human_bytes(at_2t),
        "Doubling T multiplies it by": f"{at_2t / at_t:g}",
    }
