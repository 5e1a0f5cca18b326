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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core import Result, Settings, compute
from attn_core.lessons import heads as head_lessons
from attn_core.lessons import masks as mask_lessons
from attn_core.query import read_number_in_range
from attn_ui.words.explain import kpi_values


@dataclass(frozen=True)
class Scene:
    """One step of the lecture."""

    title: str  # names the topic, never the result
    settings: Settings  # the Lab's state; settings.view is the head shown
    narration: str  # the answer, revealed by the lecturer: Markdown template, one or two sentences, no user text
    row: int | None = None  # 1-based query row to outline, or None
    question: str = ""  # asked before anything is shown: Markdown template
    kind: str = "map"  # what the board draws (attn_ui/views/scene_board.py)
    training: str | None = None  # kind "training": the preset ("mask", "heads") whose shipped curves it shows


@dataclass(frozen=True)
class SceneWords:
    """A scene's text with its numbers filled in."""

    title: str
    question: str
    answer: str


LESSON_ONE = Settings(causal=True, d_model=4)  # page 1's settings: d_model 4 keeps its value vectors readable
CAUSAL = Settings(causal=True)
FOUR_HEADS = CAUSAL.replace(heads=4)
DROPOUT = CAUSAL.replace(dropout=0.5)
LATER_WORD = (4, "leap")  # page 1's default: change word 4 into "leap"
MEMORY = (8, head_lessons.GPT2.heads, head_lessons.GPT2.context)  # page 5's default: batch, heads, context

SCENES: tuple[Scene, ...] = (
    # --- lesson 1: peeking and the causal mask
    Scene("A head that may peek", Settings(),
          "**{hits}** of {positions}. Each word just reads the word after it: copying, not predicting.",
          question="This head tries to guess the next word, and nothing stops it looking ahead. How many of the "
                   "{positions} next words will it get right?", kind="cheat"),
    Scene("A masked head", CAUSAL,
          "**{hits}** of {positions}. With the later words out of reach, copying stops working.",
          question="Now switch the causal mask on. How many right guesses are left?", kind="cheat"),
    Scene("Where does a word look?", Settings(),
          "**{future_share}** of it. *{row_word}* spreads its weight over all {length} words, the later ones "
          "included, and **Sees future?** says {sees}.",
          row=2, question="No mask yet. Row {row} is *{row_word}*: how much of its weight lands on the words after "
                          "it?"),
    Scene("The causal mask", CAUSAL,
          "**{masked}**: all the cells above the diagonal. Row {row} now shares its weight between the words up "
          "to *{row_word}*, and still adds up to {row_sum}.",
          row=2, question="Switch the causal mask on. How many cells of this {length} × {length} map go grey?"),
    Scene("The first row", CAUSAL,
          "**{self_weight}**. The mask leaves *{row_word}* a single key, itself, so the softmax has nothing else "
          "to share with.",
          row=1, question="What weight does *{row_word}*, the first word, give itself now?"),
    Scene("The last row", CAUSAL,
          "Nothing. No word comes after *{row_word}*, so all {open_keys} of its keys stay open and its weights "
          "are those of the unmasked map.",
          row=6, question="What does the mask change in the row of *{row_word}*, the last word?"),
    Scene("Change a later word", LESSON_ONE,
          "Without the mask **{nomask_changed}** of the {earlier} earlier rows change; with −∞ before the "
          "softmax, **{mask_changed}**. That is the proof that the mask hides the future.",
          question="Change word {position}, *{old_word}*, into *{new_word}*. How many outputs of the {earlier} "
                   "earlier words change, without the mask and with it?", kind="later-word"),
    Scene("Four routes to block a cell", LESSON_ONE,
          "−∞ before the softmax puts **{neg_inf_future}** on the future; zeroing after the softmax leaves the row "
          "adding up to **{zero_after_sum}**; a blocked score of zero still gives the future **{zero_score_future}**.",
          row=3, question="Four ways to remove a blocked cell. Row {row}: which of them leave weight on the future, "
                          "or a row that no longer adds up to one?", kind="routes"),
    Scene("The zero-score trap", CAUSAL.replace(route="zero_score"),
          "**{pad_percent}**. A score of zero is e⁰ = {exp_zero} after the exp, a share of {exp_zero} in "
          "{total}: blocking means −∞, not zero.",
          row=2, question="Three scores: two real words with exps {exp_first} and {exp_second}, and a PAD whose "
                          "score was set to zero. What share of the weight does the PAD get?", kind="trap"),
    Scene("Zero after the softmax", CAUSAL.replace(route="zero_after"),
          "**{row_sum}**, and **Sees future?** says {sees}: the softmax divided by a total that held the later "
          "words' scores.",
          row=2, question="Zero the blocked weights after the softmax instead. What does row {row} add up to now?"),
    # --- lesson 2: the padding mask
    Scene("Padding", Settings(padded=(5, 6)),
          "**{padding}**: the two PAD columns, for all {length} queries. A PAD word carries nothing worth reading.",
          row=2, question="Make *one* and *step* PAD, no causal mask. How many cells does padding block?"),
    Scene("Padding and the causal mask", CAUSAL.replace(padded=(5, 6)),
          "**{masked}**: causal OR padding. The PAD row *{row_word}* still looks at the real words; its output is "
          "simply thrown away.",
          row=6, question="Now the causal mask on as well. How many cells are masked in all?"),
    Scene("A row with nothing to look at", CAUSAL.replace(padded=(1,)),
          "Nothing: its one key, itself, is PAD. The app gives the row weights adding up to **{row_sum}** and a "
          "warning, instead of dividing by zero.",
          row=1, question="Pad the first word with the mask on. What can row {row}, *{row_word}*, look at?"),
    # --- lesson 3: dropout on the weights
    Scene("Dropout while training", DROPOUT,
          "**{dropped}** dropped in this pattern. The survivors are divided by the keep chance {keep}, so the "
          "rows add up to **{row_sums}**.",
          row=2, question="Dropout p = {p} in training. How many of the {legal} open weights are dropped, and what "
                          "happens to the rest?"),
    Scene("Dropout without the rescale", DROPOUT.replace(rescale=False),
          "**{row_sums}**. No survivor grows, so a training output shrinks compared with inference: the rescale "
          "trap.",
          row=2, question="Switch the rescale off, with this dropout pattern. What do the rows add up to now?"),
    Scene("Many re-rolls", Settings(dropout=0.5),
          "With the rescale **{mean_with}**, as at inference; without it **{mean_without}**, the keep chance.",
          question="Over {rolls} re-rolls with p = {p}, what does a row add up to on average, with the rescale and "
                   "without it?", kind="rolls"),
    Scene("Inference", DROPOUT.replace(training=False),
          "**{dropped}**. Dropout acts only while training; the rows add up to {row_sums} again.",
          row=2, question="Switch to inference, p still {p}. How many cells are dropped?"),
    # --- lesson 4: many heads
    Scene("Head {view} of {heads}", FOUR_HEADS,
          "**{d_head}** columns each. The grey triangle does not move: {masked} masked cells in this head too.",
          row=3, question="Cut d_model = {d_model} into {heads} heads. How many columns does each head get, and "
                          "does the mask change?"),
    Scene("Head {view} of {heads}", FOUR_HEADS.replace(view=2),
          "No: *{row_word}* gives itself **{self_weight}** here, against {previous_self_weight} in head "
          "{previous}. Each head has its own slice of W_q and W_k.",
          row=3, question="Head {view}: the words and the mask have not changed. Will *{row_word}* weigh the "
                          "words as it did in head {previous}?"),
    Scene("Head {view} of {heads}", FOUR_HEADS.replace(view=3),
          "*{top_word}*, with **{top_weight}**. No head is the right one; the model keeps all {heads}.",
          row=3, question="Head {view}: which word does *{row_word}* lean on here?"),
    Scene("Head {view} of {heads}", FOUR_HEADS.replace(view=4),
          "**{d_model}** numbers a word: {heads} outputs of {d_head} side by side, which W_o then mixes.",
          row=3, question="After the last head, how wide is each word's output before W_o?"),
    Scene("Where each head's output goes", FOUR_HEADS,
          "Columns **{second_first}** to **{second_last}**. The heads fill blocks of {d_head} in order, side by "
          "side in one (T, d_model) array.",
          question="In the concatenation, which columns hold the second head's output?", kind="concat"),
    Scene("What W_o does", FOUR_HEADS,
          "**{alone}** head each: a column of the concatenation holds one head's numbers. W_o mixes them, so "
          "each output column draws on all {heads} heads.",
          question="Without W_o, how many heads does each output column hear?", kind="mixing"),
    # --- lesson 5: the quadratic wall
    Scene("The quadratic wall", CAUSAL,
          "**{at_double}**, {ratio} times as much: T appears twice in (B, h, T, T).",
          question="GPT-2 sizes: {memory_heads} heads, batch {batch}, context {context}. The scores of one layer "
                   "take {at_context}. Double the context: how much now?", kind="memory"),
    # --- lesson 6: one row by hand
    Scene("One row by hand", LESSON_ONE,
          "The {open_keys} value vectors it may see, weighted {row_weights}; the future adds nothing. The output's "
          "first number is **{context_first}**.",
          row=3, question="Row {row}, *{row_word}*: its output is a weighted sum. Of which value vectors, with "
                          "which weights?", kind="values"),
)


# --- Train it yourself: what a model that learns does with the mask and the heads. These scenes show a preset's
# shipped curves instead of a Lab map (the numbers under them are formatted from that run), and keep the Lab
# state the run trained with for "Open in the Lab".
TRAINING_SCENES: tuple[Scene, ...] = (
    Scene(
        "A model trained without the mask, and one with it",
        CAUSAL,
        "Left, no mask: the training loss dives towards zero because each position can read the next word. Right, "
        "the mask on: the loss settles on the language's true entropy, and only this model writes sentences.",
        question="Two tiny models learn the same toy language, one with the causal mask and one without. Which "
        "one's training loss falls lower, and which one can write a sentence?",
        kind="training", training="mask",
    ),
    Scene(
        "Heads that learned to look back",
        CAUSAL,
        "On sequences with a repeated stretch, the loss on the repeat stalls near chance and then drops in a few "
        "hundred steps. That is when a head learns to find the earlier copy and read what came after it.",
        question="A two-layer model sees random tokens with a stretch that comes back later. Does its loss on the "
        "repeat fall smoothly, or stall and then drop?",
        kind="training", training="heads",
    ),
)
SCENES = SCENES + TRAINING_SCENES


# --- the numbers each kind of scene fills in ------------------------------------------------------------------


def _f2(value: float) -> str:
    return f"{value:.2f}"


def result_facts(result: Result, row: int | None) -> dict[str, str]:
    """What every scene may quote: the KPI tiles' numbers and, with a row, that row's weights."""
    tiles = kpi_values(result)
    settings = result.settings
    facts = {
        "length": str(len(result.tokens)), "masked": str(result.masked_cells), "padding": str(result.padding_cells),
        "dropped": str(result.dropped_cells), "legal": str(int((~result.blocked[0]).sum())),
        "sees": tiles["Sees future?"], "row_sums": tiles["Row sums"], "d_model": str(settings.d_model),
        "heads": str(settings.heads), "view": str(settings.view), "d_head": str(result.d_head),
        "p": f"{settings.dropout:g}", "keep": f"{1 - settings.dropout:g}",
    }
    if row is not None:
        index = row - 1
        weights = result.weights[result.view_index, index]  # (T,)
        top = int(np.argmax(weights))
        facts |= {
            "row": str(row), "row_word": result.tokens[index], "self_weight": _f2(weights[index]),
            "row_sum": _f2(weights.sum()), "future_share": _f2(weights[row:].sum()),
            "open_keys": str(int((~result.blocked[0, index]).sum())),
            "top_word": result.tokens[top], "top_weight": _f2(weights[top]),
        }
        if settings.view > 1:
            previous = compute(settings.replace(view=settings.view - 1))
            facts |= {"previous": str(settings.view - 1),
                      "previous_self_weight": _f2(previous.weights[previous.view_index, index, index])}
    return facts


def _cheat(scene: Scene, result: Result) -> dict[str, str]:
    head = mask_lessons.cheating_head(scene.settings.sentence, scene.settings.causal)
    return {"hits": str(head.hit_count), "positions": str(head.positions)}


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
    return {"pad_percent": f"{100 * example.pad_share:.0f}%", "exp_zero": _f2(example.exps[2]),
            "exp_first": _f2(example.exps[0]), "exp_second": _f2(example.exps[1]), "total": _f2(example.total)}


def _rolls(scene: Scene, result: Result) -> dict[str, str]:
    rolls = mask_lessons.dropout_rolls(scene.settings)
    return {"rolls": str(len(rolls.with_rescale)), "mean_with": _f2(rolls.mean_with),
            "mean_without": _f2(rolls.mean_without)}


def _concat(scene: Scene, result: Result) -> dict[str, str]:
    second = head_lessons.head_columns(scene.settings.d_model, scene.settings.heads)[1]
    return {"second_first": str(second.start + 1), "second_last": str(second.stop)}


def _mixing(scene: Scene, result: Result) -> dict[str, str]:
    blocks = head_lessons.head_columns(scene.settings.d_model, scene.settings.heads)
    heard = {sum(column in block for block in blocks) for column in range(scene.settings.d_model)}
    return {"alone": str(heard.pop())} if len(heard) == 1 else {"alone": "?"}


def _memory(scene: Scene, result: Result) -> dict[str, str]:
    batch, heads, length = MEMORY
    float32 = head_lessons.BYTES_PER_NUMBER["float32"]
    at_context = head_lessons.score_tensor_bytes(batch, heads, length, float32)
    at_double = head_lessons.score_tensor_bytes(batch, heads, 2 * length, float32)
    return {"batch": str(batch), "memory_heads": str(heads), "context": f"{length:,}",
            "at_context": head_lessons.human_bytes(at_context), "at_double": head_lessons.human_bytes(at_double),
            "ratio": f"{at_double / at_context:g}"}


def _values(scene: Scene, result: Result) -> dict[str, str]:
    terms = mask_lessons.row_times_values(result, scene.row - 1)
    open_weights = [_f2(w) for w, future in zip(terms.weights, terms.future, strict=True) if not future]
    return {"row_weights": ", ".join(open_weights), "context_first": _f2(terms.context[0])}


def _none(scene: Scene, result: Result) -> dict[str, str]:
    return {}


# kind -> the extra numbers its text quotes (besides result_facts); read-only, as every module table here
FACTS: Mapping[str, Callable[[Scene, Result], dict[str, str]]] = MappingProxyType({
    "map": _none, "cheat": _cheat, "later-word": _later_word, "routes": _routes, "trap": _trap, "rolls": _rolls,
    "concat": _concat, "mixing": _mixing, "memory": _memory, "values": _values, "training": _none,
})


def scene_facts(scene: Scene) -> dict[str, str]:
    """Every number a scene's text may quote, computed from the core for its settings."""
    result = compute(scene.settings)
    return {**result_facts(result, scene.row), **FACTS[scene.kind](scene, result)}


def scene_words(scene: Scene) -> SceneWords:
    """The scene's title, question and answer with their numbers filled in from the core."""
    facts = scene_facts(scene)
    return SceneWords(scene.title.format(**facts), scene.question.format(**facts), scene.narration.format(**facts))


def scene_number(raw: str | None, count: int = len(SCENES)) -> tuple[int, str | None]:
    """The 1-based scene a URL's `scene` value asks for, and a note when it could not be used as it was.

    Out of range gives the nearest scene (a slide that links to "scene 30" of 25 lands on the last one);
    anything that is not a whole number gives scene 1.
    """
    if raw is None or not raw.strip():
        return 1, None
    number, note = read_number_in_range(raw, "scene", 1, count)
    if number is None:
        return 1, f"{note} Showing scene 1."
    return number, note
