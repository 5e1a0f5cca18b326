"""A tiny decoder-only model: token + position embeddings, 1 or 2 attention layers with residuals, an output layer.

There is no MLP and no LayerNorm: attention alone is the lesson, and at this size the model trains without them.
Parameters live in a plain dict of arrays; forward() returns logits and a cache, backward() the gradients.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from attn_core import maths
from attn_core.errors import SettingsError
from attn_core.training import layers

ATTENTION_WEIGHTS = ("w_q", "w_k", "w_v", "w_o")


@dataclass(frozen=True)
class ModelConfig:
    """The shape of the model and the switches the Lab has."""

    vocab_size: int  # V, tokens the model reads and predicts
    length: int  # P, the longest input it has position embeddings for
    d_model: int = 32  # d, width of every token vector
    heads: int = 2  # h; must divide d_model
    layers: int = 1  # attention layers, each with a residual connection
    causal: bool = True  # block every key after its query
    dropout: float = 0.0  # p, share of attention weights dropped in training
    pad_id: int | None = None  # the PAD token, blocked as a key by the padding mask; None when data has no PAD

    def __post_init__(self) -> None:
        if self.d_model % self.heads:
            raise SettingsError(f"{self.heads} heads cannot split d_model = {self.d_model} evenly.")
        if self.layers not in (1, 2):
            raise SettingsError("The training model has 1 or 2 attention layers.")
        if not 0.0 <= self.dropout < 1.0:
            raise SettingsError("Dropout p must be at least 0 and below 1.")


def parameter_name(layer: int, weight: str) -> str:
    return f"layer{layer}.{weight}"


def init_parameters(config: ModelConfig, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Embeddings N(0, 1) and projections N(0, 1/d) keep activations near unit size; a small output layer
    makes the first predictions nearly uniform, so the loss starts near ln V."""
    d, vocab = config.d_model, config.vocab_size
    params = {
        "token_embedding": rng.normal(0.0, 1.0, size=(vocab, d)),  # (V, d)
        "position_embedding": rng.normal(0.0, 1.0, size=(config.length, d)),  # (P, d)
    }
    for layer in range(config.layers):
        for weight in ATTENTION_WEIGHTS:
            params[parameter_name(layer, weight)] = rng.normal(0.0, 1.0 / np.sqrt(d), size=(d, d))  # (d, d)
    params["output_weight"] = rng.normal(0.0, 0.1 / np.sqrt(d), size=(d, vocab))  # (d, V) small: start at chance
    params["output_bias"] = np.zeros(vocab)  # (V,)
    return params


def blocked_cells(token_ids: np.ndarray, config: ModelConfig) -> np.ndarray:
    """Which keys each query may not read: the future (when causal) or a PAD key. True = blocked."""
    length = token_ids.shape[1]
    future = maths.causal_mask(length) if config.causal else np.zeros((length, length), dtype=bool)  # (T, T)
    is_pad = token_ids == config.pad_id if config.pad_id is not None else np.zeros(token_ids.shape, dtype=bool)
    blocked = maths.combine_masks(future, maths.padding_mask(is_pad))  # (B, T, T)
    return blocked[:, None]  # (B, 1, T, T): the same mask for every head


def draw_keeps(config: ModelConfig, batch: int, length: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """One dropout keep-mask a layer, from the Lab's dropout_keep."""
    shape = (batch, config.heads, length, length)
    return tuple(maths.dropout_keep(shape, config.dropout, rng) for __ in range(config.layers))  # (B, h, T, T) each


class ModelCache(NamedTuple):
    embedding: tuple
    attention: tuple  # one layers.AttentionCache a layer
    output: tuple


def forward(params, token_ids, config: ModelConfig, keeps=None, silenced=()):
    """token_ids (B, T) -> logits (B, T, V) and the cache for backward.

    keeps: one (B, h, T, T) keep-mask a layer for training with dropout, or None for inference (no dropout).
    silenced: (layer, head) pairs whose output is set to zero (an ablation).
    """
    x, embedding_cache = layers.embedding_forward(
        token_ids, params["token_embedding"], params["position_embedding"]
    )  # (B, T, d)
    blocked = blocked_cells(token_ids, config)  # (B, 1, T, T)
    attention_caches = []
    for layer in range(config.layers):
        gate = head_gate(config.heads, layer, silenced)
        keep = None if keeps is None else keeps[layer]
        w_q, w_k, w_v, w_o = (params[parameter_name(layer, weight)] for weight in ATTENTION_WEIGHTS)
        attended, cache = layers.attention_forward(x, w_q, w_k, w_v, w_o, blocked, config.heads, keep,
                                                   config.dropout, gate)  # (B, T, d)
        x = x + attended  # (B, T, d) the residual connection
        attention_caches.append(cache)
    logits, output_cache = layers.output_forward(x, params["output_weight"], params["output_bias"])  # (B, T, V)
    return logits, ModelCache(embedding_cache, tuple(attention_caches), output_cache)


def head_gate(heads: int, layer: int, silenced) -> np.ndarray | None:
    """1 for a head that speaks, 0 for a silenced one; None when no head of this layer is silenced."""
    off = [head for (silenced_layer, head) in silenced if silenced_layer == layer]
    if not off:
        return None
    gate = np.ones(heads)  # (h,)
    gate[off] = 0.0
    return gate


def backward(d_logits: np.ndarray, cache: ModelCache) -> dict[str, np.ndarray]:
    """The gradient of the loss for every parameter, from d_logits (B, T, V)."""
    grads = {}
    d_x, grads["output_weight"], grads["output_bias"] = layers.output_backward(d_logits, cache.output)  # (B, T, d)
    for layer in reversed(range(len(cache.attention))):
        d_attended, *d_weights = layers.attention_backward(d_x, cache.attention[layer])  # (B, T, d)
        for weight, gradient in zip(ATTENTION_WEIGHTS, d_weights, strict=True):
            grads[parameter_name(layer, weight)] = gradient  # (d, d)
        d_x = d_x + d_attended  # the residual passes d_x through unchanged and adds the layer's share
    grads["token_embedding"], grads["position_embedding"] = layers.embedding_backward(d_x, cache.embedding)
    return grads


def loss_and_gradients(params, inputs, targets, counted, config: ModelConfig, keeps=None):
    """One training evaluation: forward, mean cross-entropy over counted targets, backward."""
    logits, cache = forward(params, inputs, config, keeps)  # (B, T, V)
    loss, d_logits = layers.softmax_loss(logits, targets, counted)
    return loss, backward(d_logits, cache)


def attention_maps(params, token_ids, config: ModelConfig) -> np.ndarray:
    """Inference-mode attention weights of every layer and head: (layers, B, h, T, T)."""
    __, cache = forward(params, token_ids, config)
    return np.stack([attention.weights for attention in cache.attention])  # (L, B, h, T, T)
