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
FLAG_PX, GAP_PX = 18, 6  # px: the true value's flag, and its gap above the tallest count label


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
    flagged = revealed and question.truth is not None
    top_margin = font + 12 if flagged else 8
    plot_px = height - top_margin - 8 - (font + 10)  # the plot area: the figure less its margins and the tick labels
    label_px = font * 1.3 + 4  # a count's label above its bar ("outside"), with Plotly's pad
    # the y range: the tallest bar, its label, and (revealed) a gap and the flag above it, all inside the plot
    room_px = label_px + (GAP_PX + FLAG_PX if flagged else 4)
    reach = top / max(0.2, 1 - room_px / max(plot_px, 1))  # data units from 0 to the plot's top
    if flagged:
        units = reach / max(plot_px, 1)  # data units a pixel
        low = top + (label_px + GAP_PX) * units
        shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": question.truth, "x1": question.truth,
                       "y0": low, "y1": low + FLAG_PX * units, "line": {"color": SELECT_COLOUR, "width": 4}})
        notes.append({"text": plotly_escape(_("true: {value}", value=format_number(question.truth, question.decimals))),
                      "x": question.truth, "xref": "x", "y": low + FLAG_PX * units, "yref": "y", "yanchor": "bottom",
                      "showarrow": False, "font": {"size": font, "color": GREY_TEXT}})
    ticks = [question.values[i] for i in span]
    if len(ticks) > 9:  # keep the labels apart: every k-th grid value
        every = -(-len(ticks) // 9)
        ticks = ticks[::every]
    layout = base_layout(height, {"l": 8, "r": 8, "t": top_margin, "b": 8}, font={"size": font},
                         showlegend=False, bargap=0.15, bargroupgap=0.05, barmode="group", shapes=shapes,
                         annotations=notes, separators=plotly_separators(),
                         xaxis={"fixedrange": True, "tickvals": ticks, "tickfont": {"size": font},
                                "ticktext": [format_number(v, question.decimals) for v in ticks],
                                "linecolor": LEVEL_COLOUR, "automargin": True},
                         yaxis={"fixedrange": True, "visible": False, "range": [0, reach]})
    return figure_from_spec({"data": traces, "layout": layout})
