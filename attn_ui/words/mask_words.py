"""The words of the lesson pages on masks and dropout: fixed Markdown, and sentences built from core numbers.

Pure text: no Streamlit, no maths. Every user word goes through md_escape.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from attn_core import Result
from attn_core.lessons import masks as lessons
from attn_core.lessons.masks import (
    CheatingHead,
    DropoutRolls,
    LaterWordChange,
    PaddedBatch,
    RouteRows,
    RowTimesValues,
    WorkedExample,
)
from attn_ui.words.escape import md_escape


def signed(value: float) -> str:
    """Two decimals with the minus sign the figures print (−, not -)."""
    return f"{value:.2f}".replace("-", "−")


# --- page 1: peeking ------------------------------------------------------------------------------

PEEK_INTRO = """
A language model learns by guessing the next word at every position of a sentence, all in one pass:
position 1 guesses word 2, position 2 guesses word 3, and so on. Attention lets each position read every
other one. Left alone, position *t* can read word *t* + 1, the very answer it is asked for. Training then
looks perfect while the model learns nothing it can use later, because when it writes text, one word at a
time, word *t* + 1 has not been written yet. So position *t* may read positions 1 to *t* and nothing after.
"""

CHEAT_HOW = """
**A head that cheats.** This head was built by hand to copy the answer. Its queries and keys come from the
word positions, not from the words: the query of position *t* matches only the key of position *t* + 1. Its
values are the word vectors themselves. For each position we take the word of the sentence whose vector lies
closest to the head's output, and call that its guess for the next word.
"""

MASK_ON_MEANS = """
**Mask on is what the model sees while it generates.** When a model writes, the next word does not exist
yet: it can look only at the words already written. The causal mask gives training that view. Without it a
model learns to read the answer off the next position, which it will not have when it writes. *Train it
yourself* shows the consequence on a model that really learns: its training loss falls close to zero, and
its writing falls apart.
"""

PROOF_HOW = """
**Proof by experiment: change a later word.** If nothing leaks from the future, swapping a word can only
move the rows of that word and the ones after it. Pick a word and a replacement. Each cell shows how far a
row's output moved (0 means not a single bit); the orange box holds the rows *before* the changed word. The
columns are the set-ups of the next section: **no mask**, and the causal mask applied three ways.
"""

ROUTES_HOW = """
**Four ways to remove a blocked cell.** One query row, computed four ways, one per column:
**−∞ first** sets blocked scores to −∞ before the softmax; **zero after** takes the softmax first and then
zeroes the blocked weights; **zero, renorm.** also divides the row by its new sum; **score → 0** is the trap
that sets blocked scores to 0.
"""

VALUES_HOW = """
**The future is still in V.** The mask touches the weights, never the values. The later words' value
vectors are still in V; they are multiplied by a weight of exactly 0, so they add nothing to the sum.
"""

PEEK_FAILURES = """
**How it goes wrong**
- *No causal mask, or the wrong triangle.* Training loss looks wonderful and generation is useless: the
  model learned to read answers that do not exist when it writes. (Blocking the lower triangle instead
  leaves the future open and hides the past.)
- *Zeroing weights after the softmax and stopping there.* Rows sum to less than 1, and the kept weights
  still carry the future through the softmax's denominator.
- *Setting blocked scores to 0 instead of −∞.* e⁰ = 1, so every blocked key still gets a share.
"""

PEEK_TASK = (
    "The Lab below opens with the causal mask on and blocked weights zeroed *after* the softmax. Which row "
    "still sums to 1, and why that one? **Sees future?** says Yes although every later word has weight 0: "
    "why? Then pick the route *−∞ before softmax* under **More** and watch it change."
)


def cheat_caption(cheat: CheatingHead) -> str:
    share = float(cheat.weight_on_next.mean()) if cheat.positions else 0.0
    if not cheat.causal:
        return (
            f"No mask: each position puts {share:.3f} of its weight on the word right after it, so its output "
            f"*is* that word, and {cheat.hit_count} of {cheat.positions} guesses are right. A model trained like "
            "this learns to copy, not to predict."
        )
    return (
        f"Causal mask on: the one key each query wants is blocked (weight {share:.0f}). Every earlier key "
        "scores the same, so the output is the plain average of the words so far, and only "
        f"{cheat.hit_count} of {cheat.positions} guesses are right, where that average happens to sit "
        "near the next word."
    )


def guess_rows(cheat: CheatingHead) -> dict[str, list]:
    """The guesses as table columns (shown by st.dataframe, which prints text literally)."""
    return {
        "position": list(range(1, cheat.positions + 1)),
        "word": list(cheat.tokens[:-1]),
        "next word": list(cheat.next_words),
        "head's guess": list(cheat.guesses),
        "right?": ["yes" if hit else "no" for hit in cheat.hits],
    }


def change_caption(change: LaterWordChange) -> str:
    old, new = md_escape(change.old_word), md_escape(change.new_word)
    earlier = change.earlier_rows
    if earlier == 0:
        return f"You changed word 1 (**{old}** → **{new}**): no row comes before it, so pick a later word."
    names = change.setups
    moved = {name: change.earlier_rows_moved(name) for name in names}
    weights_moved = change.earlier_weights_moved(names[3])
    rows = "no row of weights changed" if weights_moved == 0 else \
        f"{weights_moved} {'row' if weights_moved == 1 else 'rows'} of weights changed"
    return (
        f"You changed word {change.position} (**{old}** → **{new}**). Of the {earlier} earlier rows: "
        f"with no mask {moved[names[0]]} moved; with −∞ before the softmax {moved[names[1]]} moved. "
        f"Zeroing after the softmax moved {moved[names[2]]}: the kept weights were divided by a sum that "
        f"included the future word's $e^{{\\text{{score}}}}$, so they still depend on it. Setting blocked scores to 0 "
        f"moved {moved[names[3]]} of the {earlier} outputs, though {rows}: why, the question below asks."
    )


# In the answer fold, after the question: why the zero-score route moved outputs in the table above
TRAP_LEAK = ("That is also why setting blocked scores to 0 moved outputs in the table above: the blocked word keeps "
             "$e^{0} = 1$ of the softmax's sum, and its value flows into the output with that weight.")


def routes_caption(rows: RouteRows) -> str:
    names = dict(zip(rows.routes, rows.sums, strict=True))
    leaked = dict(zip(rows.routes, rows.leaked, strict=True))
    blocked = int(rows.blocked.sum())
    if blocked == 0:
        return "Nothing is blocked in this row, so all four routes give the same weights. Pick an earlier row."
    same = bool(np.allclose(rows.of("neg_inf"), rows.of("renormalize"), rtol=0, atol=1e-12))
    return (
        f"{blocked} of this row's cells are blocked. −∞ before the softmax sums to {names['neg_inf']:.2f}, and "
        f"zeroing then renormalizing gives {'the very same weights' if same else 'different weights'}. Zeroing "
        f"after the softmax leaves a sum of {names['zero_after']:.2f}, and its kept weights still depend on the "
        f"blocked scores through the softmax's sum. The trap sums to {names['zero_score']:.2f} but hands "
        f"{leaked['zero_score']:.2f} of it to blocked keys. With the mask on, the Lab's **Sees future?** says "
        "*Yes* for both."
    )


def worked_example_text(example: WorkedExample) -> str:
    e1, e2, e3 = example.exps
    w = example.with_neg_inf
    return (
        f"**The lessons' example.** Scores {example.scores[0]:.2f} and {example.scores[1]:.2f}, and a third word "
        f"that must be blocked. With −∞ its term is $e^{{-\\infty}} = 0$ and the weights are {w[0]:.2f}, {w[1]:.2f}, "
        f"{w[2]:.0f}. If its score is set to 0 instead: $e^{{{example.scores[0]:.2f}}} \\approx {e1:.2f}$, "
        f"$e^{{{example.scores[1]:.2f}}} \\approx {e2:.2f}$, $e^{{0}} = {e3:.0f}$; the sum is {example.total:.2f}, so "
        f"the blocked word gets {e3:.0f} / {example.total:.2f} ≈ **{example.pad_share:.0%}** of the weight."
    )


def values_caption(terms: RowTimesValues) -> str:
    word = md_escape(terms.labels[terms.row])
    later = int(terms.future.sum())
    if later == 0:
        return f"**{word}** is the last word: nothing comes after it. Pick an earlier row."
    return (
        f"Row **{word}**: the {later} later words still have value vectors (the number largest in size among "
        f"them is {signed(terms.future_value_largest)}), yet their largest term in the sum is "
        f"{terms.future_term_size:.2f}."
    )


# --- page 2: padding ------------------------------------------------------------------------------

PAD_INTRO = """
Models read sentences in batches, and a batch is one rectangular array, so every sentence in it needs the
same length. Shorter ones are filled up with a **PAD** token. PAD means nothing, so no word may look at it:
the padding mask blocks a PAD's whole *column*, for every query at once. Each mask holds one True or False
per cell, and True means **blocked**; the causal mask and the padding mask are joined with OR.
"""

PAD_ROWS = """
**PAD rows still look around.** Blocking is about columns. A PAD's own *row* (its query) still spreads its
weight over the real words it may see. That is harmless: nothing ever reads a PAD's output,
and the loss skips PAD positions. The mask only has to keep real words from looking *at* PAD.
"""

BATCH_HOW = """
**One mask for the whole batch.** Each sentence has its own padding, so the padding flags form a (B, L)
table: B sentences, L positions. Inserting an axis gives (B, 1, L), which NumPy copies down all L query rows
when it meets the scores of shape (B, L, L): that copying is broadcasting.
"""

EMPTY_ROW_HOW = """
**The row with nothing to look at.** Turn the causal mask on and tap the first word. Row 1 may look only at
word 1, and word 1 is now PAD: every cell of the row is blocked. A softmax over a row of −∞ computes 0 / 0,
which is NaN (not a number), and one NaN spreads to every number it is added to or multiplied by in the
layers after. This app sets such a row to all zeros instead.

What real code does: `torch.softmax` over a row of −∞ also returns NaN, and PyTorch's
`scaled_dot_product_attention` did the same up to version 2.4. Since 2.5 its reference path uses a "safe"
softmax that returns zeros for a fully masked row, like this app. Attention written by hand (masked_fill
with −∞, then softmax) still gives NaN, which is why careful code either guards such rows or never builds
them (a left-padded batch with a causal mask is the classic way to get one).
"""

PAD_FAILURES = """
**How it goes wrong**
- *Forgetting the padding mask.* Real words give weight to PAD, and a sentence's output changes with how
  much padding the batch happened to need.
- *A mask of the wrong shape.* A (B, L) mask against (B, L, L) scores broadcasts along the wrong axis (or
  fails); it needs the (B, 1, L) form so one row is copied down every query.
- *A fully masked row left as NaN.* It poisons the next layer through 0 × NaN = NaN.
"""

PAD_TASK = (
    "In the Lab below, the last two words are PAD and the causal mask is off. Which columns are blocked? Turn "
    "the causal mask on: which row has exactly one open cell, whatever you pad (as long as its own word is "
    "real)?"
)


def mask_counts_caption(result: Result) -> str:
    both = int((result.blocked_by_causal & result.blocked_by_padding).sum())
    return (
        f"Causal: {result.future_cells} blocked cells. Padding: {result.padding_cells}. Combined: "
        f"{result.masked_cells} ({both} cells are blocked by both and count once)."
    )


def pad_rows_caption(result: Result, rows: dict[int, np.ndarray]) -> str:
    if not rows:
        if result.settings.padded:  # every PAD row is empty: no real word it may see
            return "No PAD row here has a real word it may see: each is an empty row (below)."
        return "Tap a word to make it PAD, then look at its row in the map."
    parts = []
    for row, weights in rows.items():
        best = int(np.argmax(weights))
        parts.append(
            f"the PAD row **{md_escape(result.labels[row])}** puts {weights[best]:.2f} on "
            f"**{md_escape(result.labels[best])}** and sums to {weights.sum():.2f}"
        )
    return "In this map, " + "; ".join(parts) + ". Nobody reads those outputs."


def batch_caption(batch: PaddedBatch) -> str:
    flags, inserted, broadcast = batch.shapes
    return (
        f"PAD flags {flags} → with an axis inserted {inserted} → broadcast against the scores {broadcast}. "
        f"The sentences have {' and '.join(map(str, batch.lengths))} real words; each is padded to {flags[1]}."
    )


def batch_code(batch: PaddedBatch) -> str:
    """The NumPy steps of the batch mask, each with the shape it produced (short lines: phones)."""
    flags, inserted, broadcast = batch.shapes
    return (
        f"is_pad.shape                # {flags}\n"
        f"pad = is_pad[:, None, :]    # {inserted}\n"
        f"pad = np.broadcast_to(pad, {broadcast})\n"
        f"blocked = causal | pad      # {broadcast}"
    )


def empty_row_caption(result: Result, naive: np.ndarray | None) -> str:
    if not result.empty_rows or naive is None:
        return "No row is empty right now: every query has at least one key it may look at."
    row = result.empty_rows[0]
    word = md_escape(result.labels[row])
    shown = ", ".join("NaN" if np.isnan(v) else f"{v:.2f}" for v in naive)
    app = ", ".join(f"{v:.0f}" for v in result.weights[result.view_index, row])
    one = f"Row {row + 1} (**{word}**): a plain softmax gives [{shown}]; the app gives [{app}]."
    if len(result.empty_rows) == 1:
        return one
    rows = ", ".join(str(r + 1) for r in result.empty_rows)
    return f"{len(result.empty_rows)} rows are empty (rows {rows}), each the same way. {one}"


# --- page 3: dropout ------------------------------------------------------------------------------

DROP_INTRO = """
A big model trained on little text learns it by heart. Dropout fights that: at every training step it sets a
random share *p* of the attention weights to 0, so no query can count on one favourite key always being
there. Only cells that carry weight can be dropped; blocked cells are 0 already. The survivors are then
multiplied by 1 / (1 − *p*): with *p* = 0.5 they double, with *p* = 0.1 they grow by about 1.11.
"""

ROLLS_HOW = """
**Why the rescale matters.** Each point below is one dropout pattern; the thick line is the average so far.
With the rescale, rows sum to about 1 on average, the same as at inference, when nothing is dropped.
Without it they sum to about 1 − *p*: the layer trains on outputs that are too small and meets full-size
ones once deployed.
"""

INFERENCE_HOW = """
**Training only.** Dropout belongs to training. At inference it is switched off whatever *p* says, so the
same input gives the same numbers every time: turn **Training** off and re-roll as often as you like.
"""

DROP_FAILURES = """
**How it goes wrong**
- *Dropout left on at inference.* The same prompt gives different answers on every run.
- *The 1 / (1 − p) rescale forgotten.* Training sees rows that sum to about 1 − p; inference sees rows that
  sum to 1. The mismatch costs accuracy without any error message.
"""

DROP_TASK = (
    "The Lab below has p = 0.5 and the rescale switched off. Read **Row sums**, press **Re-roll** a few times, "
    "then switch **Rescale survivors** back on (under the dropout slider). What happens to the row sums?"
)


def scale_caption(result: Result, scale: float) -> str:
    s = result.settings
    if not s.training:
        return f"Inference: p = {s.dropout:.2f} is ignored, nothing is dropped, survivors × {scale:.2f}."
    if s.dropout == 0:
        return "p = 0: nothing is dropped."
    wanted = 1 / (1 - s.dropout)
    if not s.rescale:
        return f"Rescale forgotten: survivors keep their size (× {scale:.2f}) instead of × {wanted:.2f}."
    return f"p = {s.dropout:.2f}: survivors × 1 / (1 − {s.dropout:.2f}) = **{scale:.2f}**."


def rolls_caption(rolls: DropoutRolls) -> str:
    count = len(rolls.with_rescale)
    if not rolls.training or rolls.p == 0:
        return (
            f"Over {count} re-rolls nothing is dropped: the mean row sum is {rolls.mean_with:.3f} with or "
            f"without the rescale."
        )
    return (
        f"Over {count} re-rolls at p = {rolls.p:.2f}: mean row sum {rolls.mean_with:.3f} with the rescale, "
        f"{rolls.mean_without:.3f} without it (1 − p = {1 - rolls.p:.2f})."
    )


def dropout_tiles(result: Result, maps_in_rolls: int) -> dict[str, str]:
    """Page 3's tiles: what dropout did to the head in view, and how many patterns the re-rolls give."""
    return {
        "Survivors ×": f"{lessons.survivor_scale(result):.2f}",
        "Dropped cells": str(result.dropped_cells),
        "Mean row sum": f"{lessons.mean_row_sum(result):.2f}",
        f"Different maps in {lessons.PATTERN_ROLLS} re-rolls": str(maps_in_rolls),
    }


DROPOUT_TILE_HELP = MappingProxyType({  # read-only: shared by every session
    "Survivors ×": "What each weight that survived was multiplied by: 1 / (1 − p) with the rescale, else 1.",
    "Dropped cells": "Weights set to 0 by this dropout pattern, in the head on the map.",
    "Mean row sum": "The rows' sums, averaged over the rows that have a key to look at.",
    f"Different maps in {lessons.PATTERN_ROLLS} re-rolls": f"Press Re-roll {lessons.PATTERN_ROLLS} times and "
    "count the different maps you get. Training draws a new pattern each time, so they differ; inference has no "
    "dropout, so every re-roll gives the same map.",
})
