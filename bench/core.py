"""How long one `compute` takes, against a bare NumPy attention of the same shapes in the same run.

usage: python3 bench/core.py [--repeats 2000]

The baseline is the textbook minimum (project, softmax(QK^T / sqrt(d_head)) V, W_o) with no masks, no
dropout, no bookkeeping; the ratio says what the core's checks, masks and read-only copies cost on top.
Machines here are noisy, so read the ratio, not the absolute figure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_core import Settings, compute  # noqa: E402

SENTENCE = "Your journey starts with one step and then another until the long road finally ends at home"
WORDS = SENTENCE.split(" ")


def bare_attention(x: np.ndarray, w_q, w_k, w_v, w_o, heads: int) -> np.ndarray:
    length, width = x.shape[0], w_q.shape[1]
    split = lambda m: m.reshape(length, heads, width // heads).transpose(1, 0, 2)  # noqa: E731
    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)  # (h, T, dh)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(width // heads)  # (h, T, T)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return (weights @ v).transpose(1, 0, 2).reshape(length, width) @ w_o  # (T, d)


def median_us(function, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'case':<34} {'compute µs':>11} {'bare µs':>9} {'ratio':>6}")
    for tokens in (6, 16):
        settings = Settings(sentence=" ".join(WORDS[:tokens]), heads=4, causal=True, padded=(tokens,), dropout=0.1)
        result = compute(settings)
        x, w = np.array(result.x), [np.array(m) for m in (result.w_q, result.w_k, result.w_v, result.w_o)]
        ours = median_us(lambda s=settings: compute(s), args.repeats)
        bare = median_us(lambda x=x, w=w: bare_attention(x, *w, heads=4), args.repeats)
        print(f"{f'{tokens} tokens, 4 heads, mask+pad+dropout':<34} {ours:>11.1f} {bare:>9.1f} {ours / bare:>6.1f}")


if __name__ == "__main__":
    main()
