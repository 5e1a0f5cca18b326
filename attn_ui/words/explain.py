"""Sentences about a Result, for captions and screen readers. Pure text: no Streamlit, no maths beyond sorting."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from attn_core import Result
from attn_ui.words.escape import md_escape


def kpi_values(result: Result, score_tensor: bool = True) -> dict[str, str]:
    """The KPI tiles, label -> value, in the order they are shown; the scenes leave the score tensor out."""
    s = result.settings
    view = result.view_index
    sums = result.row_sums[view]
    values = {
        "Sees future?": "Yes" if result.sees_future else "No",
        "Masked cells": str(result.masked_cells),
        "Padding-blocked cells": str(result.padding_cells),
        "Dropped cells": str(result.dropped_cells),
        "d_head": f"{s.d_model} / {s.heads} = {s.d_head}",
        "Row sums": row_sums_text(sums),
    }
    if score_tensor:
        values["Score tensor"] = f"{'×'.join(map(str, result.score_shape))} · {result.score_bytes:,} B"
    return values


def row_sums_text(sums) -> str:
    """The smallest and largest row sum in words: "0.50 to 1.00", or "all 1.00" (a dash read like a minus)."""
    low, high = f"{sums.min():.2f}", f"{sums.max():.2f}"
    return f"all {low}" if low == high else f"{low} to {high}"


KPI_HELP = MappingProxyType({  # read-only: shared by every session
    "Sees future?": "Does any output of this head change when a later word changes? The future gets in through a "
                    "weight above 0, or, when blocked weights are zeroed after the softmax, through the "
                    "softmax's sum, which still counts the later words' scores.",
    "Masked cells": "Cells blocked for this head: by the causal mask, by padding, or both.",
    "Padding-blocked cells": "Cells whose key is a PAD token (a whole column each).",
    "Dropped cells": "Legal cells set to 0 by dropout in this head (training only).",
    "d_head": "Each head works on d_model / heads numbers.",
    "Row sums": "Smallest and largest sum of a row of weights in this head.",
    "Score tensor": "Its shape (B, h, T, T) with one sentence, and its bytes in float32: T×T grows with the "
                    "square of the sentence length.",
})


def row_sentence(result: Result, row: int) -> str:
    """One Markdown line on what a query row attends to (words escaped)."""
    view = result.view_index
    words = [md_escape(label) for label in result.labels]
    weights = result.weights[view, row]
    if row in result.empty_rows:
        return f"**{words[row]}** (query {row + 1}) has nothing to look at: every key is blocked, so its row is all 0."
    order = [j for j in np.argsort(-weights, kind="stable") if weights[j] > 0][:3]
    top = ", ".join(f"**{words[j]}** {weights[j]:.2f}" for j in order)
    blocked = int(result.blocked[view, row].sum())
    dropped = int(result.dropped[view, row].sum())
    extra = []
    if blocked:
        extra.append(f"{blocked} blocked")
    if dropped:
        extra.append(f"{dropped} dropped")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"**{words[row]}** (query {row + 1}) looks most at {top}; its row sums to {weights.sum():.2f}{tail}."


def empty_row_warning(result: Result) -> str | None:
    if not result.empty_rows:
        return None
    words = ", ".join(f"**{md_escape(result.labels[i])}**" for i in result.empty_rows)
    many = len(result.empty_rows) > 1
    return (
        f"{'Rows' if many else 'Row'} {words} {'have' if many else 'has'} nothing to look at: every key "
        "is blocked, so the app sets the whole row to 0 instead of dividing by zero (NaN)."
    )


def map_summary(result: Result) -> str:
    """A text alternative for the map: what is blocked, and where each query looks most."""
    s = result.settings
    view = result.view_index
    blocked = f"Causal mask {'on' if s.causal else 'off'}; {result.masked_cells} cells blocked"
    if result.padding_cells:
        blocked += f", {result.padding_cells} of them by padding"
    parts = [f"Attention weights of head {s.view} of {s.heads} for {len(result.tokens)} words.", blocked + "."]
    for row, label in enumerate(result.labels):
        weights = result.weights[view, row]
        if row in result.empty_rows:
            parts.append(f"{label}: nothing to look at.")
        else:
            best = int(np.argmax(weights))
            parts.append(f"{label} looks most at {result.labels[best]} ({weights[best]:.2f}).")
    return " ".join(parts)
