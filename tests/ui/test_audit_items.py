"""The audit of issue 13, item by item: each sentence it found false or misleading, held to the core."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attn_core import Settings, compute
from attn_core.lessons import masks as lessons
from attn_ui.quiz import causal
from attn_ui.quiz.bank import BY_ID
from attn_ui.words import mask_words
from attn_ui.words.explain import KPI_HELP, kpi_values, shown_sum
from attn_ui.words.scenes import SCENES, scene_words
from tests.ui.text_banks import sources


def test_item1_causal_neg_inf_has_one_true_option():
    question = BY_ID["causal-neg-inf"]
    zero_after_moves = causal._earlier_rows_move("zero_after")
    assert zero_after_moves and not causal._earlier_rows_move("neg_inf")
    claims = [True, not zero_after_moves, False]  # B claims zero_after cannot move an earlier output
    assert "no later word can change an earlier output" in question.options[1].text
    assert [i for i, claim in enumerate(claims) if claim] == [question.answer] == [question.check()]


def test_item2_pad_share_is_compared_with_the_core_weights():
    shares = lessons.worked_example().with_zero_score
    explanation = BY_ID["pad-zero-trap"].explanation
    assert "more than the second word" not in explanation
    assert f"≈ {shares[2]:.2f} of the weight, against {shares[1]:.2f} for the second word" in explanation


def test_item3_sees_future_help_names_the_sum_and_the_lab_says_yes_under_zero_after():
    assert "softmax's sum" in KPI_HELP["Sees future?"]
    assert kpi_values(compute(Settings(causal=True, route="zero_after")))["Sees future?"] == "Yes"
    assert "Sees future?** says Yes" in mask_words.PEEK_TASK


def test_item4_dropout_scene_asks_what_a_student_can_know_and_gives_the_measured_count():
    """The question (before any pattern is shown) asks for the expected count, p times the open weights; the answer
    gives it and this pattern's own count."""
    (scene,) = [scene for scene in SCENES if scene.title == "Dropout while training"]
    result = compute(scene.settings)
    legal = int((~result.blocked[0]).sum())
    words = scene_words(scene)
    expected = scene.settings.dropout * legal
    assert f"over the {legal} open weights: how many do you expect it to drop?" in words.question
    assert words.answer.startswith(f"About **{expected:g}**")
    assert f"(this pattern dropped {result.dropped_cells})" in words.answer


def test_item5_tasks_are_doable_where_they_point():
    assert "back on" not in BY_ID["pad-one-open-cell"].prompt
    long = compute(Settings(sentence=" ".join("abcdefghijklmnop"), heads=4))
    assert kpi_values(long)["Score tensor"] == "1×4×16×16 · 4,096 B" == (
        f"{'×'.join(map(str, long.score_shape))} · {long.score_bytes:,} B")


@pytest.mark.parametrize("pattern", [r"\bhead 0\b", r"\bfrom 0\b", r"\bhead i\b"])
def test_item6_nothing_on_screen_counts_heads_from_zero(pattern: str):
    hits = [key for key, text in sources().items() if re.search(pattern, text, re.IGNORECASE)]
    assert hits == []


def test_item7_same_row_question_reconciles_with_the_lesson():
    explanation = BY_ID["causal-same-row"].explanation
    assert "row 1 then always puts all its weight on itself" in explanation
    change = np.abs(compute(Settings()).weights[0] - compute(Settings(causal=True)).weights[0]).sum(axis=1)
    assert int(np.argmax(change)) == 0 and "it is the row that changes most" in explanation


def test_item8_one_sum_rounded_once_and_signed_values():
    example = lessons.worked_example()  # the total a student can check: the sum of the terms as they are shown
    shown = shown_sum(example.exps)
    assert f"= {shown:.2f}$" in BY_ID["pad-zero-trap"].explanation and f"1 / {shown:.2f}" in \
        BY_ID["pad-zero-trap"].explanation
    assert f"the sum is {shown:.2f}" in mask_words.worked_example_text(example)
    terms = lessons.row_times_values(compute(Settings(causal=True, d_model=4)), 2)
    largest = terms.future_value_largest
    assert abs(largest) == terms.future_value_size and largest < 0  # the cell reads −1.21 on this row
    assert f"largest in size among them is {mask_words.signed(largest)}" in mask_words.values_caption(terms)


def test_item9_concat_question_states_its_own_sizes():
    prompt = BY_ID["heads-start-column"].prompt
    assert "In that concat" not in prompt
    assert "3 words, d_model = 4 and 2 heads" in prompt and "Counting columns from 1" in prompt
