"""Lesson maths for the pages on many heads, shapes and memory, and one row by hand. NumPy only.

Every number these functions return is read from, or rebuilt step by step out of, a `Result`, so what a page
shows is what `compute` produced. Letters as in `attn_core.maths`:
    B  batch size        T  tokens        h  heads        d  d_model        dh  d_head = d / h
    d_in  width of the input vectors (3 in this app; equal to d in GPT-2)
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core.engine import Result
from attn_core.errors import SettingsError
from attn_core.settings import Settings, head_error
from attn_lang import N_, _

# --- model sizes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelSize:
    """The sizes that decide the cost of one attention layer."""

    name: str
    d_model: int
    heads: int
    context: int  # T the model was trained with

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads


GPT2 = ModelSize("GPT-2 124M", d_model=768, heads=12, context=1024)
WORKED = Settings(sentence="cat dog car", d_model=4, heads=2)  # the lesson's concat example: 3 words, 2 heads


# --- where each head sits in concat ------------------------------------------------------------------


def head_columns(d_model: int, heads: int) -> tuple[range, ...]:
    """Head i owns columns i*dh to (i+1)*dh - 1 of Q, K, V and of concat, counted from 0 as NumPy does."""
    if heads < 1 or d_model % heads:
        raise SettingsError(head_error(heads, d_model))
    d_head = d_model // heads
    return tuple(range(i * d_head, (i + 1) * d_head) for i in range(heads))


def span(columns: range) -> str:
    """0-based columns as the screen numbers them, from 1: range(6, 12) -> '7–12', range(3, 4) -> '4'."""
    first_number, last_number = columns[0] + 1, columns[-1] + 1
    return f"{first_number}" if first_number == last_number else f"{first_number}–{last_number}"


def concat_of(result: Result, head: int) -> np.ndarray:
    """Head `head`'s block of concat: the columns that hold its output."""
    columns = head_columns(result.settings.d_model, result.settings.heads)[head]
    return result.context[:, columns.start : columns.stop]  # (T, dh)


def concat_table(result: Result) -> dict[str, list]:
    """Concat as a table: one row per word, one column per number, each header naming its head (from 1)."""
    # Translators: a table's column heading: the words of the sentence
    table: dict[str, list] = {_("word"): list(result.labels)}
    for head, columns in enumerate(head_columns(result.settings.d_model, result.settings.heads)):
        for column in columns:
            # Translators: a table's column heading: column {column} of concat, which belongs to head {head}
            heading = _("col {column} · head {head}", column=column + 1, head=head + 1)
            table[heading] = result.context[:, column].tolist()
    return table


def reshape_attempt(length: int, d_model: int, heads: int) -> str | None:
    """What NumPy says when (T, d) is split into `heads` equal slices; None when the split works."""
    matrix = np.zeros((length, d_model))  # (T, d)
    try:
        matrix.reshape(length, heads, d_model // heads)  # (T, h, dh)
    except ValueError as error:
        return f"ValueError: {error}"
    return None


# --- what W_o does ----------------------------------------------------------------------------------


def head_contributions(result: Result) -> np.ndarray:
    """Each head's part of the output: its concat block times its own rows of W_o; they add up to the output."""
    rows = head_columns(result.settings.d_model, result.settings.heads)
    parts = [result.per_head_context[i] @ result.w_o[r.start : r.stop, :] for i, r in enumerate(rows)]  # (T, d)
    return np.stack(parts)  # (h, T, d)


def contributions_without_w_o(result: Result) -> np.ndarray:
    """The same split when concat is the output (no W_o): head i reaches only its own columns."""
    rows = head_columns(result.settings.d_model, result.settings.heads)
    parts = np.zeros((len(rows), *result.context.shape))  # (h, T, d)
    for i, r in enumerate(rows):
        parts[i][:, r.start : r.stop] = result.per_head_context[i]
    return parts


def head_shares(contributions: np.ndarray) -> np.ndarray:
    """Share of each head in each output column: its summed |contribution| over all heads' summed |contribution|."""
    size = np.abs(contributions).sum(axis=1)  # (h, d)
    total = size.sum(axis=0, keepdims=True)  # (1, d)
    return np.divide(size, total, out=np.zeros_like(size), where=total > 0)  # (h, d)


# --- parameters and FLOPs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """One attention layer, weights only (no biases); FLOPs of its matrix products, a multiply-add counted as 2."""

    parameters: int
    projection_flops: int  # x @ W_q, W_k, W_v
    score_flops: int  # Q @ K^T, every head
    mixing_flops: int  # weights @ V, every head
    output_flops: int  # concat @ W_o
    softmax_cells: int  # h * T * T numbers go through exp; small next to the products

    @property
    def flops(self) -> int:
        return self.projection_flops + self.score_flops + self.mixing_flops + self.output_flops


def matmul_flops(rows: int, inner: int, cols: int) -> int:
    """(rows, inner) @ (inner, cols): rows * cols sums of `inner` products, 2 FLOPs a product."""
    return 2 * rows * inner * cols


def attention_cost(length: int, d_model: int, heads: int, d_in: int | None = None, batch: int = 1) -> Cost:
    """Cost of h heads of width d/h: the projections are shared out, not copied, so h does not change it."""
    d_in = d_model if d_in is None else d_in
    d_head = len(head_columns(d_model, heads)[0])
    return Cost(
        parameters=3 * d_in * d_model + d_model * d_model,
        projection_flops=batch * 3 * matmul_flops(length, d_in, d_model),
        score_flops=batch * heads * matmul_flops(length, d_head, length),
        mixing_flops=batch * heads * matmul_flops(length, length, d_head),
        output_flops=batch * matmul_flops(length, d_model, d_model),
        softmax_cells=batch * heads * length * length,
    )


def full_copies_cost(length: int, d_model: int, heads: int, d_in: int | None = None) -> Cost:
    """What h heads would cost if each got a full-width copy (not what is done): h times one wide head."""
    one = attention_cost(length, d_model, 1, d_in)
    return Cost(*(heads * value for value in vars(one).values()))


# The rows of the cost table: (what a person reads, the Cost field); the words are drawn as _(words)
COST_PARTS = (
    (N_("parameters (W_q, W_k, W_v, W_o)"), "parameters"),
    (N_("FLOPs: x @ W_q, W_k, W_v"), "projection_flops"),
    (N_("FLOPs: Q @ Kᵀ"), "score_flops"),
    (N_("FLOPs: weights @ V"), "mixing_flops"),
    (N_("FLOPs: concat @ W_o"), "output_flops"),
    (N_("FLOPs: total"), "flops"),
)


def cost_table(length: int, d_model: int, heads: int, d_in: int | None = None) -> dict[str, list]:
    """Parameters and FLOPs, part by part, for h slim heads, one wide head and h wide copies."""
    plans = {
        # Translators: a table's column heading; {heads} may be 1
        _("{heads} heads of width {width}", heads=heads, width=d_model // heads):
            attention_cost(length, d_model, heads, d_in),
        _("1 head of width {width}", width=d_model): attention_cost(length, d_model, 1, d_in),
        # Translators: a table's column heading; {heads} may be 1
        _("{heads} full-width copies", heads=heads): full_copies_cost(length, d_model, heads, d_in),
    }
    table: dict[str, list] = {"": [_(words) for words, __ in COST_PARTS]}
    for name, cost in plans.items():
        table[name] = [getattr(cost, field) for __, field in COST_PARTS]
    return table


# --- the shape path ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShapeStep:
    what: str
    letters: str
    shape: tuple[int, ...]


PATH_STEPS = (  # (what the step does, a message drawn as _(what); the shape in letters)
    (N_("input x"), "(B, T, d_in)"),
    (N_("Q = x @ W_q (K and V alike)"), "(B, T, d)"),
    (N_("cut the width into heads"), "(B, T, h, d_head)"),
    (N_("move heads beside the batch"), "(B, h, T, d_head)"),
    (N_("scores Q @ Kᵀ / √d_head"), "(B, h, T, T)"),
    (N_("mask, softmax, dropout"), "(B, h, T, T)"),
    (N_("weights @ V"), "(B, h, T, d_head)"),
    (N_("move heads back"), "(B, T, h, d_head)"),
    # Translators: a step of the shape path: the heads' outputs put side by side (the matrix named concat)
    (N_("concat"), "(B, T, d)"),
    (N_("output = concat @ W_o"), "(B, T, d)"),
)


def live_path(result: Result) -> tuple[ShapeStep, ...]:
    """The shape path of this Result (B = 1), read off the arrays as they are reshaped."""
    length, heads, d_head = len(result.tokens), result.settings.heads, result.d_head
    x = result.x[None]  # (1, T, d_in)
    q = x @ result.w_q  # (1, T, d)
    split = q.reshape(1, length, heads, d_head)  # (1, T, h, dh)
    heads_first = split.transpose(0, 2, 1, 3)  # (1, h, T, dh), equal to result.queries[None]
    scores = result.scores[None]  # (1, h, T, T)
    weights = result.weights[None]  # (1, h, T, T)
    per_head = result.per_head_context[None]  # (1, h, T, dh)
    back = per_head.transpose(0, 2, 1, 3)  # (1, T, h, dh)
    concat = back.reshape(1, length, heads * d_head)  # (1, T, d), equal to result.context[None]
    output = concat @ result.w_o  # (1, T, d)
    arrays = (x, q, split, heads_first, scores, weights, per_head, back, concat, output)
    return tuple(ShapeStep(what, letters, a.shape) for (what, letters), a in zip(PATH_STEPS, arrays, strict=True))


def symbolic_path(batch: int, length: int, d_model: int, heads: int, d_in: int | None = None) -> tuple[ShapeStep, ...]:
    """The same path from the sizes alone (for models too big to run here)."""
    d_in = d_model if d_in is None else d_in
    d_head = len(head_columns(d_model, heads)[0])
    shapes = (
        (batch, length, d_in),
        (batch, length, d_model),
        (batch, length, heads, d_head),
        (batch, heads, length, d_head),
        (batch, heads, length, length),
        (batch, heads, length, length),
        (batch, heads, length, d_head),
        (batch, length, heads, d_head),
        (batch, length, d_model),
        (batch, length, d_model),
    )
    return tuple(ShapeStep(what, letters, s) for (what, letters), s in zip(PATH_STEPS, shapes, strict=True))


def shape_table(result: Result, batch: int, model: ModelSize = GPT2) -> dict[str, list]:
    """The path as a table: letters, this app's live shapes, and the model's shapes for `batch` sentences."""
    live = live_path(result)
    big = symbolic_path(batch, model.context, model.d_model, model.heads)
    return {
        # Translators: the column headings of the shape path's table
        _("step"): [_(step.what) for step in live],
        _("shape"): [step.letters for step in live],
        _("here, now"): [str(step.shape) for step in live],
        f"{model.name}, B = {batch}, T = {model.context}": [str(step.shape) for step in big],
    }


# --- memory of the score tensor --------------------------------------------------------------------

BYTES_PER_NUMBER = MappingProxyType({"float32": 4, "bf16": 2})
CONTEXT_LENGTHS = tuple(2**k for k in range(7, 18))  # T from 128 to 131,072
MARKED_LENGTHS = MappingProxyType({1024: "GPT-2", 8192: "8k", 32768: "32k", 131072: "128k"})


def score_tensor_bytes(batch: int, heads: int, length: int, bytes_per_number: int) -> int:
    """Memory of one layer's (B, h, T, T) score tensor."""
    return batch * heads * length * length * bytes_per_number


def memory_curve(batch: int, heads: int, lengths: tuple[int, ...] = CONTEXT_LENGTHS) -> dict[str, list[int]]:
    """Bytes of the score tensor for each T, per number type."""
    return {
        dtype: [score_tensor_bytes(batch, heads, t, size) for t in lengths] for dtype, size in BYTES_PER_NUMBER.items()
    }


# Decimal units (1 MB = 1,000,000 bytes), largest first: (bytes in one, the amount written with its unit)
BYTE_UNITS = (
    (1e12, N_("{amount:.3g} TB")),
    (1e9, N_("{amount:.3g} GB")),
    (1e6, N_("{amount:.3g} MB")),
    (1e3, N_("{amount:.3g} kB")),
)


def human_bytes(count: float) -> str:
    """Bytes in decimal units (1 MB = 1,000,000 bytes), three significant figures, in the language's numbers."""
    for size, written in BYTE_UNITS:
        if count >= size:
            return _(written, amount=count / size)
    return _("{count} bytes", count=int(count))


# --- one row by hand --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowByHand:
    """Every number of one query row in one head, step by step, rebuilt from a Result."""

    result: Result
    head: int  # 0-based
    query: int  # 0-based
    query_vector: np.ndarray  # (dh,)
    key_vectors: np.ndarray  # (T, dh)
    value_vectors: np.ndarray  # (T, dh)
    dots: np.ndarray  # (T,) q . k for each key
    root: float  # sqrt(dh)
    scaled: np.ndarray  # (T,) q . k / sqrt(dh)
    blocked: np.ndarray  # (T,) bool
    softmax_input: np.ndarray  # (T,) what enters the softmax under the route (-inf on blocked cells)
    shift: float  # the row's largest finite input, taken off before exp so nothing overflows
    exps: np.ndarray  # (T,) e^(input - shift)
    total: float  # sum of exps
    softmax_output: np.ndarray  # (T,) exps / total
    weights_before_dropout: np.ndarray  # (T,) after the route's last step
    kept: np.ndarray  # (T,) bool: False where dropout zeroed a weight
    dropout_scale: float  # 1 / (1 - p) while dropout acts and rescales; else 1
    weights: np.ndarray  # (T,) the weights that multiply V
    weighted_values: np.ndarray  # (T, dh) weight times value vector
    output: np.ndarray  # (dh,) their sum: this row of the head's output

    @property
    def columns(self) -> range:
        """Where this output sits in concat."""
        return head_columns(self.result.settings.d_model, self.result.settings.heads)[self.head]


def row_by_hand(result: Result, query: int, head: int) -> RowByHand:
    """Redo query row `query` of head `head` one operation at a time."""
    settings = result.settings
    route = settings.route
    if not (0 <= head < settings.heads and 0 <= query < len(result.tokens)):
        raise SettingsError(_("There is no query {query} in head {head} of this sentence.", query=query + 1,
                              head=head + 1))
    q = result.queries[head, query]  # (dh,)
    k = result.keys[head]  # (T, dh)
    v = result.values[head]  # (T, dh)
    dots = k @ q  # (T,)
    root = float(np.sqrt(settings.d_head))
    scaled = dots / root  # (T,)
    blocked = np.asarray(result.blocked[head, query])  # (T,)

    into = scaled  # (T,) zero_after and renormalize remove blocked cells after the softmax
    if route == "neg_inf":
        into = np.where(blocked, -np.inf, scaled)  # e^-inf = 0: the blocked keys get nothing
    elif route == "zero_score":
        into = np.where(blocked, 0.0, scaled)  # the trap: e^0 = 1 still gives them weight
    finite = into[np.isfinite(into)]
    shift = float(finite.max()) if finite.size else 0.0  # a row with nothing legal keeps shift 0
    exps = np.exp(into - shift)  # (T,) e^-inf = 0
    total = float(exps.sum())
    softmax_output = exps / total if total > 0 else np.zeros_like(exps)  # (T,)
    before = softmax_output
    if route in ("zero_after", "renormalize"):
        before = np.where(blocked, 0.0, softmax_output)  # (T,)
        row_sum = before.sum()
        if route == "renormalize" and row_sum > 0:
            before = before / row_sum

    kept = ~np.asarray(result.dropped[head, query])  # (T,)
    scale = 1.0 / (1.0 - settings.dropout) if settings.dropout_active and settings.rescale else 1.0
    weights = np.where(kept, before * scale, 0.0)  # (T,)
    weighted = weights[:, None] * v  # (T, dh)
    return RowByHand(
        result=result, head=head, query=query, query_vector=q, key_vectors=k, value_vectors=v, dots=dots,
        root=root, scaled=scaled, blocked=blocked, softmax_input=into, shift=shift, exps=exps, total=total,
        softmax_output=softmax_output, weights_before_dropout=before, kept=kept, dropout_scale=scale,
        weights=weights, weighted_values=weighted, output=weighted.sum(axis=0),
    )
