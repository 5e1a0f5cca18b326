"""The model's layers as forward/backward pairs, NumPy only.

Each `x_forward(...)` returns `(out, cache)`; its `x_backward(d_out, cache)` returns the gradients of the loss
with respect to the forward's inputs, in the same order. The masking, softmax, dropout and head split/merge
are the Lab's own functions from attn_core.maths, so what the Lab shows is what trains.

Letters used in the shape comments:
    B  sequences in the batch
    T  tokens in a sequence (query rows and key columns)
    h  number of heads;  dh = d_head = d / h
    d  model width d_model
    V  vocabulary size
    P  positions the model has embeddings for (P >= T)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from attn_core import maths, portable

# --- embeddings --------------------------------------------------------------------------------------


def embedding_forward(token_ids: np.ndarray, token_table: np.ndarray, position_table: np.ndarray):
    """x[b, t] = token_table[token_ids[b, t]] + position_table[t]."""
    length = token_ids.shape[1]
    x = token_table[token_ids] + position_table[:length]  # (B, T, d)
    return x, (token_ids, token_table.shape, position_table.shape)


def embedding_backward(d_x: np.ndarray, cache):
    """A table row's gradient is the sum of d_x over every place that row was used."""
    token_ids, token_shape, position_shape = cache
    vocab, width = token_shape
    one_hot = (token_ids.reshape(-1)[:, None] == np.arange(vocab)).astype(d_x.dtype)  # (B*T, V)
    d_token_table = one_hot.T @ d_x.reshape(-1, width)  # (V, d)
    d_position_table = np.zeros(position_shape, dtype=d_x.dtype)  # (P, d)
    d_position_table[: d_x.shape[1]] = d_x.sum(axis=0)  # (T, d)
    return d_token_table, d_position_table


# --- a linear map with no bias -----------------------------------------------------------------------


def linear_forward(x: np.ndarray, weight: np.ndarray):
    """x @ weight with the batch folded into the rows: one matrix product instead of one a sequence."""
    rows = x.reshape(-1, x.shape[-1])  # (B*T, d)
    out = (rows @ weight).reshape(*x.shape[:-1], weight.shape[1])  # (B, T, n)
    return out, (rows, weight)


def linear_backward(d_out: np.ndarray, cache):
    rows, weight = cache
    d_rows = d_out.reshape(-1, d_out.shape[-1])  # (B*T, n)
    d_x = (d_rows @ weight.T).reshape(*d_out.shape[:-1], weight.shape[0])  # (B, T, d)
    d_weight = rows.T @ d_rows  # (d, n)
    return d_x, d_weight


# --- heads: the Lab's split and merge, one sequence of the batch after another ----------------------


def split_batch_heads(matrix: np.ndarray, heads: int) -> np.ndarray:
    """(B, T, d) -> (B, h, T, dh) with maths.split_heads, the batch folded into the token axis."""
    batch, length, width = matrix.shape
    per_head = maths.split_heads(matrix.reshape(batch * length, width), heads)  # (h, B*T, dh)
    return per_head.reshape(heads, batch, length, width // heads).transpose(1, 0, 2, 3)  # (B, h, T, dh)


def merge_batch_heads(per_head: np.ndarray) -> np.ndarray:
    """(B, h, T, dh) -> (B, T, d) with maths.merge_heads; the exact inverse of split_batch_heads."""
    batch, heads, length, width = per_head.shape
    stacked = per_head.transpose(1, 0, 2, 3).reshape(heads, batch * length, width)  # (h, B*T, dh)
    return maths.merge_heads(stacked).reshape(batch, length, heads * width)  # (B, T, d)


# Splitting only moves numbers, so its backward moves the gradient back: split's backward is merge.
split_backward = merge_batch_heads


def merge_backward(d_merged: np.ndarray, heads: int) -> np.ndarray:
    return split_batch_heads(d_merged, heads)  # (B, h, T, dh)


# --- scores, masked softmax, dropout, the weighted sum of values -------------------------------------


def scores_forward(queries: np.ndarray, keys: np.ndarray):
    scores = maths.scaled_scores(queries, keys)  # (B, h, T, T)
    return scores, (queries, keys)


def scores_backward(d_scores: np.ndarray, cache):
    queries, keys = cache
    scale = 1.0 / np.sqrt(queries.shape[-1])
    d_queries = d_scores @ keys * scale  # (B, h, T, dh)
    d_keys = d_scores.swapaxes(-1, -2) @ queries * scale  # (B, h, T, dh)
    return d_queries, d_keys


def softmax_forward(scores: np.ndarray, blocked: np.ndarray):
    """The Lab's -inf route: blocked cells get weight exactly 0; a row with nothing legal is all zeros."""
    weights = maths.masked_softmax(scores, blocked)  # (B, h, T, T)
    return weights, weights


def softmax_backward(d_weights: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Softmax's Jacobian row by row; a blocked cell has weight 0, so its score gets gradient 0."""
    row_dot = (d_weights * weights).sum(axis=-1, keepdims=True)  # (B, h, T, 1)
    return weights * (d_weights - row_dot)  # (B, h, T, T)


def dropout_forward(weights: np.ndarray, keep: np.ndarray | None, p: float):
    """Training: drop the cells keep marks False and rescale survivors by 1 / (1 - p). keep=None: inference."""
    if keep is None:
        return weights, None
    dropped = maths.apply_dropout(weights, keep, p, rescale=True)  # (B, h, T, T)
    return dropped, (keep, p)


def dropout_backward(d_dropped: np.ndarray, cache) -> np.ndarray:
    """Dropout multiplies each cell by 0 or 1 / (1 - p); its gradient is multiplied by the same."""
    if cache is None:
        return d_dropped
    keep, p = cache
    return maths.apply_dropout(d_dropped, keep, p, rescale=True)  # (B, h, T, T)


def mix_forward(weights: np.ndarray, values: np.ndarray):
    context = weights @ values  # (B, h, T, T) @ (B, h, T, dh) -> (B, h, T, dh)
    return context, (weights, values)


def mix_backward(d_context: np.ndarray, cache):
    weights, values = cache
    d_weights = d_context @ values.swapaxes(-1, -2)  # (B, h, T, T)
    d_values = weights.swapaxes(-1, -2) @ d_context  # (B, h, T, dh)
    return d_weights, d_values


# --- one multi-head attention layer ------------------------------------------------------------------


class AttentionCache(NamedTuple):
    """What attention_backward needs from the forward pass, one entry a step."""

    q: Any
    k: Any
    v: Any
    scores: Any
    softmax: Any
    dropout: Any
    mix: Any
    o: Any
    heads: int
    head_gate: np.ndarray | None
    weights: np.ndarray  # (B, h, T, T) after the softmax, before dropout: what the maps show


def attention_forward(x, w_q, w_k, w_v, w_o, blocked, heads, keep=None, p=0.0, head_gate=None):
    """x (B, T, d) -> (B, T, d): project, split, score, mask, softmax, dropout, mix, merge, project.

    blocked (B, 1, T, T) or (T, T) bool, True = blocked. keep (B, h, T, T) bool or None (no dropout).
    head_gate (h,) multiplies each head's context (0 silences a head for an ablation); None leaves them be.
    """
    q_flat, q_cache = linear_forward(x, w_q)  # (B, T, d)
    k_flat, k_cache = linear_forward(x, w_k)  # (B, T, d)
    v_flat, v_cache = linear_forward(x, w_v)  # (B, T, d)
    queries = split_batch_heads(q_flat, heads)  # (B, h, T, dh)
    keys = split_batch_heads(k_flat, heads)  # (B, h, T, dh)
    values = split_batch_heads(v_flat, heads)  # (B, h, T, dh)

    scores, scores_cache = scores_forward(queries, keys)  # (B, h, T, T)
    weights, softmax_cache = softmax_forward(scores, blocked)  # (B, h, T, T)
    dropped, dropout_cache = dropout_forward(weights, keep, p)  # (B, h, T, T)
    context, mix_cache = mix_forward(dropped, values)  # (B, h, T, dh)
    if head_gate is not None:
        context = context * head_gate[:, None, None]  # (B, h, T, dh)

    merged = merge_batch_heads(context)  # (B, T, d)
    out, o_cache = linear_forward(merged, w_o)  # (B, T, d)
    cache = AttentionCache(
        q_cache, k_cache, v_cache, scores_cache, softmax_cache, dropout_cache, mix_cache, o_cache, heads, head_gate,
        weights,
    )
    return out, cache


def attention_backward(d_out: np.ndarray, cache: AttentionCache):
    """The forward's steps in reverse order; returns d_x and the gradients of w_q, w_k, w_v, w_o."""
    d_merged, d_w_o = linear_backward(d_out, cache.o)  # (B, T, d), (d, d)
    d_context = merge_backward(d_merged, cache.heads)  # (B, h, T, dh)
    if cache.head_gate is not None:
        d_context = d_context * cache.head_gate[:, None, None]  # (B, h, T, dh)

    d_dropped, d_values = mix_backward(d_context, cache.mix)  # (B, h, T, T), (B, h, T, dh)
    d_weights = dropout_backward(d_dropped, cache.dropout)  # (B, h, T, T)
    d_scores = softmax_backward(d_weights, cache.softmax)  # (B, h, T, T)
    d_queries, d_keys = scores_backward(d_scores, cache.scores)  # (B, h, T, dh) each

    d_x_q, d_w_q = linear_backward(split_backward(d_queries), cache.q)  # (B, T, d), (d, d)
    d_x_k, d_w_k = linear_backward(split_backward(d_keys), cache.k)  # (B, T, d), (d, d)
    d_x_v, d_w_v = linear_backward(split_backward(d_values), cache.v)  # (B, T, d), (d, d)
    return d_x_q + d_x_k + d_x_v, d_w_q, d_w_k, d_w_v, d_w_o


# --- output layer and loss ---------------------------------------------------------------------------


def output_forward(x: np.ndarray, weight: np.ndarray, bias: np.ndarray):
    products, cache = linear_forward(x, weight)  # (B, T, V)
    return products + bias, cache  # (B, T, V)


def output_backward(d_logits: np.ndarray, cache):
    d_x, d_weight = linear_backward(d_logits, cache)  # (B, T, d), (d, V)
    d_bias = d_logits.reshape(-1, d_logits.shape[-1]).sum(axis=0)  # (V,)
    return d_x, d_weight, d_bias


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)  # (B, T, V)
    return shifted - portable.log(portable.exp(shifted).sum(axis=-1, keepdims=True))  # (B, T, V)


def softmax_loss(logits: np.ndarray, targets: np.ndarray, counted: np.ndarray):
    """Mean cross-entropy in nats over the counted targets (PAD targets are not counted), and d_logits.

    logits (B, T, V); targets (B, T) int; counted (B, T) bool.
    """
    log_probs = log_softmax(logits)  # (B, T, V)
    picked = np.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]  # (B, T)
    count = max(int(counted.sum()), 1)
    loss = -float(np.where(counted, picked, 0.0).sum()) / count

    d_logits = portable.exp(log_probs)  # (B, T, V) the predicted probabilities
    np.put_along_axis(d_logits, targets[..., None], np.take_along_axis(d_logits, targets[..., None], -1) - 1.0, -1)
    d_logits *= counted[..., None] / count  # (B, T, V)
    return loss, d_logits
