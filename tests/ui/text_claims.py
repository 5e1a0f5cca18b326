# ruff: noqa: E501  (the registry is a table: one source a line)
"""The guard's registry: every number and comparison word in the static text banks, and the check behind it.

REGISTRY maps a text source (tests/ui/text_banks.py names them) to the numbers and comparison words it holds,
in order, and the name of a check in CHECKS that recomputes them with the core. tests/ui/test_text_claims.py
fails when a source holds a number or comparison that is not registered here, when a registered one has gone,
and when a check no longer holds. Edit a sentence's numbers and you must come here and say what backs them.

Two kinds of check: a named fact check (it recomputes the sentence's numbers and comparisons with the core),
and "quiz:<id>", the question's own check, which recomputes the value its options offer and picks the right
one. "lesson-definitions" backs the general words of the lessons (every key, never, the same): the rules they
state, recomputed on the default sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import numpy as np

from attn_core import Settings, compute, maths
from attn_core.lessons import heads, masks
from attn_ui.quiz import bank
from attn_ui.words.explain import kpi_values


def _zero_score_trap() -> bool:
    example = masks.worked_example()
    shares = example.with_zero_score
    shown = [Decimal(f"{e:.2f}") for e in example.exps]  # the terms as the texts write them
    return bool(
        [str(e) for e in shown] == ["1.40", "1.05", "1.00"]
        and sum(shown) == Decimal("3.45")  # the total the texts give is the sum of the terms they show
        and f"{example.total:.2f}" == "3.46"  # the unrounded 3.456 would round to 3.46: no text says that sum
        and f"{1 / Decimal('3.45'):.2f}" == "0.29" and f"{1 / Decimal('3.45'):.0%}" == "29%"
        and [f"{e / Decimal('3.45'):.2f}" for e in shown] == ["0.41", "0.30", "0.29"]  # shares from what is shown
        and [f"{w:.2f}" for w in shares] == ["0.41", "0.30", "0.29"]
        and round(100 * example.pad_share) == 29
        and shares[2] < shares[1] < shares[0]  # the PAD gets less than either real word
        and example.exps[2] < example.exps[0] + example.exps[1]  # why 50% is wrong: 1 < 1.40 + 1.05
        and example.with_neg_inf[2] == 0.0
    )


def _causal_triangle() -> bool:
    six, four = compute(Settings(causal=True)), compute(Settings(sentence="Your journey starts with", causal=True))
    open_six = (~six.blocked[0]).sum(axis=1)  # (T,)
    return bool(
        six.masked_cells == 15 == 5 + 4 + 3 + 2 + 1 == 6 * 5 // 2
        and int(open_six.sum()) == 21 and six.blocked[0].size == 36
        and open_six.tolist() == [1, 2, 3, 4, 5, 6]
        and four.masked_cells == 6 and int((~four.blocked[0]).sum()) == 10 == 1 + 2 + 3 + 4
        and four.blocked[0].size == 16
    )


def _row_one_changes_most() -> bool:
    plain, causal = compute(Settings()), compute(Settings(causal=True))
    change = np.abs(plain.weights[0] - causal.weights[0]).sum(axis=1)  # (T,) summed absolute change per row
    return bool(
        int(np.argmax(change)) == 0 and f"{change[0]:.2f}" == "1.89" and change[-1] < 1e-12
        and bool((change[:-1] > 0).all()) and causal.weights[0, 0, 0] == 1.0
    )


def _zero_after_reads_the_future() -> bool:
    zero_after = compute(Settings(causal=True, route="zero_after"))
    neg_inf = compute(Settings(causal=True))
    other = {route: compute(Settings(sentence="Your journey starts with one leap", causal=True, route=route))
             for route in ("neg_inf", "zero_after")}
    sums = zero_after.row_sums[0]
    return bool(
        bool((sums[:-1] < 1).all()) and abs(sums[-1] - 1) < 1e-12  # only the last row still sums to 1
        and np.allclose(neg_inf.row_sums, 1)
        and not np.allclose(zero_after.output[:-1], other["zero_after"].output[:-1])
        and np.allclose(neg_inf.output[:-1], other["neg_inf"].output[:-1], rtol=0, atol=1e-15)
        and zero_after.sees_future and not neg_inf.sees_future
        and float(np.exp(0.0)) == 1.0 and compute(Settings(causal=True, route="zero_score")).sees_future
    )


def _dropout_scale() -> bool:
    def mean_sum(p: float, rescale: bool) -> float:
        return float(np.mean([compute(Settings(dropout=p, roll=r, rescale=rescale)).row_sums.mean()
                              for r in range(60)]))

    kept = maths.apply_dropout(np.ones(2), np.array([True, False]), 0.5, rescale=True)  # (2,)
    return bool(
        kept.tolist() == [2.0, 0.0]  # p = 0.5: survivors double, dropped cells hold 0
        and f"{1 / (1 - 0.1):.2f}" == "1.11"
        and abs(mean_sum(0.5, True) - 1) < 0.05 and abs(mean_sum(0.5, False) - 0.5) < 0.05
        and np.array_equal(compute(Settings(dropout=0.5, training=False)).weights, compute(Settings()).weights)
    )


def _head_columns() -> bool:
    worked = compute(heads.WORKED)
    blocks = heads.head_columns(4, 2)
    mixes = bool((worked.w_o != 0).all()) and np.allclose(worked.output, worked.context @ worked.w_o)
    four = compute(Settings(causal=True, heads=4))
    same_triangle = all(np.array_equal(four.blocked[h], four.blocked[0]) for h in range(4))
    differ = not np.allclose(four.weights[0], four.weights[1])
    slim, wide = heads.attention_cost(6, 12, 4, 3), heads.attention_cost(6, 12, 1, 3)
    cost = slim.parameters == wide.parameters and slim.flops == wide.flops  # the same price as one wide head
    return bool(
        worked.context.shape == (3, 4) and [heads.span(b) for b in blocks] == ["1–2", "3–4"]
        and blocks[1].start + 1 == 3 and worked.d_head == 2 and mixes and same_triangle and differ and cost
    )


def _score_memory() -> bool:
    size = heads.BYTES_PER_NUMBER
    at_t = heads.score_tensor_bytes(1, 12, 1024, size["float32"])
    return bool(
        heads.score_tensor_bytes(1, 12, 2048, size["float32"]) == 4 * at_t  # twice T, four times the memory
        and size["bf16"] == 2 and size["float32"] == 4  # bf16 halves the bill, not the slope
        and heads.human_bytes(1_000_000) == "1 MB"
        and compute(Settings(heads=3)).score_shape == (1, 3, 6, 6)
        and compute(Settings(sentence=" ".join("abcdefghijklmnop"))).score_shape == (1, 1, 16, 16)
    )


def _tile_help() -> bool:
    dropped = compute(Settings(dropout=0.5))
    sums = dropped.row_sums[0]
    return bool(
        kpi_values(dropped)["Row sums"] == f"{sums.min():.2f} to {sums.max():.2f}"
        and bool((dropped.weights[dropped.dropped] == 0).all())
        and compute(Settings(causal=True, route="zero_after")).sees_future
    )


def _lesson_definitions() -> bool:
    """The rules the lessons state in words, recomputed: what 'every', 'never' and 'the same' refer to."""
    padded = compute(Settings(padded=(5, 6)))
    causal = compute(Settings(causal=True))
    empty = compute(Settings(causal=True, padded=(1,)))
    naive = masks.naive_empty_row(empty, 0)
    return bool(
        bool(padded.blocked_by_padding[:, 4:].all()) and not padded.blocked_by_padding[:, :4].any()  # whole columns
        and bool((causal.weights[0][maths.causal_mask(6)] == 0).all())  # the future: exactly 0, every row
        and np.allclose(causal.row_sums, 1)
        and np.isnan(naive).all() and not empty.weights[0, 0].any()  # 0 / 0 would be NaN; the app gives zeros
        and np.allclose(maths.apply_route(causal.scores, causal.blocked, "renormalize"), causal.weights)
        and maths.padding_mask(np.zeros((2, 5), bool)).shape == (2, 1, 5)
    )


def _code_causal_mask() -> bool:
    mask = np.triu(np.ones((4, 4), dtype=bool), k=1)  # the right snippet, L = 4
    return np.array_equal(mask, maths.causal_mask(4)) and mask.sum(axis=1).tolist() == [3, 2, 1, 0]


def _code_masked_head() -> bool:
    x = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, 2.0]])  # (T, 2) the explanation's example
    w_k = np.array([[0.0, 1.0], [1.0, 0.0]])  # swaps the two columns
    scores = maths.scaled_scores(x, x @ w_k)  # (T, T), W_Q = I
    out = maths.apply_route(scores, maths.causal_mask(3), "neg_inf") @ x  # W_V = I
    zero_after = maths.apply_route(scores, maths.causal_mask(3), "zero_after")
    return bool(
        [[round(v, 2) for v in row] for row in out.tolist()] == [[2.0, 0.0], [1.5, 0.5], [1.72, 0.28]]
        and bool((zero_after.sum(-1)[:-1] < 1).all())
        and bool(np.isnan(maths.apply_route(scores, np.triu(np.ones((3, 3), bool)), "neg_inf")).any()) is False
    )


def _quiz_links() -> bool:
    linked = sum(1 for q in bank.QUESTIONS if q.lab is not None)
    return linked > len(bank.QUESTIONS) / 2


def _quadratic_wall() -> bool:
    """The memory scene: GPT-2's sizes, doubling the context, and T twice in the score tensor's shape."""
    from attn_ui.words.scenes import MEMORY

    batch, heads_count, length = MEMORY
    size = heads.BYTES_PER_NUMBER["float32"]
    at_t = heads.score_tensor_bytes(batch, heads_count, length, size)
    at_2t = heads.score_tensor_bytes(batch, heads_count, 2 * length, size)
    scores = compute(Settings(heads=2)).weights_before_dropout  # (h, T, T): T twice, as in (B, h, T, T)
    return bool(heads.GPT2.name.startswith("GPT-2") and at_2t == 4 * at_t and scores.shape[-1] == scores.shape[-2])


def _quiz(question_id: str) -> Callable[[], bool]:
    question = bank.BY_ID[question_id]
    return lambda: question.check is not None and bool(question.check() == question.answer)


def _head_three_low_word() -> bool:
    """Scene 20: in head 3, row 3 leans on one word least (a strict minimum over the words it may see), by a clear
    margin: the least is under half of the next."""
    from attn_ui.words.scenes import SCENES

    scene = SCENES[19]
    result = compute(scene.settings)
    row = result.weights[result.view_index, scene.row - 1]  # (T,)
    low = np.sort(row[~result.blocked[0, scene.row - 1]])
    return bool(low[0] < low[1] / 2)


def _mask_models_share_a_language() -> bool:
    from attn_core.training.presets import PRESETS

    runs = PRESETS["mask"].shipped().runs  # one experiment, one data set: the two models differ only in the mask
    return [run.causal for run in runs] == [False, True]


CHECKS: dict[str, Callable[[], bool]] = {
    "zero-score-trap": _zero_score_trap,
    "causal-triangle": _causal_triangle,
    "row-one-changes-most": _row_one_changes_most,
    "zero-after-reads-the-future": _zero_after_reads_the_future,
    "dropout-scale": _dropout_scale,
    "head-columns": _head_columns,
    "score-memory": _score_memory,
    "tile-help": _tile_help,
    "lesson-definitions": _lesson_definitions,
    "quiz-links": _quiz_links,
    "code-causal-mask": _code_causal_mask,
    "code-masked-head": _code_masked_head,
    "quadratic-wall": _quadratic_wall,
    "training-mask-scene": _mask_models_share_a_language,
    "head-three-low-word": _head_three_low_word,
    **{f"quiz:{q.id}": _quiz(q.id) for q in bank.QUESTIONS if q.check is not None},
}  # a question whose text a fact check backs is still answered by its own check in test_questions_bank.py

# source -> (its numbers and comparison words in order, the check that recomputes them)
REGISTRY: dict[str, tuple[tuple[str, ...], str]] = {
    'scene:20:question': (('least',), 'head-three-low-word'),
    'scene:24:question': (('2', 'double'), 'quadratic-wall'),
    'scene:24:narration': (('twice',), 'quadratic-wall'),
    'scene:26:question': (('same',), 'training-mask-scene'),
    'quiz:causal-why:prompt': (('1',), 'quiz:causal-why'),
    'quiz:causal-why:explanation': (('every', 'exactly'), 'quiz:causal-why'),
    'quiz:causal-shape:prompt': (('6',), 'quiz:causal-shape'),
    'quiz:causal-shape:explanation': (('every', '6', '6'), 'quiz:causal-shape'),
    'quiz:causal-shape:lab': (('6', '6'), 'quiz:causal-shape'),
    'quiz:causal-shape:option1': (('6',), 'quiz:causal-shape'),
    'quiz:causal-shape:option2': (('6', '6'), 'quiz:causal-shape'),
    'quiz:causal-shape:option3': (('1', '6'), 'quiz:causal-shape'),
    'quiz:causal-shape:why3': (('1', '6', 'every', 'every'), 'quiz:causal-shape'),
    'quiz:causal-open-cells:prompt': (('4', '16', '0'), 'causal-triangle'),
    'quiz:causal-open-cells:explanation': (('1', '2', '3', '4', '1', '2', '3', '4', '10', '6', 'exactly', '0'), 'causal-triangle'),
    'quiz:causal-open-cells:lab': (('4',), 'causal-triangle'),
    'quiz:causal-open-cells:option1': (('4',), 'causal-triangle'),
    'quiz:causal-open-cells:option2': (('6',), 'causal-triangle'),
    'quiz:causal-open-cells:option3': (('10',), 'causal-triangle'),
    'quiz:causal-open-cells:option4': (('16',), 'causal-triangle'),
    'quiz:causal-open-cells:why1': (('every',), 'causal-triangle'),
    'quiz:causal-open-cells:why2': (('6',), 'causal-triangle'),
    'quiz:causal-open-cells:why4': (('16',), 'causal-triangle'),
    'quiz:causal-masked-count:prompt': (('6',), 'causal-triangle'),
    'quiz:causal-masked-count:explanation': (('1', '5', '2', '4', '5', '4', '3', '2', '1', '15', '1', '2'), 'causal-triangle'),
    'quiz:causal-masked-count:option1': (('6',), 'causal-triangle'),
    'quiz:causal-masked-count:option2': (('15',), 'causal-triangle'),
    'quiz:causal-masked-count:option3': (('21',), 'causal-triangle'),
    'quiz:causal-masked-count:option4': (('36',), 'causal-triangle'),
    'quiz:causal-masked-count:why3': (('21', '1', '2', '6'), 'causal-triangle'),
    'quiz:causal-masked-count:why4': (('36', 'every', '6', '6'), 'causal-triangle'),
    'quiz:causal-same-row:prompt': (('exactly',), 'row-one-changes-most'),
    'quiz:causal-same-row:explanation': (('every', 'same', 'every', '1', 'most', 'never', '1', 'always', 'most'), 'row-one-changes-most'),
    'quiz:causal-same-row:lab': (('6',), 'row-one-changes-most'),
    'quiz:causal-same-row:option1': (('1',), 'row-one-changes-most'),
    'quiz:causal-same-row:option2': (('6',), 'row-one-changes-most'),
    'quiz:causal-same-row:option3': (('every',), 'row-one-changes-most'),
    'quiz:causal-same-row:why1': (('1', '1'), 'row-one-changes-most'),
    'quiz:causal-neg-inf:explanation': (('0', '0', 'less than', '1'), 'zero-after-reads-the-future'),
    'quiz:causal-neg-inf:lab': (('1',), 'zero-after-reads-the-future'),
    'quiz:causal-neg-inf:option1': (('1',), 'zero-after-reads-the-future'),
    'quiz:causal-no-leak:explanation': (('every', 'exactly', '0', 'never', 'never'), 'quiz:causal-no-leak'),
    'quiz:causal-no-leak:option2': (('0',), 'quiz:causal-no-leak'),
    'quiz:causal-no-leak:option3': (('exactly', '0', '0', '0'), 'quiz:causal-no-leak'),
    'quiz:causal-no-leak:why1': (('every',), 'quiz:causal-no-leak'),
    'quiz:causal-no-leak:why2': (('never',), 'quiz:causal-no-leak'),
    'quiz:pad-zero-trap:prompt': (('0.34', '0.05', '0', '0.34', '1.40', '0.05', '1.05', '0', '1'), 'zero-score-trap'),
    'quiz:pad-zero-trap:explanation': (('0', '0', '1', '1', '0.34', '0.05', '1', '1.40', '1.05', '1', '3.45', '1', '3.45', '0.29', '0.30', '0.41', 'exactly', '0'), 'zero-score-trap'),
    'quiz:pad-zero-trap:option1': (('0%',), 'zero-score-trap'),
    'quiz:pad-zero-trap:option2': (('29%',), 'zero-score-trap'),
    'quiz:pad-zero-trap:option3': (('exactly', '50%'), 'zero-score-trap'),
    'quiz:pad-zero-trap:why1': (('0%', '0', '0', '1'), 'zero-score-trap'),
    'quiz:pad-zero-trap:why3': (('50%', '0', '1', 'less than', '1.40', '1.05'), 'zero-score-trap'),
    'quiz:pad-broadcast:prompt': (('2', '5', '2', '1', '5', '2', '5', '5'), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:explanation': (('1', '5', '5', '2', '5', '5', '2', '5', '5', 'every', 'same'), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:option1': (('2', '1', '5'), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:option2': (('2', '5', '5'), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:option3': (('2', '5', '1'), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:why1': (('1',), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:why3': (('5',), 'quiz:pad-broadcast'),
    'quiz:pad-broadcast:why4': (('1', 'exactly', '1'), 'quiz:pad-broadcast'),
    'quiz:pad-empty-columns:prompt': (('0',), 'quiz:pad-empty-columns'),
    'quiz:pad-empty-columns:explanation': (('5', '6', '0', 'every'), 'quiz:pad-empty-columns'),
    'quiz:pad-empty-columns:option1': (('5', '6'), 'quiz:pad-empty-columns'),
    'quiz:pad-empty-columns:option2': (('5', '6'), 'quiz:pad-empty-columns'),
    'quiz:pad-empty-columns:option3': (('5', '6'), 'quiz:pad-empty-columns'),
    'quiz:pad-empty-columns:why4': (('every', 'exactly', '0'), 'quiz:pad-empty-columns'),
    'quiz:pad-one-open-cell:prompt': (('6', 'always', 'exactly'), 'quiz:pad-one-open-cell'),
    'quiz:pad-one-open-cell:explanation': (('1', '1', 'every', 'always', '1', 'exactly', '1'), 'quiz:pad-one-open-cell'),
    'quiz:pad-one-open-cell:option1': (('1',), 'quiz:pad-one-open-cell'),
    'quiz:pad-one-open-cell:option2': (('6',), 'quiz:pad-one-open-cell'),
    'quiz:pad-one-open-cell:why2': (('most', 'every'), 'quiz:pad-one-open-cell'),
    'quiz:pad-one-open-cell:why4': (('never', '1', 'never'), 'quiz:pad-one-open-cell'),
    'quiz:dropout-rescale:prompt': (('0', '1', '1'), 'dropout-scale'),
    'quiz:dropout-rescale:explanation': (('1', '1', '1'), 'dropout-scale'),
    'quiz:dropout-rescale:option1': (('1',), 'dropout-scale'),
    'quiz:dropout-rescale:option2': (('every', 'exactly', '1', 'every'), 'dropout-scale'),
    'quiz:dropout-rescale:why2': (('1',), 'dropout-scale'),
    'quiz:dropout-factor:prompt': (('2', '0.1'), 'dropout-scale'),
    'quiz:dropout-factor:explanation': (('1', '1', '1', '0.9', '1.11', '0.5', 'double'), 'dropout-scale'),
    'quiz:dropout-factor:lab': (('0.1',), 'dropout-scale'),
    'quiz:dropout-factor:option1': (('0.9',), 'dropout-scale'),
    'quiz:dropout-factor:option2': (('1',), 'dropout-scale'),
    'quiz:dropout-factor:option3': (('1.11',), 'dropout-scale'),
    'quiz:dropout-factor:option4': (('10',), 'dropout-scale'),
    'quiz:dropout-factor:why1': (('0.9',), 'dropout-scale'),
    'quiz:dropout-factor:why4': (('10', '1', '1'), 'dropout-scale'),
    'quiz:dropout-inference:option1': (('every',), 'quiz:dropout-inference'),
    'quiz:dropout-inference:option3': (('same', 'always', 'same'), 'quiz:dropout-inference'),
    'quiz:heads-concat-shape:prompt': (('3', '2', 'every', '2'), 'head-columns'),
    'quiz:heads-concat-shape:explanation': (('3', '1', '2', '2', '2', '4'), 'head-columns'),
    'quiz:heads-concat-shape:option1': (('3', '2'), 'head-columns'),
    'quiz:heads-concat-shape:option2': (('2', '3', '2'), 'head-columns'),
    'quiz:heads-concat-shape:option3': (('3', '4'), 'head-columns'),
    'quiz:heads-concat-shape:option4': (('6', '2'), 'head-columns'),
    'quiz:heads-concat-shape:why1': (('same',), 'head-columns'),
    'quiz:heads-start-column:prompt': (('3', '4', '2', '2', '3', '4', '1', '1', '2'), 'head-columns'),
    'quiz:heads-start-column:explanation': (('1', '1', '2', '2', '3', '3', '4', '1', '1'), 'head-columns'),
    'quiz:heads-start-column:lab': (('4', '2', '2'), 'head-columns'),
    'quiz:heads-start-column:option1': (('2',), 'head-columns'),
    'quiz:heads-start-column:option2': (('3',), 'head-columns'),
    'quiz:heads-start-column:option3': (('4',), 'head-columns'),
    'quiz:heads-start-column:option4': (('5',), 'head-columns'),
    'quiz:heads-start-column:why1': (('2', '1', '1', '2'), 'head-columns'),
    'quiz:heads-start-column:why3': (('4', '2'), 'head-columns'),
    'quiz:heads-start-column:why4': (('5', '1', '4'), 'head-columns'),
    'quiz:heads-d-head-512:prompt': (('512', '8'), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:explanation': (('512', '8', '64', '8', '512'), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:option1': (('8',), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:option2': (('64',), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:option3': (('512',), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:option4': (('4096',), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:why1': (('8',), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:why3': (('every', '512'), 'quiz:heads-d-head-512'),
    'quiz:heads-d-head-512:why4': (('512', '8', 'every'), 'quiz:heads-d-head-512'),
    'quiz:heads-gpt2:prompt': (('2', '124', '768', '12'), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:explanation': (('768', '12', '64', '64', '768'), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:option1': (('12',), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:option2': (('64',), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:option3': (('768',), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:option4': (('9216',), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:why1': (('12',), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:why3': (('768', '12'), 'quiz:heads-gpt2'),
    'quiz:heads-gpt2:why4': (('768', '12', 'every'), 'quiz:heads-gpt2'),
    'quiz:heads-lab-d-head:prompt': (('12', '1', '4'), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:explanation': (('12', '4', '3', '3'), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:lab': (('4',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:option1': (('3',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:option2': (('4',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:option3': (('12',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:option4': (('48',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:why2': (('4',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:why3': (('12',), 'quiz:heads-lab-d-head'),
    'quiz:heads-lab-d-head:why4': (('12', '4'), 'quiz:heads-lab-d-head'),
    'quiz:heads-divide:explanation': (('12', '5', '2.4'), 'quiz:heads-divide'),
    'quiz:heads-divide:option2': (('1',), 'quiz:heads-divide'),
    'quiz:heads-divide:why2': (('every',), 'quiz:heads-divide'),
    'quiz:heads-buy:explanation': (('same', 'same'), 'quiz:heads-buy'),
    'quiz:heads-buy:option2': (('same',), 'quiz:heads-buy'),
    'quiz:heads-buy:why1': (('same',), 'quiz:heads-buy'),
    'quiz:heads-whole-word:prompt': (('4', '2', '1', '1', '2', '1', 'half'), 'head-columns'),
    'quiz:heads-whole-word:explanation': (('every', 'every', '1', 'same'), 'head-columns'),
    'quiz:heads-whole-word:option1': (('1', '1', '2', '2', '3', '4'), 'head-columns'),
    'quiz:heads-w-o:prompt': (('1', '1', '2', '2', '3', '4', 'every'), 'head-columns'),
    'quiz:heads-w-o:explanation': (('1', '2'), 'head-columns'),
    'quiz:heads-w-o:why2': (('every', '1'), 'head-columns'),
    'quiz:shapes-score-tensor:explanation': (('every', 'every'), 'score-memory'),
    'quiz:shapes-double-context:prompt': (('double',), 'score-memory'),
    'quiz:shapes-double-context:explanation': (('twice', 'never'), 'score-memory'),
    'quiz:shapes-double-context:option1': (('doubles',), 'score-memory'),
    'quiz:shapes-double-context:option2': (('4',), 'score-memory'),
    'quiz:shapes-double-context:option3': (('same',), 'score-memory'),
    'quiz:shapes-double-context:option4': (('8',), 'score-memory'),
    'quiz:shapes-double-context:why4': (('twice',), 'score-memory'),
    'quiz:code-causal-mask:prompt': (('1', '0'), 'code-causal-mask'),
    'quiz:code-causal-mask:explanation': (('1', 'exactly', '4', '3', '2', '1'), 'code-causal-mask'),
    'quiz:code-causal-mask:option1': (('0',), 'code-causal-mask'),
    'quiz:code-causal-mask:option2': (('1',), 'code-causal-mask'),
    'quiz:code-causal-mask:option3': (('1',), 'code-causal-mask'),
    'quiz:code-causal-mask:why1': (('0', '1'), 'code-causal-mask'),
    'quiz:code-masked-head:explanation': (('2', '0', '1', '1', '0', '2', '2', '0', '1.5', '0.5', '1.72', '0.28'), 'code-masked-head'),
    'quiz:code-masked-head:why1': (('every', 'less than', '1'), 'code-masked-head'),
    'quiz:code-masked-head:why4': (('0', '1', 'every', '0', '0'), 'code-masked-head'),
    'quiz:code-order:explanation': (('1',), 'lesson-definitions'),
    'tile-help:Sees future?': (('0',), 'tile-help'),
    'tile-help:Dropped cells': (('0',), 'tile-help'),
    'tile-help:Row sums': (('smallest', 'largest'), 'tile-help'),
    'lesson:BATCH_HOW': (('1',), 'lesson-definitions'),
    'lesson:CHEAT_HOW': (('1',), 'lesson-definitions'),
    'lesson:DROP_FAILURES': (('same', 'every', '1', '1', '1', '1'), 'dropout-scale'),
    'lesson:DROP_INTRO': (('every', '0', 'always', '0', '1', '1', '0.5', 'double', '0.1', '1.11'), 'dropout-scale'),
    'lesson:DROP_TASK': (('0.5',), 'dropout-scale'),
    'lesson:EMPTY_ROW_HOW': (('1', '1', '1', 'every', '0', '0', 'every', 'same', '2.4', '2.5', 'never'), 'lesson-definitions'),
    'lesson:INFERENCE_HOW': (('same', 'same', 'every'), 'lesson-definitions'),
    'lesson:PAD_FAILURES': (('1', 'every', '0'), 'lesson-definitions'),
    'lesson:PAD_INTRO': (('every', 'same', 'every'), 'lesson-definitions'),
    'lesson:PAD_TASK': (('exactly',), 'lesson-definitions'),
    'lesson:PEEK_FAILURES': (('less than', '1', '0', '1', 'every'), 'zero-after-reads-the-future'),
    'lesson:PEEK_INTRO': (('every', '1', '2', '2', '3', 'every', '1', '1', '1'), 'lesson-definitions'),
    'lesson:PEEK_TASK': (('1', 'every', '0'), 'zero-after-reads-the-future'),
    'lesson:PROOF_HOW': (('0',), 'lesson-definitions'),
    'lesson:ROLLS_HOW': (('1', 'same', '1'), 'dropout-scale'),
    'lesson:ROUTES_HOW': (('0', '0'), 'lesson-definitions'),
    'lesson:TRAP_LEAK': (('0', '0', '1'), 'zero-score-trap'),
    'lesson:VALUES_HOW': (('never', 'exactly', '0'), 'lesson-definitions'),
    'page:1_Peeking_and_the_causal_mask:Why may a word never look at the words a': (('never',), 'lesson-definitions'),
    'page:2_Padding_mask:Words in sentence 2': (('2',), 'lesson-definitions'),
    'page:4_Many_heads:One head has one way of deciding which w': (('1',), 'head-columns'),
    'page:4_Many_heads:Same price as one wide head': (('same',), 'head-columns'),
    'page:4_Many_heads:Set 4 heads with the causal mask on, the': (('4', '1', '4', 'same', 'every'), 'head-columns'),
    'page:4_Many_heads:{d_model} / {tried} = {width}: every hea': (('every',), 'head-columns'),
    'page:5_Shapes_and_memory:What shape is every tensor, and why does': (('every',), 'score-memory'),
    'page:5_Shapes_and_memory:Real code never loops over heads. It pro': (('never', 'every', '2'), 'score-memory'),
    'page:5_Shapes_and_memory:Both axes are logarithmic. Each step rig': (('doubles', '4', '2', '4', 'halves', '1', '1,000,000'), 'score-memory'),
    'page:5_Shapes_and_memory:FlashAttention computes the same output ': (('same', 'every'), 'score-memory'),
    'page:5_Shapes_and_memory:Open the Lab, type a longer sentence (up': (('16',), 'score-memory'),
    'page:5_Shapes_and_memory:The scores hold one number for every (qu': (('every', 'every'), 'score-memory'),
    'page:5_Shapes_and_memory:T appears twice, so twice the context me': (('twice', 'twice'), 'score-memory'),
    'page:5_Shapes_and_memory:GPT-2 sizes: h = {heads}, one layer, the': (('2',), 'score-memory'),
    'page:5_Shapes_and_memory:Batch size B of the GPT-2 column (senten': (('2',), 'score-memory'),
    'page:6_One_row_by_hand:Where does every number in one row of th': (('every',), 'lesson-definitions'),
    'page:6_One_row_by_hand:Pick a query word and a head; the tables': (('same',), 'lesson-definitions'),
    'page:6_One_row_by_hand:\n- The causal mask blocks every key to t': (('every', 'every', '1', '1', '1'), 'lesson-definitions'),
    'page:6_One_row_by_hand:Open this row in the Lab: the same cells': (('same', 'same'), 'lesson-definitions'),
    'page:8_Check_yourself:Pick an answer: the page says at once wh': (('most',), 'quiz-links'),
}

CHECKS = {name: check for name, check in CHECKS.items() if any(name == c for _, c in REGISTRY.values())}
