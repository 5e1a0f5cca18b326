"""Check yourself through AppTest: every question answered wrong and then right, the feedback, the scores,
answers that survive reruns and page switches, the reset, section links and the inline helper."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from attn_core.query import LETTERS
from attn_ui.quiz.bank import QUESTIONS, SECTIONS, Question, feedback, in_section
from attn_ui.words.export import lab_query

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGE = "pages/8_Check_yourself.py"
TOTAL = len(QUESTIONS)


def open_quiz(**query: str) -> AppTest:
    """The app as a student reaches the page: the Lab first, then a switch (page links need the entry file)."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(PAGE).run()
    ok(at)
    return at


def ok(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]


def show(at: AppTest, section_id: str) -> None:
    at.segmented_control(key="quiz.pick").set_value(section_id).run()
    ok(at)


def wrong_answer(question: Question):
    if question.kind == "order":
        project, scale, mask, soft, out = question.answer
        return (project, scale, soft, mask, out)  # masking after the softmax
    return next(i for i in range(len(question.options)) if i != question.answer)


def answer(at: AppTest, question: Question, value) -> None:
    key = f"quiz.w.{question.id}"
    if question.kind == "order":
        while at.session_state["quiz.answers"].get(question.id):
            at.button(key=f"quiz.undo.{question.id}").click().run()
        for line in value:
            at.pills(key=key).set_value(line).run()
    else:
        at.radio(key=key).set_value(value).run()
    ok(at)


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def successes(at: AppTest) -> list[str]:
    return [s.value for s in at.success]


def markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def links(at: AppTest) -> dict[str, dict[str, list[str]]]:
    return {link.proto.label: parse_qs(link.proto.query_string) for link in at.get("page_link")}


def progress_text(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def expected_link(question: Question) -> dict[str, list[str]]:
    settings, _ = question.lab.settings()
    return parse_qs("&".join(f"{k}={v}" for k, v in lab_query(settings, **question.lab.view).items()))


# --- every question, wrong then right ------------------------------------------------------------------


@pytest.mark.parametrize("section", SECTIONS, ids=[s.id for s in SECTIONS])
def test_every_question_wrong_then_right(section):
    at = open_quiz()
    show(at, section.id)
    questions = in_section(section.id)
    for number, question in enumerate(questions, start=1):
        wrong = wrong_answer(question)
        answer(at, question, wrong)
        said = feedback(question, wrong)
        assert not said.correct
        assert said.verdict in errors(at), question.id
        assert said.more in markdown(at), question.id
        assert said.verdict.startswith("**Not quite.**")
        if question.kind == "order":
            assert question.right_text in [c.value for c in at.code]
        if question.lab is not None:
            assert links(at)[question.lab.label] == expected_link(question), question.id

        right = question.answer
        answer(at, question, right)
        assert f"**Right.** {question.explanation}" in successes(at), question.id
        assert said.verdict not in errors(at), "the wrong verdict must go once the answer is right"
        assert len(errors(at)) == 0 and len(successes(at)) == number
        assert "The score keeps your first answer, which was not right." in captions(at)

    count = len(questions)
    assert f"{section.blurb} · 0 of {count} right on the first try · {count} answered" in captions(at)
    assert progress_text(at) == f"{count} of {TOTAL} answered · 0 right on the first try"


def test_right_first_time_scores_every_point():
    at = open_quiz()
    show(at, "dropout")
    dropout = in_section("dropout")
    for question in dropout:
        answer(at, question, question.answer)
    assert errors(at) == []
    assert len(successes(at)) == len(dropout)
    assert not any(c.startswith("The score keeps") for c in captions(at))
    assert progress_text(at) == f"3 of {TOTAL} answered · 3 right on the first try"
    overall = next(c for c in captions(at) if c.startswith("Right on the first try:"))
    assert overall.endswith("Causal mask 0/8 · Padding 0/3 · Dropout 3/3 · Many heads 0/9 · Shapes 0/2 · Code 0/3 · "
                            "Train it yourself 0/5")


def test_the_score_counts_an_answer_in_the_run_that_records_it():
    at = open_quiz()
    question = in_section("causal")[0]
    answer(at, question, question.answer)
    assert progress_text(at) == f"1 of {TOTAL} answered · 1 right on the first try"


def test_code_is_shown_as_code():
    at = open_quiz(section="code")
    shown = [c.value for c in at.code]
    for question in in_section("code"):
        assert question.code in shown if question.code else True
        if question.kind == "code":
            assert all(option.text in shown for option in question.options)


# --- state: reruns, page switches, reset, links --------------------------------------------------------


def test_answers_survive_rerun_and_page_switch():
    at = open_quiz()
    why, shape = in_section("causal")[:2]
    answer(at, why, why.answer)
    answer(at, shape, wrong_answer(shape))
    at.run()
    ok(at)
    assert at.radio(key=f"quiz.w.{why.id}").value == why.answer
    assert at.radio(key=f"quiz.w.{shape.id}").value == wrong_answer(shape)

    order = in_section("code")[-1]
    show(at, "code")
    for line in order.answer[:2]:
        at.pills(key=f"quiz.w.{order.id}").set_value(line).run()

    at.switch_page("app.py").run()
    ok(at)
    assert f"quiz.w.{why.id}" not in at.session_state  # Streamlit dropped the widget: only our keys remain
    at.switch_page(PAGE).run()
    ok(at)

    assert at.segmented_control(key="quiz.pick").value == "code"
    partial = "\n".join(order.options[i].text for i in order.answer[:2])
    assert partial in [c.value for c in at.code]
    assert at.pills(key=f"quiz.w.{order.id}").label == "Tap the line that runs next"

    show(at, "causal")
    assert at.radio(key=f"quiz.w.{why.id}").value == why.answer
    assert at.radio(key=f"quiz.w.{shape.id}").value == wrong_answer(shape)
    assert f"**Right.** {why.explanation}" in successes(at)
    assert feedback(shape, wrong_answer(shape)).verdict in errors(at)
    assert progress_text(at) == f"2 of {TOTAL} answered · 1 right on the first try"


def test_reset_section_then_everything():
    at = open_quiz()
    causal, padding = in_section("causal"), in_section("padding")
    answer(at, causal[0], causal[0].answer)
    answer(at, causal[1], causal[1].answer)
    show(at, "padding")
    answer(at, padding[0], padding[0].answer)

    at.button(key="quiz.reset.section").click().run()
    ok(at)
    assert at.radio(key=f"quiz.w.{padding[0].id}").value is None
    assert successes(at) == []
    assert progress_text(at) == f"2 of {TOTAL} answered · 2 right on the first try"

    show(at, "causal")
    assert at.radio(key=f"quiz.w.{causal[0].id}").value == causal[0].answer
    at.button(key="quiz.reset.all").click().run()
    ok(at)
    assert at.radio(key=f"quiz.w.{causal[0].id}").value is None
    assert at.radio(key=f"quiz.w.{causal[1].id}").value is None
    assert at.session_state["quiz.answers"] == {} and at.session_state["quiz.first"] == {}
    assert progress_text(at) == f"0 of {TOTAL} answered · 0 right on the first try"

    answer(at, causal[0], wrong_answer(causal[0]))  # after a reset the first answer counts again
    assert progress_text(at) == f"1 of {TOTAL} answered · 0 right on the first try"


def test_section_link_opens_that_section():
    at = open_quiz(section="heads")
    assert at.segmented_control(key="quiz.pick").value == "heads"
    assert [h.value for h in at.subheader] == ["Many heads"]
    assert len(at.radio) == len(in_section("heads"))
    show(at, "shapes")
    assert at.query_params["section"] in ("shapes", ["shapes"])


def test_unknown_section_in_link_falls_back_quietly():
    at = open_quiz(section="<b>nope</b>")
    assert at.segmented_control(key="quiz.pick").value == SECTIONS[0].id


def test_undo_takes_back_the_last_line():
    at = open_quiz(section="code")
    order = in_section("code")[-1]
    for line in order.answer:
        at.pills(key=f"quiz.w.{order.id}").set_value(line).run()
    assert f"**Right.** {order.explanation}" in successes(at)
    at.button(key=f"quiz.undo.{order.id}").click().run()
    assert at.session_state["quiz.answers"][order.id] == order.answer[:-1]
    assert successes(at) == []
    assert progress_text(at) == f"0 of {TOTAL} answered · 1 right on the first try"


# --- the inline helper for lesson pages ----------------------------------------------------------------


def inline_script() -> None:
    from attn_ui.widgets.questions import inline_question

    inline_question("pad-broadcast")


def test_inline_question_shares_the_answers():
    at = AppTest.from_function(inline_script, default_timeout=30)
    at.run()
    ok(at)
    assert [r.key for r in at.radio] == ["quiz.w.pad-broadcast"]
    assert any(m.startswith("**Predict first.**") for m in markdown(at))
    at.radio(key="quiz.w.pad-broadcast").set_value(0).run()
    ok(at)
    question = next(q for q in QUESTIONS if q.id == "pad-broadcast")
    assert feedback(question, 0).verdict in errors(at)
    assert at.session_state["quiz.answers"] == {"pad-broadcast": 0}
    assert at.session_state["quiz.first"] == {"pad-broadcast": 0}


# --- the address: defaults left out, the arrival written in place, Start again honest about Back --------------


def written_in_place(at: AppTest) -> bool:
    """Did this run write the address in place (history.replaceState), not as a new entry?"""
    def keys(node):
        yield getattr(node, "key", None) or ""
        for child in getattr(node, "children", {}).values():
            yield from keys(child)
    return any(key.startswith("attn-replace-") for key in keys(at.main))


def test_the_first_section_is_left_out_of_the_address():
    at = open_quiz()
    assert dict(at.query_params) == {} and not written_in_place(at), "a bare link: nothing to write, no entry"
    show(at, "padding")
    assert dict(at.query_params) == {"section": "padding"} and not written_in_place(at)
    show(at, "causal")
    assert dict(at.query_params) == {}


def test_a_link_to_the_first_section_is_tidied_in_place():
    at = open_quiz(section="causal")
    assert at.segmented_control(key="quiz.pick").value == "causal"
    assert dict(at.query_params) == {} and written_in_place(at), "the link's default key goes, with no new entry"


def test_a_bare_link_keeps_the_sessions_answers_and_writes_them_in_place():
    at = open_quiz()
    question = in_section("causal")[0]
    answer(at, question, question.answer)
    at.switch_page("app.py").run()
    at.query_params.clear()
    at.switch_page(PAGE).run()
    ok(at)
    assert progress_text(at) == f"1 of {TOTAL} answered · 1 right on the first try"
    assert at.query_params["answers"] == LETTERS[question.answer] and written_in_place(at)


def test_start_again_clears_the_saved_progress_too_and_its_undo_brings_every_answer_back():
    at = open_quiz()
    said = " ".join(m.value for m in at.markdown)
    assert "cannot be undone" not in said and "this browser's saved progress" in said
    first, second = in_section("causal")[:2]
    answer(at, first, first.answer)
    answer(at, second, wrong_answer(second))
    answer(at, second, second.answer)  # the score keeps the first answer, which was wrong
    assert progress_text(at) == f"2 of {TOTAL} answered · 1 right on the first try"
    assert "quiz.reset.undo" not in [button.key for button in at.button], "nothing cleared yet: nothing to undo"
    at.button(key="quiz.reset.all").click().run()
    ok(at)
    assert progress_text(at) == f"0 of {TOTAL} answered · 0 right on the first try"
    at.button(key="quiz.reset.undo").click().run()
    ok(at)
    assert progress_text(at) == f"2 of {TOTAL} answered · 1 right on the first try", "first answers come back too"
    assert at.radio(key=f"quiz.w.{second.id}").value == second.answer
    assert "quiz.reset.undo" not in [button.key for button in at.button], "one undo, of the last clear"
