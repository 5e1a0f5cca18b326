"""Finite differences in float64 against the hand-written backward pass, for every parameter and every switch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attn_core.training import layers
from attn_core.training.model import ModelConfig, backward, draw_keeps, forward, init_parameters

VOCAB, LENGTH, BATCH, WIDTH, PAD = 7, 5, 3, 8, 0
STEP = 1e-5
TOLERANCE = 1e-6


def relative_error(analytic: np.ndarray, numeric: np.ndarray) -> float:
    """||a - n|| / (||a|| + ||n||): 0 when they agree, 1 when they point apart; robust to tiny entries."""
    total = np.linalg.norm(analytic) + np.linalg.norm(numeric)
    return float(np.linalg.norm(analytic - numeric) / total) if total > 0 else 0.0


def numeric_gradient(loss_of, array: np.ndarray) -> np.ndarray:
    """Central differences, one entry at a time, changing `array` in place and restoring it."""
    gradient = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        saved = array[index]
        array[index] = saved + STEP
        above = loss_of()
        array[index] = saved - STEP
        below = loss_of()
        array[index] = saved
        gradient[index] = (above - below) / (2 * STEP)
    return gradient


def a_batch(rng: np.random.Generator):
    """Token ids with PAD at the end of some rows, targets shifted by one, PAD targets not counted."""
    sequence = rng.integers(1, VOCAB, size=(BATCH, LENGTH + 1))  # (B, T+1)
    sequence[0, -2:] = PAD
    sequence[1, -1:] = PAD
    inputs, targets = sequence[:, :-1], sequence[:, 1:]  # (B, T) each
    return inputs, targets, targets != PAD


CASES = list(itertools.product([False, True], [1, 2, 4], [1, 2], [0.0, 0.3]))


@pytest.mark.parametrize(("causal", "heads", "depth", "p"), CASES)
def test_every_parameter_matches_finite_differences(causal, heads, depth, p):
    config = ModelConfig(VOCAB, LENGTH, WIDTH, heads, depth, causal, p, pad_id=PAD)
    rng = np.random.default_rng([heads, depth, int(causal), int(p * 10)])
    params = init_parameters(config, rng)
    inputs, targets, counted = a_batch(rng)
    keeps = draw_keeps(config, BATCH, LENGTH, rng) if p > 0 else None  # one fixed keep mask for every evaluation

    def loss_of() -> float:
        logits, _ = forward(params, inputs, config, keeps)
        return layers.softmax_loss(logits, targets, counted)[0]

    logits, cache = forward(params, inputs, config, keeps)
    analytic = backward(layers.softmax_loss(logits, targets, counted)[1], cache)
    assert set(analytic) == set(params)
    errors = {name: relative_error(analytic[name], numeric_gradient(loss_of, params[name])) for name in params}
    assert max(errors.values()) <= TOLERANCE, errors
    unused = [name for name in params if not np.any(analytic[name])]
    assert not unused, f"a zero gradient would make the check vacuous: {unused}"
