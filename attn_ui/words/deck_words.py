"""A lecturer's own scenes in words: each question kind's question, answer and reason, in the run's language.

The kinds and their true answers are the core's (attn_core.asks); here they are worded. Every template is a whole
sentence with named fields filled from the scene's state at run time, so a deck is asked in every language the app
speaks, each phone in its own. The lecturer's own words (a title, a discussion prompt, narration) are shown as text,
escaped, never as Markdown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from attn_core import ROUTE_NAMES, Result, Settings, compute
from attn_core.asks import ASKS, SHADE_TOLERANCE, Answer
from attn_core.asks import answer as true_answer
from attn_core.deck import DeckScene
from attn_lang import N_, _, _n, number
from attn_ui.words.escape import md_escape

# kind -> (its name in the picker, its title when the lecturer gives none: a topic, never a result)
KINDS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "weight": (N_("One cell's weight"), N_("One cell")),
    "largest": (N_("A row's largest weight"), N_("The strongest look")),
    "most": (N_("The word a row looks at most"), N_("Where does it look?")),
    "blocked": (N_("How many cells the masks block"), N_("Blocked cells")),
    "padding": (N_("How many cells the padding blocks"), N_("Padding")),
    "future": (N_("Whether a row sees the future"), N_("Does it see the future?")),
    "row_sum": (N_("A row's sum under dropout"), N_("A row under dropout")),
    "d_head": (N_("Each head's width, d_head"), N_("How wide is a head?")),
    "scores": (N_("How many numbers the score tensor holds"), N_("The score tensor")),
    "which": (N_("Which of two maps has the causal mask"), N_("Spot the mask")),
    "discuss": (N_("A question for discussion (not scored)"), N_("Discuss")),
})

QUESTIONS: Mapping[str, str] = MappingProxyType({
    "weight": N_("Row {row} is *{row_word}*. What weight does it give key {key}, *{key_word}*?"),
    "largest": N_("What is the largest weight in row {row}, *{row_word}*?"),
    "most": N_("Which word does row {row}, *{row_word}*, look at most?"),
    "blocked": N_("How many cells of this {length} × {length} map are blocked, by the causal mask or by padding?"),
    "padding": N_("How many cells of this {length} × {length} map does the padding block?"),
    "future": N_("Does the output of row {row}, *{row_word}*, change when a later word changes?"),
    "row_sum": N_("Dropout is on, p = {p}. What do the weights of row {row}, *{row_word}*, add up to?"),
    "d_head": N_("{heads} heads share d_model = {d_model}. How many numbers wide is each head?"),
    "scores": N_("One sentence goes through this layer. How many numbers does its score tensor hold?"),
    "which": N_("One of these two maps has the causal mask switched on. Which one?"),
})

ANSWERS: Mapping[str, str] = MappingProxyType({
    "weight": N_("**{value}**: that is the weight *{row_word}* gives *{key_word}*."),
    "largest": N_("**{value}**, on *{top_word}*."),
    "most": N_("**{top_word}**, with {value} of the row's weight."),
    "blocked": N_("**{value}** of the {cells} cells."),
    "padding": N_("**{value}** of the {cells} cells: the PAD keys' columns, for every query."),
    "future": N_("**{yes_no}**."),
    "row_sum": N_("**{value}**: the kept weights, each divided by 1 − p = {keep}."),
    "row_sum_plain": N_("**{value}**: the kept weights, not rescaled."),
    "d_head": N_("**{value}**: d_model ÷ heads = {d_model} ÷ {heads}."),
    "scores": N_("**{value}**: batch × heads × words × words = 1 × {heads} × {length} × {length}."),
    "which": N_("Map **{letter}**: every cell after its own word is blocked."),
})

WHY: Mapping[str, str] = MappingProxyType({
    "count": N_("A count is whole: only the count itself is right."),
    "shade": N_("Within {tolerance} counts as right: a weight read from shades of colour is good to about a "
                "twentieth of the colour bar."),
    "rounded_sum": N_("Within {tolerance} counts as right: the board writes each weight to two decimals, so a sum "
                      "of them, rescaled, can be off by that much."),
    "exact_rule": N_("One option is right; only it counts."),
    "choice": N_("One option is right; only it counts."),
})

GIVENS: Mapping[str, str] = MappingProxyType({
    "shades": N_("the map in shades of colour, the row outlined, no numbers"),
    "state": N_("the state in words: the sentence, its PAD words, the mask, the heads, dropout"),
    "dropout": N_("the row's weights before dropout and which of them dropout zeroes"),
    "pair": N_("two maps, A and B, in shades of colour"),
    "map": N_("the map itself: a discussion gives nothing away"),
})


@dataclass(frozen=True)
class DeckWords:
    """One scene's text in the run's language: Markdown, the lecturer's words escaped."""

    title: str
    question: str
    answer: str
    why: str
    narration: str
    options: tuple[str, ...]  # a choice's options as the room reads them


def kind_name(kind: str) -> str:
    return _(KINDS[kind][0])


def _fields(scene: DeckScene, result: Result, answer: Answer) -> dict[str, str]:
    settings = scene.settings
    labels = result.labels
    fields = {"length": str(len(labels)), "cells": number(len(labels) ** 2, ","), "heads": str(settings.heads),
              "d_model": str(settings.d_model), "p": number(settings.dropout, ".2f"),
              "keep": number(1 - settings.dropout, ".2f")}
    if scene.row is not None:
        fields.update(row=str(scene.row), row_word=md_escape(labels[scene.row - 1]))
    if scene.key is not None:
        fields.update(key=str(scene.key), key_word=md_escape(labels[scene.key - 1]))
    if answer.kind == "number" and answer.value is not None:
        fields["value"] = number(answer.value, f",.{answer.decimals}f")
        fields["tolerance"] = number(answer.tolerance, ".2f")
    if answer.key is not None:  # the key the core found the row weighs most
        fields.update(top_word=md_escape(labels[answer.key]))
        if scene.ask == "most":
            fields["value"] = number(float(result.weights[result.view_index, scene.row - 1, answer.key]), ".2f")
    if scene.ask == "future":
        fields["yes_no"] = _("Yes") if answer.right == 0 else _("No")
    if scene.ask == "which":
        fields["letter"] = answer.options[answer.right or 0]
    return fields


def options(scene: DeckScene, answer: Answer) -> tuple[str, ...]:
    """A choice's options as the room reads them (the sentence's words are the student's, shown as typed)."""
    if scene.ask == "future":
        return (_("Yes"), _("No"))
    if scene.ask == "which":
        return (_("Map A"), _("Map B"))
    return answer.options


def scene_words(scene: DeckScene, result: Result | None = None) -> DeckWords:
    """The scene's title, question, answer, reason and narration, in the run's language."""
    result = compute(scene.settings) if result is None else result
    answer = scene.answer()
    fields = _fields(scene, result, answer)
    title = md_escape(scene.title) if scene.title else _(KINDS[scene.ask][1])
    if scene.ask == "discuss":
        question = md_escape(scene.prompt)
        return DeckWords(title, question, "", "", md_escape(scene.narration), ())
    said = "row_sum_plain" if scene.ask == "row_sum" and not scene.settings.rescale else scene.ask
    return DeckWords(title, _(QUESTIONS[scene.ask], **fields), _(ANSWERS[said], **fields),
                     _(WHY[answer.why], **fields), md_escape(scene.narration), options(scene, answer))


def state_lines(scene: DeckScene) -> list[str]:
    """The state in words, for a question step whose givens are "state": what the lecturer set, not the answer."""
    settings = scene.settings
    tokens = settings.tokens
    words = " ".join(_("{word} (PAD)", word=md_escape(word)) if position in settings.padded else md_escape(word)
                     for position, word in enumerate(tokens, start=1))
    lines = [_("Sentence: {words}", words=words),
             _("Causal mask: on") if settings.causal else _("Causal mask: off"),
             _n("{count} PAD word", "{count} PAD words", len(settings.padded)),
             _n("d_model = {d_model}, {count} head", "d_model = {d_model}, {count} heads", settings.heads,
                d_model=settings.d_model)]
    if settings.heads > 1:
        lines.append(_("The map shows head {view}.", view=settings.view))
    if settings.dropout_active:
        lines.append(_("Dropout p = {p}, training", p=number(settings.dropout, ".2f")))
    if settings.route != "neg_inf":
        lines.append(_("Blocked cells: {route}", route=_(ROUTE_NAMES[settings.route])))
    return lines


def givens_name(kind: str) -> str:
    return _(GIVENS[ASKS[kind].givens])


# how each kind's true answer is derived, for docs/lecture.md's table (English: the docs are English)
DERIVED = MappingProxyType({
    "weight": "the head in view's weight at (row, key), after dropout",
    "largest": "the largest weight in the row",
    "most": "the key with the largest weight; refused when the top two are within 0.005 (a tie at two decimals)",
    "blocked": "cells blocked by the causal mask or padding (`Result.masked_cells`)",
    "padding": "cells blocked by padding (`Result.padding_cells`)",
    "future": "whether a later word changes the row's output (`Result.reads_later`: weight or the softmax's sum)",
    "row_sum": "the row's weights after dropout, added; needs dropout on",
    "d_head": "d_model ÷ heads",
    "scores": "B × h × T × T with B = 1",
    "which": "the state and its twin with the causal mask switched, as A and B in an order fixed by the state; "
             "refused when both maps look the same",
    "discuss": "nothing: not scored",
})


def kinds_markdown() -> str:
    """docs/lecture.md's table of question kinds, from the kinds themselves (tests/ui/test_deck_page.py keeps the
    docs equal to it)."""
    tolerance = {"count": "exact", "shade": f"± {SHADE_TOLERANCE:g}",
                 "rounded_sum": "± T × 0.005 × 1/(1 − p), rounded up to 0.01", "exact_rule": "one option",
                 "choice": "one option", "": "none"}
    lines = ["| `ask` | the picker says | true answer | right when | before the answer the board shows |",
             "|---|---|---|---|---|"]
    examples = {"row_sum": Settings(dropout=0.5)}
    for kind, (name, _title) in KINDS.items():
        why = true_answer(examples.get(kind, Settings()), kind, 2, 1).why
        lines.append(f"| `{kind}` | {name} | {DERIVED[kind]} | {tolerance[why]} | {GIVENS[ASKS[kind].givens]} |")
    return "\n".join(lines)
