"""Properties over random settings (hypothesis): what must hold for every sentence, head count and mask."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_core import SUPPORTED_D_MODEL, Settings, compute, valid_head_counts
from attn_core import engine as engine_module
from attn_core.tokens import word_embedding

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def any_settings(draw, dropout=None, route=None):
    words = draw(st.lists(WORDS, min_size=1, max_size=16))
    d_model = draw(st.sampled_from(SUPPORTED_D_MODEL))
    heads = draw(st.sampled_from(valid_head_counts(d_model)))
    padded = draw(st.sets(st.integers(1, len(words)), max_size=len(words)))
    return Settings(
        sentence=" ".join(words),
        causal=draw(st.booleans()),
        padded=tuple(sorted(padded)),
        heads=heads,
        view=draw(st.integers(1, heads)),
        d_model=d_model,
        dropout=dropout if dropout is not None else draw(st.sampled_from([0.0, 0.1, 0.5, 0.9])),
        training=draw(st.booleans()),
        route=route or draw(st.sampled_from(["neg_inf", "zero_after", "renormalize"])),
        seed=draw(st.integers(0, 999_999)),
        roll=draw(st.integers(0, 50)),
    )


@FAST
@given(any_settings(dropout=0.0, route="neg_inf"))
def test_every_row_with_a_legal_cell_sums_to_one_and_empty_rows_to_zero(s):
    result = compute(s)
    sums = result.row_sums  # (h, T)
    has_legal = ~result.blocked.all(axis=-1)  # (h, T)
    np.testing.assert_allclose(sums[has_legal], 1.0, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(sums[~has_legal], 0.0)
    assert len(result.empty_rows) == int((~has_legal[0]).sum())


@FAST
@given(any_settings())
def test_blocked_cells_are_exactly_zero_and_nothing_is_nan_or_inf(s):
    with np.errstate(all="raise"):
        result = compute(s)
    assert (result.weights[result.blocked] == 0).all()
    for name in ("scores", "weights", "context", "output", "weights_before_dropout"):
        assert np.isfinite(getattr(result, name)).all(), name
    assert (result.weights >= 0).all()
    assert not (result.dropped & result.blocked).any()  # dropout acts on legal cells only


@FAST
@given(any_settings(), st.data())
def test_changing_a_later_word_never_moves_earlier_rows_with_the_mask_on(s, data):
    s = s.replace(causal=True, route=data.draw(st.sampled_from(["neg_inf", "renormalize"])))
    length = len(s.tokens)
    if length < 2:
        return
    later = data.draw(st.integers(2, length))  # 1-based position that changes
    words = list(s.tokens)
    words[later - 1] = words[later - 1] + "x"  # a different word, a different embedding
    changed = s.replace(sentence=" ".join(words))
    before, after = compute(s), compute(changed)
    rows = slice(0, later - 1)
    if s.route == "neg_inf":  # -inf before the softmax: not a single bit of an earlier row moves
        np.testing.assert_array_equal(before.weights[:, rows], after.weights[:, rows])
        np.testing.assert_array_equal(before.output[rows], after.output[rows])
    else:  # renormalizing removes the future's share up to rounding
        np.testing.assert_allclose(before.weights[:, rows], after.weights[:, rows], rtol=0, atol=1e-12)
        np.testing.assert_allclose(before.output[rows], after.output[rows], rtol=0, atol=1e-12)


def test_zero_after_softmax_lets_the_future_in_through_the_denominator():
    """Zeroing after the softmax is worse than short rows: the kept weights still depend on future scores."""
    base = Settings(causal=True, route="zero_after")
    changed = base.replace(sentence="Your journey starts with one leap")
    assert not np.allclose(compute(base).weights[:, 0], compute(changed).weights[:, 0])


def test_changing_a_later_word_does_move_earlier_rows_with_the_mask_off():
    base = Settings(causal=False)
    changed = base.replace(sentence="Your journey starts with one leap")
    assert not np.array_equal(word_embedding("step"), word_embedding("leap"))
    before, after = compute(base), compute(changed)
    assert not np.allclose(before.weights[:, :5], after.weights[:, :5])
    assert not np.allclose(before.output[:5], after.output[:5])


def test_mean_row_sum_with_dropout_is_close_to_one_and_without_rescale_close_to_one_minus_p():
    for p in (0.1, 0.5):
        base = Settings(dropout=p, heads=1)
        rescaled = np.mean([compute(base.replace(roll=r)).row_sums.mean() for r in range(400)])
        unscaled = np.mean([compute(base.replace(roll=r, rescale=False)).row_sums.mean() for r in range(400)])
        assert abs(rescaled - 1.0) < 0.03, rescaled
        assert abs(unscaled - (1 - p)) < 0.03, unscaled


@FAST
@given(any_settings(dropout=0.0))
def test_different_heads_give_different_maps(s):
    distinct = len({tuple(word_embedding(w)) for w in s.tokens}) == len(s.tokens)
    if s.heads < 2 or len(s.tokens) < 2 or len(s.padded) >= len(s.tokens) - 1 or not distinct:
        return  # identical words (or a single legal key) give every head the same uniform map
    s = s.replace(causal=False, route="neg_inf")  # no cell forced to 0 or 1 by a mask
    result = compute(s)
    for a in range(s.heads):
        for b in range(a + 1, s.heads):
            assert not np.allclose(result.weights[a], result.weights[b], atol=1e-9)


@FAST
@given(any_settings())
def test_the_same_settings_give_the_same_bits(s):
    first, second = compute(s), compute(Settings(**{f: getattr(s, f) for f in _FIELDS}))
    for name in ("x", "w_q", "w_o", "weights", "dropped", "output"):
        assert getattr(first, name).tobytes() == getattr(second, name).tobytes()


_FIELDS = [f for f in Settings.__dataclass_fields__ if f != "tokens"]


def test_results_are_read_only():
    result = compute(Settings())
    assert not result.weights.flags.writeable
    assert engine_module.compute(Settings()).weights.tobytes() == result.weights.tobytes()


@FAST
@given(any_settings())
def test_row_sums_and_kpis_are_consistent(s):
    result = compute(s)
    view = s.view - 1
    assert result.masked_cells == int(result.blocked[view].sum())
    assert result.dropped_cells == int(result.dropped[view].sum())
    if not s.dropout_active:
        assert result.dropped_cells == 0
    above = np.triu(np.ones_like(result.blocked[0]), k=1)
    weight_on_later = bool((result.weights[view][above] > 0).any())
    assert result.sees_future >= weight_on_later  # weight on a later word always lets its value in
    if not s.dropout_active and s.route != "zero_after":  # else a later score can act through the sum alone
        assert result.sees_future == weight_on_later
