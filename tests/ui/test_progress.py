"""The progress kept in the browser (attn_ui/widgets/progress.py): what is read back from storage, how saved answers
meet a session's (a shared link's answers never replace the saved ones unasked), and which page asks what. The whole
journey in a real browser (answers on five pages, reloads, a browser closed and opened again) is
tests/browser/test_progress_browser.py."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attn_ui.quiz.bank import BY_ID, QUESTIONS
from attn_ui.quiz.pages import PAGE_QUESTIONS
from attn_ui.widgets.progress import MAX_SAVED_CHARS, read_saved

ROOT = Path(__file__).resolve().parents[2]


def saved(answers) -> str:
    return json.dumps({"v": 1, "answers": answers})


@pytest.mark.parametrize("raw", [
    None, 3, "", "not json", "[]", "null", json.dumps({"v": 2, "answers": {"causal-why": "a"}}),
    json.dumps({"answers": {"causal-why": "a"}}), json.dumps({"v": 1, "answers": ["a"]}),
    saved({"causal-why": "a"}) + " " * MAX_SAVED_CHARS,
])
def test_storage_that_is_not_ours_reads_as_nothing_saved(raw):
    assert read_saved(raw) == {}


def test_only_string_items_are_read_and_unknown_ids_are_left_to_the_merge():
    assert read_saved(saved({"causal-why": "a", "x": 3, "nope": "b", "<script>": "c"})) == {
        "causal-why": "a", "nope": "b", "<script>": "c"}


def merged_session(saved_items: dict[str, str], held: dict[str, int]):
    """A session that holds `held` (id -> option, as a link's answers arrive) meets `saved_items`."""

    def script(saved_items, held):
        import streamlit as st

        from attn_ui.quiz.bank import BY_ID
        from attn_ui.widgets import questions

        if "merged" not in st.session_state:
            for question_id, option in held.items():
                questions.record(BY_ID[question_id], option)
            st.session_state["merged"] = questions.merge_saved(saved_items)
        st.session_state["items"] = questions.saved_items()

    at = AppTest.from_function(script, kwargs={"saved_items": saved_items, "held": held})
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_saved_answers_fill_an_untouched_session_and_garbled_items_are_skipped():
    first, second = QUESTIONS[0], QUESTIONS[1]
    at = merged_session({first.id: "a~b", second.id: "zz", "no-such-question": "a", QUESTIONS[2].id: "-"}, {})
    assert at.session_state["merged"] == {}
    assert at.session_state["items"] == {first.id: "a~b", QUESTIONS[2].id: "-"}
    assert at.session_state["quiz.first"] == {first.id: 0} and at.session_state["quiz.answers"] == {first.id: 1}
    assert at.session_state[f"quiz.w.{first.id}"] == 1, "the widget shows the saved answer"
    assert at.session_state["quiz.skipped"] == {QUESTIONS[2].id: True}


def test_a_links_answer_never_replaces_a_saved_one_and_is_offered_instead():
    question = QUESTIONS[0]
    at = merged_session({question.id: "a"}, {question.id: 2, QUESTIONS[1].id: 1})
    assert at.session_state["quiz.answers"][question.id] == 0, "the saved answer stays"
    assert at.session_state["merged"] == {question.id: (2, 2, False)}, "the link's is offered"
    assert at.session_state["quiz.answers"][QUESTIONS[1].id] == 1, "an answer the browser has not saved is kept"


def declared_questions(path: Path) -> tuple[str, ...]:
    """The ids a page's address declares (`questions=(...)`), its module-level string names read as their values."""
    tree = ast.parse(path.read_text())
    names = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
             and isinstance(node.value, ast.Constant) for target in node.targets if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        for keyword in getattr(node, "keywords", ()):
            if keyword.arg == "questions" and isinstance(keyword.value, ast.Tuple):
                return tuple(item.value if isinstance(item, ast.Constant) else names[item.id]
                             for item in keyword.value.elts)
    return ()


def test_the_table_of_page_questions_is_what_each_page_asks():
    for script, asked in PAGE_QUESTIONS.items():
        assert (ROOT / script).is_file(), script
        assert all(question_id in BY_ID for question_id in asked), script
    for number in range(1, 6):
        script = next(path for path in PAGE_QUESTIONS if path.startswith(f"pages/{number}_"))
        assert declared_questions(ROOT / script) == PAGE_QUESTIONS[script], script
    from attn_ui.views.train_view import QUESTIONS as TRAIN_QUESTIONS

    assert tuple(q.id for q in TRAIN_QUESTIONS) == PAGE_QUESTIONS["pages/7_Train_it_yourself.py"]
    assert PAGE_QUESTIONS["pages/8_Check_yourself.py"] == tuple(q.id for q in QUESTIONS)


def test_taking_a_links_answer_changes_what_is_shown_never_the_first_answer_the_score_counts():
    question = QUESTIONS[0]
    wrong = (question.answer + 1) % len(question.options)

    def script(question_id, wrong, right):
        import streamlit as st

        from attn_ui.quiz.bank import BY_ID
        from attn_ui.widgets import questions

        if "done" not in st.session_state:
            questions.record(BY_ID[question_id], right)  # a link's answer, right
            offered = questions.merge_saved({question_id: "abcd"[wrong]})  # the student's saved first try, wrong
            questions.take_offered(offered)
            st.session_state["done"] = True

    at = AppTest.from_function(script, kwargs={"question_id": question.id, "wrong": wrong, "right": question.answer})
    at.run()
    assert not at.exception
    assert at.session_state["quiz.answers"][question.id] == question.answer, "the link's answer is shown"
    assert at.session_state["quiz.first"][question.id] == wrong, "the saved first try still counts"
