"""The facts and numbers of the two lessons, checked against the core."""

import numpy as np
import pytest

from attn_core import Settings, compute, maths
from attn_core.tokens import LESSON_EMBEDDINGS, tokenize


def test_default_sentence_has_six_tokens_with_the_chapter_3_embeddings():
    result = compute(Settings())
    assert result.tokens == ("Your", "journey", "starts", "with", "one", "step")
    expected = np.array(
        [
            [0.43, 0.15, 0.89],
            [0.55, 0.87, 0.66],
            [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33],
            [0.77, 0.25, 0.10],
            [0.05, 0.80, 0.55],
        ]
    )
    np.testing.assert_array_equal(result.x, expected)
    assert len(LESSON_EMBEDDINGS) == 6


def test_causal_mask_of_six_tokens_is_six_by_six_with_fifteen_blocked_cells():
    mask = maths.causal_mask(6)
    assert mask.shape == (6, 6)
    assert mask.sum() == 15 == 1 + 2 + 3 + 4 + 5
    result = compute(Settings(causal=True))
    assert result.masked_cells == 15
    assert result.future_cells == 15
    assert not result.sees_future


def test_mask_off_sees_the_future_and_blocks_nothing():
    result = compute(Settings(causal=False))
    assert result.masked_cells == 0
    assert result.sees_future


def test_four_tokens_causal_leaves_ten_of_sixteen_weights_nonzero():
    result = compute(Settings(sentence="a b c d", causal=True))
    assert result.weights[0].size == 16
    assert np.count_nonzero(result.weights[0]) == 10


@pytest.mark.parametrize("heads", [1, 2, 3, 4])
def test_first_row_is_one_then_zeros_in_every_head_with_the_mask_on(heads):
    result = compute(Settings(causal=True, heads=heads))
    for head in range(heads):
        np.testing.assert_array_equal(result.weights[head, 0], [1, 0, 0, 0, 0, 0])


@pytest.mark.parametrize("heads", [1, 2, 4])
def test_last_row_is_the_same_with_the_mask_on_or_off(heads):
    on = compute(Settings(causal=True, heads=heads))
    off = compute(Settings(causal=False, heads=heads))
    np.testing.assert_allclose(on.weights[:, -1], off.weights[:, -1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(on.output[-1], off.output[-1], rtol=0, atol=1e-12)
    assert not np.allclose(on.weights[:, 1], off.weights[:, 1])


def test_masking_causal_and_last_two_padded_blocks_eighteen_cells():
    result = compute(Settings(causal=True, padded=(5, 6)))
    assert result.masked_cells == 18
    assert result.padding_cells == 12
    assert result.blocked[0][:, 4:].all()  # the PAD columns are blocked for every row


def test_zero_after_rows_sum_below_one_and_renormalize_equals_neg_inf():
    settings = Settings(causal=True, heads=2)
    neg_inf = compute(settings).weights
    zero_after = compute(settings.replace(route="zero_after")).weights
    renormalized = compute(settings.replace(route="renormalize")).weights
    sums = zero_after.sum(axis=-1)
    assert (sums[:, :-1] < 1 - 1e-6).all()  # every row that lost future cells sums below 1
    np.testing.assert_allclose(sums[:, -1], 1.0, atol=1e-12)  # the last row lost nothing
    np.testing.assert_allclose(renormalized, neg_inf, rtol=0, atol=1e-12)


def test_the_blocked_score_set_to_zero_gives_the_pad_about_29_percent():
    scores = np.array([0.34, 0.05, 123.0])  # the blocked value does not matter: it is overwritten
    blocked = np.array([False, False, True])
    leaked = maths.apply_route(scores, blocked, "zero_score")
    assert leaked[2] == pytest.approx(1 / (np.exp(0.34) + np.exp(0.05) + 1), abs=1e-12)
    assert leaked[2] == pytest.approx(0.29, abs=0.005)
    assert round(np.exp(0.34), 2) == 1.40 and round(np.exp(0.05), 2) == 1.05
    assert maths.apply_route(scores, blocked, "neg_inf")[2] == 0.0


@pytest.mark.parametrize(("d_model", "heads", "d_head"), [(512, 8, 64), (768, 12, 64), (12, 4, 3), (4, 2, 2)])
def test_head_width_is_d_model_over_heads(d_model, heads, d_head):
    assert d_model // heads == d_head and d_model % heads == 0


def test_d_head_reported_by_the_result():
    assert compute(Settings(heads=4)).d_head == 3
    assert compute(Settings(heads=1)).d_head == 12


def test_padding_mask_2_1_5_broadcasts_to_2_5_5():
    is_pad = np.array([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]], dtype=bool)  # (B, L)
    mask = maths.padding_mask(is_pad)
    assert mask.shape == (2, 1, 5)
    scores = np.zeros((2, 5, 5))
    combined = np.broadcast_to(mask, scores.shape)
    assert combined.shape == (2, 5, 5)
    assert combined[0, :, 3:].all() and not combined[0, :, :3].any() and not combined[1].any()
    both = maths.combine_masks(maths.causal_mask(5), mask)
    assert both.shape == (2, 5, 5)


def test_concat_of_three_words_two_heads_of_two_is_three_by_four_and_head_1_starts_at_column_2():
    per_head = np.stack([np.full((3, 2), 0.0), np.full((3, 2), 1.0)])  # (h=2, T=3, dh=2)
    concat = maths.merge_heads(per_head)
    assert concat.shape == (3, 4)
    assert np.flatnonzero(concat[0] == 1.0)[0] == 2
    np.testing.assert_array_equal(maths.split_heads(concat, 2), per_head)


def test_future_values_sit_in_v_yet_contribute_nothing():
    result = compute(Settings(causal=True))
    first_value = result.values[0, 0]  # head 0, word 1
    np.testing.assert_allclose(result.per_head_context[0, 0], first_value, rtol=0, atol=1e-15)
    assert np.abs(result.values[0, 1:]).sum() > 0  # the future values are there ...
    assert (result.weights[0, 0, 1:] == 0).all()  # ... but their weights are exactly 0


def test_dropout_p_half_doubles_the_survivors_and_p_tenth_scales_by_about_1_11():
    for p, factor in [(0.5, 2.0), (0.1, 1 / 0.9)]:
        result = compute(Settings(dropout=p, heads=2))
        kept = ~result.dropped & (result.weights_before_dropout > 0)
        np.testing.assert_allclose(result.weights[kept], result.weights_before_dropout[kept] * factor, rtol=1e-12)
        assert (result.weights[result.dropped] == 0).all()
    assert round(1 / 0.9, 2) == 1.11


def test_inference_ignores_p():
    training = compute(Settings(dropout=0.5, training=True))
    inference = compute(Settings(dropout=0.5, training=False))
    assert training.dropped_cells > 0
    assert inference.dropped_cells == 0
    np.testing.assert_array_equal(inference.weights, compute(Settings()).weights)


def test_forgetting_the_rescale_leaves_survivors_unscaled():
    result = compute(Settings(dropout=0.5, rescale=False))
    kept = ~result.dropped
    np.testing.assert_array_equal(result.weights[kept], result.weights_before_dropout[kept])


def test_score_tensor_shape_and_float32_bytes():
    result = compute(Settings(heads=4))
    assert result.score_shape == (1, 4, 6, 6)
    assert result.score_bytes == 4 * 6 * 6 * 4


def test_first_word_padded_with_mask_on_gives_an_empty_row_of_zeros_without_warnings():
    with np.errstate(all="raise"):
        result = compute(Settings(causal=True, padded=(1,), heads=3, route="neg_inf"))
    assert result.empty_row_numbers == (1,)
    np.testing.assert_array_equal(result.weights[:, 0], 0.0)
    np.testing.assert_allclose(result.row_sums[:, 1:], 1.0, atol=1e-12)


@pytest.mark.parametrize("route", ["neg_inf", "zero_after", "renormalize"])
def test_every_route_keeps_an_empty_row_all_zero(route):
    with np.errstate(all="raise"):
        result = compute(Settings(causal=True, padded=(1, 2), route=route))
    assert result.empty_row_numbers == (1, 2)  # rows 1 and 2 may only look at words 1 and 2, both PAD
    assert (result.weights[:, :2] == 0).all()


def test_the_zero_score_trap_leaks_weight_to_the_future_even_with_the_mask_on():
    result = compute(Settings(causal=True, route="zero_score"))
    assert result.sees_future
    assert (result.weights[0][result.blocked[0]] > 0).all()


def test_tokens_split_on_white_space():
    assert tokenize("  the  cat\tsat\n") == ("the", "cat", "sat")
    assert len(tokenize(" ".join(["w"] * 16))) == 16
