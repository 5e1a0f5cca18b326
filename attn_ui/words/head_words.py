"""The words of the lesson pages on heads, shapes and one row by hand: sentences, tile values and step tables,
every number from `attn_core.lessons.heads` (and so from a Result). Pure: no streamlit, no plotly."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

import numpy as np

from attn_core import ROUTE_NAMES, Result
from attn_core.lessons import heads as lessons
from attn_lang import N_, _, _n, number
from attn_ui.words.escape import md_escape

DIGITS = 4  # decimals shown in the step tables (the tests compare at this precision); their notes write `:.4f`
# why a key is blocked (Result.block_reason's words) as the step table's "blocked?" column says it
BLOCK_REASONS = MappingProxyType({
    # Translators: a cell of the column "blocked?": the key is not blocked
    None: N_("no"),
    # Translators: a cell of the column "blocked?": blocked because the key comes later (the causal mask)
    "future": N_("future"),
    # Translators: a cell of the column "blocked?": blocked because the key is a PAD (the padding mask)
    "padding": N_("padding"),
    "future and padding": N_("future and padding"),
})


def head_title(result: Result, head: int) -> str:
    """A small map's title: which head it is. Not where its output lands in concat: the page asks that first."""
    return _("head {head} of {heads}", head=head + 1, heads=result.settings.heads)


def human_bytes(count: float) -> str:
    """lessons.human_bytes: "1.2 GB", "1,2 GB" in Spanish. Its message already writes the number in the run's
    language, so it is not localised again here (that turned "1,61 GB" back into "1.61 GB")."""
    return lessons.human_bytes(count)


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
    return number(value, f".{DIGITS}f")


def _round(values: np.ndarray) -> list[float]:
    return (np.round(np.asarray(values, dtype=float), DIGITS) + 0.0).tolist()  # + 0.0: -0.0 becomes 0.0


def adds_up_as_shown(parts, total: float) -> bool:
    """Do these numbers, each written with DIGITS decimals as the tables write them, add up to `total` as written?"""
    shown = sum(Decimal(f"{float(part):.{DIGITS}f}") for part in parts)
    return shown == Decimal(f"{float(total):.{DIGITS}f}")  # decimal: -0.0000 equals 0.0000


ROUNDED_SUM = N_("The sum adds the unrounded numbers, so its last digit can differ from the sum of the rounded "
                 "numbers shown.")


def _kept_word(kept: bool, weight: float) -> str:
    """Dropout only matters where there is weight to drop."""
    if weight == 0:
        return "–"
    # Translators: a cell of the column "kept?" of the dropout step: the weight survived dropout, or it was dropped
    return _("yes") if kept else _("dropped")


def row_steps(row: lessons.RowByHand) -> list[StepTable]:
    """The row's numbers in four tables: scores, softmax, dropout, weighted sum of the values."""
    result, settings = row.result, row.result.settings
    keys = list(result.labels)
    reasons = [_(BLOCK_REASONS.get(result.block_reason(row.query, j), "no")) for j in range(len(keys))]
    route = settings.route
    # Translators: column headers of the step tables (page "One row by hand"): the key word, the score fed to softmax
    key, into = _("key"), _("into softmax")
    scores = StepTable(
        _("1 · Query against every key"),
        _("q · k for each key, divided by √d_head = √{d_head} = {root:.4f}. Masking route: {route}.",
          d_head=settings.d_head, root=row.root, route=_(ROUTE_NAMES[route])),
        {key: keys, "q · k": _round(row.dots), "÷ √d_head": _round(row.scaled), _("blocked?"): reasons,
         into: _round(row.softmax_input)},
    )
    softmax_columns = {key: keys, into: _round(row.softmax_input),
                       "− max": _round(row.softmax_input - row.shift), "exp": _round(row.exps),
                       _("exp ÷ sum"): _round(row.softmax_output)}
    if route in ("zero_after", "renormalize"):
        softmax_columns[_("after the route")] = _round(row.weights_before_dropout)
    softmax = StepTable(
        _("2 · Softmax"),
        _("Largest input (taken off before exp, so nothing overflows): {shift:.4f}. Sum of the exps: {total:.4f}. "
          "Weights before dropout add up to {before:.4f}.",
          shift=row.shift, total=row.total, before=row.weights_before_dropout.sum()),
        softmax_columns,
    )
    if settings.dropout_active and settings.rescale:
        note = _("p = {p:g} while training: survivors × 1 / (1 − {p:g}) = {scale:.4f}.", p=settings.dropout,
                 scale=row.dropout_scale)
    elif settings.dropout_active:
        note = _("p = {p:g} while training: no rescale (the bug).", p=settings.dropout)
    elif settings.dropout > 0:
        note = _("Dropout does nothing here (inference): every weight passes unchanged.")
    else:
        note = _("Dropout does nothing here (p = 0): every weight passes unchanged.")
    # Translators: a column header: the attention weight of each key
    weight = _("weight")
    dropout = StepTable(
        _("3 · Dropout"),
        note + " " + _("Final weights add up to {total:.4f}.", total=row.weights.sum())
        + ("" if adds_up_as_shown(row.weights, row.weights.sum()) else " " + _(ROUNDED_SUM)),
        {key: keys, weight: _round(row.weights_before_dropout),
         _("kept?"): [_kept_word(kept, w) for kept, w in zip(row.kept, row.weights_before_dropout, strict=True)],
         _("final weight"): _round(row.weights)},
    )
    components = range(settings.d_head)
    values = {key: keys, **{f"v{c + 1}": _round(row.value_vectors[:, c]) for c in components}}
    # Translators: the label of the last row of the weighted-sum table, which adds up the rows above it
    weighted = {key: [*keys, _("sum")], weight: [*_round(row.weights), *_round([row.weights.sum()])],
                **{_("weight × v{index}", index=c + 1): [*_round(row.weighted_values[:, c]),
                                                        *_round([row.output[c]])]
                   for c in components}}
    return [
        scores,
        softmax,
        dropout,
        StepTable(_("4a · The value vectors"),
                  _("Head {head}'s value vector of every key ({d_head} numbers).", head=row.head + 1,
                    d_head=settings.d_head), values),
        StepTable(_("4b · Weighted sum"),
                  _("Each value times its final weight; the last row adds them up. That sum fills concat columns "
                    "{columns} of this word's row.", columns=lessons.span(row.columns))
                  + ("" if all(adds_up_as_shown(column[:-1], column[-1]) for column in list(weighted.values())[1:])
                     else " " + _(ROUNDED_SUM)), weighted),
    ]


def row_heading(row: lessons.RowByHand) -> str:
    """A Markdown line naming the row, the word escaped."""
    word = md_escape(row.result.labels[row.query])
    return _("Query **{word}** (word {position}), head {head} of {heads}.", word=word, position=row.query + 1,
             head=row.head + 1, heads=row.result.settings.heads)


def row_metrics(row: lessons.RowByHand) -> dict[str, str]:
    """The row's scalars as metric tiles."""
    return {
        "√d_head": digits(row.root),
        N_("Max, taken off"): digits(row.shift),
        N_("Sum of exps"): digits(row.total),
        N_("Dropout scale"): digits(row.dropout_scale),
        N_("Row sum"): digits(row.weights.sum()),
    }


def word_options(result: Result) -> dict[int, str]:
    """0-based position -> escaped word, for pills and segmented controls."""
    return {pos: md_escape(label) for pos, label in enumerate(result.labels)}


def concat_sentence(result: Result) -> str:
    d_head = result.d_head
    blocks = lessons.head_columns(result.settings.d_model, result.settings.heads)
    places = ", ".join(_("head {head} → columns {columns}", head=i + 1, columns=lessons.span(b))
                       for i, b in enumerate(blocks))
    return _("Each head writes {d_head} numbers per word. They are laid side by side in one table, **concat**, head 1 "
             "first: head n fills columns (n − 1)·{d_head} + 1 to n·{d_head}. Here: {places}.",
             d_head=d_head, places=places)


def worked_sentence(worked: Result) -> str:
    s = worked.settings
    start_number = lessons.head_columns(s.d_model, s.heads)[1].start + 1
    words = " ".join(md_escape(word) for word in worked.tokens)
    return _("**Small enough to check by eye:** d_model = {d_model}, {heads} heads, the {count} words *{words}*. "
             "Concat has shape **{shape}**, and head 2's numbers begin at **column {column}**.",
             d_model=s.d_model, heads=s.heads, count=len(worked.tokens), words=words, shape=worked.context.shape,
             column=start_number)


def w_o_sentence(result: Result) -> str:
    d_model = result.settings.d_model
    blocks = lessons.head_columns(d_model, result.settings.heads)
    rows = ", ".join(_("rows {rows} weigh head {head}'s numbers", rows=lessons.span(b), head=i + 1)
                     for i, b in enumerate(blocks))
    return _("Left alone, head 1's numbers would stay in columns {columns} for good. W_o is a ({d_model}, {d_model}) "
             "matrix: output column j is a weighted sum of *all* {d_model} concat columns, so every output number "
             "can draw on every head. In W_o, {rows}.", columns=lessons.span(blocks[0]), d_model=d_model, rows=rows)


def cost_metrics(result: Result) -> dict[str, str]:
    """Weights and FLOPs of this layer with h slim heads and with one wide head (d_in = 3 in this app)."""
    length, d_model, heads, d_in = len(result.tokens), result.settings.d_model, result.settings.heads, result.x.shape[1]
    slim = lessons.attention_cost(length, d_model, heads, d_in)
    wide = lessons.attention_cost(length, d_model, 1, d_in)
    return {
        _n("Weights, {count} head", "Weights, {count} heads", heads): number(slim.parameters, ","),
        N_("Weights, 1 wide head"): number(wide.parameters, ","),
        _n("FLOPs, {count} head", "FLOPs, {count} heads", heads): number(slim.flops, ","),
        N_("FLOPs, 1 wide head"): number(wide.flops, ","),
    }


def cost_sizes(result: Result) -> dict[str, int]:
    """The sizes page 4's totals count, as its words name them: T, d, h, d_head and d_in (the width each word comes
    in with: 3 in this app, d in GPT-2)."""
    s = result.settings
    return {"length": len(result.tokens), "d_model": s.d_model, "heads": s.heads, "d_head": result.d_head,
            "d_in": int(result.x.shape[1])}


def cost_table(result: Result) -> dict[str, list]:
    """Page 4's table of parameters and FLOPs, for the sizes cost_counts names."""
    sizes = cost_sizes(result)
    return lessons.cost_table(sizes["length"], sizes["d_model"], sizes["heads"], sizes["d_in"])


def cost_counts(result: Result) -> str:
    """What page 4's totals count, each one written out from sizes the page names (d_in too), so a student can
    recompute every tile and every row of the table: Markdown, a lead sentence and a list."""
    sizes = cost_sizes(result)
    slim = lessons.attention_cost(sizes["length"], sizes["d_model"], sizes["heads"], sizes["d_in"])
    wide = lessons.attention_cost(sizes["length"], sizes["d_model"], 1, sizes["d_in"])
    # Translators: {count} is h, the number of heads; T, d, h, d_head and d_in are the lessons' letters
    lead = _n("**What the totals count**, for the sentence above: T = {length} words, d = {d_model}, h = {count} head "
              "of d_head = {d_head} columns, and each word coming in as d_in = {d_in} numbers (this app's word "
              "vectors; in GPT-2, d_in = d). Biases are left out.",
              "**What the totals count**, for the sentence above: T = {length} words, d = {d_model}, h = {count} heads "
              "of d_head = {d_head} columns, and each word coming in as d_in = {d_in} numbers (this app's word "
              "vectors; in GPT-2, d_in = d). Biases are left out.", sizes["heads"], **sizes)
    weights = _("Weights: W_q, W_k and W_v are ({d_in}, {d_model}) each and W_o is ({d_model}, {d_model}), so "
                "3 × {d_in} × {d_model} + {d_model} × {d_model} = {weights:,}.", weights=slim.parameters, **sizes)
    flops = _("FLOPs, 2 for each multiply-add: x @ W_q, W_k, W_v takes 3 × 2 × {length} × {d_in} × {d_model} = "
              "{projection:,}; Q @ Kᵀ takes {heads} × 2 × {length} × {d_head} × {length} = {scores:,}, and "
              "weights @ V as many; concat @ W_o takes 2 × {length} × {d_model} × {d_model} = {output:,}. In all, "
              "{projection:,} + {scores:,} + {mixing:,} + {output:,} = {total:,}.",
              projection=slim.projection_flops, scores=slim.score_flops, mixing=slim.mixing_flops,
              output=slim.output_flops, total=slim.flops, **sizes)
    items = [weights, flops]
    if sizes["heads"] > 1:
        items.append(_("One wide head: Q @ Kᵀ takes 1 × 2 × {length} × {d_model} × {length} = {scores:,} too, so "
                       "the table's first two columns come to the same totals.", scores=wide.score_flops, **sizes))
        copies = lessons.full_copies_cost(sizes["length"], sizes["d_model"], sizes["heads"], sizes["d_in"])
        items.append(_("The last column is what no model does: every one of the {heads} heads with a full-width copy "
                       "of W_q, W_k, W_v and W_o ({heads} × {one:,} = {weights:,} weights).", one=wide.parameters,
                       weights=copies.parameters, **sizes))
    return "\n".join((lead, "", *(f"- {item}" for item in items)))


def cost_sentence(result: Result, model: lessons.ModelSize = lessons.GPT2) -> str:
    length, heads = len(result.tokens), result.settings.heads
    slim = lessons.attention_cost(length, result.settings.d_model, heads, result.x.shape[1])
    big = lessons.attention_cost(model.context, model.d_model, model.heads)
    return _("The heads share the columns of W_q, W_k and W_v out instead of each taking a full copy (last column), "
             "so h changes neither count. Only the softmax sees more numbers: h·T² = {cells:,} instead of "
             "{square:,}. **{model}:** d = {d_model}, h = {heads}, d_head = {d_model} / {heads} = {d_head}. One "
             "attention layer has {weights:,} weights (biases left out) and spends {gflops:.2f} GFLOPs on its "
             "products at T = {context:,}, with one head or twelve.",
             cells=slim.softmax_cells, square=length * length, model=model.name, d_model=model.d_model,
             heads=model.heads, d_head=model.d_head, weights=big.parameters, gflops=big.flops / 1e9,
             context=model.context)


def failures_sentence(divides: bool) -> str:
    """Page 4's two ways to get heads wrong; the reshape "above" fails only while the count tried does not divide."""
    if divides:
        return _("**Two ways to get this wrong:** a head count that does not divide d_model (try one above that does "
                 "not: the reshape fails), and leaving W_o out (the heads then never meet: the lower panel of the W_o "
                 "chart).")
    return _("**Two ways to get this wrong:** a head count that does not divide d_model (the reshape above fails), and "
             "leaving W_o out (the heads then never meet: the lower panel of the W_o chart).")


def here_sentence(result: Result) -> str:
    s = result.settings
    return _("*here, now* is this app at the Lab's settings (or the page's own until you use the Lab): {words} words, "
             "h = {heads}, d = {d_model}, one sentence (B = 1), each word coming in as d_in = {d_in} numbers (in "
             "GPT-2, d_in = d). Its score tensor {shape} takes {bytes:,} bytes in float32.",
             words=len(result.tokens), heads=s.heads, d_model=s.d_model, d_in=result.x.shape[1],
             shape=result.score_shape, bytes=result.score_bytes)


def memory_metrics(batch: int, heads: int, length: int) -> dict[str, str]:
    """The score tensor at T and at 2T (float32 and bf16), and the ratio between them."""
    size = lessons.BYTES_PER_NUMBER
    at_t = lessons.score_tensor_bytes(batch, heads, length, size["float32"])
    at_2t = lessons.score_tensor_bytes(batch, heads, 2 * length, size["float32"])
    return {
        f"T = {number(length, ',')}, float32": human_bytes(at_t),
        f"T = {number(length, ',')}, bf16": human_bytes(lessons.score_tensor_bytes(batch, heads, length,
                                                                                   size["bf16"])),
        f"T = {number(2 * length, ',')}, float32": human_bytes(at_2t),
        N_("Doubling T multiplies it by"): number(at_2t / at_t, "g"),
    }
