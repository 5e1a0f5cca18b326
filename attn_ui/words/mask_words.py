"""The words of the lesson pages on masks and dropout: fixed Markdown, and sentences built from core numbers.

Pure text: no Streamlit, no maths. Every user word goes through md_escape. The fixed Markdown is marked with N_ and
drawn as _(TEXT) by the pages; the functions write their sentences in the run's language (attn_lang).
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
from attn_lang import N_, _, _n, number
from attn_ui.words.escape import md_escape
from attn_ui.words.explain import listed, shown_sum


def signed(value: float) -> str:
    """Two decimals with the minus sign the figures print (−, not -), in the language's decimal sign."""
    return number(value, ".2f").replace("-", "−")


def formula_number(value: float, spec: str) -> str:
    """A number inside a formula ($...$): a decimal comma goes in braces, {,}, or the formula spaces it as a list."""
    return number(value, spec).replace(",", "{,}")


# --- page 1: peeking ------------------------------------------------------------------------------

PEEK_INTRO = N_("""
A language model learns by guessing the next word at every position of a sentence, all in one pass:
position 1 guesses word 2, position 2 guesses word 3, and so on. Attention lets each position read every
other one. Left alone, position *t* can read word *t* + 1, the very answer it is asked for. Training then
looks perfect while the model learns nothing it can use later, because when it writes text, one word at a
time, word *t* + 1 has not been written yet. So position *t* may read positions 1 to *t* and nothing after.
""")

CHEAT_HOW = N_("""
**A head that cheats.** This head was built by hand to copy the answer. Its queries and keys come from the
word positions, not from the words: the query of position *t* matches only the key of position *t* + 1. Its
values are the word vectors themselves. For each position we take the word of the sentence whose vector lies
closest to the head's output, and call that its guess for the next word.
""")

MASK_ON_MEANS = N_("""
**Mask on is what the model sees while it generates.** When a model writes, the next word does not exist
yet: it can look only at the words already written. The causal mask gives training that view. Without it a
model learns to read the answer off the next position, which it will not have when it writes. *Train it
yourself* puts this to a model that really learns, once with the mask and once without: predict there what
becomes of each model's losses and of its writing, then watch it train.
""")

PROOF_HOW = N_("""
**Proof by experiment: change a later word.** If nothing leaks from the future, swapping a word can only
move the rows of that word and the ones after it. Pick a word and a replacement. Each cell shows how far a
row's output moved (0 means not a single bit); the orange box holds the rows *before* the changed word. The
columns are the set-ups of the next section: **no mask**, and the causal mask applied three ways.
""")

ROUTES_TITLE = N_("Four ways to remove a blocked cell")  # the section's name while it waits for the prediction
ROUTES_HOW = N_("""
**Four ways to remove a blocked cell.** One query row, computed four ways, one per column:
**−∞ first** sets blocked scores to −∞ before the softmax; **zero after** takes the softmax first and then
zeroes the blocked weights; **zero, renorm.** also divides the row by its new sum; **score → 0** is the trap
that sets blocked scores to 0.
""")

VALUES_HOW = N_("""
**The future is still in V.** The mask touches the weights, never the values. The later words' value
vectors are still in V; they are multiplied by a weight of exactly 0, so they add nothing to the sum.
""")

PEEK_FAILURES = N_("""
**How it goes wrong**
- *No causal mask, or the wrong triangle.* The model learns to read answers that will not exist when it
  writes: *Train it yourself* asks what that does to its losses. (Blocking the lower triangle instead
  leaves the future open and hides the past.)
- *Zeroing weights after the softmax and stopping there.* Rows sum to less than 1, and the kept weights
  still carry the future through the softmax's denominator.
- *Setting blocked scores to 0 instead of −∞.* e⁰ = 1, so every blocked key still gets a share.
""")

PEEK_TASK = N_(
    "The Lab below opens with the causal mask on and blocked weights zeroed *after* the softmax. Which row "
    "still sums to 1, and why that one? **Sees future?** says Yes although every later word has weight 0: "
    "why? Then pick the route *−∞ before softmax* under **More** and watch it change."
)


def cheat_caption(cheat: CheatingHead) -> str:
    share = float(cheat.weight_on_next.mean()) if cheat.positions else 0.0
    values = {"share": share, "hits": cheat.hit_count, "positions": cheat.positions}
    if not cheat.causal:
        return _("No mask: each position puts {share:.3f} of its weight on the word right after it, so its output "
                 "*is* that word, and {hits} of {positions} guesses are right. A model trained like this learns to "
                 "copy, not to predict.", **values)
    return _("Causal mask on: the one key each query wants is blocked (weight {share:.0f}). Every earlier key scores "
             "the same, so the output is the plain average of the words so far, and only {hits} of {positions} "
             "guesses are right, where that average happens to sit near the next word.", **values)


def guess_rows(cheat: CheatingHead) -> dict[str, list]:
    """The guesses as table columns (shown by st.dataframe, which prints text literally)."""
    return {
        # Translators: the column headings of the table of the cheating head's guesses, and its yes/no answers
        _("position"): list(range(1, cheat.positions + 1)),
        _("word"): list(cheat.tokens[:-1]),
        _("next word"): list(cheat.next_words),
        _("head's guess"): list(cheat.guesses),
        _("right?"): [_("yes") if hit else _("no") for hit in cheat.hits],
    }


def change_caption(change: LaterWordChange) -> str:
    old, new = md_escape(change.old_word), md_escape(change.new_word)
    earlier = change.earlier_rows
    if earlier == 0:
        return _("You changed word 1 (**{old}** → **{new}**): no row comes before it, so pick a later word.", old=old,
                 new=new)
    names = change.setups
    moved = [change.earlier_rows_moved(name) for name in names]  # no mask, -inf, zero after, score 0
    weights_moved = change.earlier_weights_moved(names[3])
    changed = _("You changed word {position} (**{old}** → **{new}**). Of the {earlier} earlier rows: with no mask "
                "{none} moved; with −∞ before the softmax {neg_inf} moved.", position=change.position, old=old,
                new=new, earlier=earlier, none=moved[0], neg_inf=moved[1])
    after = _("Zeroing after the softmax moved {moved}: the kept weights were divided by a sum that included the "
              "future word's $e^{{\\text{{score}}}}$, so they still depend on it.", moved=moved[2])
    if weights_moved == 0:
        trap = _("Setting blocked scores to 0 moved {moved} of the {earlier} outputs, though no row of weights "
                 "changed: why, the question below asks.", moved=moved[3], earlier=earlier)
    else:
        trap = _n("Setting blocked scores to 0 moved {moved} of the {earlier} outputs, though {count} row of weights "
                  "changed: why, the question below asks.",
                  "Setting blocked scores to 0 moved {moved} of the {earlier} outputs, though {count} rows of weights "
                  "changed: why, the question below asks.", weights_moved, moved=moved[3], earlier=earlier)
    return " ".join((changed, after, trap))


# In the answer fold, after the question: why the zero-score route moved outputs in the table above
TRAP_LEAK = N_("That is also why setting blocked scores to 0 moved outputs in the table above: the blocked word "
               "keeps $e^{0} = 1$ of the softmax's sum, and its value flows into the output with that weight.")


def routes_caption(rows: RouteRows) -> str:
    sums = dict(zip(rows.routes, rows.sums, strict=True))
    leaked = dict(zip(rows.routes, rows.leaked, strict=True))
    blocked = int(rows.blocked.sum())
    if blocked == 0:
        return _("Nothing is blocked in this row, so all four routes give the same weights. Pick an earlier row.")
    same = bool(np.allclose(rows.of("neg_inf"), rows.of("renormalize"), rtol=0, atol=1e-12))
    # English says "cells are" for any count; _n gives other languages their singular
    cells = _n("{count} of this row's cells are blocked.", "{count} of this row's cells are blocked.", blocked)
    if same:
        first = _("−∞ before the softmax sums to {total:.2f}, and zeroing then renormalizing gives the very same "
                  "weights.", total=sums["neg_inf"])
    else:
        first = _("−∞ before the softmax sums to {total:.2f}, and zeroing then renormalizing gives different weights.",
                  total=sums["neg_inf"])
    after = _("Zeroing after the softmax leaves a sum of {total:.2f}, and its kept weights still depend on the "
              "blocked scores through the softmax's sum.", total=sums["zero_after"])
    trap = _("The trap sums to {total:.2f} but hands {leaked:.2f} of it to blocked keys.", total=sums["zero_score"],
             leaked=leaked["zero_score"])
    # Translators: **Sees future?** and *Yes* are the Lab's tile and its value: write them as the tile does
    both = _("With the mask on, the Lab's **Sees future?** says *Yes* for both.")
    return " ".join((cells, first, after, trap, both))


def worked_example_text(example: WorkedExample) -> str:
    e1, e2, e3 = example.exps
    w = example.with_neg_inf
    first, second = example.scores[0], example.scores[1]
    # Translators: the names ending in _tex are numbers already written for the formulas ($...$) they stand in
    return _(
        "**The lessons' example.** Scores {first:.2f} and {second:.2f}, and a third word that must be blocked. "
        "With −∞ its term is $e^{{-\\infty}} = 0$ and the weights are {w_first:.2f}, {w_second:.2f}, {w_blocked:.0f}. "
        "If its score is set to 0 instead: $e^{{{first_tex}}} \\approx {e_first_tex}$, "
        "$e^{{{second_tex}}} \\approx {e_second_tex}$, $e^{{0}} = {e_blocked:.0f}$; the sum is {total:.2f}, so the "
        "blocked word gets {e_blocked:.0f} / {total:.2f} ≈ **{share:.0%}** of the weight.",
        first=first, second=second, w_first=w[0], w_second=w[1], w_blocked=w[2],
        first_tex=formula_number(first, ".2f"), e_first_tex=formula_number(e1, ".2f"),
        second_tex=formula_number(second, ".2f"), e_second_tex=formula_number(e2, ".2f"), e_blocked=e3,
        total=shown_sum(example.exps), share=example.pad_share,
    )  # the sum of the exps as written (1.40 + 1.05 + 1 = 3.45), not of the unrounded ones (3.456, written 3.46)


def values_caption(terms: RowTimesValues) -> str:
    word = md_escape(terms.labels[terms.row])
    later = int(terms.future.sum())
    if later == 0:
        return _("**{word}** is the last word: nothing comes after it. Pick an earlier row.", word=word)
    # English says "words" for any count; _n gives other languages their singular
    return _n(
        "Row **{word}**: the {count} later words still have value vectors (the number largest in size among them "
        "is {largest}), yet their largest term in the sum is {term:.2f}.",
        "Row **{word}**: the {count} later words still have value vectors (the number largest in size among them "
        "is {largest}), yet their largest term in the sum is {term:.2f}.",
        later, word=word, largest=signed(terms.future_value_largest), term=terms.future_term_size,
    )


# --- page 2: padding ------------------------------------------------------------------------------

PAD_INTRO = N_("""
Models read sentences in batches, and a batch is one rectangular array, so every sentence in it needs the
same length. Shorter ones are filled up with a **PAD** token. PAD means nothing, so no word may look at it:
the padding mask blocks a PAD's whole *column*, for every query at once. Each mask holds one True or False
per cell, and True means **blocked**; the causal mask and the padding mask are joined with OR.
""")

PAD_ROWS = N_("""
**PAD rows still look around.** Blocking is about columns. A PAD's own *row* (its query) still spreads its
weight over the real words it may see. That is harmless: nothing ever reads a PAD's output,
and the loss skips PAD positions. The mask only has to keep real words from looking *at* PAD.
""")

BATCH_HOW = N_("""
**One mask for the whole batch.** Each sentence has its own padding, so the padding flags form a (B, L)
table: B sentences, L positions. Inserting an axis gives (B, 1, L), which NumPy copies down all L query rows
when it meets the scores of shape (B, L, L): that copying is broadcasting.
""")

EMPTY_ROW_HOW = N_("""
**The row with nothing to look at.** Turn the causal mask on and tap the first word. Row 1 may look only at
word 1, and word 1 is now PAD: every cell of the row is blocked. A softmax over a row of −∞ computes 0 / 0,
which is NaN (not a number), and one NaN spreads to every number it is added to or multiplied by in the
layers after. This app sets such a row to all zeros instead.

What real code does: `torch.softmax` over a row of −∞ also returns NaN, and PyTorch's
`scaled_dot_product_attention` did the same up to version 2.4. Since 2.5 its reference path uses a "safe"
softmax that returns zeros for a fully masked row, like this app. Attention written by hand (masked_fill
with −∞, then softmax) still gives NaN, which is why careful code either guards such rows or never builds
them (a left-padded batch with a causal mask is the classic way to get one).
""")

PAD_FAILURES = N_("""
**How it goes wrong**
- *Forgetting the padding mask.* Real words give weight to PAD, and a sentence's output changes with how
  much padding the batch happened to need.
- *A mask of the wrong shape.* A (B, L) mask against (B, L, L) scores broadcasts along the wrong axis (or
  fails); it needs the (B, 1, L) form so one row is copied down every query.
- *A fully masked row left as NaN.* It poisons the next layer through 0 × NaN = NaN.
""")

PAD_TASK = N_(
    "In the Lab below, the last two words are PAD and the causal mask is off. Which columns are blocked? Turn "
    "the causal mask on: which row has exactly one open cell, whatever you pad (as long as its own word is "
    "real)?"
)


def mask_counts_caption(result: Result) -> str:
    both = int((result.blocked_by_causal & result.blocked_by_padding).sum())
    return _("Causal: {future} blocked cells. Padding: {padding}. Combined: {combined} ({both} cells are blocked by "
             "both and count once).", future=result.future_cells, padding=result.padding_cells,
             combined=result.masked_cells, both=both)


def pad_rows_caption(result: Result, rows: dict[int, np.ndarray]) -> str:
    if not rows:
        if result.settings.padded:  # every PAD row is empty: no real word it may see
            return _("No PAD row here has a real word it may see: each is an empty row (below).")
        return _("Tap a word to make it PAD, then look at its row in the map.")
    parts = []
    for row, weights in rows.items():
        best = int(np.argmax(weights))
        # Translators: one item of the list {rows} below
        parts.append(_("the PAD row **{word}** puts {weight:.2f} on **{key}** and sums to {total:.2f}",
                       word=md_escape(result.labels[row]), weight=weights[best], key=md_escape(result.labels[best]),
                       total=weights.sum()))
    # Translators: {rows} lists the PAD rows, separated by semicolons ("the PAD row **step** puts 0.40 on ...")
    return _("In this map, {rows}. Nobody reads those outputs.", rows="; ".join(parts))


def batch_caption(batch: PaddedBatch) -> str:
    flags, inserted, broadcast = batch.shapes
    shapes = _("PAD flags {flags} → with an axis inserted {inserted} → broadcast against the scores {broadcast}.",
               flags=str(flags), inserted=str(inserted), broadcast=str(broadcast))
    if len(batch.lengths) == 2:  # the page's batch: the lesson's sentence and a shorter one
        words = _("The sentences have {first} and {second} real words; each is padded to {length}.",
                  first=batch.lengths[0], second=batch.lengths[1], length=flags[1])
    else:
        words = _("The sentences have {lengths} real words; each is padded to {length}.",
                  lengths=", ".join(map(str, batch.lengths)), length=flags[1])
    return f"{shapes} {words}"


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
        return _("No row is empty right now: every query has at least one key it may look at.")
    row = result.empty_rows[0]
    word = md_escape(result.labels[row])
    shown = listed("NaN" if np.isnan(v) else number(v, ".2f") for v in naive)
    app = listed(number(v, ".0f") for v in result.weights[result.view_index, row])
    # Translators: {plain} and {app} are the row's numbers, listed ("NaN, NaN, NaN" and "0, 0, 0")
    one = _("Row {row} (**{word}**): a plain softmax gives [{plain}]; the app gives [{app}].", row=row + 1, word=word,
            plain=shown, app=app)
    if len(result.empty_rows) == 1:
        return one
    rows = ", ".join(str(r + 1) for r in result.empty_rows)
    # Translators: {one} is the sentence about the first empty row ("Row 1 (**Your**): a plain softmax gives ...")
    return _("{count} rows are empty (rows {rows}), each the same way. {one}", count=len(result.empty_rows),
             rows=rows, one=one)


# --- page 3: dropout ------------------------------------------------------------------------------

DROP_INTRO = N_("""
A big model trained on little text learns it by heart. Dropout fights that: at every training step it sets a
random share *p* of the attention weights to 0, so no query can count on one favourite key always being
there. Only cells that carry weight can be dropped; blocked cells are 0 already. The survivors are then
multiplied by 1 / (1 − *p*): with *p* = 0.5 they double, with *p* = 0.1 they grow by about 1.11.
""")

ROLLS_HOW = N_("""
**Why the rescale matters.** Each point below is one dropout pattern; the thick line is the average so far.
With the rescale, rows sum to about 1 on average, the same as at inference, when nothing is dropped.
Without it they sum to about 1 − *p*: the layer trains on outputs that are too small and meets full-size
ones once deployed.
""")

INFERENCE_HOW = N_("""
**Training only.** Dropout belongs to training. At inference it is switched off whatever *p* says, so the
same input gives the same numbers every time: turn **Training** off and the map stays put, with **Re-roll**
greyed out, since there is nothing left to draw.
""")

DROP_FAILURES = N_("""
**How it goes wrong**
- *Dropout left on at inference.* The same prompt gives different answers on every run.
- *The 1 / (1 − p) rescale forgotten.* Training sees rows that sum to about 1 − p; inference sees rows that
  sum to 1. The mismatch costs accuracy without any error message.
""")

DROP_TASK = N_(
    "The Lab below has p = 0.5 and the rescale switched off. Read **Row sums**, press **Re-roll** a few times, "
    "then switch **Rescale survivors** back on (under the dropout slider). What happens to the row sums?"
)


def scale_caption(result: Result, scale: float) -> str:
    s = result.settings
    if not s.training:
        return _("Inference: p = {p:.2f} is ignored, nothing is dropped, survivors × {scale:.2f}.", p=s.dropout,
                 scale=scale)
    if s.dropout == 0:
        return _("p = 0: nothing is dropped.")
    wanted = 1 / (1 - s.dropout)
    if not s.rescale:
        return _("Rescale forgotten: survivors keep their size (× {scale:.2f}) instead of × {wanted:.2f}.",
                 scale=scale, wanted=wanted)
    return _("p = {p:.2f}: survivors × 1 / (1 − {p:.2f}) = **{scale:.2f}**.", p=s.dropout, scale=scale)


def rolls_caption(rolls: DropoutRolls) -> str:
    count = len(rolls.with_rescale)
    if not rolls.training or rolls.p == 0:
        return _("Over {rolls} re-rolls nothing is dropped: the mean row sum is {mean:.3f} with or without the "
                 "rescale.", rolls=count, mean=rolls.mean_with)
    return _("Over {rolls} re-rolls at p = {p:.2f}: mean row sum {with_rescale:.3f} with the rescale, "
             "{without_rescale:.3f} without it (1 − p = {keep:.2f}).", rolls=count, p=rolls.p,
             with_rescale=rolls.mean_with, without_rescale=rolls.mean_without, keep=1 - rolls.p)


# Page 3's tiles' labels: messages, drawn by panels.metric_tiles as _(label, rolls=PATTERN_ROLLS)
SURVIVORS_TILE = N_("Survivors ×")
DROPPED_TILE = N_("Dropped cells")
MEAN_SUM_TILE = N_("Mean row sum")
MAPS_TILE = N_("Different maps in {rolls} re-rolls")
TILE_FILL = MappingProxyType({"rolls": lessons.PATTERN_ROLLS})  # what fills the labels' and helps' placeholders


def dropout_tiles(result: Result, maps_in_rolls: int) -> dict[str, str]:
    """Page 3's tiles: what dropout did to the head in view, and how many patterns the re-rolls give. Keyed by the
    labels' messages (drawn with TILE_FILL); the values are in the run's language."""
    return {
        SURVIVORS_TILE: number(lessons.survivor_scale(result), ".2f"),
        DROPPED_TILE: str(result.dropped_cells),
        MEAN_SUM_TILE: number(lessons.mean_row_sum(result), ".2f"),
        MAPS_TILE: str(maps_in_rolls),
    }


DROPOUT_TILE_HELP = MappingProxyType({  # read-only: shared by every session; drawn as _(help, rolls=...)
    SURVIVORS_TILE: N_("What each weight that survived was multiplied by: 1 / (1 − p) with the rescale, else 1."),
    DROPPED_TILE: N_("Weights set to 0 by this dropout pattern, in the head on the map."),
    MEAN_SUM_TILE: N_("The rows' sums, averaged over the rows that have a key to look at."),
    MAPS_TILE: N_("Press Re-roll {rolls} times and count the different maps you get. Training draws a new pattern "
                  "each time, so they differ; inference has no dropout, so every re-roll gives the same map."),
})
