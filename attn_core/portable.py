"""exp and log that give the same bits on every CPU, NumPy only.

Why: `np.exp` and `np.log` pick their loops by CPU (NumPy has its own AVX-512 ones; elsewhere the C library's,
which has an FMA variant of its own), and each rounds the last bit its own way. A training run grows those last
bits into other curves. Here both are built from elementwise +, -, *, /, a table and ldexp, which IEEE 754 rounds
the same way on every machine. (Matrix products are the other half: the training process pins OpenBLAS's kernel,
attn_core/training/worker.py.)

    exp(x), log(x)   within 3 units in the last place of NumPy's (tests/core/test_portable.py)

What it costs: bench/reproducible.py times the training runs with these and with NumPy's own.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

# --- exp: x = (64 m + j) ln2/64 + r, e^x = 2^m 2^(j/64) e^r, |r| <= ln2/128, e^r by its Taylor series ----------

STEPS = 64  # table entries: 2^(j/64) for j = 0..63
with localcontext() as digits:  # 2^(j/64) to 40 digits in Python's decimal arithmetic, the same on any machine,
    digits.prec = 40  # then rounded once to the nearest float
    TWO_POWERS = np.array([float(Decimal(2) ** (Decimal(j) / STEPS)) for j in range(STEPS)])
TWO_POWERS.setflags(write=False)  # a constant table, never state
LN2 = 0.6931471805599453  # ln 2 rounded to a float: only picks k, so its last bit cannot matter
LN2_HI = 6.93147180369123816490e-01  # ln 2's leading 32 bits (as in fdlibm): k * LN2_HI / 64 is exact for |k| < 2^20
LN2_LO = 1.90821492927058770002e-10  # the rest of ln 2
EXP_TERMS = tuple(1.0 / math.factorial(n) for n in range(6))  # 1/n!, n = 0..5: |r| <= ln2/128 leaves < 4e-17
EXP_LOWEST, EXP_HIGHEST = -746.0, 710.0  # e^-746 rounds to 0 and e^710 to inf: clipping there changes nothing


def exp(x: np.ndarray) -> np.ndarray:
    """e^x elementwise: 0 for -inf, inf for inf, NaN stays NaN. In place where it can: a softmax calls it on
    every score of a batch."""
    x = np.asarray(x, dtype=float)
    inside = np.fmin(np.fmax(x, EXP_LOWEST), EXP_HIGHEST)  # fmax turns NaN into EXP_LOWEST, restored below
    steps = np.rint(inside * (STEPS / LN2))  # k: x is about k ln2/64
    rest = inside - steps * (LN2_HI / STEPS)  # r, computed in two parts so that it stays exact
    rest -= steps * (LN2_LO / STEPS)
    series = np.full_like(rest, EXP_TERMS[-1])
    for term in EXP_TERMS[-2::-1]:  # Horner: one rounded multiply, then one rounded add
        series *= rest
        series += term
    twos = np.floor(steps / STEPS)  # m
    series *= TWO_POWERS[(steps - twos * STEPS).astype(np.intp)]  # times 2^(j/64)
    with np.errstate(under="ignore", over="ignore"):
        out = np.ldexp(series, twos.astype(np.int64))  # times 2^m, exact (or rounded once into a subnormal)
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
