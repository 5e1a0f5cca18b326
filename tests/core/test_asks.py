"""A lecturer's question kinds (attn_core.asks): each true answer derived again here from the core's arrays, by a
route of its own; a choice has exactly one right option; a number's grid holds a right value; a state where a kind
cannot be asked fairly is refused with a sentence."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import Settings, compute
from attn_core.asks import ASKS, AskError, answer, twin, twin_first

LESSON = Settings()
CAUSAL = Settings(causal=True)
PADDED = Settings(causal=True, padded=(5, 6))


def test_a_cells_weight_is_the_cell_of_the_head_in_view():
    state = Settings(heads=2, view=2, seed=3)
    result = compute(state)
    for row in range(1, 7):
        for key in range(1, 7):
            got = answer(state, "weight", row, key)
            assert got.value == pytest.approx(result.weights[1, row - 1, key - 1], abs=0)
            assert got.is_right(round(got.value, 2)) and not got.is_right(got.value + 0.06)


def test_the_first_row_under_the_mask_gives_itself_everything():
    got = answer(CAUSAL, "largest", 1)
    assert got.value == pytest.approx(1.0)
    most = answer(CAUSAL, "most", 1)
    assert most.options[most.right] == "Your"


def test_the_word_a_row_looks_at_most_is_its_largest_weight_and_the_only_right_option():
    result = compute(LESSON)
    for row in range(1, 7):
        got = answer(LESSON, "most", row)
        weights = result.weights[0, row - 1]
        assert got.right == int(np.argmax(weights))
        assert got.key == got.right == answer(LESSON, "largest", row).key  # the word the answers name
        assert [got.is_right(i) for i in range(6)].count(True) == 1


def test_a_tie_for_the_largest_weight_is_refused():
    with pytest.raises(AskError, match="equal to two decimals"):
        answer(Settings(sentence="same same"), "most", 2)  # two identical words: the same score, the same weight


def test_blocked_cells_are_counted_from_the_masks_definition():
    for state in (LESSON, CAUSAL, PADDED, Settings(padded=(1, 3)), Settings(sentence="a b c d", causal=True,
                                                                              padded=(4,))):
        length = len(state.tokens)
        expected = sum(1 for i in range(length) for j in range(length)
                       if (state.causal and j > i) or (j + 1) in state.padded)
        assert answer(state, "blocked").value == expected
        assert answer(state, "padding").value == length * len(state.padded)
    assert answer(CAUSAL, "blocked").value == 15  # the lesson's fact: a causal 6-word map blocks 15 cells
    assert answer(PADDED, "blocked").value == 18  # one and step as PAD add the 3 cells of their columns on or below
    # the diagonal


def test_who_sees_the_future():
    assert all(answer(CAUSAL, "future", row).right == 1 for row in range(1, 7))  # -inf hides the future: "no"
    assert answer(LESSON, "future", 1).right == 0  # no mask: "yes"
    assert answer(LESSON, "future", 6).right == 1  # the last row has no future
    # zeroing after the softmax: the later words' scores are still in the sum (the lessons' trap)
    assert answer(CAUSAL.replace(route="zero_after"), "future", 2).right == 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9]), st.integers(0, 50), st.integers(1, 6), st.booleans())
def test_a_rows_sum_under_dropout_is_its_kept_weights_rescaled_and_the_shown_sum_is_within_tolerance(p, roll, row,
                                                                                                   rescale):
    state = Settings(dropout=p, roll=roll, rescale=rescale)
    result = compute(state)
    got = answer(state, "row_sum", row)
    before = result.weights_before_dropout[0, row - 1]
    kept = ~result.dropped[0, row - 1]
    scale = 1 / (1 - p) if rescale else 1.0
    assert got.value == pytest.approx(before[kept].sum() * scale, abs=1e-12)
    # a student adds the board's rounded weights before dropout and rescales: that lands within the tolerance
    assert got.is_right(round(float(np.round(before[kept], 2).sum()) * scale, 2))
    assert any(got.is_right(v) for v in got.grid) and got.grid[-1] >= got.value - got.tolerance


def test_a_rows_sum_needs_dropout_on():
    with pytest.raises(AskError, match="dropout on"):
        answer(LESSON, "row_sum", 2)


def test_widths_and_sizes():
    for d_model, heads in ((12, 1), (12, 4), (24, 6), (4, 2)):
        state = Settings(d_model=d_model, heads=heads)
        assert answer(state, "d_head").value == d_model // heads
        assert answer(state, "scores").value == heads * 6 * 6


def test_which_map_has_the_causal_mask_names_the_map_whose_future_is_blocked():
    for state in (LESSON, CAUSAL, Settings(seed=7), Settings(sentence="one two three", causal=True), PADDED):
        got = answer(state, "which")
        maps = (twin(state), state) if twin_first(state) else (state, twin(state))
        assert maps[got.right].causal and not maps[1 - got.right].causal
    letters = {answer(Settings(seed=seed), "which").right for seed in range(12)}
    assert letters == {0, 1}  # the causal map is not always the same letter


def test_which_is_refused_when_both_maps_look_the_same():
    with pytest.raises(AskError):
        answer(Settings(sentence="alone"), "which")


def test_rows_and_keys_must_exist_and_the_kind_must_be_known():
    with pytest.raises(AskError):
        answer(LESSON, "weight", 7, 1)
    with pytest.raises(AskError):
        answer(LESSON, "weight", 1, None)
    with pytest.raises(AskError):
        answer(LESSON, "largest", None)
    with pytest.raises(AskError, match="Unknown question kind"):
        answer(LESSON, "<script>")


def test_a_row_with_nothing_to_look_at_cannot_be_asked_about():
    with pytest.raises(AskError, match="no weight left"):
        answer(Settings(causal=True, padded=(1,)), "largest", 1)


STATES = st.builds(
    Settings,
    causal=st.booleans(),
    padded=st.sampled_from([(), (1,), (5, 6), (2, 4)]),
    heads=st.sampled_from([1, 2, 3, 4]),
    dropout=st.sampled_from([0.0, 0.2, 0.5]),
    route=st.sampled_from(["neg_inf", "zero_after", "renormalize", "zero_score"]),
    seed=st.integers(0, 999_999),
)


@settings(max_examples=120, deadline=None)
@given(STATES, st.sampled_from(sorted(ASKS)), st.integers(1, 6), st.integers(1, 6))
def test_every_kind_is_fair_or_refused(state, kind, row, key):
    """Whatever the state: a sentence refusing it, or one right option / a grid that holds the true value."""
    try:
        got = answer(state, kind, row, key)
    except AskError as error:
        assert str(error).endswith((".", "!")) and "Traceback" not in str(error)
        return
    if got.kind == "choice":
        assert 0 <= got.right < len(got.options)
        assert [got.is_right(i) for i in range(len(got.options))].count(True) == 1
    elif got.kind == "number":
        assert math.isfinite(got.value)
        assert got.low <= got.value <= got.high + 1e-9
        right = [v for v in got.grid if got.is_right(v)]
        assert right and round(got.value, got.decimals) in [round(v, got.decimals) for v in right]
    else:
        assert kind == "discuss"
