"""The training model's promises beyond its gradients: the mask holds, nothing is NaN, a seeded run repeats."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attn_core import maths
from attn_core.training import layers
from attn_core.training.data import sample_sentences, toy_language
from attn_core.training.loop import TrainConfig, adam_start, adam_update, inference_loss, train_steps
from attn_core.training.measures import generating_loss
from attn_core.training.model import ModelConfig, backward, forward, init_parameters

LANGUAGE = toy_language()
SMALL = ModelConfig(len(LANGUAGE.vocabulary), LANGUAGE.length, d_model=8, heads=2, layers=2, pad_id=0)
FAST = settings(max_examples=40, deadline=None)


def test_split_and_merge_are_the_labs_and_invert_each_other():
    x = np.random.default_rng(0).normal(size=(3, 5, 8))  # (B, T, d)
    per_head = layers.split_batch_heads(x, 4)  # (B, h, T, dh)
    np.testing.assert_array_equal(per_head[1], maths.split_heads(x[1], 4))
    np.testing.assert_array_equal(layers.merge_batch_heads(per_head), x)


def test_dropout_backward_passes_the_gradient_only_through_kept_cells():
    rng = np.random.default_rng(1)
    keep = maths.dropout_keep((2, 3, 3), 0.5, rng)
    gradient = layers.dropout_backward(np.ones((2, 3, 3)), (keep, 0.5))
    np.testing.assert_array_equal(gradient, np.where(keep, 2.0, 0.0))


@FAST
@given(st.integers(1, LANGUAGE.length - 1), st.integers(0, 2**31 - 1))
@example(9, 2646490)  # the draw that once equalled the token it replaced
def test_with_the_causal_mask_no_prediction_depends_on_a_later_token(position, seed):
    rng = np.random.default_rng(seed)
    params = init_parameters(SMALL, rng)
    tokens = rng.integers(1, SMALL.vocab_size, size=(2, SMALL.length))  # (B, T)
    changed = tokens.copy()
    drawn = rng.integers(1, SMALL.vocab_size - 1, size=(2, SMALL.length - position))
    # any token but the one that was there: a draw equal to it (position 9, seed 2646490) changed nothing to leak
    changed[:, position:] = np.where(drawn >= tokens[:, position:], drawn + 1, drawn)
    before, _ = forward(params, tokens, SMALL)
    after, _ = forward(params, changed, SMALL)
    np.testing.assert_allclose(after[:, :position], before[:, :position], rtol=0, atol=1e-12)
    unmasked = dataclasses.replace(SMALL, causal=False)
    leaks = forward(params, changed, unmasked)[0][:, :position] - forward(params, tokens, unmasked)[0][:, :position]
    assert np.abs(leaks).max() > 1e-6, "without the mask the past should see the change"


def test_a_row_with_nothing_legal_gives_zeros_not_nan_forward_and_backward():
    params = init_parameters(SMALL, np.random.default_rng(2))
    tokens = np.array([[0] * SMALL.length, [1, 2, 5, 6, 10, 14, 3, 16, 21, 0]])  # an all-PAD row: every key blocked
    targets = np.roll(tokens, -1, axis=1)
    logits, cache = forward(params, tokens, SMALL, keeps=None)
    weights = cache.attention[0].weights  # (B, h, T, T)
    np.testing.assert_array_equal(weights[0], 0.0)
    np.testing.assert_allclose(weights[1].sum(axis=-1)[:, :-1], 1.0)
    loss, d_logits = layers.softmax_loss(logits, targets, targets != 0)
    grads = backward(d_logits, cache)
    assert np.isfinite(loss) and np.isfinite(logits).all()
    assert all(np.isfinite(gradient).all() for gradient in grads.values())


def test_the_generating_loss_equals_the_one_pass_loss_when_the_mask_is_on():
    params = init_parameters(SMALL, np.random.default_rng(3))
    data = sample_sentences(LANGUAGE, 40, np.random.default_rng(4))
    np.testing.assert_allclose(generating_loss(params, data, SMALL), inference_loss(params, data, SMALL), rtol=1e-12)
    unmasked = dataclasses.replace(SMALL, causal=False)
    assert abs(generating_loss(params, data, unmasked) - inference_loss(params, data, unmasked)) > 1e-3


def test_adam_first_step_moves_each_weight_by_the_learning_rate_against_its_gradient():
    params = {"w": np.array([1.0, -2.0, 3.0])}
    adam_update(params, {"w": np.array([0.5, -4.0, 1e-3])}, adam_start(params), rate=0.1)
    np.testing.assert_allclose(params["w"], [0.9, -1.9, 2.9], rtol=1e-6)


def run_params(seed: int, p: float) -> dict[str, np.ndarray]:
    config = dataclasses.replace(SMALL, dropout=p)
    data = sample_sentences(LANGUAGE, 64, np.random.default_rng(5))
    *_, last = train_steps(config, TrainConfig(steps=30, batch_size=8, log_every=10), seed, data)
    return {name: np.array(value) for name, value in last.params.items()}


def test_a_seeded_run_repeats_bit_for_bit_and_another_seed_differs():
    first, again, other = run_params(7, 0.3), run_params(7, 0.3), run_params(8, 0.3)
    assert all(np.array_equal(first[name], again[name]) for name in first)
    assert not np.array_equal(first["token_embedding"], other["token_embedding"])


def test_training_lowers_the_loss_and_snapshots_count_up_to_the_end():
    data = sample_sentences(LANGUAGE, 256, np.random.default_rng(6))
    evaluations = {"train": lambda params: inference_loss(params, data, SMALL)}
    snapshots = list(train_steps(SMALL, TrainConfig(steps=60, batch_size=16, log_every=20), 0, data, evaluations))
    assert [s.step for s in snapshots] == [0, 20, 40, 60]
    assert snapshots[-1].fraction == 1.0 and snapshots[0].batch_loss is None
    assert snapshots[-1].losses["train"] < snapshots[0].losses["train"] - 0.5
