"""The spread of a live lecture's predictions: one bar per answer given, the true value marked after the reveal.

Draws what attn_ui/words/live.py scored; never calls st.*. Plain figure dicts, as the other builders write. A number's
answers are upright bars on its grid, the true value marked by a flag above the bars (never across a count). No text is
shrunk to fit a bar (`constraintext: none`): at the projector's size every word is drawn at the size asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from attn_lang import _, plotly_separators
from attn_ui.figures.layout import base_layout
from attn_ui.figures.palette import GREY_TEXT, LEVEL_COLOUR, SELECT_COLOUR
from attn_ui.figures.plotly_fast import figure_from_spec
from attn_ui.words.escape import plotly_escape
from attn_ui.words.live import Live, format_number

BAR = "#3e7cc4"  # an answer, before the reveal and when it is off
RIGHT = "#2e7d4f"  # an answer within the tolerance, after the reveal (its count is written in text colour)
BAR_FADED, RIGHT_FADED = "#a9c6e8", "#9fd0b2"  # the same in a revote's first round, beside the second
EDGE = 2  # grid steps shown beyond the answers and the true value, so a lone bar does not fill the chart
FLAG_FROM, FLAG_TO, ROOM = 1.45, 1.95, 2.1  # the true value's flag, in heights of the tallest bar: above every count


def shown_span(question: Live, rounds: Sequence[Sequence[int]], revealed: bool) -> range:
    """The grid indices the chart shows: every answer given in any round (and the true value once revealed), plus EDGE
    steps."""
    marked = [index for tally in rounds for index, count in enumerate(tally) if count]
    if revealed:
        marked += [index for index in range(question.option_count) if question.right(index)]
    if not marked:
        return range(0, 0)
    return range(max(0, min(marked) - EDGE), min(question.option_count, max(marked) + EDGE + 1))


def spread_figure(question: Live, rounds: Sequence[Sequence[int]], revealed: bool, height: int = 220,
                  font: int = 14, names: Sequence[str] = ()) -> go.Figure:
    """Bars of the room's numeric predictions on the question's grid, the rounds of a revote side by side (the first
    paler); after the reveal the right ones are green and the true value is flagged. (A choice's spread is drawn as
    a bar per named option: live_view.choice_bars.)"""
    span = shown_span(question, rounds, revealed)
    x = [question.values[i] for i in span]
    several = len(rounds) > 1
    traces, top = [], 1
    for number, tally in enumerate(rounds):
        counts = [int(tally[i]) for i in span]
        top = max(top, *counts) if counts else top
        faded = several and number < len(rounds) - 1
        colours = [(RIGHT_FADED if faded else RIGHT) if revealed and question.right(i) else
                   (BAR_FADED if faded else BAR) for i in span]
        traces.append({"type": "bar", "x": x, "y": counts, "marker": {"color": colours},
                       "name": plotly_escape(names[number]) if number < len(names) else "",
                       "text": [str(c) if c else "" for c in counts], "textposition": "outside", "cliponaxis": False,
                       "constraintext": "none", "textfont": {"size": font, "color": GREY_TEXT},
                       "hovertemplate": f"%{{x:.{question.decimals}f}}: %{{y}}<extra></extra>"})
    shapes, notes = [], []
    if revealed and question.truth is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": question.truth, "x1": question.truth,
                       "y0": top * FLAG_FROM, "y1": top * FLAG_TO, "line": {"color": SELECT_COLOUR, "width": 4}})
        notes.append({"text": plotly_escape(_("true: {value}", value=format_number(question.truth, question.decimals))),
                      "x": question.truth, "xref": "x", "y": top * FLAG_TO, "yref": "y", "yanchor": "bottom",
                      "showarrow": False, "font": {"size": font, "color": GREY_TEXT}})
    ticks = [question.values[i] for i in span]
    if len(ticks) > 9:  # keep the labels apart: every k-th grid value
        every = -(-len(ticks) // 9)
        ticks = ticks[::every]
    layout = base_layout(height, {"l": 8, "r": 8, "t": font + 12 if notes else 8, "b": 8}, font={"size": font},
                         showlegend=False, bargap=0.15, bargroupgap=0.05, barmode="group", shapes=shapes,
                         annotations=notes, separators=plotly_separators(),
                         xaxis={"fixedrange": True, "tickvals": ticks, "tickfont": {"size": font},
                                "ticktext": [format_number(v, question.decimals) for v in ticks],
                                "linecolor": LEVEL_COLOUR, "automargin": True},
                         yaxis={"fixedrange": True, "visible": False, "range": [0, top * ROOM]})
    return figure_from_spec({"data": traces, "layout": layout})
