"""The question bank answers what the core computes: every answer is derived again from attn_core.

Questions with a `check` recompute their right option with the core. The three code questions cannot be
computed that way, so this file runs their fixed snippets (never anything a student types: the app itself
executes no code) and compares the result with the core's masked attention.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

from attn_core import Settings, compute, maths
from attn_ui import quiz
from attn_ui.quiz import bank
from attn_ui.quiz.bank import BY_ID, QUESTIONS, SECTIONS, Question, feedback, order_problems, tally
from tests.source_tree import app_files

CODE_QUESTIONS = {"code-causal-mask", "code-masked-head", "code-order"}
CHECKED = [q for q in QUESTIONS if q.check is not None]
CHOICES = [q for q in QUESTIONS if q.kind != "order"]
REPO = Path(__file__).resolve().parents[2]


def ids(questions: list[Question]) -> list[str]:
    return [q.id for q in questions]


# --- every answer against the core --------------------------------------------------------------------


def test_every_question_is_checked_by_the_core_or_by_running_its_code():
    assert {q.id for q in QUESTIONS if q.check is None} == CODE_QUESTIONS


@pytest.mark.parametrize("question", CHECKED, ids=ids(CHECKED))
def test_answer_is_what_the_core_computes(question: Question):
    assert question.check() == question.answer


# The facts the issue names, each pinned to the text of the right option, so a reworded option that no
# longer says the computed fact fails here.
FACTS = {
    "pad-zero-trap": "about 29%",
    "causal-shape": "(6, 6)",
    "causal-open-cells": "10",
    "causal-masked-count": "15",
    "pad-broadcast": "(2, 5, 5)",
    "pad-empty-columns": "Columns 5 and 6 (one, step)",
    "pad-one-open-cell": "Row 1 (the first word)",
    "causal-same-row": "Row 6 (step)",
    "heads-concat-shape": "(3, 4)",
    "heads-start-column": "Column 3",
    "heads-d-head-512": "64",
    "heads-gpt2": "64",
    "heads-lab-d-head": "3",
    "dropout-factor": "× 1.11 (about)",
    "shapes-score-tensor": "(B, h, T, T)",
    "shapes-double-context": "It grows 4 times",
}


@pytest.mark.parametrize("question_id, text", FACTS.items())
def test_named_facts(question_id: str, text: str):
    question = BY_ID[question_id]
    assert question.right_text == text
    assert question.check() == question.answer


def test_the_29_percent_by_hand():
    exps = np.exp([0.34, 0.05, 0.0])  # the blocked score set to 0 enters the softmax as e^0 = 1
    share = exps[2] / exps.sum()
    assert round(100 * share) == 29
    weights = maths.apply_route(np.array([0.34, 0.05, 3.0]), np.array([False, False, True]), "zero_score")
    assert weights[2] == pytest.approx(share)
    assert maths.apply_route(np.array([0.34, 0.05, 3.0]), np.array([False, False, True]), "neg_inf")[2] == 0


def test_shape_facts_by_hand():
    assert maths.causal_mask(6).shape == (6, 6)
    assert int((~maths.causal_mask(4)).sum()) == 10
    assert int(maths.causal_mask(6).sum()) == 15 == 6 * 5 // 2
    assert np.broadcast_shapes((2, 1, 5), (2, 5, 5)) == (2, 5, 5)
    assert maths.split_heads(np.zeros((3, 512)), 8).shape == (8, 3, 64)
    assert maths.split_heads(np.zeros((3, 768)), 12).shape == (12, 3, 64)
    per_head = np.stack([np.full((3, 2), 0.0), np.full((3, 2), 1.0)])  # (h=2, T=3, dh=2)
    concat = maths.merge_heads(per_head)  # (3, 4)
    assert concat.shape == (3, 4)
    np.testing.assert_array_equal(concat[:, 2:], 1.0)
    np.testing.assert_array_equal(concat[:, :2], 0.0)


def test_pick_and_only_true_refuse_ambiguity():
    assert bank.pick((1, 2, 2), 2) == -1
    assert bank.pick((1, 2), 3) == -1
    assert bank.only_true(True, None, False) == 0
    assert bank.only_true(True, True) == -1
    assert bank.only_true(None, None) == -1


# --- the code questions, run on their fixed snippets ---------------------------------------------------

LESSON_X = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 2.0]])  # (T=3, d=2)
SWAP = np.array([[0.0, 1.0], [1.0, 0.0]])  # W_K swaps the two columns


def core_head(x, w_q, w_k, w_v):
    queries, keys, values = x @ w_q, x @ w_k, x @ w_v  # (T, dh) each
    blocked = maths.causal_mask(len(x))  # (T, T)
    return maths.masked_softmax(maths.scaled_scores(queries, keys), blocked) @ values  # (T, dh)


def run_snippet(source: str, namespace: dict) -> dict:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        exec(compile(source, "<bank snippet>", "exec"), namespace)  # our own fixed text, never user input
    return namespace


def mask_option(expression: str, length: int) -> np.ndarray:
    return eval(expression.strip("`"), {"np": np, "L": length})  # a fixed option of the bank


def test_causal_mask_code_question():
    question = BY_ID["code-causal-mask"]
    expressions = [option.text for option in question.options]
    for length in range(1, 9):
        np.testing.assert_array_equal(mask_option(expressions[question.answer], length), maths.causal_mask(length))
    for index, expression in enumerate(expressions):
        if index != question.answer:
            assert not np.array_equal(mask_option(expression, 4), maths.causal_mask(4)), expression
    stub = run_snippet(question.code.replace("____", expressions[question.answer].strip("`")), {"np": np})
    np.testing.assert_array_equal(stub["causal_mask"](4), maths.causal_mask(4))
    assert int(stub["causal_mask"](4).sum()) == 6


def masked_head_versions() -> list[np.ndarray]:
    question = BY_ID["code-masked-head"]
    outputs = []
    for option in question.options:
        body = textwrap.indent(option.text, "    ")
        blank = next(line for line in question.code.splitlines() if line.strip().startswith("____"))
        source = question.code.replace(blank, body)
        namespace = run_snippet(source, {"np": np, "softmax": maths.softmax})
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outputs.append(namespace["masked_attention"](LESSON_X, np.eye(2), SWAP, np.eye(2)))
    return outputs


def test_masked_head_right_version_matches_the_core():
    question = BY_ID["code-masked-head"]
    outputs = masked_head_versions()
    expected = core_head(LESSON_X, np.eye(2), SWAP, np.eye(2))  # (3, 2)
    np.testing.assert_allclose(outputs[question.answer], expected)
    np.testing.assert_allclose(expected, [[2.0, 0.0], [1.5, 0.5], [1.72, 0.28]], atol=0.005)  # the explanation
    for index, output in enumerate(outputs):
        if index != question.answer:
            assert not np.allclose(output, expected, equal_nan=False), f"version {bank.letter(index)} is not a bug"


def test_masked_head_bugs_are_the_classic_ones():
    outputs = masked_head_versions()
    after_softmax, no_sqrt, _, diagonal = outputs
    assert after_softmax[0, 0] < 2.0  # row 1 keeps only e^s11 / (sum over all keys) of its weight
    assert np.isnan(diagonal[0]).all()  # k = 0: row 1 has nothing left, 0 / 0
    assert not np.isnan(no_sqrt).any() and not np.allclose(no_sqrt[2], [1.72, 0.28], atol=0.005)


def run_order(question: Question, order: tuple[int, ...]) -> np.ndarray:
    lines = "\n".join(question.options[i].text for i in order)
    namespace = {
        "np": np, "softmax": maths.softmax, "X": LESSON_X, "W_Q": np.eye(2), "W_K": SWAP, "W_V": np.eye(2),
        "d_k": 2, "blocked": maths.causal_mask(3),
    }
    return run_snippet(lines, namespace)["out"]


def test_order_question_right_order_matches_the_core():
    question = BY_ID["code-order"]
    assert sorted(question.answer) == list(range(len(question.options)))
    np.testing.assert_allclose(run_order(question, question.answer), core_head(LESSON_X, np.eye(2), SWAP, np.eye(2)))
    assert order_problems(question, question.answer) == []


def test_order_question_masking_after_softmax_leaks():
    question = BY_ID["code-order"]
    project, scale, mask, soft, out = question.answer
    late_mask = (project, scale, soft, mask, out)
    leaked = run_order(question, late_mask)
    unmasked = maths.softmax(maths.scaled_scores(LESSON_X, LESSON_X @ SWAP)) @ LESSON_X  # no mask at all
    np.testing.assert_allclose(leaked, unmasked)
    assert order_problems(question, late_mask) == [question.options[soft].why]
    assert "after the softmax" in question.options[soft].why


# --- the shape of the bank ----------------------------------------------------------------------------


def test_ids_and_sections():
    assert len({q.id for q in QUESTIONS}) == len(QUESTIONS)
    section_ids = [s.id for s in SECTIONS]
    assert len(set(section_ids)) == len(section_ids)
    assert {q.section for q in QUESTIONS} == set(section_ids)
    for section in SECTIONS:
        assert bank.in_section(section.id), section.id


def test_every_section_module_is_in_the_bank_with_all_its_questions():
    quiz_modules = {info.name for info in pkgutil.iter_modules(quiz.__path__)
                    if hasattr(importlib.import_module(f"attn_ui.quiz.{info.name}"), "SECTION")}
    listed = {part.__name__.rsplit(".", 1)[1] for part in bank.SECTION_MODULES}
    assert listed == quiz_modules, "list each section module in bank.SECTION_MODULES"
    for part in bank.SECTION_MODULES:
        name = part.__name__
        defined = [value for value in vars(part).values() if isinstance(value, Question)]
        assert list(part.QUESTIONS) == defined, f"{name}.QUESTIONS must list every question of {name}.py, in order"
        assert {q.section for q in part.QUESTIONS} == {part.SECTION.id}, name


def test_issue_five_is_covered():
    wanted = {
        "pad-zero-trap", "causal-shape", "causal-open-cells", "causal-masked-count", "pad-broadcast",
        "pad-empty-columns", "pad-one-open-cell", "heads-concat-shape", "heads-start-column", "heads-d-head-512",
        "heads-gpt2", "causal-neg-inf", "causal-no-leak", "dropout-rescale", "heads-buy", "heads-divide",
        "shapes-score-tensor", "shapes-double-context", "causal-why", "code-causal-mask", "code-masked-head",
    }
    assert wanted <= set(BY_ID)


@pytest.mark.parametrize("question", CHOICES, ids=ids(CHOICES))
def test_choice_question_is_well_formed(question: Question):
    texts = [option.text for option in question.options]
    assert len(set(texts)) == len(texts) >= 2
    assert 0 <= question.answer < len(question.options)
    for index, option in enumerate(question.options):
        if index == question.answer:
            assert option.why == ""
        else:
            assert len(option.why) > 20, f"option {index} needs a reason why it is wrong"


@pytest.mark.parametrize("question", QUESTIONS, ids=ids(QUESTIONS))
def test_explanation_is_one_short_paragraph(question: Question):
    assert "\n" not in question.explanation
    assert 60 < len(question.explanation) <= 520
    assert question.explanation.rstrip().endswith((".", ")"))
    assert question.prompt.rstrip().endswith(("?", ".")), question.prompt


def test_order_question_explains_each_misplaced_step():
    question = BY_ID["code-order"]
    first = question.answer[0]
    assert question.options[first].why == ""
    assert all(question.options[i].why for i in question.answer[1:])


LINKED = [q for q in QUESTIONS if q.lab is not None]


@pytest.mark.parametrize("question", LINKED, ids=ids(LINKED))
def test_lab_links_open_a_valid_state(question: Question):
    settings, notes = question.lab.settings()
    assert notes == []
    assert isinstance(settings, Settings)
    assert set(question.lab.view) <= {"row", "mode"}
    assert len(question.lab.label) <= 40, "a longer label is cut off on a phone"


def test_lab_links_show_what_the_question_is_about():
    def lab(question_id: str) -> Settings:
        return BY_ID[question_id].lab.settings()[0]

    trap = lab("pad-zero-trap")  # a causal question: the Lab shows later words blocked by zero scores, no padding
    assert trap.route == "zero_score" and trap.causal and not trap.padded
    row = int(BY_ID["pad-zero-trap"].lab.view["row"]) - 1
    shown = compute(trap)
    blocked = shown.blocked_by_causal[row]  # (T,)
    assert blocked.any() and shown.weights[shown.view_index, row, blocked].sum() > 0.1  # the trap leaks weight
    assert lab("causal-neg-inf").route == "zero_after" and lab("causal-neg-inf").causal
    assert lab("dropout-rescale").rescale is False and lab("dropout-rescale").dropout > 0
    assert lab("dropout-inference").training is False
    assert lab("pad-empty-columns").padded == (5, 6) and not lab("pad-empty-columns").causal
    assert len(lab("causal-open-cells").tokens) == 4


# --- grading --------------------------------------------------------------------------------------------


def test_feedback_right_and_wrong():
    question = BY_ID["pad-zero-trap"]
    right = feedback(question, question.answer)
    assert right.correct and right.verdict == f"**Right.** {question.explanation}" and right.more == ""
    wrong = feedback(question, 0)
    assert not wrong.correct
    assert question.options[0].why in wrong.verdict
    assert "**Answer:** about 29%." in wrong.verdict
    assert wrong.more == question.explanation


def test_feedback_names_code_versions_by_letter():
    question = BY_ID["code-masked-head"]
    wrong = feedback(question, 0)
    assert f"**Answer:** version {bank.letter(question.answer)}." in wrong.verdict


def test_tally_counts_first_answers_only():
    causal = bank.in_section("causal")
    first = {causal[0].id: causal[0].answer, causal[1].id: (causal[1].answer + 1) % len(causal[1].options)}
    current = {causal[0].id: causal[0].answer, causal[1].id: causal[1].answer}
    assert tally(causal, first, current) == bank.Tally(right=1, answered=2, total=len(causal))
    order = BY_ID["code-order"]
    assert tally([order], {}, {order.id: order.answer[:3]}) == bank.Tally(0, 0, 1)  # half an order is no answer
    assert tally([order], {order.id: order.answer}, {order.id: order.answer}) == bank.Tally(1, 1, 1)


def test_nothing_in_the_app_executes_code():
    for path in app_files():
        source = path.read_text()
        assert not re.search(r"(?<![.\w])(exec|eval|compile)\(", source), path

