"""What the room predicts in a live lecture: one question a scene, answerable on a phone, scored by the core.

Going live on the Lecture scenes page opens a class-poll room with one question per scene (question id
`scene:<n>`). The question is the scene's own (attn_ui/words/scenes.py): the projector and every phone ask the same
words. A scene asks either for a number (`Guess`: a grid of answers from `low` to `high` in `step`s, so a prediction
is stored as a poll option, its index on the grid) or for one of a few options (`Pick`).

The true value is never written here: a Guess names the scene fact (computed from the core at run time) that the
revealed text states, and a Pick's right option is decided from the core by a rule. Each Guess declares its
tolerance and, beside it, why; tests/ui/test_live_questions.py checks every scene: the value scored against is the
number its revealed text shows, the grid holds it, each tolerance holds at its edges, a Pick has exactly one right
option. Scoring never depends on the language: the numbers are read from the facts as English writes them, and a
phone's answer is stored as a grid index or an option's position. What the room answered (the spread, the
projector's lines about it, the lecture's CSV and recap) is counted and worded in live_room.py.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core import compute
from attn_core.lessons import masks as mask_lessons
from attn_core.training import PRESETS, measures
from attn_lang import DEFAULT, N_, _, _n, number, using
from attn_ui.words.scenes import SCENES, Scene, SceneWords, scene_facts, scene_words

SCENE_PREFIX = "scene:"  # + the scene's number, from 1: a lecture room's question ids


@dataclass(frozen=True)
class Unit:
    """How a number is said with its unit, in the run's language: "15 cells", "29%", "0.69 of the row's weight"."""

    phrase: Callable[[float, str], str]  # (value, the value as text) -> the phrase
    label: Callable[[], str]  # the unit alone, for the answer box's label ("" for none)


PLAIN = Unit(lambda value, text: text, lambda: "")
GUESSES = Unit(lambda value, text: _n("{number} right guess", "{number} right guesses", value, number=text),
               lambda: _("right guesses"))
WORDS = Unit(lambda value, text: _n("{number} word", "{number} words", value, number=text), lambda: _("words"))
CELLS = Unit(lambda value, text: _n("{number} cell", "{number} cells", value, number=text), lambda: _("cells"))
OUTPUTS = Unit(lambda value, text: _n("{number} output", "{number} outputs", value, number=text), lambda: _("outputs"))
WEIGHTS = Unit(lambda value, text: _n("{number} weight", "{number} weights", value, number=text), lambda: _("weights"))
COLUMNS = Unit(lambda value, text: _n("{number} column", "{number} columns", value, number=text), lambda: _("columns"))
NUMBERS = Unit(lambda value, text: _n("{number} number", "{number} numbers", value, number=text), lambda: _("numbers"))
HEADS = Unit(lambda value, text: _n("{number} head", "{number} heads", value, number=text), lambda: _("heads"))
TIMES = Unit(lambda value, text: _n("{number} time as much", "{number} times as much", value, number=text),
             lambda: _("times as much"))
PERCENT = Unit(lambda value, text: _("{number}%", number=text), lambda: "%")
ROW_SHARE = Unit(lambda value, text: _("{number} of the row's weight", number=text), lambda: _("of the row's weight"))
OWN_SHARE = Unit(lambda value, text: _("{number} of its weight", number=text), lambda: _("of its weight"))


@dataclass(frozen=True)
class Guess:
    """A numeric prediction, scored as right when it is within `tolerance` of the fact `fact`."""

    fact: str  # the scene fact that the revealed text states, in bold or in words
    unit: Unit
    low: float
    high: float | str  # a number, or a fact's name (the grid ends at that count, e.g. the open weights)
    step: float
    tolerance: float
    why: str  # why this tolerance, one line (a template over the facts): shown in the CSV and the docs


@dataclass(frozen=True)
class Pick:
    """One of a few options; `right` decides from the core which one is true."""

    options: tuple[str, ...]  # templates over the scene's facts; () for the words the scene's row may look at
    right: Callable[[Scene, Mapping[str, str]], int]
    why: str = N_("One option is right; only it counts.")


LiveQuestion = Guess | Pick


@dataclass(frozen=True)
class Live:
    """A scene's live question with its facts filled in: what the phone draws and the projector scores."""

    number: int  # the scene, from 1
    ask: str  # the scene's question, word for word as the projector shows it
    kind: str  # "number", "choice", or "none" (a lecturer's discussion: nothing to answer, no options)
    options: tuple[str, ...]  # a choice's options; a number's grid values, formatted
    values: tuple[float, ...]  # a number's grid values (empty for a choice)
    answer: int | None  # a choice's right option
    truth: float | None  # a number's true value
    unit: Unit
    tolerance: float
    why: str

    @property
    def option_count(self) -> int:
        return len(self.options)

    @property
    def step(self) -> float:
        return self.values[1] - self.values[0] if len(self.values) > 1 else 1.0

    @property
    def decimals(self) -> int:
        return 0 if not self.values else _decimals(self.step)

    def right(self, option: int) -> bool:
        """Is this option (a grid index for a number) counted as right?"""
        if self.kind == "choice":
            return option == self.answer
        return abs(self.values[option] - self.truth) <= self.tolerance + 1e-9

    def say(self, option: int) -> str:
        """An option as the screen says it: the choice's text, or the number with its unit."""
        if self.kind == "choice":
            return self.options[option]
        return self.unit.phrase(self.values[option], self.options[option])

    def say_number(self, value: float, decimals: int | None = None) -> str:
        """Any value on this question's scale, with its unit: a median, a tolerance."""
        return self.unit.phrase(value, format_number(value, self.decimals if decimals is None else decimals))

    @property
    def truth_text(self) -> str:
        if self.kind == "none":
            return ""
        if self.kind == "choice":
            return self.options[self.answer]
        return self.say_number(self.truth)

    @property
    def unit_name(self) -> str:
        """The unit as the answer box's label says it: "right guesses", "%", or ""."""
        return self.unit.label()

    def nearest(self, value: float) -> int | None:
        """The grid index of a typed number, or None when it is not a finite number on the grid's span."""
        if not self.values or not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
            return None
        index = round((value - self.values[0]) / self.step)
        if not 0 <= index < len(self.values) or abs(self.values[index] - value) > self.step / 2 + 1e-9:
            return None
        return index


def _decimals(step: float) -> int:
    text = f"{step:.6f}".rstrip("0").rstrip(".")
    return len(text.split(".")[1]) if "." in text else 0


def letter(index: int) -> str:
    """A choice's letter, as the phone, the projector and the CSV name it: 0 -> "A"."""
    return chr(ord("A") + index)


def format_number(value: float, decimals: int) -> str:
    """A value with `decimals` decimals, in the run's language ("0.69", "0,69")."""
    return number(value, f".{decimals}f")


NUMBER_TYPED = re.compile(r"\s*([+\-−]?)\s*(\d+(?:[.,]\d*)?|[.,]\d+)\s*%?\s*")


def read_typed(text: object) -> float | None:
    """A number as a student types it on a phone, with either decimal sign: "0,69", "0.69", " 12 ", "-0,5", "29 %".
    None for anything else (a second sign, letters, "1.000,5", an empty box)."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    found = NUMBER_TYPED.fullmatch(text)
    if found is None:
        return None
    sign = -1.0 if found.group(1) in ("-", "−") else 1.0
    return sign * float(found.group(2).replace(",", "."))


def fact_number(text: str) -> float:
    """A fact as English writes it, as a number: "29%" -> 29, "1,024" -> 1024, "0.69" -> 0.69."""
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


def _low_word(scene: Scene, facts: Mapping[str, str]) -> int:
    return _open_words(scene).index(facts["low_word"])


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
COUNT = N_("A count: only the exact number is right.")

# scene number -> its live question; read-only. The question's words are the scene's own (scene.question).
QUESTIONS: Mapping[int, LiveQuestion] = MappingProxyType({
    1: Guess("hits", GUESSES, 0, "positions", 1, 0, COUNT),
    2: Guess("seen_next", WORDS, 0, "positions", 1, 0, COUNT),
    3: Guess("future_share", ROW_SHARE, 0, 1, 0.01, 0.02,
             N_("A sum of the {later} weights written in the row, each rounded to two decimals, which can move the "
                "sum by up to 0.02: within 0.02 of the true share counts as right.")),
    4: Guess("masked", CELLS, 0, 36, 1, 0, COUNT),
    5: Guess("self_weight", OWN_SHARE, 0, 1, 0.05, 0,
             N_("The mask leaves exactly one key, so the weight is exact: only that value is right.")),
    6: Pick((N_("Nothing: its weights stay as they were"), N_("Its later weights become zero"),
             N_("Its weights are shared by fewer words"), N_("The whole row becomes zero")), _last_row_unchanged),
    7: Guess("mask_changed", OUTPUTS, 0, "earlier", 1, 0, COUNT),
    8: Pick((N_("−∞ before the softmax"), N_("Zero after the softmax"),
             N_("Zero after the softmax, then renormalise"), N_("A score of zero before the softmax")),
            _leaking_route),
    9: Guess("pad_percent", PERCENT, 0, 100, 1, 3,
             N_("One division by hand from exps given to two decimals: within 3 percentage points counts as "
                "right.")),
    10: Guess("row_sum", PLAIN, 0, 1, 0.01, 0.01,
              N_("One minus the share the question gives, both rounded to two decimals: within 0.01 counts as "
                 "right.")),
    11: Guess("padding", CELLS, 0, 36, 1, 0, COUNT),
    12: Guess("masked", CELLS, 0, 36, 1, 0, COUNT),
    13: Pick((N_("Only itself"), N_("Nothing at all"), N_("Every real word"), N_("The words after it")), _empty_row),
    14: Guess("expected", WEIGHTS, 0, "legal", 0.5, 0.5,
              N_("An expected count, p × {legal} = {expected}: the whole numbers either side of it count as "
                 "right too.")),
    15: Pick((N_("Exactly one, every row"), N_("At most one, some rows less"),
              N_("Up to two, some rows more than one")), _without_rescale),
    16: Guess("mean_without", PLAIN, 0, 1, 0.05, 0.05,
              N_("An average of {rolls} random rows sits within about 0.02 of its expectation: within 0.05 counts "
                 "as right.")),
    17: Guess("dropped", CELLS, 0, 36, 1, 0, COUNT),
    18: Guess("d_head", COLUMNS, 1, "d_model", 1, 0, COUNT),
    19: Pick((N_("Yes, the same weights"), N_("No, different weights")), _head_differs),
    20: Pick((), _low_word),
    21: Guess("d_model", NUMBERS, 1, 48, 1, 0, COUNT),
    22: Guess("second_first", PLAIN, 1, "d_model", 1, 0, COUNT),
    23: Guess("alone", HEADS, 0, "heads", 1, 0, COUNT),
    24: Guess("ratio", TIMES, 1, 16, 1, 0, COUNT),
    25: Guess("value_pick", PLAIN, -1, 1, 0.01, 0.02,
              N_("Worked by hand from numbers rounded to two decimals, which can move the sum by up to 0.02: "
                 "within 0.02 counts as right.")),
    26: Pick((N_("No mask: lower loss. Mask: writes sentences."),
              N_("Mask: lower loss, and writes sentences."),
              N_("No mask: lower loss, and writes sentences."),
              N_("Mask: lower loss. No mask: writes sentences.")), _mask_training),
    27: Pick((N_("Smoothly, from the first steps"), N_("It stalls near chance, then drops")), _repeat_course),
})


def scene_text(number: int) -> SceneWords:
    """Scene `number`'s title, question and answer in the run's language (scenes.scene_words)."""
    return scene_words(SCENES[number - 1])


def scene_question_id(number: int) -> str:
    return f"{SCENE_PREFIX}{number}"


def numbered(question_id: str | None, prefix: str, most: int) -> int | None:
    """The number of a question id written `<prefix><n>` with n from 1 to `most`, or None for any other id."""
    text = question_id or ""
    if not text.startswith(prefix):
        return None
    tail = text[len(prefix):]
    return int(tail) if tail.isascii() and tail.isdigit() and 1 <= int(tail) <= most else None


def scene_of(question_id: str | None) -> int | None:
    """The scene number of a lecture room's question id, or None for any other id."""
    return numbered(question_id, SCENE_PREFIX, len(SCENES))


def _bound(value: float | str, facts: Mapping[str, str]) -> float:
    return fact_number(facts[value]) if isinstance(value, str) else float(value)


def live_question(number: int) -> Live:
    """Scene `number`'s question with its facts filled in, its grid and its true value, from the core. The words
    are in the run's language; the grid, the truth and the right option are the same in every language."""
    scene = SCENES[number - 1]
    with using(DEFAULT):
        english = scene_facts(scene)  # the numbers scored against, as English writes them
    facts = scene_facts(scene)
    question = QUESTIONS[number]
    ask = _(scene.question, **facts)
    why = _(question.why, **facts)
    if isinstance(question, Pick):
        options = tuple(_(option, **facts) for option in question.options) or _open_words(scene)
        return Live(number, ask, "choice", options, (), question.right(scene, english), None, PLAIN, 0.0, why)
    low, high = _bound(question.low, english), _bound(question.high, english)
    count = round((high - low) / question.step) + 1
    values = tuple(round(low + i * question.step, 10) for i in range(count))
    decimals = _decimals(question.step)
    return Live(number, ask, "number", tuple(format_number(v, decimals) for v in values), values, None,
                fact_number(english[question.fact]), question.unit, question.tolerance, why)


def lecture_questions() -> tuple[tuple[str, int], ...]:
    """(question id, option count) for every scene: what Go live opens a room with."""
    return tuple((scene_question_id(n), live_question(n).option_count) for n in range(1, len(SCENES) + 1))
