"""What the room predicts in a live lecture: one question a scene, answerable on a phone, scored by the core.

Going live on the Lecture scenes page opens a class-poll room with one question per scene (question id
`scene:<n>`). A scene asks either for a number (`Guess`: a grid of answers from `low` to `high` in `step`s, so a
prediction is stored as a poll option, its index on the grid) or for one of a few options (`Pick`).

The true value is never written here: a Guess names the scene fact (attn_ui/words/scenes.py, computed from the core
at run time) that the revealed text states, and a Pick's right option is decided from the core by a rule. Each
Guess declares its tolerance and why; tests/ui/test_live_questions.py checks every scene: the value scored against
is the number its revealed text shows, the grid holds it, a Pick has exactly one right option.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core import compute
from attn_core.lessons import masks as mask_lessons
from attn_core.training import PRESETS, measures
from attn_ui.words.scenes import SCENES, Scene, SceneWords, scene_facts, scene_words

SCENE_PREFIX = "scene:"  # + the scene's number, from 1: a lecture room's question ids


@dataclass(frozen=True)
class Guess:
    """A numeric prediction, scored as right when it is within `tolerance` of the fact `fact`."""

    ask: str  # what the phone asks, one short sentence (a template over the scene's facts)
    fact: str  # the scene fact that the revealed text states, in bold or in words
    unit: str  # said after the number: CELLS, "of the row's weight"
    low: float
    high: float | str  # a number, or a fact's name (the grid ends at that count, e.g. the open weights)
    step: float
    tolerance: float
    why: str  # why this tolerance: shown beside the share in the lecture's CSV and the projector's spread


@dataclass(frozen=True)
class Pick:
    """One of a few options; `right` decides from the core which one is true."""

    ask: str
    options: tuple[str, ...]  # templates over the scene's facts
    right: Callable[[Scene, Mapping[str, str]], int]
    why: str = "One option is right; only it counts."


LiveQuestion = Guess | Pick


@dataclass(frozen=True)
class Live:
    """A scene's live question with its facts filled in: what the phone draws and the projector scores."""

    number: int  # the scene, from 1
    ask: str
    kind: str  # "number" or "choice"
    options: tuple[str, ...]  # a choice's options; a number's grid values, formatted
    values: tuple[float, ...]  # a number's grid values (empty for a choice)
    answer: int | None  # a choice's right option
    truth: float | None  # a number's true value
    unit: str
    tolerance: float
    why: str

    @property
    def option_count(self) -> int:
        return len(self.options)

    @property
    def decimals(self) -> int:
        return 0 if not self.values else _decimals(self.values[1] - self.values[0])

    def right(self, option: int) -> bool:
        """Is this option (a grid index for a number) counted as right?"""
        if self.kind == "choice":
            return option == self.answer
        return abs(self.values[option] - self.truth) <= self.tolerance + 1e-9

    def say(self, option: int) -> str:
        """An option as the screen says it: the choice's text, or the number with its unit."""
        if self.kind == "choice":
            return self.options[option]
        return with_unit(self.options[option], self.values[option], self.unit)

    @property
    def truth_text(self) -> str:
        if self.kind == "choice":
            return self.options[self.answer]
        return with_unit(format_number(self.truth, self.decimals), self.truth, self.unit)

    @property
    def unit_name(self) -> str:
        """The unit as a label says it (the plural of a count): "right guesses", "%"."""
        return self.unit.split("|")[-1]

    def nearest(self, value: float) -> int | None:
        """The grid index of a typed number, or None when it is not a finite number on the grid's span."""
        if not self.values or not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            return None
        step = self.values[1] - self.values[0]
        index = round((value - self.values[0]) / step)
        if not 0 <= index < len(self.values) or abs(self.values[index] - value) > step / 2 + 1e-9:
            return None
        return index


def _decimals(step: float) -> int:
    text = f"{step:.6f}".rstrip("0").rstrip(".")
    return len(text.split(".")[1]) if "." in text else 0


def letter(index: int) -> str:
    """A choice's letter, as the phone, the projector and the CSV name it: 0 -> "A"."""
    return chr(ord("A") + index)


def with_unit(text: str, value: float, unit: str) -> str:
    """A number and its unit: "1 cell", "15 cells", "29%", "0.69 of the row's weight"."""
    one, __, many = unit.rpartition("|") if "|" in unit else ("", "", unit)
    word = one if one and value == 1 else many
    if not word:
        return text
    return f"{text}{word}" if word == "%" else f"{text} {word}"


def format_number(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def fact_number(text: str) -> float:
    """A fact as a number: "29%" -> 29, "1,024" -> 1024, "0.69" -> 0.69."""
    found = re.fullmatch(r"\s*(-?[0-9][0-9,]*(?:\.[0-9]+)?)\s*%?\s*", text)
    if found is None:
        raise ValueError(f"not a number: {text!r}")
    return float(found.group(1).replace(",", ""))


# --- the rules that pick a right option from the core ---------------------------------------------------------


def _last_row_unchanged(scene: Scene, facts: Mapping[str, str]) -> int:
    """Option 0 ("nothing") when the last row's weights are the same with the mask and without it."""
    masked, free = compute(scene.settings), compute(scene.settings.replace(causal=False))
    row = scene.row - 1
    same = np.allclose(masked.weights[masked.view_index, row], free.weights[free.view_index, row])
    return 0 if same else 1


def _leaking_route(scene: Scene, facts: Mapping[str, str]) -> int:
    """The one route (of ROUTE_OPTIONS) that leaves weight on the future; an error if there is not exactly one."""
    rows = mask_lessons.route_rows(scene.settings, scene.row - 1)
    leaks = [route for route, leaked in zip(rows.routes, rows.leaked, strict=True) if leaked > 1e-9]
    if len(leaks) != 1:
        raise ValueError(f"expected exactly one leaking route, found {leaks}")
    return ROUTE_ORDER.index(leaks[0])


def _empty_row(scene: Scene, facts: Mapping[str, str]) -> int:
    """Option 1 ("nothing") when the row has no open key at all, option 0 ("only itself") when it has one."""
    return 1 if facts["open_keys"] == "0" else 0


def _without_rescale(scene: Scene, facts: Mapping[str, str]) -> int:
    """From the rows' sums: 0 all one, 1 none above one and some below, 2 some above one."""
    result = compute(scene.settings)
    sums = result.weights[result.view_index].sum(axis=-1)
    if np.allclose(sums, 1.0):
        return 0
    return 1 if np.all(sums <= 1 + 1e-9) else 2


def _head_differs(scene: Scene, facts: Mapping[str, str]) -> int:
    return 1 if facts["self_weight"] != facts["previous_self_weight"] else 0


def _top_word(scene: Scene, facts: Mapping[str, str]) -> int:
    return _open_words(scene).index(facts["top_word"])


def _open_words(scene: Scene) -> tuple[str, ...]:
    """The words a scene's row may look at (its open keys), in order: a Pick's options for "which word"."""
    result = compute(scene.settings)
    row = scene.row - 1
    return tuple(word for word, shut in zip(result.tokens, result.blocked[0, row], strict=True) if not shut)


def _mask_training(scene: Scene, facts: Mapping[str, str]) -> int:
    """From the shipped mask run: which model's training loss is lower, and which one generates well."""
    result = PRESETS["mask"].shipped()
    off, on = result.unmasked, result.masked
    off_lower = off.train_loss < on.train_loss
    on_writes = on.generating_loss < off.generating_loss
    return {(True, True): 0, (False, True): 1, (True, False): 2, (False, False): 3}[(off_lower, on_writes)]


def _repeat_course(scene: Scene, facts: Mapping[str, str]) -> int:
    result = PRESETS["heads"].shipped()
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    return 1 if measures.course(repeat.losses, result.chance_loss) == "dropped" else 0


ROUTE_ORDER = ("neg_inf", "zero_after", "renormalize", "zero_score")
COUNT = "A count: only the exact number is right."
# units: one|more than one
GUESSES = "right guess|right guesses"
CELLS = "cell|cells"
OUTPUTS = "output|outputs"
WEIGHTS = "weight|weights"
COLUMNS = "column|columns"
NUMBERS = "number|numbers"
HEADS = "head|heads"

# scene number -> its live question; read-only
QUESTIONS: Mapping[int, LiveQuestion] = MappingProxyType({
    1: Guess("How many of the {positions} next words does the peeking head guess right?", "hits", GUESSES,
             0, "positions", 1, 0, COUNT),
    2: Guess("With the causal mask on, how many right guesses are left?", "hits", GUESSES, 0, "positions", 1,
             0, COUNT),
    3: Guess("No mask: what share of row {row}'s weight lands on the words after *{row_word}*?", "future_share",
             "of the row's weight", 0, 1, 0.05, 0.10,
             "A share read off a map of shades: within 0.10 of the true share counts as right."),
    4: Guess("How many cells of the {length} × {length} map go grey with the causal mask?", "masked", CELLS, 0, 36, 1,
             0, COUNT),
    5: Guess("What weight does *{row_word}*, the first word, give itself with the mask on?", "self_weight",
             "of its weight", 0, 1, 0.05, 0,
             "The mask leaves exactly one key, so the weight is exact: only that value is right."),
    6: Pick("What does the causal mask change in the row of *{row_word}*, the last word?",
            ("Nothing: its weights stay as they were", "Its later weights become zero",
             "Its weights are shared by fewer words", "The whole row becomes zero"), _last_row_unchanged),
    7: Guess("Word {position} becomes *{new_word}*. With the mask on, how many outputs of the {earlier} earlier words "
             "change?", "mask_changed", OUTPUTS, 0, "earlier", 1, 0, COUNT),
    8: Pick("Row {row}: which way of removing the blocked cells still leaves weight on the future?",
            ("−∞ before the softmax", "Zero after the softmax", "Zero after the softmax, then renormalise",
             "A score of zero before the softmax"), _leaking_route),
    9: Guess("Exps {exp_first} and {exp_second} for the real words, and a PAD whose score was set to zero: what "
             "percent of the weight does the PAD get?", "pad_percent", "%", 0, 100, 1, 3,
             "Worked by hand from exps given to two decimals: within 3 percentage points counts as right."),
    10: Guess("Blocked weights zeroed after the softmax: what does row {row} add up to?", "row_sum", "", 0, 1, 0.05,
              0.10, "Any sum well below one shows the trap: within 0.10 of the true sum counts as right."),
    11: Guess("*one* and *step* are PAD, no causal mask: how many cells does padding block?", "padding", CELLS, 0, 36,
              1, 0, COUNT),
    12: Guess("Padding and the causal mask together: how many cells are masked in all?", "masked", CELLS, 0, 36, 1,
              0, COUNT),
    13: Pick("The first word is PAD and the mask is on. What can row {row}, *{row_word}*, look at?",
             ("Only itself", "Nothing at all", "Every real word", "The words after it"), _empty_row),
    14: Guess("Dropout p = {p} in training: how many of the {legal} open weights does this pattern drop?", "dropped",
              WEIGHTS, 0, "legal", 1, 3,
              "The pattern is random: about p × {legal} are dropped, give or take {drop_sd} (one standard "
              "deviation), so within 3 of this pattern's count counts as right."),
    15: Pick("No rescale after dropout: what do the rows add up to?",
             ("Exactly one, every row", "At most one, some rows less", "Up to two, some rows more than one"),
             _without_rescale),
    16: Guess("Over {rolls} re-rolls with p = {p} and no rescale: what does a row add up to on average?",
              "mean_without", "", 0, 1, 0.05, 0.05,
              "An average of {rolls} random rows sits within about 0.02 of its expectation: within 0.05 counts as "
              "right."),
    17: Guess("Inference, p still {p}: how many cells are dropped?", "dropped", CELLS, 0, 36, 1, 0, COUNT),
    18: Guess("d_model = {d_model} cut into {heads} heads: how many columns does each head get?", "d_head", COLUMNS,
              1, "d_model", 1, 0, COUNT),
    19: Pick("Head {view}: will *{row_word}* weigh the words as it did in head {previous}?",
             ("Yes, the same weights", "No, different weights"), _head_differs),
    20: Pick("Head {view}: which word does *{row_word}* lean on most?", (), _top_word),
    21: Guess("After the last head, how many numbers wide is each word's output before W_o?", "d_model", NUMBERS, 1,
              48, 1, 0, COUNT),
    22: Guess("In the concatenation, at which column does the second head's output start?", "second_first",
              "", 1, "d_model", 1, 0, COUNT),
    23: Guess("Without W_o, how many heads does each output column hear?", "alone", HEADS, 0, "heads", 1, 0, COUNT),
    24: Guess("Double GPT-2's context of {context}: how many times as much memory do the scores take?", "ratio",
              "times as much", 1, 16, 1, 0, COUNT),
    25: Guess("Row {row}, *{row_word}*: what is the first number of its output?", "context_first", "", -1, 1, 0.05,
              0.10, "A weighted sum of three numbers done by hand: within 0.10 counts as right."),
    26: Pick("Two tiny models, one with the causal mask and one without: which is true?",
             ("The unmasked loss falls lower; only the masked model writes sentences",
              "The masked loss falls lower; only the masked model writes sentences",
              "The unmasked loss falls lower; only the unmasked model writes sentences",
              "The masked loss falls lower; only the unmasked model writes sentences"), _mask_training),
    27: Pick("Random tokens with a stretch that comes back: how does the loss on the repeat fall?",
             ("Smoothly, from the first steps", "It stalls near chance, then drops"), _repeat_course),
})


def scene_text(number: int) -> SceneWords:
    """Scene `number`'s title, question and answer (scenes.scene_words)."""
    return scene_words(SCENES[number - 1])


def scene_question_id(number: int) -> str:
    return f"{SCENE_PREFIX}{number}"


def scene_of(question_id: str | None) -> int | None:
    """The scene number of a lecture room's question id, or None for any other id."""
    text = question_id or ""
    if not text.startswith(SCENE_PREFIX):
        return None
    tail = text[len(SCENE_PREFIX):]
    return int(tail) if tail.isascii() and tail.isdigit() and 1 <= int(tail) <= len(SCENES) else None


def _spread_facts(scene: Scene) -> dict[str, str]:
    """What a tolerance's reason quotes besides the scene's facts: a fair dropout draw's standard deviation."""
    result = compute(scene.settings)
    p, legal = scene.settings.dropout, int((~result.blocked[0]).sum())
    return {"drop_sd": f"{math.sqrt(legal * p * (1 - p)):.1f}"}


def _bound(value: float | str, facts: Mapping[str, str]) -> float:
    return fact_number(facts[value]) if isinstance(value, str) else float(value)


def live_question(number: int) -> Live:
    """Scene `number`'s question with its facts filled in, its grid and its true value, from the core."""
    scene = SCENES[number - 1]
    facts = scene_facts(scene) | _spread_facts(scene)
    question = QUESTIONS[number]
    ask = question.ask.format(**facts)
    if isinstance(question, Pick):
        options = question.options or _open_words(scene)
        return Live(number, ask, "choice", tuple(o.format(**facts) for o in options), (), question.right(scene, facts),
                    None, "", 0.0, question.why.format(**facts))
    low, high = _bound(question.low, facts), _bound(question.high, facts)
    count = round((high - low) / question.step) + 1
    values = tuple(round(low + i * question.step, 10) for i in range(count))
    decimals = _decimals(question.step)
    return Live(number, ask, "number", tuple(format_number(v, decimals) for v in values), values, None,
                fact_number(facts[question.fact]), question.unit, question.tolerance, question.why.format(**facts))


def lecture_questions() -> tuple[tuple[str, int], ...]:
    """(question id, option count) for every scene: what Go live opens a room with."""
    return tuple((scene_question_id(n), live_question(n).option_count) for n in range(1, len(SCENES) + 1))


# --- the spread of the room's answers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """What a round's answers add up to: how many, how many right, and for a number the middle of the answers."""

    answers: int
    right: int
    median: float | None  # a number's median answer (None for a choice or no answers)

    @property
    def right_share(self) -> float:
        return self.right / self.answers if self.answers else 0.0


def spread(question: Live, tally: Sequence[int]) -> Spread:
    answers = int(sum(tally))
    right = int(sum(count for option, count in enumerate(tally) if question.right(option)))
    median = None
    if question.kind == "number" and answers:
        expanded = np.repeat(np.asarray(question.values), np.asarray(tally, dtype=int))
        median = float(np.median(expanded))
    return Spread(answers, right, median)


def status_line(round_number: int, phase: str, answers: int, students: int) -> str:
    """The projector's live line: who answered, which round, and whether answers still arrive."""
    who = f"{answers} of {students} answered" if students else answers_word(answers)
    extra = {"voting": "", "closed": " · closed", "revealed": ""}.get(phase, "")
    return f"{'Second vote · ' if round_number == 2 else ''}{who}{extra}"


def answers_word(count: int) -> str:
    return "1 answer" if count == 1 else f"{count} answers"


def spread_sentence(question: Live, tally: Sequence[int], revealed: bool) -> str:
    """The spread in one line: how many answered, the median (a number), and after the reveal how many were right."""
    found = spread(question, tally)
    parts = [answers_word(found.answers)]
    if found.median is not None:
        parts.append(f"median {with_unit(format_number(found.median, question.decimals), found.median, question.unit)}")
    if revealed and found.answers:
        within = "right" if question.kind == "choice" or question.tolerance == 0 else (
            f"within {format_number(question.tolerance, max(question.decimals, 0))} of it")
        parts.append(f"{found.right} of {found.answers} {within} ({100 * found.right_share:.0f}%)")
    return " · ".join(parts)


# --- the lecture's record: CSV for the lecturer, a recap for each student ---------------------------------------

CSV_COLUMNS = ("scene", "title", "kind", "round", "answers", "true_answer", "tolerance", "tolerance_reason",
               "right", "right_share", "median", "spread")


def lecture_csv(asked: Sequence[tuple[str, Sequence[Sequence[int]]]]) -> str:
    """One row per scene asked and round opened: answers, the true answer, the tolerance and why, how many were
    right, the median (a number) and the spread ("value:count" pairs, or "A:count" for a choice). No voter."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for question_id, rounds in asked:
        number = scene_of(question_id)
        if number is None:
            continue
        question = live_question(number)
        title = scene_text(number).title
        for round_number, tally in enumerate(rounds, start=1):
            found = spread(question, tally)
            if question.kind == "number":
                pairs = [f"{question.options[i]}:{c}" for i, c in enumerate(tally) if c]
                tolerance = format_number(question.tolerance, question.decimals)
            else:
                pairs = [f"{letter(i)}:{c}" for i, c in enumerate(tally)]
                tolerance = ""
            median = "" if found.median is None else format_number(found.median, question.decimals)
            share = f"{found.right_share:.3f}" if found.answers else ""
            writer.writerow((number, title, question.kind, round_number, found.answers, question.truth_text, tolerance,
                             question.why, found.right, share, median, " ".join(pairs)))
    return out.getvalue()


@dataclass(frozen=True)
class RecapLine:
    number: int
    mine: str
    truth: str
    right: bool


def recap_lines(votes: Mapping[tuple[int, int], int]) -> list[RecapLine]:
    """A student's last answer for each scene (the revote when there was one) against the true answer."""
    last: dict[int, tuple[int, int]] = {}
    for (position, round_number), option in votes.items():
        if position not in last or round_number > last[position][0]:
            last[position] = (round_number, option)
    lines = []
    for position in sorted(last):
        number = position + 1
        if not 1 <= number <= len(SCENES):
            continue
        question = live_question(number)
        option = last[position][1]
        if not 0 <= option < question.option_count:
            continue
        lines.append(RecapLine(number, question.say(option), question.truth_text, question.right(option)))
    return lines


def questions_markdown() -> str:
    """The table of every scene's live question for docs/lecture.md (tests/ui/test_live_questions.py keeps it equal)."""
    lines = ["| scene | asks | answered as | true answer | counted right |", "| --- | --- | --- | --- | --- |"]
    for number in range(1, len(SCENES) + 1):
        question = live_question(number)
        if question.kind == "number":
            shape = f"a number, {question.options[0]} to {question.options[-1]} in steps of " \
                    f"{format_number(question.values[1] - question.values[0], question.decimals)}"
            rule = "exactly" if question.tolerance == 0 else \
                f"within {format_number(question.tolerance, question.decimals)}: {question.why}"
        else:
            shape = f"one of {question.option_count} options"
            rule = "that option"
        lines.append(f"| {number} | {question.ask.replace('|', '/')} | {shape} | {question.truth_text} | {rule} |")
    return "\n".join(lines)
