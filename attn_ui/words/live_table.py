"""The table of every live question for docs/lecture.md: what each scene asks, what its question step shows, how it
is answered and scored, and how a careful student gets the answer from what is shown.

tests/ui/test_live_questions.py keeps docs/lecture.md equal to questions_markdown(); tests/ui/test_scene_fairness.py
derives every answer again from what the question step shows, as the last column says a student would. The table
is for the docs, in English: its reasons are not messages the app shows.
"""

from __future__ import annotations

from types import MappingProxyType

from attn_lang import DEFAULT, _, using
from attn_ui.words.live import format_number, live_question
from attn_ui.words.scenes import GIVENS, SCENES

# scene number -> how a careful student gets the answer from the question step alone (the test's derivation, in words)
FROM_GIVENS = MappingProxyType({
    1: "yes: a head free to look ahead reads the word after each word, so each guess is the next word",
    2: "yes: the mask hides every later word, the next one included",
    3: "yes: the row's weights are written in it; the share is the sum of the weights after the row's own word",
    4: "yes: the mask blocks every cell above the diagonal of the T × T map the question names",
    5: "yes: the first word's one open key is itself, and a softmax over one score gives it everything",
    6: "yes: no word comes after the last one, so the mask blocks nothing in its row",
    7: "yes: with −∞ before the softmax no earlier row reads a later word at all",
    8: "yes: a score of zero is e⁰ = 1 after the exp, a share no other route leaves on the future",
    9: "yes: one over the sum of the two exps in the question and e⁰ = 1",
    10: "yes: one minus the share the question gives",
    11: "yes: every query is blocked from the two PAD columns the question names",
    12: "yes: the cells above the diagonal, and the PAD cells on or below it (the question restates the padding)",
    13: "yes: the row's one open key, itself, is PAD",
    14: "yes: p times the open weights, both in the question",
    15: "yes: without the rescale a survivor keeps its weight and the rest become zero, so no row can pass one",
    16: "yes: without the rescale each weight survives with chance 1 − p, so a row keeps 1 − p on average",
    17: "yes: dropout acts only while training",
    18: "yes: d_model over the heads, both in the question",
    19: "yes: each head has its own slice of W_q and W_k (lesson 4), so its weights differ",
    20: "yes: the least-weighted word's cell is far darker than the other two (colour difference ΔE2000 of 10 or more, "
        "tested)",
    21: "yes: the heads times the numbers each, both in the question",
    22: "yes: the first head fills the columns up to its width, so the second starts one after",
    23: "yes: each column of the concatenation holds one head's numbers",
    24: "yes: the scores are (B, h, T, T), so T counts twice",
    25: "yes: the sum of each weight shown times its value shown, within what the rounding allows",
    26: "yes, by reasoning: without the mask the model reads the next word (a low loss) and has nothing to write from",
    27: "yes, by reasoning: the repeat can be read back only once a head finds the earlier copy, which takes a while",
})


def questions_markdown() -> str:
    """The table for docs/lecture.md, in English as the docs are."""
    with using(DEFAULT):
        return _questions_markdown()


def _questions_markdown() -> str:
    lines = ["| scene | asks | shows at the question (its givens) | answered as | true answer | counted right | "
             "can a careful student get it from the givens? |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for scene_number in range(1, len(SCENES) + 1):
        question = live_question(scene_number)
        givens = _(GIVENS[SCENES[scene_number - 1].givens])
        if question.kind == "number":
            shape = f"a number, {question.options[0]} to {question.options[-1]} in steps of " \
                    f"{format_number(question.step, question.decimals)}"
            rule = "exactly" if question.tolerance == 0 else \
                f"within {format_number(question.tolerance, question.decimals)}: {question.why}"
        else:
            shape = f"one of {question.option_count} options"
            rule = "that option"
        lines.append(f"| {scene_number} | {question.ask.replace('|', '/')} | {givens} | {shape} | "
                     f"{question.truth_text} | {rule} | {FROM_GIVENS[scene_number]} |")
    return "\n".join(lines)
