"""The attention maths, one small function a step, NumPy only.

Letters used in the shape comments:
    B  batch size (sentences processed together; the app uses one)
    T  tokens in the sentence (query rows and key columns)
    h  number of heads
    d  model width d_model;  dh = d_head = d / h, the width of one head
    3  the input embedding width d_in

Masks follow one rule everywhere: True means blocked.
"""

from __future__ import annotations

import numpy as np

from attn_core import portable

# --- masks -------------------------------------------------------------------------------------------


def causal_mask(length: int) -> np.ndarray:
    """True strictly above the diagonal: key j comes after query i."""
    return np.triu(np.ones((length, length), dtype=bool), k=1)  # (T, T)


def padding_mask(is_pad: np.ndarray) -> np.ndarray:
    """From PAD flags per sentence to a mask that broadcasts over every query row."""
    is_pad = np.asarray(is_pad, dtype=bool)  # (B, T)
    return is_pad[:, None, :]  # (B, 1, T)


def combine_masks(causal: np.ndarray, padding: np.ndarray) -> np.ndarray:
    """A cell is blocked when either mask blocks it."""
    return np.logical_or(causal, padding)  # (T, T) | (B, 1, T) -> (B, T, T)


# --- softmax and the four masking routes ----------------------------------------------------------


def softmax(scores: np.ndarray) -> np.ndarray:
    """Stable softmax over the last axis."""
    shifted = scores - scores.max(axis=-1, keepdims=True)
    exps = portable.exp(shifted)
    return exps / exps.sum(axis=-1, keepdims=True)


def masked_softmax(scores: np.ndarray, blocked: np.ndarray) -> np.ndarray:
    """Blocked scores become -inf before the softmax; a row with nothing legal gets all zeros (not NaN)."""
    blocked = np.broadcast_to(blocked, scores.shape)
    masked = np.where(blocked, -np.inf, scores)  # (..., T, T)
    row_max = masked.max(axis=-1, keepdims=True)  # -inf on an empty row
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    exps = portable.exp(masked - row_max)  # e^-inf = 0 on blocked cells
    totals = exps.sum(axis=-1, keepdims=True)
    return np.divide(exps, totals, out=np.zeros_like(exps), where=totals > 0)


def renormalize_rows(weights: np.ndarray) -> np.ndarray:
    """Divide each row by its sum; an all-zero row stays all zero."""
    totals = weights.sum(axis=-1, keepdims=True)
    return np.divide(weights, totals, out=np.zeros_like(weights), where=totals > 0)


def apply_route(scores: np.ndarray, blocked: np.ndarray, route: str) -> np.ndarray:
    """Attention weights from scores under one of the four ways of removing blocked cells."""
    blocked = np.broadcast_to(blocked, scores.shape)
    if route == "neg_inf":
        return masked_softmax(scores, blocked)
    if route == "zero_after":
        return np.where(blocked, 0.0, softmax(scores))  # rows now sum to less than 1
    if route == "renormalize":
        return renormalize_rows(np.where(blocked, 0.0, softmax(scores)))
    if route == "zero_score":
        return softmax(np.where(blocked, 0.0, scores))  # the trap: e^0 = 1 gives blocked keys weight
    raise ValueError(f"unknown route {route!r}")


def scores_in_sum(blocked: np.ndarray, route: str) -> np.ndarray:
    """Which scores enter the softmax's sum under a route (True: that score moves the row's kept weights)."""
    if route == "zero_after":
        return np.ones_like(blocked, dtype=bool)  # the softmax ran over every key before the zeroing
    if route in ("neg_inf", "renormalize", "zero_score"):
        return ~np.asarray(blocked, dtype=bool)  # -inf drops out; renormalizing cancels it; 0 replaces it
    raise ValueError(f"unknown route {route!r}")


# --- dropout -----------------------------------------------------------------------------------------


def dropout_keep(shape: tuple[int, ...], p: float, rng: np.random.Generator) -> np.ndarray:
    """A seeded keep-mask: each cell survives with probability 1 - p."""
    return rng.random(shape) >= p  # (..., T, T) bool


def apply_dropout(weights: np.ndarray, keep: np.ndarray, p: float, rescale: bool) -> np.ndarray:
    """Zero the dropped cells; survivors times 1 / (1 - p) so the expected row sum stays 1."""
    scale = 1.0 / (1.0 - p) if rescale else 1.0
    return np.where(keep, weights * scale, 0.0)


# --- heads -------------------------------------------------------------------------------------------


def split_heads(matrix: np.ndarray, heads: int) -> np.ndarray:
    """(T, d) -> (h, T, dh): head i takes columns i*dh to (i+1)*dh - 1."""
    length, width = matrix.shape
    return matrix.reshape(length, heads, width // heads).transpose(1, 0, 2)  # (h, T, dh)


def merge_heads(per_head: np.ndarray) -> np.ndarray:
    """(h, T, dh) -> (T, d): the heads side by side, head 0 first."""
    heads, length, width = per_head.shape
    return per_head.transpose(1, 0, 2).reshape(length, heads * width)  # (T, d)


def scaled_scores(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """How well each query matches each key, divided by sqrt(d_head)."""
    return q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])  # (..., T, T)


def projection_matrices(seed: int, d_model: int, heads: int) -> tuple[np.ndarray, ...]:
    """W_q, W_k, W_v (3, d) and W_o (d, d); each head's column block has its own seeded generator."""
    d_head = d_model // heads
    blocks = []
    for head in range(heads):
        rng = np.random.default_rng([seed, head])  # one generator a head: a geometry of its own
        blocks.append(rng.normal(0.0, WEIGHT_STD, size=(3, 3, d_head)))  # (q|k|v, 3, dh)
    w_q, w_k, w_v = (np.concatenate([b[i] for b in blocks], axis=1) for i in range(3))  # (3, d) each
    out_rng = np.random.default_rng([seed, OUTPUT_STREAM])
    w_o = out_rng.normal(0.0, 1.0 / np.sqrt(d_model), size=(d_model, d_model))  # (d, d)
    return w_q, w_k, w_v, w_o


WEIGHT_STD = 1.5  # spread of the toy projections: enough contrast for maps that differ at a glance
OUTPUT_STREAM = 1_000_003  # the generator key of W_o, far from any head index
DROPOUT_STREAM = 2_000_003  # the generator key of dropout patterns
