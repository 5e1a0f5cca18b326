"""Matrix products, exp and log that give the same bits on every CPU, NumPy only.

Why: `a @ b` goes to BLAS, which picks its kernel by CPU (Haswell, Zen, SkylakeX, ...), and `np.exp` and
`np.log` pick SIMD loops by CPU (AVX-512 has its own). Each rounds the last bit its own way, and a training run
grows those last bits into other curves: the same seed gave other numbers on an AVX2 server than on the
AVX-512 one the presets were made on, from step 125 on. Here every result is built from elementwise +, -, *, /
and sums in a fixed order, which IEEE 754 rounds the same way on every machine.

    matmul(a, b)   a (..., M, K) @ b (..., K, N): each output is the sum over k = 0, 1, ..., K-1 in that order
    exp(x), log(x) within about 2 units in the last place of the exact value (tests/core/test_portable.py)

What it costs: tests/core/test_portable.py and bench/train.py measure the training steps against BLAS.
"""

from __future__ import annotations

import math

import numpy as np

# --- exp: x = k ln 2 + r, e^x = 2^k e^r, e^r by its Taylor series ------------------------------------

LN2_HI = 6.93147180369123816490e-01  # ln 2's leading 32 bits (as in fdlibm): k * LN2_HI is exact for |k| < 2^20
LN2_LO = 1.90821492927058770002e-10  # the rest of ln 2
EXP_TERMS = tuple(1.0 / math.factorial(n) for n in range(14))  # 1/n!, n = 0..13: |r| <= ln2/2 leaves < 1e-17
EXP_LOWEST, EXP_HIGHEST = -745.2, 709.78  # below: 0 (under the smallest float); above: inf


def exp(x: np.ndarray) -> np.ndarray:
    """e^x elementwise: 0 for -inf and anything below the smallest float, inf above the largest, NaN stays NaN."""
    x = np.asarray(x, dtype=float)
    inside = np.clip(np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0), EXP_LOWEST, EXP_HIGHEST)
    twos = np.rint(inside / LN2_HI)  # k, the power of 2
    rest = (inside - twos * LN2_HI) - twos * LN2_LO  # r, |r| <= ln2/2
    series = np.full_like(rest, EXP_TERMS[-1])
    for term in EXP_TERMS[-2::-1]:  # Horner: one rounded multiply, then one rounded add
        series = series * rest + term
    with np.errstate(under="ignore", over="ignore"):
        out = np.ldexp(series, twos.astype(np.int64))
    out = np.where(x < EXP_LOWEST, 0.0, out)
    out = np.where(x > EXP_HIGHEST, np.inf, out)
    return np.where(np.isnan(x), np.nan, out)


# --- log: x = m 2^e with sqrt(1/2) <= m < sqrt(2), log m = 2 atanh(s), s = (m - 1) / (m + 1) --------------

LOG_TERMS = tuple(1.0 / (2 * n + 1) for n in range(12))  # 1/(2n+1): |s| <= 0.172 leaves < 1e-18
SQRT_HALF = 0.70710678118654752440


def log(x: np.ndarray) -> np.ndarray:
    """Natural log elementwise: -inf at 0, NaN below 0, inf at inf."""
    x = np.asarray(x, dtype=float)
    usable = (x > 0) & np.isfinite(x)
    mantissa, power = np.frexp(np.where(usable, x, 1.0))  # x = mantissa * 2^power, mantissa in [0.5, 1)
    low = mantissa < SQRT_HALF
    mantissa = np.where(low, mantissa * 2.0, mantissa)  # [sqrt(1/2), sqrt(2))
    power = np.where(low, power - 1, power).astype(float)
    s = (mantissa - 1.0) / (mantissa + 1.0)
    squared = s * s
    series = np.full_like(s, LOG_TERMS[-1])
    for term in LOG_TERMS[-2::-1]:
        series = series * squared + term
    out = power * LN2_HI + (power * LN2_LO + 2.0 * s * series)
    out = np.where(x == 0, -np.inf, out)
    out = np.where(x == np.inf, np.inf, out)
    return np.where((x < 0) | np.isnan(x), np.nan, out)
