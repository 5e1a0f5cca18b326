"""The experiments' claims, asserted on short seeded runs (about 15 s of CPU in all, on one BLAS thread)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from attn_core.training.experiments import (
    DropoutExperiment,
    HeadsExperiment,
    MaskExperiment,
    Progress,
    dropout_experiment_steps,
    heads_experiment_steps,
    mask_experiment_steps,
    run,
)
from attn_core.training.loop import TrainConfig
from attn_core.training.results import from_json, to_json

SHORT_MASK = MaskExperiment(
    train_sentences=512, held_out_sentences=128, samples=32, train=TrainConfig(300, 32, 3e-3, log_every=100)
)
SHORT_HEADS = HeadsExperiment(train_rows=32_768, train=TrainConfig(1000, 32, 1e-2, log_every=250))
SHORT_DROPOUT = DropoutExperiment(held_out_sentences=256, train=TrainConfig(300, 16, 3e-3, log_every=100))


@pytest.fixture(scope="module")
def mask_result():
    return run(mask_experiment_steps(SHORT_MASK, seed=0))


@pytest.fixture(scope="module")
def heads_result():
    return run(heads_experiment_steps(SHORT_HEADS, seed=0))


@pytest.fixture(scope="module")
def dropout_result():
    return run(dropout_experiment_steps(SHORT_DROPOUT, seed=0))


def test_without_the_mask_training_loss_nears_zero_but_generating_loss_stays_high(mask_result):
    unmasked = mask_result.unmasked
    assert unmasked.train_loss < 0.1 and unmasked.held_out_loss < 0.1
    assert unmasked.generating_loss > mask_result.chance_loss  # worse than knowing nothing
    assert unmasked.grammatical_transitions < 0.5 and unmasked.grammatical_sentences < 0.2


def test_with_the_mask_every_loss_settles_near_the_entropy_and_the_text_is_grammatical(mask_result):
    masked = mask_result.masked
    for loss in (masked.train_loss, masked.held_out_loss, masked.generating_loss):
        assert mask_result.entropy - 0.05 < loss < mask_result.entropy + 0.1
    assert masked.generating_loss == pytest.approx(masked.held_out_loss, abs=1e-4)
    assert masked.grammatical_transitions > 0.95 and masked.grammatical_sentences > 0.9


def test_the_curves_start_at_step_zero_and_end_at_the_reported_losses(mask_result):
    for mask_run in mask_result.runs:
        assert [curve.name for curve in mask_run.curves] == ["train", "held_out", "generating"]
        assert all(curve.steps == (0, 100, 200, 300) for curve in mask_run.curves)
        assert mask_run.curves[2].losses[-1] == mask_run.generating_loss
        assert len(mask_run.samples) == SHORT_MASK.shown


def test_progress_rises_from_zero_to_one_and_only_the_last_carries_the_result():
    tiny = MaskExperiment(train_sentences=64, held_out_sentences=16, samples=4, train=TrainConfig(20, 8, log_every=5))
    items = list(mask_experiment_steps(tiny, seed=0))
    fractions = [item.fraction for item in items]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert all(isinstance(item, Progress) and item.result is None for item in items[:-1])
    assert items[-1].result is not None


def test_two_layers_grow_induction_heads_and_silencing_their_helper_breaks_the_repeat(heads_result):
    assert heads_result.repeat_loss < 1.0 < heads_result.chance_loss
    by_place = {(h.layer, h.head): h for h in heads_result.heads}
    assert max(by_place[2, 1].induction, by_place[2, 2].induction) > 0.5
    assert max(by_place[1, 1].induction, by_place[1, 2].induction) < 0.3  # one layer alone cannot do it
    helper = max((h for h in heads_result.heads if h.layer == 1), key=lambda h: h.duplicate_token)
    assert helper.silenced_repeat_loss > heads_result.repeat_loss + 1.0


def test_one_layer_cannot_predict_the_repeat():
    """Position embeddings alone do not solve the varied offsets: a one-layer model stays near chance there."""
    one_layer = HeadsExperiment(layers=1, train_rows=8192, train=TrainConfig(400, 32, 1e-2, log_every=400))
    result = run(heads_experiment_steps(one_layer, seed=0))
    assert result.repeat_loss > 2.5


def test_the_maps_are_rows_of_weights_that_respect_the_mask(heads_result):
    weights = heads_result.weight_map(2, 1)  # (T, T)
    assert weights.shape == (SHORT_HEADS.length, SHORT_HEADS.length) and not weights.flags.writeable
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, atol=1e-2)  # rounded to 3 digits a cell
    np.testing.assert_array_equal(np.triu(weights, k=1), 0.0)


def test_a_tiny_training_set_is_memorised_below_the_entropy(dropout_result):
    without = dropout_result.runs[0]
    assert without.p == 0.0
    assert without.train_loss < dropout_result.entropy - 0.1 < dropout_result.entropy + 0.5 < without.held_out_loss
    assert [r.p for r in dropout_result.runs] == [0.0, 0.1, 0.3]
    assert all(r.gap == pytest.approx(r.held_out_loss - r.train_loss, abs=1e-4) for r in dropout_result.runs)


def test_results_survive_json_exactly(mask_result, heads_result, dropout_result):
    for result in (mask_result, heads_result, dropout_result):
        text = to_json(result)
        assert from_json(text) == result
        json.loads(text)  # plain JSON: no NaN, no Infinity
        assert "NaN" not in text and "Infinity" not in text
