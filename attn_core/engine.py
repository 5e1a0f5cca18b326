"""compute(settings) -> Result: the whole forward pass of one multi-head attention layer, step by step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core import maths
from attn_core.settings import Settings
from attn_core.tokens import embed, unique_labels

BYTES_FLOAT32 = 4


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only copy, so no page can change a cached result by accident."""
    array = np.array(array)
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class HeadMap:
    """What one head's attention map shows: its weights and why each cell is blocked or dropped.

    The map figure needs nothing else, so anything that has weights to show (a Result's head, the cheating head
    of lesson 1, a trained model's head) hands it one of these."""

    labels: tuple[str, ...]  # distinct words, one a row and one a column
    padded: tuple[int, ...]  # 1-based positions of PAD words
    weights: np.ndarray  # (T, T) what multiplies V
    weights_before_dropout: np.ndarray  # (T, T)
    blocked_by_causal: np.ndarray  # (T, T) bool
    blocked_by_padding: np.ndarray  # (T, T) bool
    dropped: np.ndarray  # (T, T) bool, cells zeroed by dropout

    @property
    def blocked(self) -> np.ndarray:
        return self.blocked_by_causal | self.blocked_by_padding  # (T, T)


@dataclass(frozen=True, eq=False)
class Result:
    """Every number the app shows for one Settings; arrays are read-only."""

    settings: Settings
    tokens: tuple[str, ...]
    labels: tuple[str, ...]  # distinct axis labels (a repeated word gets its position)
    x: np.ndarray  # (T, 3) input embeddings
    w_q: np.ndarray  # (3, d)
    w_k: np.ndarray  # (3, d)
    w_v: np.ndarray  # (3, d)
    w_o: np.ndarray  # (d, d)
    queries: np.ndarray  # (h, T, dh)
    keys: np.ndarray  # (h, T, dh)
    values: np.ndarray  # (h, T, dh)
    scores: np.ndarray  # (h, T, T) scaled by 1/sqrt(dh), before any mask
    blocked_by_causal: np.ndarray  # (T, T) bool
    blocked_by_padding: np.ndarray  # (T, T) bool
    blocked: np.ndarray  # (h, T, T) bool, the OR of both
    weights_before_dropout: np.ndarray  # (h, T, T)
    dropped: np.ndarray  # (h, T, T) bool, cells zeroed by dropout
    weights: np.ndarray  # (h, T, T) what multiplies V
    per_head_context: np.ndarray  # (h, T, dh) = weights @ values
    context: np.ndarray  # (T, d) the heads side by side
    output: np.ndarray  # (T, d) = context @ W_o

    # --- the KPIs: derived, never stored --------------------------------------------------------------

    @property
    def view_index(self) -> int:
        """0-based index of the head the Lab shows."""
        return self.settings.view - 1

    @property
    def d_head(self) -> int:
        return self.settings.d_head

    @property
    def reads_later(self) -> np.ndarray:
        """(T, T) bool: row i's output in the head in view changes when later word j (its score or value) does.

        A later word gets in two ways: through its weight (its value is added in), or through the softmax's sum
        (its score divides every kept weight of the row, even when its own weight ends up 0).
        """
        view = self.view_index
        weights = self.weights[view]  # (T, T) after dropout
        carries = weights > 0
        in_sum = maths.scores_in_sum(self.blocked[view], self.settings.route)  # (T, T)
        through_sum = in_sum & carries.any(axis=-1, keepdims=True)  # a row with no weight left has output 0
        later = np.triu(np.ones_like(carries), k=1)
        return (carries | through_sum) & later

    @property
    def sees_future(self) -> bool:
        """Does any output of the head in view change when a later word changes?"""
        return bool(self.reads_later.any())

    @property
    def masked_cells(self) -> int:
        """Cells blocked in one map, for the future, for padding or both (15 for a causal 6-word map)."""
        return int(self.blocked[0].sum())

    @property
    def padding_cells(self) -> int:
        return int(self.blocked_by_padding.sum())

    @property
    def future_cells(self) -> int:
        return int(self.blocked_by_causal.sum())

    @property
    def dropped_cells(self) -> int:
        """Cells zeroed by dropout in the head in view."""
        return int(self.dropped[self.view_index].sum())

    @property
    def row_sums(self) -> np.ndarray:
        return self.weights.sum(axis=-1)  # (h, T)

    @property
    def empty_rows(self) -> tuple[int, ...]:
        """0-based rows whose query has no key left to look at."""
        return tuple(int(i) for i in np.flatnonzero(self.blocked[0].all(axis=-1)))

    @property
    def empty_row_numbers(self) -> tuple[int, ...]:
        """The same rows as the screen counts them, from 1."""
        return tuple(row + 1 for row in self.empty_rows)

    @property
    def score_shape(self) -> tuple[int, int, int, int]:
        """(B, h, T, T) with one sentence in the batch."""
        return (1, self.settings.heads, len(self.tokens), len(self.tokens))

    @property
    def score_bytes(self) -> int:
        """Memory of the score tensor in float32."""
        return int(np.prod(self.score_shape)) * BYTES_FLOAT32

    def head_map(self, head: int | None = None) -> HeadMap:
        """What the map of one head (0-based; default: the head in view) shows."""
        head = self.view_index if head is None else head
        return HeadMap(
            labels=self.labels, padded=self.settings.padded, weights=self.weights[head],
            weights_before_dropout=self.weights_before_dropout[head], blocked_by_causal=self.blocked_by_causal,
            blocked_by_padding=self.blocked_by_padding, dropped=self.dropped[head],
        )

    def block_reason(self, query: int, key: int) -> str | None:
        """Why a cell (0-based) is blocked: 'future', 'padding', 'future and padding', or None."""
        future = bool(self.blocked_by_causal[query, key])
        padding = bool(self.blocked_by_padding[query, key])
        if future and padding:
            return "future and padding"
        return "future" if future else "padding" if padding else None


def dropout_pattern(settings: Settings, weights_before: np.ndarray) -> np.ndarray:
    """The cells dropout zeroes for this seed and roll (h, T, T); only cells that hold weight can be dropped.

    The weights before dropout do not depend on the roll, so a page that re-rolls many times computes them once
    and asks only for the patterns."""
    if not settings.dropout_active:
        return np.zeros(weights_before.shape, dtype=bool)
    rng = np.random.default_rng([settings.seed, settings.roll, maths.DROPOUT_STREAM])
    keep = maths.dropout_keep(weights_before.shape, settings.dropout, rng)  # (h, T, T)
    return ~keep & (weights_before > 0)


def compute(settings: Settings) -> Result:
    """One forward pass: embeddings -> Q, K, V -> scores -> mask -> softmax -> dropout -> A @ V -> W_o."""
    tokens = settings.tokens
    length, heads = len(tokens), settings.heads

    x = embed(tokens)  # (T, 3)
    w_q, w_k, w_v, w_o = maths.projection_matrices(settings.seed, settings.d_model, heads)
    queries = maths.split_heads(x @ w_q, heads)  # (h, T, dh)
    keys = maths.split_heads(x @ w_k, heads)  # (h, T, dh)
    values = maths.split_heads(x @ w_v, heads)  # (h, T, dh)
    scores = maths.scaled_scores(queries, keys)  # (h, T, T)

    future = maths.causal_mask(length) if settings.causal else np.zeros((length, length), dtype=bool)
    is_pad = np.isin(np.arange(1, length + 1), settings.padded)[None, :]  # (1, T)
    padding = np.broadcast_to(maths.padding_mask(is_pad), (1, length, length))[0]  # (T, T)
    blocked = np.broadcast_to(maths.combine_masks(future, padding), (heads, length, length))  # (h, T, T)

    weights_before = maths.apply_route(scores, blocked, settings.route)  # (h, T, T)
    dropped = dropout_pattern(settings, weights_before)  # (h, T, T)
    weights = weights_before
    if settings.dropout_active:
        weights = maths.apply_dropout(weights_before, ~dropped, settings.dropout, settings.rescale)

    per_head_context = weights @ values  # (h, T, dh)
    context = maths.merge_heads(per_head_context)  # (T, d)
    output = context @ w_o  # (T, d)

    return Result(
        settings=settings,
        tokens=tokens,
        labels=unique_labels(tokens),
        x=read_only(x),
        w_q=read_only(w_q),
        w_k=read_only(w_k),
        w_v=read_only(w_v),
        w_o=read_only(w_o),
        queries=read_only(queries),
        keys=read_only(keys),
        values=read_only(values),
        scores=read_only(scores),
        blocked_by_causal=read_only(future),
        blocked_by_padding=read_only(padding),
        blocked=read_only(blocked),
        weights_before_dropout=read_only(weights_before),
        dropped=read_only(dropped),
        weights=read_only(weights),
        per_head_context=read_only(per_head_context),
        context=read_only(context),
        output=read_only(output),
    )
