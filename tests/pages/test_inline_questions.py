"""Lesson pages ask a predict-first question from the bank; answering it there counts on Check yourself. The answer
(or a skip) is kept in the page's address, so a reload, which starts a new session, keeps it; and the part of the
page that answers the question holds nothing of the answer until the question is answered or skipped on purpose."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attn_core.query import LETTERS
from attn_ui.quiz.bank import BY_ID, QUESTIONS
from tests.apptest_helpers import checked

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
QUIZ = "pages/8_Check_yourself.py"
TOTAL = len(QUESTIONS)
INLINE = [
    ("pages/1_Peeking_and_the_causal_mask.py", "pad-zero-trap"),
    ("pages/2_Padding_mask.py", "pad-one-open-cell"),
    ("pages/3_Dropout.py", "dropout-rescale"),
    ("pages/4_Many_heads.py", "heads-start-column"),
    ("pages/5_Shapes_and_memory.py", "shapes-double-context"),
    ("pages/7_Train_it_yourself.py", "train-mask-off-zero"),  # the first experiment's, at its preset
]
TRAIN = "pages/7_Train_it_yourself.py"
FOLDED = [(page, question) for page, question in INLINE if page != TRAIN]  # page 7: Train waits for the prediction


def open_page(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    for key, value in query.items():
        at.query_params[key] = value
    return checked(at.switch_page(page).run())


def progress(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def replaced(at: AppTest) -> bool:
    """Did this run write the address in place (the marker whose script calls history.replaceState)?"""
    def keys(node):
        yield getattr(node, "key", None) or ""
        for child in getattr(node, "children", {}).values():
            yield from keys(child)
    return any(key.startswith("attn-replace-") for key in keys(at.main))


@pytest.mark.parametrize(("page", "question_id"), INLINE)
def test_lesson_page_asks_its_question_and_the_answer_reaches_check_yourself(page, question_id):
    at = open_page(page)
    radio = at.radio(key=f"quiz.w.{question_id}")
    assert radio.value is None  # nothing picked before the student predicts
    right = BY_ID[question_id].answer
    radio.set_value(right).run()
    assert any(text.startswith("**Right.**") for text in (s.value for s in at.success)), [s.value for s in at.success]
    at.switch_page(QUIZ).run()
    assert not at.exception
    assert at.session_state["quiz.answers"][question_id] is not None


@pytest.mark.parametrize(("page", "question_id"), INLINE)
def test_the_answer_is_in_the_pages_address_and_a_new_session_with_it_counts_on_check_yourself(page, question_id):
    question = BY_ID[question_id]
    wrong = next(i for i in range(len(question.options)) if i != question.answer)
    at = open_page(page)
    checked(at.radio(key=f"quiz.w.{question_id}").set_value(wrong).run())
    checked(at.radio(key=f"quiz.w.{question_id}").set_value(question.answer).run())
    item = f"{LETTERS[wrong]}~{LETTERS[question.answer]}"  # the first answer (scored), then the one on screen
    assert at.query_params["answer"] == item
    assert replaced(at), "an answer replaces the page's entry: one Back after answering leaves the page"

    reloaded = open_page(page, answer=item)  # a reload: a new session, and only the address
    assert reloaded.radio(key=f"quiz.w.{question_id}").value == question.answer
    assert "The score keeps your first answer, which was not right." in [c.value for c in reloaded.caption]
    checked(reloaded.switch_page(QUIZ).run())  # the sidebar's bare link keeps the session's answers
    assert progress(reloaded) == f"1 of {TOTAL} answered · 0 right on the first try"
    assert reloaded.query_params["answers"].endswith(item)


@pytest.mark.parametrize(("page", "question_id"), FOLDED)
def test_a_closed_fold_holds_nothing_of_the_answer_until_a_skip_on_purpose(page, question_id):
    at = open_page(page)
    (fold,) = [box for box in at.expander if box.label.endswith("(answer the question above first)")]
    assert fold.proto.expanded is False
    assert [button.key for button in fold.button] == [f"quiz.skip.{question_id}"]
    assert not fold.get("plotly_chart") and not fold.metric and not fold.dataframe, "only the ask and the skip"
    charts_before = len(at.get("plotly_chart"))

    checked(at.button(key=f"quiz.skip.{question_id}").click().run())
    title = fold.label.removesuffix(" (answer the question above first)")
    (opened,) = [box for box in at.expander if box.label == title]
    assert opened.proto.expanded is True and (opened.markdown or opened.get("plotly_chart"))
    assert len(at.get("plotly_chart")) >= charts_before
    assert at.radio(key=f"quiz.w.{question_id}").value is None
    said = [c.value for c in at.caption]
    assert "You skipped this prediction to see the answer: it counts as unanswered until you pick." in said
    assert at.query_params["answer"].strip(".") == "-"

    checked(at.switch_page(QUIZ).run())
    assert progress(at) == f"0 of {TOTAL} answered · 0 right on the first try", "a skip counts as unanswered"
    assert at.query_params["answers"].endswith("-")


def test_train_waits_for_the_prediction_until_a_skip_on_purpose():
    at = open_page(TRAIN)
    assert at.button(key="train.go").disabled is True and not at.expander and not at.get("plotly_chart")
    checked(at.button(key="quiz.skip.train-mask-off-zero").click().run())
    assert at.button(key="train.go").disabled is False and at.get("plotly_chart"), "the run, and Train, open"
    assert at.radio(key="quiz.w.train-mask-off-zero").value is None
    said = [c.value for c in at.caption]
    assert "You skipped this prediction to see the answer: it counts as unanswered until you pick." in said
    assert at.query_params["answer"].strip(".") == "-"
    checked(at.switch_page(QUIZ).run())
    assert progress(at) == f"0 of {TOTAL} answered · 0 right on the first try", "a skip counts as unanswered"


def test_an_answer_after_a_skip_counts_as_answered_but_never_as_right_first_time():
    at = open_page("pages/3_Dropout.py")
    checked(at.button(key="quiz.skip.dropout-rescale").click().run())
    question = BY_ID["dropout-rescale"]
    checked(at.radio(key="quiz.w.dropout-rescale").set_value(question.answer).run())
    assert at.query_params["answer"] == f"-~{LETTERS[question.answer]}"
    assert ("You looked at the answer before predicting, so this question does not count as right on the first "
            "try.") in [c.value for c in at.caption]
    checked(at.switch_page(QUIZ).run())
    assert progress(at) == f"1 of {TOTAL} answered · 0 right on the first try"

    reloaded = open_page("pages/3_Dropout.py", answer=f"-~{LETTERS[question.answer]}")  # the skip survives a reload
    assert "dropout-rescale" in reloaded.session_state["quiz.skipped"]
    assert "dropout-rescale" not in reloaded.session_state["quiz.first"]


def test_a_page_that_writes_what_its_link_did_not_carry_replaces_its_entry():
    """Answered on Check yourself, then the lesson from the sidebar (a bare link): the page writes its answer into
    the address in place, so one Back leaves it. A change made on the page then writes a new entry."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    checked(at.switch_page(QUIZ).run())
    question = BY_ID["pad-one-open-cell"]
    at.segmented_control(key="quiz.pick").set_value("padding").run()
    checked(at.radio(key=f"quiz.w.{question.id}").set_value(question.answer).run())
    at.query_params.clear()  # the sidebar's link carries no keys
    checked(at.switch_page("pages/2_Padding_mask.py").run())
    assert at.query_params["answer"] == LETTERS[question.answer] and replaced(at)
    checked(at.toggle(key="pad.causal").set_value(False).run())
    assert at.query_params["causal"] == "0" and at.query_params["answer"] == "a" and not replaced(at)


def test_a_link_with_nothing_to_fix_writes_nothing():
    at = open_page("pages/3_Dropout.py")
    assert dict(at.query_params) == {} and not replaced(at)


def test_a_forged_answer_is_refused_with_a_note_and_the_question_starts_unanswered():
    at = open_page("pages/4_Many_heads.py", answer="zz~q")
    assert any("`answer` could not be read for question 1" in info.value for info in at.info)
    assert at.radio(key="quiz.w.heads-start-column").value is None and "answer" not in at.query_params
    assert replaced(at), "the link's bad key is dropped in place"


def test_projector_mode_switched_off_on_a_lesson_stays_off_in_its_address():
    at = open_page("pages/2_Padding_mask.py", mode="projector")
    assert at.query_params["mode"] == "projector"
    checked(at.toggle(key="page.projector").set_value(False).run())
    checked(at.toggle(key="pad.causal").set_value(False).run())
    assert "mode" not in at.query_params and at.query_params["causal"] == "0"
