"""No question gives its answer away by length: the right option is never much longer than the wrong ones.

A review found right options that were the longest by far and carried their own reason, so a student could pick
them without knowing the answer. The rule, in characters of the English text: the right option is at most 1.2 times
the longest wrong option. A question that cannot meet it is rewritten (a shorter right option, the reason moved to
the explanation; or wrong options with reasons of their own), never excused here.
"""

from __future__ import annotations

import pytest

from attn_ui.quiz.bank import QUESTIONS, Option, Question

MAX_RATIO = 1.2  # the right option's length over the longest wrong option's
PICKED = [q for q in QUESTIONS if isinstance(q.answer, int)]  # one right option: choice and code questions


def length_ratio(question: Question) -> float:
    """The right option's length over the longest wrong option's, in characters."""
    right = len(question.options[question.answer].text)
    longest_wrong = max(len(option.text) for index, option in enumerate(question.options) if index != question.answer)
    return right / longest_wrong


def test_only_the_ordering_question_has_no_single_right_option():
    """An order is a permutation of the same lines, so length tells nothing; every other question is checked."""
    assert {q.kind for q in QUESTIONS if q not in PICKED} == {"order"}
    assert len(PICKED) == len(QUESTIONS) - 1


@pytest.mark.parametrize("question", PICKED, ids=[q.id for q in PICKED])
def test_right_option_is_not_much_longer_than_the_wrong_ones(question: Question):
    texts = [option.text for option in question.options]
    assert length_ratio(question) <= MAX_RATIO, (
        f"{question.id}: the right option ({len(texts[question.answer])} characters) is more than {MAX_RATIO} times "
        f"the longest wrong one; lengths {[len(t) for t in texts]}, right is {question.answer}")


def test_the_rule_catches_a_right_option_that_stands_out():
    """The review's own case: a short wrong option beside a right one that carries its reason."""
    wrong = Option("The softmax shrinks those values towards 0.", "The softmax acts on the scores.")
    right = Option("Their weights are exactly 0, so they add 0 × v = 0 to each earlier word’s output.")
    question = Question(id="x", section="causal", prompt="Why?", options=(wrong, right), answer=1, explanation=".")
    assert length_ratio(question) == pytest.approx(81 / 43)
    assert length_ratio(question) > MAX_RATIO
