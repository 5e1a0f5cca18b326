"""The words of the lesson pages on heads, shapes and one row by hand: sentences, tile values and step tables,
every number from `attn_core.lessons.heads` (and so from a Result). Pure: no streamlit, no plotly."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core import ROUTE_NAMES, Result
from attn_core.lessons import heads as lessons
from attn_ui.words.escape import md_escape

DIGITS = 4  # decimals shown in the step tables (the tests compare at this precision)


def head_title(result: Result, head: int) -> str:
    columns = lessons.head_columns(result.settings.d_model, result.settings.heads)[head]
    return f"head {head + 1} → concat columns {lessons.span(columns)}"


@dataclass(frozen=True)
class StepTable:
    """One step of the row: a heading, a Markdown line with its scalars, and the table (column -> values)."""

    title: str
    note: str
    columns: dict[str, list]

    @property
    def numbers(self) -> list[str]:
        """The columns that hold numbers (shown with DIGITS decimals)."""
        return [name for name, values in self.columns.items() if isinstance(values[0], float)]


def digits(value: float) -> str:
    """A number of the step tables as they show it: DIGITS decimals."""
    return f"{value:.{DIGITS}f}"


def _round(values: np.ndarray) -> list[float]:
    return np.round(np.asarray(values, dtype=float), DIGITS).tolist()


def _kept_word(kept: bool, weight: float) -> str:
    """Dropout only matters where there is weight to drop."""
    if weight == 0:
        return "–"
    return "yes" if kept else "dropped"


def row_steps(row: lessons.RowByHand) -> list[StepTable]:
    """The row's numbers in four tables: scores, softmax, dropout, weighted sum of the values."""
    result, settings = row.result, row.result.settings
    keys = list(result.labels)
    reasons = [result.block_reason(row.query, j) or "no" for j in range(len(keys))]
    route = settings.route
    scores = StepTable(
        "1 · Query against every key",
        f"q · k for each key, divided by √d_head = √{settings.d_head} = {row.root:.{DIGITS}f}. "
        f"Masking route: {ROUTE_NAMES[route]}.",
        {"key": keys, "q · k": _round(row.dots), "÷ √d_head": _round(row.scaled), "blocked?": reasons,
         "into softmax": _round(row.softmax_input)},
    )
    softmax_columns = {"key": keys, "into softmax": _round(row.softmax_input),
                       "− max": _round(row.softmax_input - row.shift), "exp": _round(row.exps),
                       "exp ÷ sum": _round(row.softmax_output)}
    if route in ("zero_after", "renormalize"):
        softmax_columns["after the route"] = _round(row.weights_before_dropout)
    softmax = StepTable(
        "2 · Softmax",
        f"Largest input (taken off before exp, so nothing overflows): {row.shift:.{DIGITS}f}. "
        f"Sum of the exps: {row.total:.{DIGITS}f}. Weights before dropout add up to "
        f"{row.weights_before_dropout.sum():.{DIGITS}f}.",
        softmax_columns,
    )
    if settings.dropout_active:
        rescale = f"survivors × 1 / (1 − {settings.dropout:g}) = {row.dropout_scale:.{DIGITS}f}"
        note = f"p = {settings.dropout:g} while training: {rescale if settings.rescale else 'no rescale (the bug)'}."
    else:
        why = "inference" if settings.dropout > 0 else "p = 0"
        note = f"Dropout does nothing here ({why}): every weight passes unchanged."
    dropout = StepTable(
        "3 · Dropout",
        note + f" Final weights add up to {row.weights.sum():.{DIGITS}f}.",
        {"key": keys, "weight": _round(row.weights_before_dropout),
         "kept?": [_kept_word(kept, weight) for kept, weight in zip(row.kept, row.weights_before_dropout, strict=True)],
         "final weight": _round(row.weights)},
    )
    components = range(settings.d_head)
    values = {"key": keys, **{f"v{c + 1}": _round(row.value_vectors[:, c]) for c in components}}
    weighted = {"key": [*keys, "sum"], "weight": [*_round(row.weights), round(float(row.weights.sum()), DIGITS)],
                **{f"weight × v{c + 1}": [*_round(row.weighted_values[:, c]), round(float(row.output[c]), DIGITS)]
                   for c in components}}
    return [
        scores,
        softmax,
        dropout,
        StepTable("4a · The value vectors",
                  f"Head {row.head + 1}'s value vector of every key ({settings.d_head} numbers).", values),
        StepTable("4b · Weighted sum", f"Each value times its final weight; the last row adds them up. That sum fills "
                  f"concat columns {lessons.span(row.columns)} of this word's row.", weighted),
    ]


def row_heading(row: lessons.RowByHand) -> str:
    """A Markdown line naming the row, the word escaped."""
    word = md_escape(row.result.labels[row.query])
    return f"Query **{word}** (word {row.query + 1}), head {row.head + 1} of {row.result.settings.heads}."


def row_metrics(row: lessons.RowByHand) -> dict[str, str]:
    """The row's scalars as metric tiles."""
    return {
        "√d_head": f"{row.root:.{DIGITS}f}",
        "Max, taken off": f"{row.shift:.{DIGITS}f}",
        "Sum of exps": f"{row.total:.{DIGITS}f}",
        "Dropout scale": f"{row.dropout_scale:.{DIGITS}f}",
        "Row sum": f"{row.weights.sum():.{DIGITS}f}",
    }


def word_options(result: Result) -> dict[int, str]:
    """0-based position -> escaped word, for pills and segmented controls."""
    return {pos: md_escape(label) for pos, label in enumerate(result.labels)}


def concat_sentence(result: Result) -> str:
    d_head = result.d_head
    blocks = lessons.head_columns(result.settings.d_model, result.settings.heads)
    places = ", ".join(f"head {i + 1} → columns {lessons.span(b)}" for i, b in enumerate(blocks))
    return (f"Each head writes {d_head} numbers per word. They are laid side by side in one table, **concat**, head 1 "
            f"first: head n fills columns (n − 1)·{d_head} + 1 to n·{d_head}. Here: {places}.")


def worked_sentence(worked: Result) -> str:
    s = worked.settings
    start_number = lessons.head_columns(s.d_model, s.heads)[1].start + 1
    words = " ".join(md_escape(word) for word in worked.tokens)
    return (f"**Small enough to check by eye:** d_model = {s.d_model}, {s.heads} heads, the {len(worked.tokens)} "
            f"words *{words}*. Concat has shape **{worked.context.shape}**, and head 2's numbers begin at "
            f"**column {start_number}**.")


def w_o_sentence(result: Result) -> str:
    d_model = result.settings.d_model
    blocks = lessons.head_columns(d_model, result.settings.heads)
    rows = ", ".join(f"rows {lessons.span(b)} weigh head {i + 1}'s numbers" for i, b in enumerate(blocks))
    return (f"Left alone, head 1's numbers would stay in columns {lessons.span(blocks[0])} for good. W_o is a "
            f"({d_model}, {d_model}) matrix: output column j is a weighted sum of *all* {d_model} concat columns, so "
            f"every output number can draw on every head. In W_o, {rows}.")


def cost_metrics(result: Result) -> dict[str, str]:
    """Weights and FLOPs of this layer with h slim heads and with one wide head (d_in = 3 in this app)."""
    length, d_model, heads, d_in = len(result.tokens), result.settings.d_model, result.settings.heads, result.x.shape[1]
    slim = lessons.attention_cost(length, d_model, heads, d_in)
    wide = lessons.attention_cost(length, d_model, 1, d_in)
    return {
        f"Weights, {heads} heads": f"{slim.parameters:,}",
        "Weights, 1 wide head": f"{wide.parameters:,}",
        f"FLOPs, {heads} heads": f"{slim.flops:,}",
        "FLOPs, 1 wide head": f"{wide.flops:,}",
    }


def cost_sentence(result: Result, model: lessons.ModelSize = lessons.GPT2) -> str:
    length, heads = len(result.tokens), result.settings.heads
    slim = lessons.attention_cost(length, result.settings.d_model, heads, result.x.shape[1])
    big = lessons.attention_cost(model.context, model.d_model, model.heads)
    return (f"The heads share the columns of W_q, W_k and W_v out instead of each taking a full copy (last column), so "
            f"h changes neither count. Only the softmax sees more numbers: h·T² = {slim.softmax_cells:,} instead of "
            f"{length * length:,}. **{model.name}:** d = {model.d_model}, h = {model.heads}, d_head = "
            f"{model.d_model} / {model.heads} = {model.d_head}. One attention layer has {big.parameters:,} weights "
            f"(biases left out) and spends {big.flops / 1e9:.2f} GFLOPs on its products at T = {model.context:,}, "
            "with one head or twelve.")


def failures_sentence(divides: bool) -> str:
    """Page 4's two ways to get heads wrong; the reshape "above" fails only while the count tried does not divide."""
    reshape = "try one above that does not: the reshape fails" if divides else "the reshape above fails"
    return (f"**Two ways to get this wrong:** a head count that does not divide d_model ({reshape}), and leaving W_o "
            "out (the heads then never meet: the lower panel of the W_o chart).")


def here_sentence(result: Result) -> str:
    s = result.settings
    return (f"*here, now* is this app at the Lab's settings (or the page's own until you use the Lab): "
            f"{len(result.tokens)} words, h = {s.heads}, d = {s.d_model}, "
            f"one sentence (B = 1), each word coming in as d_in = {result.x.shape[1]} numbers (in GPT-2, d_in = d). "
            f"Its score tensor {result.score_shape} takes {result.score_bytes:,} bytes in float32.")


def memory_metrics(batch: int, heads: int, length: int) -> dict[str, str]:
    """The score tensor at T and at 2T (float32 and bf16), and the ratio between them."""
    size = lessons.BYTES_PER_NUMBER
    at_t = lessons.score_tensor_bytes(batch, heads, length, size["float32"])
    at_2t = lessons.score_tensor_bytes(batch, heads, 2 * length, size["float32"])
    return {
        f"T = {length:,}, float32": lessons.human_bytes(at_t),
        f"T = {length:,}, bf16": lessons.human_bytes(lessons.score_tensor_bytes(batch, heads, length, size["bf16"])),
        f"T = {2 * length:,}, float32": lessons.human_bytes(at_2t),
        "Doubling T multiplies it by": f"{at_2t / at_t:g}",
    }
