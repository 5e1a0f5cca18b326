"""An independent reference: plain Python loops over heads, rows and keys, written here and not in the core.

It shares only the inputs (embeddings and projection matrices) and the dropout draw with the core; every
mask, score, softmax, concatenation and projection is redone by hand.
"""

import math

import numpy as np
import pytest

from attn_core import Settings, compute


def reference_attention(x, w_q, w_k, w_v, w_o, heads, causal, padded, dropped, p, rescale, route):
    length, d_model = x.shape[0], w_q.shape[1]
    d_head = d_model // heads
    concat = np.zeros((length, d_model))
    all_weights = np.zeros((heads, length, length))
    for head in range(heads):
        cols = slice(head * d_head, (head + 1) * d_head)
        q, k, v = x @ w_q[:, cols], x @ w_k[:, cols], x @ w_v[:, cols]
        for i in range(length):
            legal = [not ((causal and j > i) or (j + 1) in padded) for j in range(length)]
            raw = [float(q[i] @ k[j]) / math.sqrt(d_head) for j in range(length)]
            if route == "zero_score":
                exps = [math.exp(raw[j] if legal[j] else 0.0) for j in range(length)]
                row = [e / sum(exps) for e in exps]
            else:
                exps = [math.exp(raw[j]) if legal[j] else 0.0 for j in range(length)]
                if route == "zero_after":
                    full = [math.exp(r) for r in raw]
                    row = [exps[j] / sum(full) for j in range(length)]
                else:  # neg_inf and renormalize agree
                    total = sum(exps)
                    row = [e / total if total > 0 else 0.0 for e in exps]
            for j in range(length):
                if dropped[head, i, j]:
                    row[j] = 0.0
                elif p > 0 and rescale:
                    row[j] = row[j] / (1 - p)
            all_weights[head, i] = row
            concat[i, cols] = sum(row[j] * v[j] for j in range(length))
    return all_weights, concat, concat @ w_o


CASES = [
    Settings(),
    Settings(causal=True),
    Settings(causal=True, heads=4, padded=(5, 6)),
    Settings(causal=True, heads=3, padded=(1,)),
    Settings(heads=2, dropout=0.5, roll=3),
    Settings(heads=4, dropout=0.3, rescale=False, causal=True),
    Settings(heads=6, route="zero_after", causal=True),
    Settings(heads=12, route="renormalize", padded=(2, 4)),
    Settings(heads=2, route="zero_score", causal=True, padded=(6,)),
    Settings(sentence="the cat sat on the mat", d_model=8, heads=8, causal=True, seed=42),
    Settings(sentence="a", d_model=4, heads=2),
    Settings(sentence=" ".join(f"w{i}" for i in range(16)), d_model=24, heads=8, dropout=0.9, seed=7),
]


@pytest.mark.parametrize("settings", CASES, ids=lambda s: "-".join(f"{k}={v}" for k, v in s.to_query().items()))
def test_core_agrees_with_the_loop_reference(settings):
    result = compute(settings)
    p = settings.dropout if settings.dropout_active else 0.0
    weights, concat, output = reference_attention(
        result.x, result.w_q, result.w_k, result.w_v, result.w_o, settings.heads, settings.causal,
        set(settings.padded), result.dropped, p, settings.rescale, settings.route,
    )
    np.testing.assert_allclose(result.weights, weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.context, concat, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.output, output, rtol=0, atol=1e-12)


def test_dropout_pattern_is_a_bernoulli_draw_over_legal_cells():
    result = compute(Settings(dropout=0.5, heads=12, sentence=" ".join(f"w{i}" for i in range(16)), d_model=24))
    legal = ~result.blocked
    share = result.dropped[legal].mean()
    assert 0.45 < share < 0.55  # 12 * 256 draws at p = 0.5
