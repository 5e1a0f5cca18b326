"""Figures and tables for the lesson pages on heads, shapes and one row by hand. They draw; they never call st.*.

Every number comes from `attn_core.lessons.heads` (and so from a Result); words are escaped on the way out.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from attn_core import Result
from attn_core.lessons import heads as lessons
from attn_lang import _, number
from attn_ui.figures import maps
from attn_ui.figures.layout import MIN_TEXT, SMALL, base_layout
from attn_ui.figures.palette import BF16_COLOUR, FLOAT32_COLOUR, GREY_TEXT, SELECT_COLOUR, SHARE_SCALE, SIGNED_SCALE
from attn_ui.words.head_words import head_title, human_bytes

CELL_TEXT = GREY_TEXT  # dark text on the light ends of both scales, in the light and the dark theme


# --- page 4: many heads -------------------------------------------------------------------------------


def small_multiples(result: Result) -> list[go.Figure]:
    """One small map per head, each titled with its head."""
    figures = []
    for head in range(result.settings.heads):
        figure = maps.attention_map(result, head=head, style=SMALL, title=head_title(result, head))
        figure.layout.xaxis.tickangle = -40  # six words side by side do not fit a small map's width
        figure.layout.margin.t = 84  # room for the slanted words and, above them, the title
        figure.layout.title.update(y=0.99, yref="container", yanchor="top")
        figures.append(figure)
    return figures


TITLE_CHARS = 56  # a panel's title longer than this takes two lines: at the projector's 18 px, 56 characters fill
# the narrowest board a scene gives a chart (a live lecture's reveal, about 600 px)


def two_lines(text: str, most: int) -> str:
    """`text` on two lines (broken at the space nearest its middle) when it is longer than `most` characters."""
    if len(text) <= most or " " not in text:
        return text
    middle = len(text) // 2
    cut = min((i for i, char in enumerate(text) if char == " "), key=lambda i: abs(i - middle))
    return f"{text[:cut]}<br>{text[cut + 1:]}"


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
        "hovertemplate": _("row %{customdata[0]}, column %{customdata[1]}: %{z:.4f}") + "<extra></extra>",
    }
    shapes = [{"type": "rect", "x0": b[0] - 0.5, "x1": b[-1] + 0.5, "y0": -0.5, "y1": length - 0.5,
               "line": {"color": SELECT_COLOUR, "width": 3}, "layer": "above"} for b in blocks]
    notes = [{"x": (b[0] + b[-1]) / 2, "y": -0.5, "yshift": 4, "yanchor": "bottom",
              "text": _("head {head}", head=head + 1), "showarrow": False, "font": {"size": 12}}
             for head, b in enumerate(blocks)]
    layout = _plain_layout(
        90 + 34 * length, top=30, shapes=shapes, annotations=notes,
        xaxis={"tickmode": "array", "tickvals": list(range(width)), "ticktext": [str(c + 1) for c in range(width)],
               "fixedrange": True, "title": {"text": _("column of concat (counted from 1)")}},
        yaxis={"tickmode": "array", "tickvals": list(range(length)), "ticktext": maps.axis_labels(result.head_map()),
               "autorange": "reversed", "fixedrange": True},
    )
    return maps.figure_from_spec({"data": [heatmap], "layout": layout})


def mixing_figure(result: Result) -> go.Figure:
    """Share of each head in each output column, with W_o (everyone everywhere) and without (one head a column)."""
    heads, width = result.settings.heads, result.settings.d_model
    panels = (
        (_("with W_o"), _("with W_o: every output column draws on every head"),
         lessons.head_shares(lessons.head_contributions(result))),
        (_("without W_o"), _("without W_o: each column hears a single head"),
         lessons.head_shares(lessons.contributions_without_w_o(result))),
    )
    head_names = [_("head {head}", head=h + 1) for h in range(heads)]
    titles = [two_lines(title, TITLE_CHARS) for __, title, __ in panels]  # a long language's titles take two lines
    extra = 22 * max(title.count("<br>") for title in titles)
    traces, layout = [], _plain_layout(150 + 2 * 32 * heads + 40 + extra, top=34 + extra, annotations=[])
    for index, ((name, __, shares), title) in enumerate(zip(panels, titles, strict=True)):
        suffix = "" if index == 0 else "2"
        top, bottom = (1.0, 0.61) if index == 0 else (0.39, 0.0)
        traces.append({
            "type": "heatmap", "name": name, "z": shares.tolist(), "x": list(range(width)),
            "y": head_names, "zmin": 0, "zmax": 1, "colorscale": SHARE_SCALE,
            "showscale": False, "xgap": 1, "ygap": 1, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}",
            # whole percents without the sign ("100", not "100%"): twelve columns of them fit a phone's width
            "text": [[f"{100 * share:.0f}" for share in row] for row in shares.tolist()],
            "texttemplate": "%{text}" if width * heads <= 48 else "",
            "textfont": {"size": MIN_TEXT, "color": CELL_TEXT},
            "customdata": [[c + 1 for c in range(width)] for __ in range(heads)],
            "hovertemplate": _("%{y} → output column %{customdata}: %{z:.1%}") + "<extra></extra>",
        })
        layout[f"xaxis{suffix}"] = {"tickmode": "array", "tickvals": list(range(width)), "fixedrange": True,
                                    "ticktext": [str(c + 1) for c in range(width)],
                                    "anchor": f"y{suffix}",
                                    "title": {"text": _("output column (a cell: the head's share, %)") if index
                                              else ""}}
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
         "line": {"color": colour, "width": 3}, "customdata": [human_bytes(v) for v in values],
         "hovertemplate": f"{dtype}, T = %{{x:,}}: %{{customdata}}<extra></extra>"}
        for (dtype, values), colour in zip(lessons.memory_curve(batch, heads).items(), (FLOAT32_COLOUR, BF16_COLOUR),
                                           strict=True)
    ]
    if chosen is not None:
        size = lessons.score_tensor_bytes(batch, heads, chosen, lessons.BYTES_PER_NUMBER["float32"])
        traces.append({"type": "scatter", "name": f"T = {number(chosen, ',')}", "x": [chosen], "y": [size],
                       "mode": "markers",
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
               "title": {"text": _("context length T (tokens)")}, "fixedrange": True},
        yaxis={"type": "log", "tickvals": ticks, "ticktext": [human_bytes(t) for t in ticks],
               "title": {"text": _("score tensor, one layer")}, "fixedrange": True},
    )
    return maps.figure_from_spec({"data": traces, "layout": layout})


# --- page 6: one row by hand ------------------------------------------------------------------------------


# --- page 4 text: sentences whose numbers come from the core -------------------------------------------


# --- page 5 text -----------------------------------------------------------------------------------------


