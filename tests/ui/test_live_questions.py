"""Every scene's live question against the core: the value the room is scored against is the number the scene's
revealed text states, the grid holds it, each tolerance is declared and explained, and each choice has exactly
one true option, checked here by computing every option's claim again from the core."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_core import compute
from attn_core.lessons import masks as mask_lessons
from attn_core.training import PRESETS
from attn_ui.words import live, live_room, live_table
from attn_ui.words.scenes import SCENES, scene_facts, scene_words

NUMBERS = [n for n, q in live.QUESTIONS.items() if isinstance(q, live.Guess)]
CHOICES = [n for n, q in live.QUESTIONS.items() if isinstance(q, live.Pick)]


def test_every_scene_has_a_live_question():
    assert sorted(live.QUESTIONS) == list(range(1, len(SCENES) + 1))


@pytest.mark.parametrize("number", NUMBERS)
def test_a_number_is_scored_against_what_the_revealed_text_states(number):
    question = live.QUESTIONS[number]
    facts = scene_facts(SCENES[number - 1])
    answer = scene_words(SCENES[number - 1]).answer
    stated = facts[question.fact]
    assert stated in answer, f"scene {number}: the answer text does not state {stated!r}"
    filled = live.live_question(number)
    assert filled.truth == live.fact_number(stated)
    assert filled.values[0] <= filled.truth <= filled.values[-1], "the grid must hold the true value"
    assert any(filled.right(i) for i in range(filled.option_count)), "some answer on the grid must count as right"
    assert filled.tolerance >= 0 and filled.why, "a tolerance is declared and explained"
    if filled.tolerance == 0:  # a count or an exact value: exactly one grid answer is right
        assert sum(filled.right(i) for i in range(filled.option_count)) == 1
    assert not all(filled.right(i) for i in range(filled.option_count)), "a tolerance that passes everything"


@pytest.mark.parametrize("number", NUMBERS)
def test_a_tolerance_wider_than_zero_is_for_a_value_read_or_worked_by_eye(number):
    filled = live.live_question(number)
    span = filled.values[-1] - filled.values[0]
    assert filled.tolerance <= 0.15 * span, f"scene {number}: tolerance {filled.tolerance} of a span {span}"
    assert str(live.format_number(filled.tolerance, filled.decimals)) in filled.why or filled.tolerance == 0 \
        or "within" in filled.why


def test_the_tolerances_are_the_declared_ones():
    declared = {n: live.live_question(n).tolerance for n in NUMBERS if live.live_question(n).tolerance}
    assert declared == {3: 0.02, 9: 3, 10: 0.01, 14: 0.5, 16: 0.05, 25: 0.02}


@pytest.mark.parametrize("number", NUMBERS)
def test_each_tolerance_holds_at_its_edges(number):
    """Every grid answer within the tolerance of the truth counts, the next step beyond it on either side does not."""
    question = live.live_question(number)
    for index, value in enumerate(question.values):
        distance = abs(value - question.truth)
        if distance <= question.tolerance + 1e-9:
            assert question.right(index), (number, value)
        elif distance >= question.tolerance + question.step - 1e-9:
            assert not question.right(index), (number, value)
    on_grid = [(value, question.nearest(value)) for value in (
        question.truth - question.tolerance, question.truth + question.tolerance,
        question.truth - question.tolerance - question.step, question.truth + question.tolerance + question.step)]
    on_grid = [(value, index) for value, index in on_grid if index is not None
               and abs(question.values[index] - value) < 1e-9]
    for value, index in on_grid:  # the edges themselves count, one step past them does not
        assert question.right(index) == (abs(value - question.truth) <= question.tolerance + 1e-9), (number, value)


def test_the_dropout_scene_asks_for_the_expected_count_and_takes_the_whole_counts_beside_it():
    """Before any pattern is shown, a student can know p times the open weights, not the count a random draw makes."""
    scene = SCENES[13]
    result = compute(scene.settings)
    legal = int((~result.blocked[0]).sum())
    question = live.live_question(14)
    assert question.truth == scene.settings.dropout * legal == 10.5
    right = [value for index, value in enumerate(question.values) if question.right(index)]
    assert right == [10.0, 10.5, 11.0]
    sd = math.sqrt(legal * scene.settings.dropout * (1 - scene.settings.dropout))
    assert f"{sd:.1f}" in scene_words(scene).answer and str(result.dropped_cells) in scene_words(scene).answer


def test_the_row_sum_after_zeroing_is_one_minus_the_share_the_question_gives():
    scene = SCENES[9]
    facts = scene_facts(scene)
    assert facts["unmasked_future"] in scene_words(scene).question
    assert abs(1 - float(facts["unmasked_future"]) - float(facts["row_sum"])) <= live.live_question(10).tolerance


def test_one_row_by_hand_is_worked_from_the_numbers_shown_within_its_tolerance():
    from attn_ui.words.scenes import value_givens

    scene = SCENES[24]
    shown = value_givens(scene, compute(scene.settings))
    by_hand = sum(weight * value for __, weight, value in shown)
    question = live.live_question(25)
    assert abs(by_hand - question.truth) <= question.tolerance
    assert not question.right(question.nearest(0.0)), "a guess of 0 must not count"


def test_the_median_is_exact_never_rounded_to_an_even_neighbour():
    question = live.live_question(1)  # a count, 0 to 5
    tally = [0] * question.option_count
    tally[0], tally[3] = 1, 1
    assert live_room.spread(question, tally).median == 1.5
    assert "median 1.5 right guesses" in live_room.spread_sentence(question, tally, revealed=False)
    four = live.live_question(4)
    tally = [0] * four.option_count
    tally[7], tally[10] = 1, 1
    assert "median 8.5 cells" in live_room.spread_sentence(four, tally, revealed=False)
    tally[0], tally[3] = 0, 0


@pytest.mark.parametrize(("typed", "value"), [("0,69", 0.69), ("0.69", 0.69), (" 12 ", 12.0), ("-0,5", -0.5),
                                              ("29 %", 29.0), (",5", 0.5), ("3.", 3.0)])
def test_a_typed_number_reads_with_either_decimal_sign(typed, value):
    assert live.read_typed(typed) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["", "abc", "1.000,5", "1,2,3", "--1", "1e3", "x" * 50, None, 3.0, "0x10"])
def test_anything_else_typed_is_no_number(typed):
    assert live.read_typed(typed) is None


def test_the_question_on_the_phone_is_the_projector_s_word_for_word():
    for number in range(1, len(SCENES) + 1):
        assert live.live_question(number).ask == scene_words(SCENES[number - 1]).question


def test_scoring_is_the_same_in_every_language():
    from attn_lang import using

    for number in range(1, len(SCENES) + 1):
        english = live.live_question(number)
        with using("es"):
            spanish = live.live_question(number)
        assert (english.values, english.truth, english.answer, english.tolerance) == (
            spanish.values, spanish.truth, spanish.answer, spanish.tolerance)
        assert [english.right(i) for i in range(english.option_count)] == [
            spanish.right(i) for i in range(spanish.option_count)]


# --- each choice's options, claim by claim, from the core -------------------------------------------------------


def _truths(number: int) -> list[bool]:
    """Which options of choice scene `number` are true, computed here without the module's rules."""
    scene = SCENES[number - 1]
    if number == 6:  # the last row: unchanged by the mask
        masked, free = compute(scene.settings), compute(scene.settings.replace(causal=False))
        row = scene.row - 1
        same = np.allclose(masked.weights[masked.view_index, row], free.weights[free.view_index, row])
        shut_later = not masked.blocked[0, row].any()
        return [same, not shut_later, not shut_later, bool(masked.weights[masked.view_index, row].sum() == 0)]
    if number == 8:  # which route leaks onto the future
        rows = mask_lessons.route_rows(scene.settings, scene.row - 1)
        leaked = dict(zip(rows.routes, rows.leaked, strict=True))
        return [leaked[route] > 1e-9 for route in live.ROUTE_ORDER]
    if number == 13:  # the first word padded: nothing open
        result = compute(scene.settings)
        open_keys = int((~result.blocked[0, 0]).sum())
        return [open_keys == 1, open_keys == 0, open_keys > 1, False]
    if number == 15:  # rows without the rescale
        result = compute(scene.settings)
        sums = result.weights[result.view_index].sum(axis=-1)
        return [bool(np.allclose(sums, 1)), bool(np.all(sums <= 1 + 1e-9) and np.any(sums < 1 - 1e-9)),
                bool(np.any(sums > 1 + 1e-9))]
    if number == 19:  # head 2 against head 1, row 3
        a, b = compute(scene.settings.replace(view=1)), compute(scene.settings)
        same = np.allclose(a.weights[a.view_index, 2], b.weights[b.view_index, 2])
        return [same, not same]
    if number == 20:  # the word row 3 leans on least in head 3, of the words it may see (the first three)
        result = compute(scene.settings)
        weights = result.weights[result.view_index, 2, :3]
        low = result.tokens[int(np.argmin(weights))]
        return [word == low for word in live.live_question(20).options]
    if number == 26:
        result = PRESETS["mask"].shipped()
        off_lower = result.unmasked.train_loss < result.masked.train_loss
        on_writes = result.masked.generating_loss < result.unmasked.generating_loss
        return [off_lower and on_writes, not off_lower and on_writes, off_lower and not on_writes,
                not off_lower and not on_writes]
    if number == 27:
        result = PRESETS["heads"].shipped()
        repeat = next(curve for curve in result.curves if curve.name == "repeat")
        stalled_then_dropped = repeat.losses[-1] < 0.5 * result.chance_loss
        return [not stalled_then_dropped, stalled_then_dropped]
    raise AssertionError(f"no independent check for choice scene {number}")


@pytest.mark.parametrize("number", CHOICES)
def test_a_choice_has_exactly_one_true_option_and_it_is_the_key(number):
    filled = live.live_question(number)
    truths = _truths(number)
    assert len(truths) == filled.option_count
    assert sum(truths) == 1, f"scene {number}: options true: {truths}"
    assert truths.index(True) == filled.answer
    assert len(set(filled.options)) == filled.option_count


def test_the_lecture_room_is_one_question_a_scene():
    asked = live.lecture_questions()
    assert [qid for qid, _ in asked] == [f"scene:{n}" for n in range(1, 28)]
    assert all(2 <= count <= 201 for _, count in asked)
    assert [live.scene_of(qid) for qid, _ in asked] == list(range(1, 28))


@pytest.mark.parametrize("question_id", [None, "", "scene:", "scene:0", "scene:28", "scene:1x", "scene:٣",
                                         "causal-why", "scene:-1"])
def test_other_ids_are_not_scenes(question_id):
    assert live.scene_of(question_id) is None


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), True, "3", None, 1e300, -5, 1.2, -0.03])
def test_a_number_no_grid_holds_is_refused(value):
    assert live.live_question(3).nearest(value) is None  # 0..1 in steps of 0.01


@given(st.floats(min_value=-0.005, max_value=1.005))
def test_a_number_between_steps_counts_as_the_nearest_step(value):
    question = live.live_question(3)
    index = question.nearest(value)
    assert abs(question.values[index] - value) <= question.step / 2 + 1e-9


@given(st.integers(min_value=0, max_value=100))
def test_a_grid_value_is_its_own_index(index):
    question = live.live_question(3)
    assert question.nearest(question.values[index]) == index


def test_the_spread_counts_right_answers_within_the_tolerance():
    question = live.live_question(3)  # truth 0.69 as shown, tolerance 0.02: 0.67 to 0.70 on the grid are right
    tally = [0] * question.option_count
    tally[question.nearest(0.67)] = 2
    tally[question.nearest(0.72)] = 1
    tally[question.nearest(0.70)] = 1
    found = live_room.spread(question, tally)
    assert (found.answers, found.right) == (4, 3)
    assert found.median == pytest.approx(0.685)
    assert "3 of 4 within 0.02 of it (75%)" in live_room.spread_sentence(question, tally, revealed=True)
    assert "right" not in live_room.spread_sentence(question, tally, revealed=False)


def test_the_lecture_csv_has_a_row_per_round_and_no_voter():
    import csv
    import io

    one = [0] * live.live_question(1).option_count
    one[5], one[3] = 2, 1
    six = [1, 2, 0, 0]
    text = live_room.lecture_csv([live_room.Asked("scene:1", (tuple(one),)),
                                  live_room.Asked("scene:6", (tuple(six), (3, 0, 0, 0)), changed=2, added=0),
                                  live_room.Asked("causal-why", ((1, 2),))])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["scene", "title", "kind", "round", "answers", "changed", "new", "true_answer", "tolerance",
                       "tolerance_reason", "right", "right_share", "median", "spread", "options"]
    assert len(rows) == 4
    assert rows[1][:9] == ["1", "A head that may peek", "number", "1", "3", "", "", "5 right guesses", "0"]
    assert rows[1][10:15] == ["2", "0.667", "5", "3:1 5:2", ""]
    assert rows[3][:7] == ["6", "The last row", "choice", "2", "3", "2", "0"]
    options = live.live_question(6).options
    assert rows[3][14] == " | ".join(f"{live.letter(i)}: {text}" for i, text in enumerate(options))
    assert rows[3][7] == options[0] and rows[3][13] == "A:3 B:0 C:0 D:0"


def test_the_recap_takes_each_scene_s_last_round():
    lines = live_room.recap_lines({(0, 1): 3, (5, 1): 1, (5, 2): 0, (99, 1): 0, (2, 1): 500})
    assert [(line.number, line.right) for line in lines] == [(1, False), (6, True)]
    assert lines[0].mine == "3 right guesses" and lines[0].truth == "5 right guesses"


def test_the_docs_table_is_made_from_the_questions():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "lecture.md").read_text()
    found = re.search(r"<!-- live-questions:[^\n]*-->\n(.*?)\n<!-- /live-questions -->", text, re.S)
    assert found, "docs/lecture.md lost its live-questions markers"
    assert found.group(1) == live_table.questions_markdown(), \
        "paste live_table.questions_markdown() into docs/lecture.md"
