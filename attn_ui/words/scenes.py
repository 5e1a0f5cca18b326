"""The lecture scenes as data: a question, what the board shows, and the answer revealed after the room predicts.

A lecturer steps through them on the "Lecture scenes" page; a slide links to one with `?scene=N` (1-based) and,
to open it already answered, `&reveal=1`. Each scene asks first (`question`), then the lecturer reveals the board
and the answer (`narration`). The order follows the two lessons: the cheating head, changing a later word, the
four routes and the 29% trap, padding and the empty row, dropout and the rescale trap, heads and W_o, the
quadratic wall, one row by hand.

What the board draws is the scene's `kind`: "map" is the Lab's map of `settings`; the others are one lesson figure
each, drawn by the registry in attn_ui/views/scene_board.py with the lesson's own builders. A new kind (the
training page adds some) needs a facts function in FACTS below and a drawing in that registry.

No number is written into the text: titles, questions and answers are templates whose `{fields}` are filled at
run time from the core's numbers for that scene (`scene_words`), so a changed setting cannot leave a stale number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core import Result, Settings, compute
from attn_core.lessons import heads as head_lessons
from attn_core.lessons import masks as mask_lessons
from attn_core.query import read_number_in_range
from attn_lang import N_, _, number
from attn_ui.words.explain import kpi_values, shown_sum


@dataclass(frozen=True)
class Scene:
    """One step of the lecture."""

    title: str  # names the topic, never the result
    settings: Settings  # the Lab's state; settings.view is the head shown
    narration: str  # the answer, revealed by the lecturer: Markdown template, one or two sentences, no user text
    row: int | None = None  # 1-based query row to outline, or None
    question: str = ""  # asked before anything is shown, on the projector and on every phone: Markdown template
    kind: str = "map"  # what the board draws (attn_ui/views/scene_board.py)
    training: str | None = None  # kind "training": the preset ("mask", "heads") whose shipped curves it shows
    givens: str = ""  # what the question step shows besides its words (GIVENS): what a student needs, not the answer


@dataclass(frozen=True)
class SceneWords:
    """A scene's text with its numbers filled in."""

    title: str
    question: str
    answer: str


# What a question step may show besides the question, so that every question can be answered from the screen
# (attn_ui/views/scene_board.py draws them; tests/ui/test_scene_givens.py checks each scene shows its own and not
# its scored value). A scene whose question holds all it needs declares none.
GIVENS = MappingProxyType({
    "": N_("the numbers in the question"),
    "shades": N_("the map in shades of colour, the row outlined, no numbers"),
    "row": N_("the map in shades of colour, the row outlined with its weights written in it"),
    "values": N_("the weights of the words the row may see, and each value vector's second number"),
})

LESSON_ONE = Settings(causal=True, d_model=4)  # page 1's settings: d_model 4 keeps its value vectors readable
CAUSAL = Settings(causal=True)
FOUR_HEADS = CAUSAL.replace(heads=4)
DROPOUT = CAUSAL.replace(dropout=0.5)
LATER_WORD = (4, "leap")  # page 1's default: change word 4 into "leap"
MEMORY = (8, head_lessons.GPT2.heads, head_lessons.GPT2.context)  # page 5's default: batch, heads, context
VALUE_COLUMN = 2  # one row by hand: the output's number the room works out (the first is near zero: a guess of 0
# would pass for it)

SCENES: tuple[Scene, ...] = (
    # --- lesson 1: peeking and the causal mask
    Scene(N_("A head that may peek"), Settings(),
          N_("**{hits}** of {positions}. Each word just reads the word after it: copying, not predicting."),
          question=N_("This head guesses each next word, and nothing stops it looking ahead. How many of the "
                      "{positions} next words will it get right?"), kind="cheat"),
    Scene(N_("A masked head"), CAUSAL,
          N_("**{seen_next}** of {positions}: each word now sees only itself and the words before it, so no guess can "
             "copy the word that comes next. The head still gets {hits} right (*{lucky_row}*'s average lands nearest "
             "*{lucky_word}*, which happens to come next): luck, not a peek."),
          question=N_("Now the causal mask is on. For how many of the {positions} words can this head still see the "
                      "word that comes next?"), kind="cheat"),
    Scene(N_("Where does a word look?"), Settings(),
          N_("**{future_share}** of it. *{row_word}* spreads its weight over all {length} words, the later ones "
             "included, and **Sees future?** says {sees}."),
          row=2, question=N_("No mask yet. Row {row} is *{row_word}*: what share of its weight lands on the words "
                             "after it?"), givens="row"),
    Scene(N_("The causal mask"), CAUSAL,
          N_("**{masked}**: all the cells above the diagonal. Row {row} now shares its weight between the words up "
             "to *{row_word}*, and still adds up to {row_sum}."),
          row=2, question=N_("Switch the causal mask on. How many cells of this {length} × {length} map go grey?")),
    Scene(N_("The first row"), CAUSAL,
          N_("**{self_weight}**. The mask leaves *{row_word}* a single key, itself, so the softmax has nothing else "
             "to share with."),
          row=1, question=N_("The causal mask is on. What weight does *{row_word}*, the first word, give itself?")),
    Scene(N_("The last row"), CAUSAL,
          N_("Nothing. No word comes after *{row_word}*, so all {open_keys} of its keys stay open and its weights "
             "are those of the unmasked map."),
          row=6, question=N_("What does the causal mask change in the row of *{row_word}*, the last word?")),
    Scene(N_("Change a later word"), LESSON_ONE,
          N_("With −∞ before the softmax, **{mask_changed}**: that is the proof that the mask hides the future. "
             "Without the mask all {nomask_changed} of the earlier rows change."),
          question=N_("The causal mask is on. Change word {position}, *{old_word}*, into *{new_word}*: how many "
                      "outputs of the {earlier} earlier words change?"), kind="later-word"),
    Scene(N_("Four routes to block a cell"), LESSON_ONE,
          N_("A blocked score of zero: it still gives the future **{zero_score_future}**. −∞ before the softmax "
             "puts {neg_inf_future} there, and zeroing after the softmax leaves none but a row adding up to "
             "{zero_after_sum}."),
          row=3, question=N_("Four ways to remove a blocked cell. Row {row}: which one still leaves weight on the "
                             "future?"), kind="routes"),
    Scene(N_("The zero-score trap"), CAUSAL.replace(route="zero_score"),
          N_("**{pad_percent}**. A score of zero is e⁰ = {exp_zero} after the exp, a share of {exp_zero} in "
             "{total}: blocking means −∞, not zero."),
          row=2, question=N_("Three scores: two real words with exps {exp_first} and {exp_second}, and a PAD whose "
                             "score was set to zero. What percent of the weight does the PAD get?"), kind="trap"),
    Scene(N_("Zero after the softmax"), CAUSAL.replace(route="zero_after"),
          N_("**{row_sum}**, one minus the later words' share, and **Sees future?** says {sees}: the softmax "
             "divided by a total that held the later words' scores."),
          row=2, question=N_("Without the mask, row {row} put {unmasked_future} of its weight on the later words. "
                             "Now zero the blocked weights after the softmax: what does the row add up to?")),
    # --- lesson 2: the padding mask
    Scene(N_("Padding"), Settings(padded=(5, 6)),
          N_("**{padding}**: the two PAD columns, for all {length} queries. A PAD word carries nothing worth "
             "reading."),
          row=2, question=N_("Make *one* and *step* PAD, no causal mask. No query may look at a PAD key: how many "
                             "cells of the {length} × {length} map are blocked?")),
    Scene(N_("Padding and the causal mask"), CAUSAL.replace(padded=(5, 6)),
          N_("**{masked}**: causal OR padding. The PAD row *{row_word}* still looks at the real words; its output "
             "is simply thrown away."),
          row=6, question=N_("*one* and *step* are still PAD. Now switch the causal mask on as well: how many cells "
                             "of the {length} × {length} map are blocked in all, by either mask?")),
    Scene(N_("A row with nothing to look at"), CAUSAL.replace(padded=(1,)),
          N_("Nothing: its one key, itself, is PAD. The app gives the row weights adding up to **{row_sum}** and "
             "a warning, instead of dividing by zero."),
          row=1, question=N_("Pad the first word with the mask on. What can row {row}, *{row_word}*, look at?")),
    # --- lesson 3: dropout on the weights
    Scene(N_("Dropout while training"), DROPOUT,
          N_("About **{expected}**: each open weight is dropped with chance p, and a draw strays from that by "
             "about {drop_sd} either way (this pattern dropped {dropped}). The survivors are divided by the keep "
             "chance {keep}, so the rows add up to {row_sums}."),
          row=2, question=N_("Dropout with p = {p} while training, over the {legal} open weights: how many do you "
                             "expect it to drop?")),
    Scene(N_("Dropout without the rescale"), DROPOUT.replace(rescale=False),
          N_("**{row_sums}**. No survivor grows, so a training output shrinks compared with inference: the "
             "rescale trap."),
          row=2, question=N_("Dropout as before, but the survivors are no longer rescaled. What do the rows add up "
                             "to now?")),
    Scene(N_("Many re-rolls"), Settings(dropout=0.5),
          N_("Without the rescale **{mean_without}**, the keep chance; with it {mean_with}, as at inference."),
          question=N_("Over {rolls} re-rolls with p = {p} and no rescale, what does a row add up to on average?"),
          kind="rolls"),
    Scene(N_("Inference"), DROPOUT.replace(training=False),
          N_("**{dropped}**. Dropout acts only while training; the rows add up to {row_sums} again."),
          row=2, question=N_("Switch to inference, p still {p}. How many cells are dropped?")),
    # --- lesson 4: many heads
    Scene(N_("Head {view} of {heads}"), FOUR_HEADS,
          N_("**{d_head}** columns each. The grey triangle does not move: {masked} masked cells in this head too."),
          row=3, question=N_("Cut d_model = {d_model} into {heads} heads. How many of the d_model columns of the "
                             "queries, keys and values does each head get?")),
    Scene(N_("Head {view} of {heads}"), FOUR_HEADS.replace(view=2),
          N_("No: *{row_word}* gives itself **{self_weight}** here, against {previous_self_weight} in head "
             "{previous}. Each head has its own slice of W_q and W_k."),
          row=3, question=N_("Head {view}: the words and the mask have not changed. Will *{row_word}* weigh the "
                             "words as it did in head {previous}?")),
    Scene(N_("Head {view} of {heads}"), FOUR_HEADS.replace(view=3),
          N_("*{low_word}*, with only **{low_weight}**, where head {first} gave it {first_low_weight}. Each head "
             "weighs the words its own way; no head is the right one, and the model keeps all {heads}."),
          row=3, question=N_("Head {view}, in shades: which word does *{row_word}* lean on least?"), givens="shades"),
    Scene(N_("Head {view} of {heads}"), FOUR_HEADS.replace(view=4),
          N_("**{d_model}** numbers a word: {heads} outputs of {d_head} side by side, which W_o then mixes."),
          row=3, question=N_("The {heads} heads' outputs, {d_head} numbers each, are placed side by side, before W_o. "
                             "How many numbers wide is each word's output then?")),
    Scene(N_("Where each head's output goes"), FOUR_HEADS,
          N_("Column **{second_first}**, and on to {second_last}. The heads fill blocks of {d_head} in order, side "
             "by side in one (T, d_model) array."),
          question=N_("{heads} heads of {d_head} columns each are placed side by side into d_model = {d_model} "
                      "columns, counted from {first}. At which column does the second head's output start?"),
          kind="concat"),
    Scene(N_("What W_o does"), FOUR_HEADS,
          N_("**{alone}** head each: a column of the concatenation holds one head's numbers. W_o mixes them, so "
             "each output column draws on all {heads} heads."),
          question=N_("Without W_o, how many heads does each output column hear?"), kind="mixing"),
    # --- lesson 5: the quadratic wall
    Scene(N_("The quadratic wall"), CAUSAL,
          N_("**{ratio}** times as much, {at_double}: T appears twice in (B, h, T, T)."),
          question=N_("GPT-2 sizes: {memory_heads} heads, batch {batch}, context {context}. The scores of one "
                      "layer take {at_context}. Double the context: how many times as much memory do they take?"),
          kind="memory"),
    # --- lesson 6: one row by hand
    Scene(N_("One row by hand"), LESSON_ONE,
          N_("**{value_pick}**: {value_sum}. The future adds nothing; the whole output is ({context})."),
          row=3, question=N_("Row {row}, *{row_word}*: its output is the weighted sum of the value vectors it may "
                             "see. From the weights and values shown, what is the output's second number?"),
          kind="values", givens="values"),
)


# --- Train it yourself: what a model that learns does with the mask and the heads. These scenes show a preset's
# shipped curves instead of a Lab map (the numbers under them are formatted from that run), and keep the Lab
# state the run trained with for "Open in the Lab".
TRAINING_SCENES: tuple[Scene, ...] = (
    Scene(
        N_("A model trained without the mask, and one with it"),
        CAUSAL,
        N_("No mask (left): the training loss dives towards zero, since each position can read the next word. With "
           "the mask it settles on the language's entropy, and only that model writes sentences."),
        question=N_("Two tiny models learn the same toy language, one with the causal mask and one without. "
                    "Which is true?"),
        kind="training", training="mask",
    ),
    Scene(
        N_("Heads that learned to look back"),
        CAUSAL,
        N_("On sequences with a repeated stretch, the loss on the repeat stalls near chance and then drops in a "
           "few hundred steps. That is when a head learns to find the earlier copy and read what came after it."),
        question=N_("A two-layer model sees random tokens with a stretch that comes back later. How does its loss "
                    "on the repeat fall?"),
        kind="training", training="heads",
    ),
)
SCENES = SCENES + TRAINING_SCENES


# --- the numbers each kind of scene fills in ------------------------------------------------------------------


def _f2(value: float) -> str:
    return number(value, ".2f")


def result_facts(result: Result, row: int | None) -> dict[str, str]:
    """What every scene may quote: the KPI tiles' numbers and, with a row, that row's weights."""
    tiles = kpi_values(result)
    settings = result.settings
    legal = int((~result.blocked[0]).sum())
    facts = {
        "length": str(len(result.tokens)), "masked": str(result.masked_cells), "padding": str(result.padding_cells),
        "dropped": str(result.dropped_cells), "legal": str(legal),
        "sees": tiles["Sees future?"], "row_sums": tiles["Row sums"], "d_model": str(settings.d_model),
        "heads": str(settings.heads), "view": str(settings.view), "d_head": str(result.d_head),
        "p": number(settings.dropout, "g"), "keep": number(1 - settings.dropout, "g"),
        # a fair dropout draw over the open weights: its expected count and standard deviation
        "expected": number(settings.dropout * legal, "g"),
        "drop_sd": number(math.sqrt(legal * settings.dropout * (1 - settings.dropout)), ".1f"),
    }
    if row is not None:
        index = row - 1
        weights = result.weights[result.view_index, index]  # (T,)
        top = int(np.argmax(weights))
        unmasked = compute(settings.replace(causal=False, route="neg_inf", padded=()))
        facts |= {
            "row": str(row), "row_word": result.tokens[index], "self_weight": _f2(weights[index]),
            "row_sum": _f2(weights.sum()), "future_share": _f2(weights[row:].sum()),
            "unmasked_future": _f2(unmasked.weights[unmasked.view_index, index, row:].sum()),
            "open_keys": str(int((~result.blocked[0, index]).sum())),
            "top_word": result.tokens[top], "top_weight": _f2(weights[top]),
            "later": str(len(result.tokens) - row),
        }
        open_keys = np.flatnonzero(~result.blocked[0, index])  # (k,) the keys the row may look at
        if open_keys.size:
            low = int(open_keys[np.argmin(weights[open_keys])])
            first_head = compute(settings.replace(view=1))
            facts |= {"low_word": result.tokens[low], "low_weight": _f2(weights[low]), "first": "1",
                      "first_low_weight": _f2(first_head.weights[first_head.view_index, index, low])}
        if settings.view > 1:
            previous = compute(settings.replace(view=settings.view - 1))
            facts |= {"previous": str(settings.view - 1),
                      "previous_self_weight": _f2(previous.weights[previous.view_index, index, index])}
    return facts


def _cheat(scene: Scene, result: Result) -> dict[str, str]:
    head = mask_lessons.cheating_head(scene.settings.sentence, scene.settings.causal)
    hits = [t for t, (guess, word) in enumerate(zip(head.guesses, head.next_words, strict=True)) if guess == word]
    lucky = {"lucky_row": head.tokens[hits[-1]], "lucky_word": head.next_words[hits[-1]]} if hits else {}
    seen_next = sum(bool(head.weights[t, t + 1] > 0) for t in range(head.positions))  # the next word is open
    return {"hits": str(head.hit_count), "positions": str(head.positions), "seen_next": str(seen_next), **lucky}


def _later_word(scene: Scene, result: Result) -> dict[str, str]:
    position, new_word = LATER_WORD
    change = mask_lessons.change_later_word(scene.settings, position, new_word)
    no_mask, neg_inf = change.setups[:2]  # the set-ups without the mask and with −∞ before the softmax
    return {"position": str(position), "old_word": change.old_word, "new_word": change.new_word,
            "earlier": str(change.earlier_rows), "nomask_changed": str(change.earlier_rows_moved(no_mask)),
            "mask_changed": str(change.earlier_rows_moved(neg_inf))}


def _routes(scene: Scene, result: Result) -> dict[str, str]:
    rows = mask_lessons.route_rows(scene.settings, scene.row - 1)
    leaked, sums = dict(zip(rows.routes, rows.leaked, strict=True)), dict(zip(rows.routes, rows.sums, strict=True))
    return {"neg_inf_future": _f2(leaked["neg_inf"]), "zero_after_sum": _f2(sums["zero_after"]),
            "zero_score_future": _f2(leaked["zero_score"])}


def _trap(scene: Scene, result: Result) -> dict[str, str]:
    example = mask_lessons.worked_example()
    return {"pad_percent": _("{percent:.0f}%", percent=100 * example.pad_share), "exp_zero": _f2(example.exps[2]),
            "exp_first": _f2(example.exps[0]), "exp_second": _f2(example.exps[1]),
            "total": _f2(shown_sum(example.exps))}  # the sum of the exps as shown: 1.40 + 1.05 + 1.00 = 3.45


def _rolls(scene: Scene, result: Result) -> dict[str, str]:
    rolls = mask_lessons.dropout_rolls(scene.settings)
    return {"rolls": str(len(rolls.with_rescale)), "mean_with": _f2(rolls.mean_with),
            "mean_without": _f2(rolls.mean_without)}


def _concat(scene: Scene, result: Result) -> dict[str, str]:
    second = head_lessons.head_columns(scene.settings.d_model, scene.settings.heads)[1]
    return {"second_first": str(second.start + 1), "second_last": str(second.stop), "first": "1"}  # columns from 1


def _mixing(scene: Scene, result: Result) -> dict[str, str]:
    blocks = head_lessons.head_columns(scene.settings.d_model, scene.settings.heads)
    heard = {sum(column in block for block in blocks) for column in range(scene.settings.d_model)}
    return {"alone": str(heard.pop())} if len(heard) == 1 else {"alone": "?"}


def _memory(scene: Scene, result: Result) -> dict[str, str]:
    batch, heads, length = MEMORY
    float32 = head_lessons.BYTES_PER_NUMBER["float32"]
    at_context = head_lessons.score_tensor_bytes(batch, heads, length, float32)
    at_double = head_lessons.score_tensor_bytes(batch, heads, 2 * length, float32)
    return {"batch": str(batch), "memory_heads": str(heads), "context": number(length, ","),
            "at_context": head_lessons.human_bytes(at_context), "at_double": head_lessons.human_bytes(at_double),
            "ratio": number(at_double / at_context, "g")}


def value_givens(scene: Scene, result: Result) -> tuple[tuple[str, float, float], ...]:
    """One row by hand: (word, weight, value vector's VALUE_COLUMN-th number) of each word the row may see, each
    rounded to two decimals as the screen shows it. What the question step shows, and all the sum needs."""
    terms = mask_lessons.row_times_values(result, scene.row - 1)
    return tuple((word, round(float(weight), 2), round(float(value[VALUE_COLUMN - 1]), 2))
                 for word, weight, value, future in zip(terms.labels, terms.weights, terms.values, terms.future,
                                                        strict=True) if not future)


def _values(scene: Scene, result: Result) -> dict[str, str]:
    terms = mask_lessons.row_times_values(result, scene.row - 1)
    shown = value_givens(scene, result)
    products = " + ".join(_("{weight:.2f} × {value:.2f}", weight=weight, value=value) for __, weight, value in shown)
    return {"value_pick": _f2(terms.context[VALUE_COLUMN - 1]), "value_sum": products,
            "context": "; ".join(_f2(value) for value in terms.context), "column": str(VALUE_COLUMN)}


def _none(scene: Scene, result: Result) -> dict[str, str]:
    return {}


# kind -> the extra numbers its text quotes (besides result_facts); read-only, as every module table here
FACTS: Mapping[str, Callable[[Scene, Result], dict[str, str]]] = MappingProxyType({
    "map": _none, "cheat": _cheat, "later-word": _later_word, "routes": _routes, "trap": _trap, "rolls": _rolls,
    "concat": _concat, "mixing": _mixing, "memory": _memory, "values": _values, "training": _none,
})


def scene_facts(scene: Scene) -> dict[str, str]:
    """Every number a scene's text may quote, computed from the core for its settings, written as the run's language
    writes numbers."""
    result = compute(scene.settings)
    return {**result_facts(result, scene.row), **FACTS[scene.kind](scene, result)}


def scene_words(scene: Scene) -> SceneWords:
    """The scene's title, question and answer in the run's language, with their numbers filled in from the core."""
    facts = scene_facts(scene)
    return SceneWords(_(scene.title, **facts), _(scene.question, **facts), _(scene.narration, **facts))


def scene_number(raw: str | None, count: int = len(SCENES)) -> tuple[int, str | None]:
    """The 1-based scene a URL's `scene` value asks for, and a note when it could not be used as it was.

    Out of range gives the nearest scene (a slide that links to "scene 30" of 25 lands on the last one);
    anything that is not a whole number gives scene 1.
    """
    if raw is None or not raw.strip():
        return 1, None
    found, note = read_number_in_range(raw, "scene", 1, count)
    if found is None:
        return 1, _("{note} Showing scene 1.", note=note)
    return found, note
