"""The spread of a live lecture's predictions: one bar per answer given, the true value marked after the reveal.

Draws what attn_ui/words/live.py scored; never calls st.*. Plain figure dicts, as the other builders write.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from attn_ui.figures.layout import base_layout
from attn_ui.figures.palette import GREY_TEXT, LEVEL_COLOUR, SELECT_COLOUR
from attn_ui.figures.plotly_fast import figure_from_spec
from attn_ui.words.live import Live, format_number, letter

BAR = "#3e7cc4"  # an answer, before the reveal and when it is off
RIGHT = "#2e9d5b"  # an answer within the tolerance, after the reveal
EDGE = 2  # grid steps shown beyond the answers and the true value, so a lone bar does not fill the chart


def shown_span(question: Live, tally: Sequence[int], revealed: bool) -> range:
    """The grid indices the chart shows: every answer given (and the true value once revealed), plus EDGE steps."""
    marked = [index for index, count in enumerate(tally) if count]
    if revealed:
        marked += [index for index in range(question.option_count) if question.right(index)]
    if not marked:
        return range(0, 0)
    return range(max(0, min(marked) - EDGE), min(question.option_count, max(marked) + EDGE + 1))


def spread_figure(question: Live, tally: Sequence[int], revealed: bool, height: int = 220, font: int = 14) -> go.Figure:
    """Bars of the room's predictions (a number's grid, or a choice's letters); after the reveal the right ones are
    green and a number's true value is marked."""
    if question.kind == "choice":
        return _choice_figure(question, tally, revealed, height, font)
    span = shown_span(question, tally, revealed)
    x = [question.values[i] for i in span]
    counts = [int(tally[i]) for i in span]
    colours = [RIGHT if revealed and question.right(i) else BAR for i in span]
    step = question.values[1] - question.values[0]
    trace = {"type": "bar", "x": x, "y": counts, "marker": {"color": colours}, "width": step * 0.8,
             "text": [str(c) if c else "" for c in counts], "textposition": "outside", "cliponaxis": False,
             "textfont": {"size": font, "color": GREY_TEXT},
             "hovertemplate": f"%{{x:.{question.decimals}f}}: %{{y}}<extra></extra>"}
    shapes, notes = [], []
    if revealed and question.truth is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": question.truth, "x1": question.truth,
                       "y0": 0, "y1": 1, "line": {"color": SELECT_COLOUR, "width": 3, "dash": "dash"}})
        notes.append({"text": f"true {format_number(question.truth, question.decimals)}", "x": question.truth,
                      "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom", "showarrow": False,
                      "font": {"size": font, "color": GREY_TEXT}})
    top = max(counts, default=1) or 1
    ticks = [question.values[i] for i in span]
    if len(ticks) > 11:  # keep the labels apart: every k-th grid value
        every = -(-len(ticks) // 11)
        ticks = ticks[::every]
    layout = base_layout(height, {"l": 8, "r": 8, "t": 28, "b": 8}, font={"size": font}, showlegend=False,
                         bargap=0.1, shapes=shapes, annotations=notes,
                         xaxis={"fixedrange": True, "tickvals": ticks,
                                "ticktext": [format_number(v, question.decimals) for v in ticks],
                                "title": {"text": question.unit_name or "prediction"}, "linecolor": LEVEL_COLOUR},
                         yaxis={"fixedrange": True, "visible": False, "range": [0, top * 1.6]})
    return figure_from_spec({"data": [trace], "layout": layout})


def _choice_figure(question: Live, tally: Sequence[int], revealed: bool, height: int, font: int) -> go.Figure:
    letters = [letter(i) for i in range(question.option_count)]
    total = sum(tally)
    colours = [RIGHT if revealed and question.right(i) else BAR for i in range(question.option_count)]
    text = [f"{c} ({round(100 * c / total) if total else 0}%)" for c in tally]
    trace = {"type": "bar", "x": letters, "y": list(tally), "marker": {"color": colours}, "text": text,
             "textposition": "outside", "cliponaxis": False, "textfont": {"size": font, "color": GREY_TEXT},
             "hovertemplate": "%{x}: %{y}<extra></extra>"}
    top = max(tally, default=1) or 1
    layout = base_layout(height, {"l": 8, "r": 8, "t": 8, "b": 8}, font={"size": font}, showlegend=False,
                         bargap=0.35, xaxis={"fixedrange": True, "linecolor": LEVEL_COLOUR},
                         yaxis={"fixedrange": True, "visible": False, "range": [0, top * 1.4]})
    return figure_from_spec({"data": [trace], "layout": layout})
