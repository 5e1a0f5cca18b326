"""Ask before telling: on each lesson page, nothing drawn above a predict-first question states its answer.

For every question a lesson asks inline, its answer's key facts are declared below (the words or numbers that
would give it away). The page is run in AppTest with nothing answered, its elements are walked in the order the
page draws them, and every text, table and chart before the question (a folded answer, an expander, is not
read: it is closed until the question is answered) must hold none of them. Some questions also forbid any
chart above them, when a chart alone shows the answer (page 2's map shows row 1's one open cell).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from streamlit.testing.v1 import AppTest

from attn_ui.quiz.bank import BY_ID
from tests.apptest_helpers import APP, checked


@dataclass(frozen=True)
class Asked:
    page: str
    question: str
    facts: tuple[str, ...]  # what would give the answer away, matched without regard to case
    no_chart_before: bool = False


ASKED = (
    Asked("pages/1_Peeking_and_the_causal_mask.py", "pad-zero-trap",
          ("29%", "0.29", "3.46", "still gets weight", "weight e⁰", "e⁰ = 1 out of")),
    Asked("pages/2_Padding_mask.py", "pad-one-open-cell",
          ("only at word 1", "only at itself", "one open cell", "row 1 may", "row 1 always"), no_chart_before=True),
    Asked("pages/3_Dropout.py", "dropout-rescale", ("on average", "sums to about 1", "mean row sum", "mean of")),
    Asked("pages/4_Many_heads.py", "heads-start-column",
          ("column 3", "columns 3", "begin at", "(n − 1)", "fills columns")),
    Asked("pages/5_Shapes_and_memory.py", "shapes-double-context",
          ("B·h·T·T", "T·T", "T²", "T, T)", "four times", "4 times", "square")),
)


def _texts(node) -> list[str]:
    """The text of one element as the student reads it (a chart: its titles, labels and cell text)."""
    if node.type == "plotly_chart":
        return [json.dumps(json.loads(node.proto.spec)["data"] + [json.loads(node.proto.spec)["layout"]],
                           ensure_ascii=False)]
    found = []
    for attribute in ("value", "label", "body", "help"):
        try:
            value = getattr(node, attribute)
        except Exception:  # noqa: BLE001 -- an element without that field
            continue
        if isinstance(value, str):
            found.append(value)
        elif hasattr(value, "to_string"):
            found.append(value.to_string())
    return found


def before_question(at: AppTest, question_id: str) -> tuple[list[str], int]:
    """Every text drawn before the question's radio (closed expanders skipped), and how many charts."""
    key = f"quiz.w.{question_id}"
    texts: list[str] = []
    charts = 0

    def walk(node) -> bool:  # True once the question is reached
        nonlocal charts
        if getattr(node, "key", None) == key or getattr(getattr(node, "proto", None), "id", "").endswith(key):
            return True
        if node.type == "expandable":
            return False  # a folded answer: closed until the question is answered
        if node.type == "plotly_chart":
            charts += 1
        texts.extend(_texts(node))
        return any(walk(child) for child in getattr(node, "children", {}).values())

    assert walk(at.main), f"{question_id} was not drawn"
    return texts, charts


@pytest.mark.parametrize("asked", ASKED, ids=[a.question for a in ASKED])
def test_nothing_above_a_question_gives_its_answer(asked):
    assert asked.question in BY_ID
    at = AppTest.from_file(APP, default_timeout=60).run()
    at = checked(at.switch_page(asked.page).run())
    texts, charts = before_question(at, asked.question)
    above = "\n".join(text.replace(BY_ID[asked.question].prompt, "") for text in texts).lower()  # not the question
    assert len(above) > 200, "the page says something before its question"
    told = [fact for fact in asked.facts if fact.lower() in above]
    assert not told, f"{asked.page} tells {told} before asking {asked.question}"
    if asked.no_chart_before:
        assert charts == 0, f"{asked.page} draws {charts} chart(s) before asking {asked.question}"


@pytest.mark.parametrize("asked", ASKED, ids=[a.question for a in ASKED])
def test_the_facts_are_the_answers_facts(asked):
    """Each declared fact is real: the page (answer fold and all) or the question's own explanation says it."""
    question = BY_ID[asked.question]
    at = AppTest.from_file(APP, default_timeout=60).run()
    at = checked(at.switch_page(asked.page).run())
    at.radio(key=f"quiz.w.{asked.question}").set_value(question.answer).run()
    everything = "\n".join(_all_texts(at.main)).lower() + question.explanation.lower()
    assert any(fact.lower() in everything for fact in asked.facts), asked


def _all_texts(node) -> list[str]:
    return _texts(node) + [t for child in getattr(node, "children", {}).values() for t in _all_texts(child)]
