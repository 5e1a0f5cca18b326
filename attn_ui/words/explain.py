"""Sentences about a Result, for captions and screen readers. Pure text: no Streamlit, no maths beyond sorting.

Every sentence is a message in the run's language (attn_lang); the tiles' labels stay English keys (scenes and tests
look values up by them) and are translated where they are drawn (widgets/panels.py)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from types import MappingProxyType

import numpy as np

from attn_core import Result
from attn_lang import N_, _, _n, current_language, number
from attn_lang.languages import language
from attn_ui.words.escape import md_escape


def listed(items: Iterable[str]) -> str:
    """Items in a row, as a sentence lists them: "0.25, 0.50" in English; a language whose decimal sign is the comma
    separates them with a semicolon ("0,25; 0,50"), so a list of numbers stays readable."""
    return ("; " if language(current_language()).decimal == "," else ", ").join(items)


def kpi_values(result: Result, score_tensor: bool = True) -> dict[str, str]:
    """The KPI tiles, label -> value, in the order they are shown; the scenes leave the score tensor out.

    The labels are English keys, marked in KPI_LABELS and translated where a tile is drawn; the values are in the
    run's language."""
    s = result.settings
    view = result.view_index
    sums = result.row_sums[view]
    values = {
        # Translators: the value of the tile "Sees future?"
        "Sees future?": _("Yes") if result.sees_future else _("No"),
        "Masked cells": str(result.masked_cells),
        "Padding-blocked cells": str(result.padding_cells),
        "Dropped cells": str(result.dropped_cells),
        "d_head": f"{s.d_model} / {s.heads} = {s.d_head}",
        "Row sums": row_sums_text(sums),
    }
    if score_tensor:
        values["Score tensor"] = f"{'×'.join(map(str, result.score_shape))} · {number(result.score_bytes, ',')} B"
    return values


# The tiles' labels: the keys of kpi_values, marked for the catalog and translated where a tile is drawn (d_head is
# a name, the same in every language)
KPI_LABELS = (
    N_("Sees future?"), N_("Masked cells"), N_("Padding-blocked cells"), N_("Dropped cells"), N_("Row sums"),
    N_("Score tensor"),
)


def row_sums_text(sums) -> str:
    """The smallest and largest row sum in words: "0.50 to 1.00", or "all 1.00" (a dash read like a minus)."""
    low, high = float(sums.min()), float(sums.max())
    if f"{low:.2f}" == f"{high:.2f}":
        # Translators: a tile's value: every row of weights sums to {total}
        return _("all {total:.2f}", total=low)
    # Translators: a tile's value: the smallest and the largest row sum
    return _("{low:.2f} to {high:.2f}", low=low, high=high)


KPI_HELP = MappingProxyType({  # read-only: shared by every session; keyed by the English label, drawn as _(help)
    "Sees future?": N_("Does any output of this head change when a later word changes? The future gets in through a "
                       "weight above 0, or, when blocked weights are zeroed after the softmax, through the "
                       "softmax's sum, which still counts the later words' scores."),
    "Masked cells": N_("Cells blocked for this head: by the causal mask, by padding, or both."),
    "Padding-blocked cells": N_("Cells whose key is a PAD token (a whole column each)."),
    "Dropped cells": N_("Legal cells set to 0 by dropout in this head (training only)."),
    "d_head": N_("Each head works on d_model / heads numbers."),
    "Row sums": N_("Smallest and largest sum of a row of weights in this head."),
    "Score tensor": N_("Its shape (B, h, T, T) with one sentence, and its bytes in float32: T×T grows with the "
                       "square of the sentence length."),
})


def row_sentence(result: Result, row: int) -> str:
    """One Markdown line on what a query row attends to (words escaped)."""
    view = result.view_index
    words = [md_escape(label) for label in result.labels]
    weights = result.weights[view, row]
    if row in result.empty_rows:
        return _("**{word}** (query {query}) has nothing to look at: every key is blocked, so its row is all 0.",
                 word=words[row], query=row + 1)
    order = [j for j in np.argsort(-weights, kind="stable") if weights[j] > 0][:3]
    top = listed(f"**{words[j]}** {number(weights[j], '.2f')}" for j in order)
    blocked = int(result.blocked[view, row].sum())
    dropped = int(result.dropped[view, row].sum())
    values = {"word": words[row], "query": row + 1, "top": top, "total": weights.sum(), "blocked": blocked,
              "dropped": dropped}
    # Translators: {top} lists up to three words with their weights ("**journey** 0.25, **starts** 0.24")
    if blocked and dropped:
        sentence = _("**{word}** (query {query}) looks most at {top}; its row sums to {total:.2f} ({blocked} "
                     "blocked, {dropped} dropped).", **values)
    elif blocked:
        sentence = _("**{word}** (query {query}) looks most at {top}; its row sums to {total:.2f} ({blocked} "
                     "blocked).", **values)
    elif dropped:
        sentence = _("**{word}** (query {query}) looks most at {top}; its row sums to {total:.2f} ({dropped} "
                     "dropped).", **values)
    else:
        sentence = _("**{word}** (query {query}) looks most at {top}; its row sums to {total:.2f}.", **values)
    shown = shown_sum(weights)
    if f"{shown:.2f}" != f"{weights.sum():.2f}":  # the cells' own numbers add up to another last digit: say so
        sentence += " " + _("Its cells, each rounded to two decimals, add up to {shown:.2f}.", shown=shown)
    return sentence


def shown_sum(weights) -> float:
    """What a row's numbers add up to as the map writes them, each with two decimals (a blocked or dropped cell
    shows no number and weighs 0). Added in decimal, so no binary rounding slips into the sum."""
    return float(sum(Decimal(f"{float(weight):.2f}") for weight in weights))


def head_name(result: Result) -> str | None:
    """The head in view, as the map names it at its top left ("Head 2 of 4"); None with one head."""
    s = result.settings
    # Translators: the title at the top left of the attention map when there are several heads
    return _("Head {view} of {heads}", view=s.view, heads=s.heads) if s.heads > 1 else None


def cut_words_line(result: Result, cut: Iterable[int]) -> str | None:
    """The words the map had to cut short ("3 Electro…"), whole, with their positions (Markdown, words escaped)."""
    cut = list(cut)
    if not cut:
        return None
    words = " · ".join(f"{position + 1} **{md_escape(result.labels[position])}**" for position in cut)
    # Translators: under the map; {words} lists positions and words ("1 **Electroencephalographers** · 3 **...**")
    return _("Cut short on the map: {words}", words=words)


def empty_row_warning(result: Result) -> str | None:
    if not result.empty_rows:
        return None
    words = ", ".join(f"**{md_escape(result.labels[i])}**" for i in result.empty_rows)
    return _n(
        "Row {words} has nothing to look at: every key is blocked, so the app sets the whole row to 0 instead of "
        "dividing by zero (NaN).",
        "Rows {words} have nothing to look at: every key is blocked, so the app sets the whole row to 0 instead of "
        "dividing by zero (NaN).",
        len(result.empty_rows), words=words,
    )


def map_summary(result: Result) -> str:
    """A text alternative for the map: what is blocked, and where each query looks most."""
    s = result.settings
    view = result.view_index
    cells = {"cells": result.masked_cells, "padding": result.padding_cells}
    if s.causal:
        blocked = _("Causal mask on; {cells} cells blocked, {padding} of them by padding.", **cells) \
            if result.padding_cells else _("Causal mask on; {cells} cells blocked.", **cells)
    else:
        blocked = _("Causal mask off; {cells} cells blocked, {padding} of them by padding.", **cells) \
            if result.padding_cells else _("Causal mask off; {cells} cells blocked.", **cells)
    # English says "words" for any count; _n gives other languages their singular
    weights_of = _n("Attention weights of head {view} of {heads} for {count} words.",
                    "Attention weights of head {view} of {heads} for {count} words.", len(result.tokens), view=s.view,
                    heads=s.heads)
    parts = [weights_of, blocked]
    for row, label in enumerate(result.labels):
        weights = result.weights[view, row]
        if row in result.empty_rows:
            parts.append(_("{word}: nothing to look at.", word=label))
        else:
            best = int(np.argmax(weights))
            parts.append(_("{word} looks most at {key} ({weight:.2f}).", word=label, key=result.labels[best],
                           weight=weights[best]))
    return " ".join(parts)
