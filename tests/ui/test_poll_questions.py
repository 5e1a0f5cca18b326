"""Every Check yourself question can be polled: one option right, every wrong option explained."""

from __future__ import annotations

import pytest

from attn_ui.quiz.bank import BY_ID, QUESTIONS
from attn_ui.quiz.poll_questions import POLL_BY_ID, POLL_QUESTIONS


def test_every_bank_question_is_a_poll_question():
    assert [q.id for q in POLL_QUESTIONS] == [q.id for q in QUESTIONS]


@pytest.mark.parametrize("question", POLL_QUESTIONS, ids=lambda q: q.id)
def test_one_right_option_and_a_why_for_every_wrong_one(question):
    assert 2 <= question.option_count == len(question.whys)
    assert 0 <= question.answer < question.option_count and question.whys[question.answer] == ""
    assert all(why for index, why in enumerate(question.whys) if index != question.answer)
    assert not question.versions or len(question.versions) == question.option_count


def test_the_ordering_question_becomes_a_choice_of_programs():
    polled, original = POLL_BY_ID["code-order"], BY_ID["code-order"]
    assert polled.versions[polled.answer] == original.right_text
    assert len(set(polled.versions)) == polled.option_count, "every program differs"
    assert polled.answer != 0, "the right program is not always A"
    for version in polled.versions:
        assert sorted(version.splitlines()) == sorted(option.text for option in original.options)
