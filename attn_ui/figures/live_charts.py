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
EDGE = 2  # grid steps shown beyond the answers and the true value, so a lone bar does not fill the chart
FLAG_FROM, FLAG_TO, ROOM = 1.45, 1.95, 2.1  # the true value's flag, in heights of the tallest bar: above every count


def shown_span(question: Live, tally: Sequence[int], revealed: bool) -> range:
    """The grid indices the chart shows: every answer given (and the true value once revealed), plus EDGE steps."""
    marked = [index for index, count in enumerate(tally) if count]
    if revealed:
        marked += [index for index in range(question.option_count) if question.right(index)]
    if not marked:
        return range(0, 0)
    return range(max(0, min(marked) - EDGE), min(question.option_count, max(marked) + EDGE + 1))


def spread_figure(question: Live, tally: Sequence[int], revealed: bool, height: int = 220, font: int = 14) -> go.Figure:
    """Bars of the room's numeric predictions on the question's grid; after the reveal the right ones are green and
    the true value is flagged. (A choice's spread is drawn as a bar per named option: live_view.choice_bars.)"""
    span = shown_span(question, tally, revealed)
    x = [question.values[i] for i in span]
    counts = [int(tally[i]) for i in span]
    colours = [RIGHT if revealed and question.right(i) else BAR for i in span]
    trace = {"type": "bar", "x": x, "y": counts, "marker": {"color": colours}, "width": question.step * 0.8,
             "text": [str(c) if c else "" for c in counts], "textposition": "outside", "cliponaxis": False,
             "constraintext": "none", "textfont": {"size": font, "color": GREY_TEXT},
             "hovertemplate": f"%{{x:.{question.decimals}f}}: %{{y}}<extra></extra>"}
    top = max(counts, default=1) or 1
    shapes, notes = [], []
    if revealed and question.truth is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": question.truth, "x1": question.truth,
                       "y0": top * FLAG_FROM, "y1": top * FLAG_TO, "line": {"color": SELECT_COLOUR, "width": 4}})
        notes.append({"text": plotly_escape(_("true: {value}", value=format_number(question.truth, question.decimals))),
                      "x": question.truth, "xref": "x", "y": top * FLAG_TO, "yref": "y", "yanchor": "bottom",
                      "showarrow": False, "font": {"size": font, "color": GREY_TEXT}})
    ticks = [question.values[i] for i in span]
    if len(ticks) > 11:  # keep the labels apart: every k-th grid value
        every = -(-len(ticks) // 11)
        ticks = ticks[::every]
    layout = base_layout(height, {"l": 8, "r": 8, "t": font + 12 if notes else 8, "b": 8}, font={"size": font},
                         showlegend=False, bargap=0.1, shapes=shapes, annotations=notes,
                         separators=plotly_separators(),
                         xaxis={"fixedrange": True, "tickvals": ticks, "tickfont": {"size": font},
                                "ticktext": [format_number(v, question.decimals) for v in ticks],
                                "title": {"text": plotly_escape(question.unit_name or _("prediction")),
                                          "font": {"size": font}},
                                "linecolor": LEVEL_COLOUR},
                         yaxis={"fixedrange": True, "visible": False, "range": [0, top * ROOM]})
    return figure_from_spec({"data": [trace], "layout": layout})
