"""Ask before telling: on each lesson page, nothing drawn above a predict-first question, or right below it, states
its answer; and no lesson states the answer to a question a later lesson asks. In English and in Spanish: each
question declares its giveaways in both (`facts`, `facts_es`), and every test runs the pages in each language.

For every question a lesson asks inline, its answer's key facts are declared below (the words or numbers that
would give it away). The page is run in AppTest with nothing answered, its elements are walked in the order the
page draws them, and every text, table and chart before the question must hold none of them; so must everything
from the question to the end of its answer fold, which (closed) holds only the request to predict and the skip: an
expander's content is in the page even while it is closed. Some questions also forbid any chart above them, when a
chart alone shows the answer (page 2's map shows row 1's one open cell: it is drawn after the question, as the page
to explore once the prediction is made, and has no fold).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from streamlit.testing.v1 import AppTest

from attn_lang import _, using
from attn_ui.quiz.bank import BY_ID
from tests.apptest_helpers import APP, checked


@dataclass(frozen=True)
class Asked:
    page: str
    question: str
    facts: tuple[str, ...]  # what would give the answer away, matched without regard to case
    no_chart_before: bool = False
    folded: bool = True  # what answers it waits in an answer fold right under the question
    notation: tuple[str, ...] = ()  # symbols that give it away above the question on its own page: below it they
    # are what the student reads once the prediction is made, and an earlier lesson teaches them as its own matter
    facts_es: tuple[str, ...] = ()  # the same giveaways as the Spanish catalog words them

    def giveaways(self, lang: str) -> tuple[str, ...]:
        return self.facts_es if lang == "es" else self.facts


ASKED = (
    Asked("pages/1_Peeking_and_the_causal_mask.py", "pad-zero-trap",
          ("29%", "0.29", "3.46", "still gets weight", "weight e⁰", "e⁰ = 1 out of", "but hands"),
          facts_es=("29 %", "29%", "0,29", "3,46", "sigue recibiendo peso", "peso e⁰", "pero entrega")),
    Asked("pages/2_Padding_mask.py", "pad-one-open-cell",
          ("only at word 1", "only at itself", "one open cell", "row 1 may", "row 1 always"), no_chart_before=True,
          folded=False, facts_es=("solo puede mirarse a sí misma", "una única celda abierta", "la fila 1 solo",
                                  "la fila 1 siempre", "solo en la palabra 1")),
    Asked("pages/3_Dropout.py", "dropout-rescale", ("on average", "sums to about 1", "mean row sum over", "mean of"),
          facts_es=("en promedio", "alrededor de 1", "la suma media de las filas es", "con el reescalado y",
                    "media de %{x}")),
    Asked("pages/4_Many_heads.py", "heads-start-column",
          ("column 3", "columns 3", "begin at", "(n − 1)", "fills columns", "concat columns", "→ columns"),
          facts_es=("columna 3", "columnas 3", "empiezan en", "empieza en", "(n − 1)", "ocupa las columnas",
                    "columnas de concat", "→ columnas")),
    Asked("pages/5_Shapes_and_memory.py", "shapes-double-context",
          ("four times", "4 times", "square law", "T appears twice", "factor of 4"),
          notation=("B·h·T·T", "T·T", "T²", "T, T)"),  # lesson 4 counts h·T² scores; lesson 5's shape path shows them
          facts_es=("cuatro veces", "4 veces", "ley del cuadrado", "T aparece dos veces", "factor 4")),
    Asked("pages/7_Train_it_yourself.py", "train-mask-off-zero",
          ("close to zero", "near zero", "falls to zero", "looks wonderful", "goes below the true entropy"),
          facts_es=("casi cero", "hasta cero", "cerca de cero", "por debajo de la entropía")),
)
LESSONS = ("pages/1_Peeking_and_the_causal_mask.py", "pages/2_Padding_mask.py", "pages/3_Dropout.py",
           "pages/4_Many_heads.py", "pages/5_Shapes_and_memory.py", "pages/6_One_row_by_hand.py",
           "pages/7_Train_it_yourself.py")  # in reading order


def _texts(node) -> list[str]:
    """The text of one element as the student reads it (a chart: its titles, labels and cell text)."""
    if node.type == "html":
        return []  # the app's own scripts and styles: nothing a student reads
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


def drawn(at: AppTest) -> list[tuple[object, str]]:
    """Every element of the page in the order it is drawn (depth first), with its key ('' for none)."""
    found = []

    def walk(node) -> None:
        found.append((node, getattr(node, "key", None) or getattr(getattr(node, "proto", None), "id", "") or ""))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return found


def _is_question(key: str, question_id: str) -> bool:
    return key == f"quiz.w.{question_id}" or key.endswith(f"quiz.w.{question_id}")


def before_question(at: AppTest, question_id: str) -> tuple[list[str], int]:
    """Every text drawn before the question's radio, and how many charts."""
    elements = drawn(at)
    ends = [i for i, (__, key) in enumerate(elements) if _is_question(key, question_id)]
    assert ends, f"{question_id} was not drawn"
    above = [node for node, __ in elements[: ends[0]]]
    return [t for node in above for t in _texts(node)], sum(node.type == "plotly_chart" for node in above)


def right_below_question(at: AppTest, question_id: str) -> list[str]:
    """Every text from the question to the end of its answer fold (the fold with the question's skip button)."""
    elements = drawn(at)
    start = next(i for i, (__, key) in enumerate(elements) if _is_question(key, question_id))
    skip = next(i for i, (node, key) in enumerate(elements) if key == f"quiz.skip.{question_id}")
    fold_end = skip + 1
    while fold_end < len(elements) and elements[fold_end][0].type != "expander" \
            and _inside_fold(elements, skip, fold_end):
        fold_end += 1
    return [t for node, __ in elements[start + 1: fold_end] for t in _texts(node)]


def _inside_fold(elements, skip: int, index: int) -> bool:
    """Is element `index` still inside the expander that holds the skip button at `skip`?"""
    fold = next(node for node, __ in reversed(elements[:skip]) if node.type == "expander")
    node = elements[index][0]
    return any(child is node for child in _descendants(fold))


def _descendants(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _descendants(child)


def told(texts: list[str], asked: Asked, above: bool = False, lang: str = "en") -> list[str]:
    with using(lang):
        prompt = _(BY_ID[asked.question].prompt)
    said = "\n".join(text.replace(prompt, "") for text in texts).lower()  # not the question
    return [fact for fact in asked.giveaways(lang) + (asked.notation if above else ()) if fact.lower() in said]


def unanswered(page: str, lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if lang != "en":
        at.query_params["lang"] = lang
    at.run()
    return checked(at.switch_page(page).run())


LANGS = pytest.mark.parametrize("lang", ["en", "es"])


@LANGS
@pytest.mark.parametrize("asked", ASKED, ids=[a.question for a in ASKED])
def test_nothing_above_a_question_gives_its_answer(asked, lang):
    assert asked.question in BY_ID
    at = unanswered(asked.page, lang)
    texts, charts = before_question(at, asked.question)
    assert len("\n".join(texts)) > 200, "the page says something before its question"
    assert not told(texts, asked, above=True, lang=lang), \
        f"{asked.page} tells {told(texts, asked, above=True, lang=lang)} before asking {asked.question}"
    if asked.no_chart_before:
        assert charts == 0, f"{asked.page} draws {charts} chart(s) before asking {asked.question}"


@pytest.mark.parametrize("asked", [a for a in ASKED if a.folded], ids=[a.question for a in ASKED if a.folded])
@LANGS
def test_right_below_a_question_its_closed_fold_asks_for_the_prediction_and_tells_nothing(asked, lang):
    at = unanswered(asked.page, lang)
    below = right_below_question(at, asked.question)
    with using(lang):
        skip = _("Show it without answering")
    assert skip in below, "the fold right under the question offers the skip"
    assert not told(below, asked, lang=lang), \
        f"{asked.page} tells {told(below, asked, lang=lang)} right below {asked.question}"


@pytest.mark.parametrize("asked", [a for a in ASKED if a.page != LESSONS[0]],
                         ids=[a.question for a in ASKED if a.page != LESSONS[0]])
@LANGS
def test_no_earlier_lesson_gives_a_later_lessons_answer(asked, lang):
    """Lesson 1 told what the unmasked model's training loss does, which lesson 7 then asked: a student reading in
    order met the answer first. Every lesson before the asking one is read whole, nothing answered."""
    for page in LESSONS[: LESSONS.index(asked.page)]:
        texts = [t for node, __ in drawn(unanswered(page, lang)) for t in _texts(node)]
        assert not told(texts, asked, lang=lang), \
            f"{page} tells {told(texts, asked, lang=lang)}, which {asked.page} asks later"


@LANGS
@pytest.mark.parametrize("asked", ASKED, ids=[a.question for a in ASKED])
def test_the_facts_are_the_answers_facts(asked, lang):
    """Each declared fact is real: the page (answer fold and all) or the question's own explanation says it."""
    question = BY_ID[asked.question]
    at = unanswered(asked.page, lang)
    with using(lang):  # (the radio's options are formatted in the page's language when AppTest matches them)
        explanation = _(question.explanation)
        at.radio(key=f"quiz.w.{asked.question}").set_value(question.answer).run()
    everything = "\n".join(_all_texts(at.main)).lower() + explanation.lower()
    assert any(fact.lower() in everything for fact in asked.giveaways(lang)), asked


def _all_texts(node) -> list[str]:
    return _texts(node) + [t for child in getattr(node, "children", {}).values() for t in _all_texts(child)]
