"""The attention map in words, for screen readers: the same weights as a table, every cell said in words.

`weight_table(result)` gives one row per query word and one column per key word. A grey cell of the map says why
it is grey ("blocked (future)", "blocked (padding)"), a dropout cell says "dropped", so nothing on the map is
carried by colour alone. Pure: no streamlit; widgets/access.py draws it under a map. The words and numbers are in the
run's language (attn_lang); the column names are marked here and translated where the table is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from attn_core import Result
from attn_lang import N_, _, number
from attn_ui.words.explain import row_sentence

# Translators: a table's heading over the query words (rows); keep a space in it, so it never equals a word
QUERY_COLUMN = N_("query word")  # has a space, so it can never equal a word label


# Translators: a table's heading over each row's sum of weights; keep a space in it, so it never equals a word
SUM_COLUMN = N_("row sum")


# block_reason -> a grey cell in words; read-only (module globals are shared by every session), drawn as _(words)
BLOCKED_WORDS = MappingProxyType({
    "future": N_("blocked (future)"),
    "padding": N_("blocked (padding)"),
    "future and padding": N_("blocked (future and padding)"),
})
# block_reason -> a cell the masks block that still holds weight (the zero-score trap), with {weight}
LEAKED_WORDS = MappingProxyType({
    "future": N_("{weight:.2f} (should be blocked: future)"),
    "padding": N_("{weight:.2f} (should be blocked: padding)"),
    "future and padding": N_("{weight:.2f} (should be blocked: future and padding)"),
})


@dataclass(frozen=True)
class WeightTable:
    """A head's weights in words: `columns` are the key words, `rows` pair a query word with its cells and sum."""

    head: int  # 0-based
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...], str], ...]  # (query word, one cell per key, row sum)


def word_names(result: Result) -> tuple[str, ...]:
    """Row and column names: the word labels (already distinct), PAD words marked as on the map's axes."""
    padded = set(result.settings.padded)
    return tuple(label + (" (PAD)" if pos in padded else "") for pos, label in enumerate(result.labels, start=1))


def cell_words(result: Result, head: int, query: int, key: int) -> str:
    """One cell in words, as the map shows it: a weight, a blocked cell and why, or a dropped one."""
    weight = float(result.weights[head, query, key])
    reason = result.block_reason(query, key)
    if reason is not None:
        if weight == 0:
            return _(BLOCKED_WORDS[reason])
        return _(LEAKED_WORDS[reason], weight=weight)  # the zero-score trap leaks weight past the mask
    if result.dropped[head, query, key]:
        # Translators: a cell that dropout set to 0; {weight} is its weight before
        return _("dropped (was {weight:.2f})", weight=result.weights_before_dropout[head, query, key])
    return number(weight, ".2f")


def weight_table(result: Result, head: int | None = None) -> WeightTable:
    """The weights of one head (0-based; default: the head in view) as words, row by row."""
    head = result.view_index if head is None else head
    names = word_names(result)
    rows = tuple(
        (
            name,
            tuple(cell_words(result, head, query, key) for key in range(len(names))),
            number(result.row_sums[head, query], ".2f"),
        )
        for query, name in enumerate(names)
    )
    return WeightTable(head=head, columns=names, rows=rows)


def table_name(result: Result, head: int) -> str:
    """The table's accessible name (read before the table)."""
    return _("Attention weights of head {head} of {heads}", head=head + 1, heads=result.settings.heads)


HOW_TO_READ = N_(
    "One row per query word, one column per key word: each row says how much that query looks at every key. "
    "Grey cells of the map are written out as blocked, with the reason."
)


def every_row_in_words(result: Result) -> str:
    """A Markdown list: for every query row of the head in view, the line a click on that row shows."""
    return "\n".join(f"- {row_sentence(result, row)}" for row in range(len(result.labels)))
