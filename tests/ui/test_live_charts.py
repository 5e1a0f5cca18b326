"""The room's numeric spread, drawn for a hall (attn_ui/figures/live_charts.py): a tick on each answer's own value,
the same bars before and after the reveal, rounds told apart by a legend, the right answers green and the true value
named, and never more bars than the chart's width holds with their labels apart."""

from __future__ import annotations

import pytest

from attn_ui.figures import live_charts
from attn_ui.words import live


def tally_of(number: int, answers: dict[float, int]) -> list[int]:
    question = live.live_question(number)
    tally = [0] * question.option_count
    for value, count in answers.items():
        tally[question.nearest(value)] += count
    return tally


def ticks(figure) -> list[str]:
    return list(figure.layout.xaxis.ticktext)


def test_each_bar_stands_on_an_answer_s_own_value():
    tally = tally_of(4, {15: 9, 21: 3, 6: 2})  # 15 cells is right
    figure = live_charts.spread_figure(live.live_question(4), [tally], revealed=False, font=20, width=700)
    assert ticks(figure) == ["6", "15", "21"]
    assert [list(trace.y) for trace in figure.data] == [[2, 9, 3]]
    assert all(not label.isdigit() for label in figure.layout.xaxis.tickvals), "no number as a category's id"


def test_the_reveal_keeps_the_bars_and_adds_the_true_value_named_and_green():
    question = live.live_question(4)
    tally = tally_of(4, {14: 5, 21: 3})  # nobody said 15
    closed = live_charts.spread_figure(question, [tally], revealed=False, font=20, width=700)
    revealed = live_charts.spread_figure(question, [tally], revealed=True, font=20, width=700)
    assert ticks(closed) == ["14", "21"]
    assert ticks(revealed) == ["14", "<b>15</b><br>true", "21"]
    right, off = revealed.data
    assert (right.marker.color, off.marker.color) == (live_charts.RIGHT, live_charts.OFF)
    assert list(right.y) == [0, 0, 0] and list(off.y) == [5, 0, 3]
    assert [note.text for note in revealed.layout.annotations] == ["5", "3"]  # each bar's total above it


def test_a_tolerance_counts_neighbours_right_and_a_mixed_bar_shows_both():
    question = live.live_question(9)  # 29%, within 3
    tally = tally_of(9, {float(v): 1 for v in range(0, 100, 3)})  # 34 different answers: grouped
    figure = live_charts.spread_figure(question, [tally], revealed=True, font=20, width=560)
    right, off = figure.data
    assert sum(right.y) == sum(question.right(i) for i, count in enumerate(tally) if count)
    assert sum(right.y) + sum(off.y) == sum(tally)
    assert len(figure.layout.xaxis.tickvals) <= live_charts.most_bars(560, 20, 5)


@pytest.mark.parametrize("width", [440, 560, 700])
def test_grouped_bars_start_on_round_values_and_look_the_same_before_and_after(width):
    question = live.live_question(10)  # 0.00 to 1.00 in 0.01
    tally = tally_of(10, {round(0.07 * k, 2): 1 for k in range(14)})
    before = live_charts.bars(question, [tally], revealed=False, most=4, most_ranges=4)
    after = live_charts.bars(question, [tally], revealed=True, most=4, most_ranges=4)
    assert len(after) <= 4 and [bar.label for bar in before] == [bar.label for bar in after if
                                                                 any(tally[bar.first:bar.last + 1])]
    for bar in before:
        steps = bar.last - bar.first + 1
        assert steps in live_charts.BIN_STEPS and bar.first % steps == 0
        assert bar.label == f"{question.options[bar.first]}–{question.options[bar.last]}"


def test_a_revote_s_rounds_stand_side_by_side_named_by_a_legend():
    question = live.live_question(4)
    first, second = tally_of(4, {15: 4, 10: 6}), tally_of(4, {15: 8, 10: 2})
    figure = live_charts.spread_figure(question, [first, second], revealed=False, font=20, width=700,
                                       names=["First vote", "Second vote"])
    assert figure.layout.showlegend and figure.layout.barmode == "group"
    assert [(trace.name, list(trace.y), trace.marker.color) for trace in figure.data] == [
        ("First vote", [6, 4], live_charts.BAR_FADED), ("Second vote", [2, 8], live_charts.BAR)]
    assert [list(trace.text) for trace in figure.data] == [["6", "4"], ["2", "8"]]
    revealed = live_charts.spread_figure(question, [first, second], revealed=True, font=20, width=700,
                                         names=["First vote", "Second vote"])
    assert not revealed.layout.showlegend and [note.text for note in revealed.layout.annotations] == ["2", "8"]


def test_a_hall_s_counts_leave_room_for_their_labels():
    """150 answers: three-digit counts two a slot need wider slots, so fewer bars."""
    assert live_charts.most_bars(700, 20, 4, (2, 3)) < live_charts.most_bars(700, 20, 4, (1, 1))
    assert 2 <= live_charts.most_bars(100, 20, 40) <= live_charts.MAX_BARS
