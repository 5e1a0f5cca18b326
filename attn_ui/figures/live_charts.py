"""The spread of a live lecture's numeric predictions, drawn for the back row of a hall.

Draws what attn_ui/words/live.py scored; never calls st.*. Plain figure dicts, as the other builders write.

- One bar per answer given (a category axis: a tick on each answer's own value, never between bars), as many as
  the chart's width holds with their labels apart and at most MAX_BARS: when a room gives more different answers,
  neighbouring grid values share a bar (2, 5, 10, ... grid steps, so a range starts on a round value), labelled by
  its range on one line (so fewer of them fit); a bar holding answers counted right and answers off shows both,
  green under grey. The bars come from every round's answers, before and after the reveal alike, so the lecturer's
  "Show the answers" and the reveal show the same bars; the reveal only adds the true value's bar when nobody gave
  it.
- A revote's rounds stand side by side, the first lighter, told apart by a legend; at the reveal the last round
  alone, the answers that count.
- After the reveal the answers counted right are green and the rest grey, and the true value's tick reads
  "true" under it: a colour and a word. Before it every bar is one blue.
- Counts stand above their bars, at the size asked for; nothing is shrunk to fit (the projector's floor is 18 px).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from attn_lang import _
from attn_ui.figures.layout import base_layout
from attn_ui.figures.palette import GREY_TEXT, LEVEL_COLOUR
from attn_ui.figures.plotly_fast import figure_from_spec
from attn_ui.words.escape import plotly_escape
from attn_ui.words.live import Live

BAR = "#3e7cc4"  # an answer, before the reveal (3.9:1 on white: a shape the back row tells from the page)
RIGHT = "#2e7d4f"  # an answer counted right, after the reveal (5.3:1 on white)
BAR_FADED = "#a9c6e8"  # a revote's first round, beside the second: the same blue, lighter
OFF = "#8c8c8c"  # an answer off, after the reveal (3.4:1 on white: a grey, not a second colour to decode)
MAX_BARS = 10  # a hall's answers in at most this many bars: each wide enough for its count and its tick at 20 px
BIN_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200)  # grid steps a bar may span: ranges that start on round values


@dataclass(frozen=True)
class Bar:
    """Grid values first..last (indices) drawn as one bar, and the words under it."""

    first: int
    last: int
    label: str
    holds_truth: bool

    def counts(self, tally: Sequence[int], question: Live) -> tuple[int, int]:
        """(counted right, off) of this bar's answers in one round."""
        right = sum(tally[i] for i in range(self.first, self.last + 1) if question.right(i))
        return right, sum(tally[self.first:self.last + 1]) - right


def bars(question: Live, rounds: Sequence[Sequence[int]], revealed: bool, most: int = MAX_BARS,
         most_ranges: int | None = None) -> list[Bar]:
    """The bars of the spread: every answered grid value, grouped when there are more than `most` of them (then at
    most `most_ranges` ranges, whose labels are longer), and after the reveal the true value's too. The grouping is
    worked out with the true value in it before the reveal as well, so both views group alike; only its bar, when
    nobody answered it, waits for the reveal."""
    answered = sorted({index for tally in rounds for index, count in enumerate(tally) if count})
    truth = question.nearest(question.truth) if question.truth is not None else None
    every = sorted({*answered, *([truth] if truth is not None else [])})
    ranges = most if most_ranges is None else most_ranges
    width = next((steps for steps in BIN_STEPS if len({index // steps for index in every}) <=
                  (most if steps == 1 else ranges)), question.option_count)
    kept = {index // width for index in answered} | ({truth // width} if revealed and truth is not None else set())
    found = []
    for group in sorted(kept):
        first, last = group * width, min(question.option_count, (group + 1) * width) - 1
        label = question.options[first] if first == last else _("{low}–{high}", low=question.options[first],
                                                                  high=question.options[last])
        found.append(Bar(first, last, label, truth is not None and first <= truth <= last))
    return found


def most_bars(width: int, font: int, characters: int, counts: tuple[int, int] = (1, 1)) -> int:
    """How many bars a spread `width` px wide holds with each tick label (`characters` long) apart at `font` px, and
    above it `counts` = (rounds side by side, digits of the largest count) count labels apart."""
    rounds, digits = counts
    label_px = max(0.6 * font * (characters + 1) + 12, rounds * (0.6 * font * digits + 10))
    return max(2, min(MAX_BARS, int(width // label_px)))


def spread_figure(question: Live, rounds: Sequence[Sequence[int]], revealed: bool, height: int = 220,
                  font: int = 14, names: Sequence[str] = (), width: int = 440) -> go.Figure:
    """The room's numeric predictions as bars (see the module's text), for a chart about `width` px wide. Before the
    reveal every round is drawn, a revote's two side by side and named by a legend (`names`); revealed, the last
    round alone, the one that counts, its answers counted right green and the others grey. (A choice's spread is a
    bar per named option: live_bars.choice_bars.)"""
    longest = max(len(option) for option in question.options)
    counts = (1 if revealed else len(rounds), len(str(max([0, *(sum(tally) for tally in rounds)]))))
    shown = bars(question, rounds, revealed, most_bars(width, font, longest, counts),
                 most_bars(width, font, len(_("{low}–{high}", low="0" * longest, high="0" * longest)), counts))
    drawn = list(rounds[-1:] if revealed else rounds)
    names = list(names[-1:] if revealed else names)
    # category ids that no number can be taken for: Plotly reads a numeric text on a category axis as a position
    labels = [f"bar{index}" for index in range(len(shown))]
    words = [plotly_escape(bar.label) for bar in shown]
    true = plotly_escape(_("true"))  # under the true value's tick
    ticks = [f"<b>{label}</b><br>{true}" if revealed and bar.holds_truth else label
             for label, bar in zip(words, shown, strict=True)]
    lines = max(tick.count("<br>") + 1 for tick in ticks) if ticks else 1
    tick_px = round(lines * font * 1.3) + 16
    legend = len(drawn) > 1  # the rounds side by side, told apart by the legend above them
    top_px = round(font * 1.5) + 10 if legend else 4
    count_px = round(font * 1.5) + 6  # a count's label above the tallest bar
    plot_px = max(40, height - tick_px - top_px)
    peak = max([1, *(count for tally in drawn for count in tally)]) if not shown else max(
        [1, *(sum(bar.counts(tally, question)) for tally in drawn for bar in shown)])
    traces, notes = [], []
    for number, tally in enumerate(drawn):
        parts = [bar.counts(tally, question) for bar in shown]
        totals = [right + off for right, off in parts]
        name = plotly_escape(names[number]) if number < len(names) else ""
        if revealed:  # one round: right under off, each bar's total above it
            for part, colour, counts in ((_("counted right"), RIGHT, [right for right, __ in parts]),
                                         (_("off"), OFF, [off for __, off in parts])):
                traces.append(_bar_trace(labels, counts, words, plotly_escape(part), colour, showlegend=False))
            notes += [{"text": str(total), "x": label, "y": total, "yanchor": "bottom", "showarrow": False,
                       "font": {"size": font, "color": GREY_TEXT}}
                      for label, total in zip(labels, totals, strict=True) if total]
        else:
            colour = BAR if number == len(drawn) - 1 else BAR_FADED
            trace = _bar_trace(labels, totals, words, name or plotly_escape(_("answers")), colour, showlegend=legend)
            trace.update(text=[str(total) if total else "" for total in totals], textposition="outside",
                         cliponaxis=False, constraintext="none", textfont={"size": font, "color": GREY_TEXT},
                         offsetgroup=str(number))
            traces.append(trace)
    # the first and last tick labels stay inside the chart: a label wider than its bar's slot overhangs it by half
    longest = max([len(word) for word in words] + ([len(_("true"))] if revealed else []), default=0)
    overhang = max(0.0, 0.3 * font * longest - width / (2 * len(shown))) if shown else 0.0
    side = round(4 + overhang)
    layout = base_layout(
        height, {"l": side, "r": side, "t": top_px, "b": tick_px}, font={"size": font}, showlegend=legend,
        barmode="stack" if revealed else "group", bargap=0.25, bargroupgap=0.08, annotations=notes,
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": 1, "yanchor": "top", "yref": "container",
                "font": {"size": font}, "traceorder": "normal"},
        xaxis={"type": "category", "fixedrange": True, "categoryorder": "array", "categoryarray": labels,
               "tickvals": labels, "ticktext": ticks, "linecolor": LEVEL_COLOUR, "tickfont": {"size": font},
               "automargin": False},
        yaxis={"fixedrange": True, "visible": False,
               "range": [0, peak * (1 + count_px / max(20.0, plot_px - count_px))]})
    return figure_from_spec({"data": traces, "layout": layout})


def _bar_trace(labels: list[str], counts: list[int], words: list[str], name: str, colour: str,
               showlegend: bool) -> dict:
    return {"type": "bar", "x": labels, "y": counts, "name": name, "marker": {"color": colour},
            "showlegend": showlegend, "customdata": words,
            "hovertemplate": f"%{{customdata}}: %{{y}} · {name}<extra></extra>"}
