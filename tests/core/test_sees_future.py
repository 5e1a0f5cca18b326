"""'Sees future?' is defined by dependence: does an output of the head in view move when a later word changes?

The core derives it from the route's structure (Result.reads_later); these tests measure it by experiment:
nudge one later score, or one later value vector, push it through the same route and dropout pattern, and see
whether any output row of the head in view moves.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attn_core import ROUTES, Settings, compute, maths

NUDGE = 0.5
MOVED = 1e-9
PADDINGS = ((), (5, 6), (1,), (2, 4))
CASES = [
    Settings(causal=causal, padded=padded, route=route, heads=heads, view=heads, dropout=dropout)
    for route, causal, padded, (heads, dropout) in itertools.product(
        ROUTES, (False, True), PADDINGS, ((1, 0.0), (2, 0.3))
    )
]


def _head_output(result, scores: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The head in view recomputed from (possibly nudged) scores and values, same masks and dropout pattern."""
    view = result.view_index
    weights = maths.apply_route(scores, result.blocked[view], result.settings.route)  # (T, T)
    if result.settings.dropout_active:
        weights = maths.apply_dropout(weights, ~result.dropped[view], result.settings.dropout,
                                      result.settings.rescale)
    return weights @ values  # (T, dh)


def measured_dependence(result) -> np.ndarray:
    """(T, T) bool: row i's output moves when the score or the value of a later word j is nudged."""
    view = result.view_index
    scores, values = result.scores[view], result.values[view]
    base = _head_output(result, scores, values)
    np.testing.assert_allclose(base, result.per_head_context[view], atol=1e-12)
    length = len(result.tokens)
    moved = np.zeros((length, length), dtype=bool)
    for query, key in zip(*np.triu_indices(length, k=1), strict=True):
        nudged_scores = scores.copy()
        nudged_scores[query, key] += NUDGE
        nudged_values = values.copy()
        nudged_values[key] += NUDGE
        by_score = np.abs(_head_output(result, nudged_scores, values) - base)[query].max()
        by_value = np.abs(_head_output(result, scores, nudged_values) - base)[query].max()
        moved[query, key] = max(by_score, by_value) > MOVED
    return moved


@pytest.mark.parametrize("settings", CASES, ids=repr)
def test_sees_future_is_what_an_experiment_measures(settings: Settings):
    result = compute(settings)
    moved = measured_dependence(result)
    np.testing.assert_array_equal(result.reads_later, moved)
    assert result.sees_future == bool(moved.any())


@pytest.mark.parametrize(("route", "expected"), [("neg_inf", False), ("zero_after", True), ("renormalize", False),
                                                 ("zero_score", True)])
def test_causal_mask_on_sees_future_only_through_the_sum_or_the_trap(route: str, expected: bool):
    result = compute(Settings(causal=True, route=route))
    assert result.sees_future is expected
    if route == "zero_after":  # weight 0 on every later word, yet the outputs depend on them
        assert not (result.weights[0][maths.causal_mask(6)] > 0).any()


@pytest.mark.parametrize("route", ROUTES)
def test_without_the_mask_every_route_sees_the_future(route: str):
    assert compute(Settings(route=route)).sees_future


def test_zero_after_rows_move_when_a_later_word_changes():
    base = compute(Settings(causal=True, route="zero_after"))
    other = compute(Settings(sentence="Your journey starts with one leap", causal=True, route="zero_after"))
    moved = np.abs(base.output[:-1] - other.output[:-1]).max(axis=-1)  # (T - 1,)
    assert (moved > 1e-3).all()
