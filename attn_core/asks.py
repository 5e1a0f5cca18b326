"""What a lecturer may ask the room about one Lab state, with the true answer computed here, never typed.

A lecturer's own scene is a Lab state (Settings), a question kind from ASKS, and the row and key it names. `answer`
derives, from the core's numbers for that state, the value a prediction is scored against, the tolerance that
counts as right and why, the grid a phone picks a number from, or a choice's options and its one right option.
A state where a kind cannot be asked fairly (two words tie for a row's largest weight, two maps that look the same)
raises AskError with a sentence that says why and what to change: a quiz with two true options is a maths bug.

Every kind also declares its givens: what the board shows at the question step, enough to reason from and never the
answer (attn_ui/views/deck_board.py draws them; docs/lecture.md lists them).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_core.engine import Result, compute
from attn_core.errors import SettingsError
from attn_core.settings import Settings
from attn_lang import _

WEIGHT_STEP = 0.01  # a phone's grid for a weight: the map writes weights to two decimals
SHADE_TOLERANCE = 0.05  # a weight read from shades of colour: about a twentieth of the colour bar
TIE = 0.005  # two weights closer than this print the same at two decimals: neither can be "the largest"


class AskError(SettingsError):
    """A kind that cannot be asked fairly about this state; the message says why and what to change."""


@dataclass(frozen=True)
class Ask:
    """A question kind: what it needs and what the board shows before the answer."""

    kind: str
    needs_row: bool
    needs_key: bool
    givens: str  # "shades": the map in shades, no numbers; "state": the settings in words; "dropout": the row's
    # weights before dropout and the cells it zeroes; "pair": two maps in shades, A and B; "map": the map itself
    scored: bool = True


ASKS = MappingProxyType({ask.kind: ask for ask in (
    Ask("weight", True, True, "shades"),  # one cell's weight
    Ask("largest", True, False, "state"),  # a row's largest weight
    Ask("most", True, False, "state"),  # the word a row looks at most
    Ask("blocked", False, False, "state"),  # cells blocked by the masks (causal or padding)
    Ask("padding", False, False, "state"),  # cells blocked by padding alone
    Ask("future", True, False, "state"),  # does a row's output see a later word?
    Ask("row_sum", True, False, "dropout"),  # a row's sum, dropout included
    Ask("d_head", False, False, "state"),  # each head's width
    Ask("scores", False, False, "state"),  # how many numbers the score tensor holds
    Ask("which", False, False, "pair"),  # which of two maps has the causal mask?
    Ask("discuss", False, False, "map", scored=False),  # the lecturer's own prompt, not scored
)})


@dataclass(frozen=True)
class Answer:
    """A question's true answer for one state."""

    kind: str  # "number", "choice" or "none" (a discussion)
    value: float | None = None  # a number's true value, unrounded
    decimals: int = 0  # how the value is written
    tolerance: float = 0.0  # |guess - value| <= tolerance counts as right
    why: str = ""  # the reason for the tolerance, one of WHY's keys (worded in attn_ui/words/deck_words.py)
    low: float = 0.0  # a number's grid, for a phone
    high: float = 0.0
    step: float = 1.0
    options: tuple[str, ...] = ()  # a choice's options: words of the sentence, "yes"/"no", or "A"/"B"
    right: int | None = None  # the right option
    flipped: bool = False  # "which": the scene's own state is map B (its twin is A)
    key: int | None = None  # "largest", "most": the 0-based key the row weighs most

    def is_right(self, guess: float | int) -> bool:
        """Is this guess (a number, or an option's index) right?"""
        if self.kind == "choice":
            return guess == self.right
        if self.kind == "number" and self.value is not None:
            return abs(float(guess) - self.value) <= self.tolerance + 1e-9
        return False

    @property
    def grid(self) -> tuple[float, ...]:
        """A number's grid of answers a phone offers, from low to high in steps."""
        count = int(round((self.high - self.low) / self.step)) + 1
        return tuple(round(self.low + i * self.step, 6) for i in range(count))


# why a tolerance is what it is: the keys an Answer names (the words are in attn_ui/words/deck_words.py)
WHY = ("count", "shade", "rounded_sum", "exact_rule", "choice")


def _row_index(result: Result, row: int | None) -> int:
    length = len(result.tokens)
    if row is None or not 1 <= row <= length:
        raise AskError(_("Pick a row between 1 and {length} for this question.", length=length))
    return row - 1


def _key_index(result: Result, key: int | None) -> int:
    length = len(result.tokens)
    if key is None or not 1 <= key <= length:
        raise AskError(_("Pick a key (a column) between 1 and {length} for this question.", length=length))
    return key - 1


def _weight_high(settings: Settings) -> float:
    """The largest weight a cell can have: 1, or 1/(1-p) when dropout rescales the survivors."""
    if settings.dropout_active and settings.rescale:
        return math.ceil(100 / (1 - settings.dropout)) / 100
    return 1.0


def twin(settings: Settings) -> Settings:
    """The "which" question's other map: the same state with the causal mask switched."""
    return settings.replace(causal=not settings.causal)


def twin_first(settings: Settings) -> bool:
    """Is the twin map A? Decided by the state itself (the same on every machine), so the causal map is not always
    the same letter."""
    query = "&".join(f"{key}={value}" for key, value in sorted(settings.to_query_full().items()))
    return hashlib.sha256(query.encode("utf-8")).digest()[0] % 2 == 1


def _count(value: int, high: int) -> Answer:
    return Answer("number", float(value), 0, 0.0, "count", 0.0, float(max(high, 1)), 1.0)


def answer(settings: Settings, kind: str, row: int | None = None, key: int | None = None,
           result: Result | None = None) -> Answer:
    """The true answer to question `kind` about `settings` (row and key from 1, where the kind needs them)."""
    if kind not in ASKS:
        raise AskError(_("Unknown question kind {kind}.", kind=repr(kind)[:40]))
    result = compute(settings) if result is None else result
    length = len(result.tokens)
    view = result.view_index
    if kind == "weight":
        query, column = _row_index(result, row), _key_index(result, key)
        return Answer("number", float(result.weights[view, query, column]), 2, SHADE_TOLERANCE, "shade", 0.0,
                      _weight_high(settings), WEIGHT_STEP)
    if kind in ("largest", "most"):
        query = _row_index(result, row)
        weights = result.weights[view, query]
        order = np.argsort(-weights, kind="stable")
        if weights[order[0]] <= 0:
            raise AskError(_("Row {row} has no weight left to look at: ask about another row.", row=query + 1))
        if kind == "largest":
            return Answer("number", float(weights[order[0]]), 2, SHADE_TOLERANCE, "shade", 0.0,
                          _weight_high(settings), WEIGHT_STEP, key=int(order[0]))
        if length > 1 and weights[order[0]] - weights[order[1]] < TIE:
            raise AskError(_("Row {row}'s two largest weights are equal to two decimals: both words would be "
                             "right. Ask about another row or change the state.", row=query + 1))
        return Answer("choice", options=result.labels, right=int(order[0]), why="choice", key=int(order[0]))
    if kind == "blocked":
        return _count(result.masked_cells, length * length)
    if kind == "padding":
        return _count(result.padding_cells, length * length)
    if kind == "future":
        query = _row_index(result, row)
        return Answer("choice", options=("yes", "no"), right=0 if result.reads_later[query].any() else 1,
                      why="exact_rule")
    if kind == "row_sum":
        query = _row_index(result, row)
        if not settings.dropout_active:
            raise AskError(_("A row's sum under dropout needs dropout on: set p above 0, in training."))
        total = float(result.weights[view, query].sum())
        scale = 1 / (1 - settings.dropout) if settings.dropout_active and settings.rescale else 1.0
        # the board writes each weight before dropout to 0.01: a sum of `length` of them, rescaled, may be off by
        # length x 0.005 x scale; the tolerance covers that, and never less than one grid step
        tolerance = max(WEIGHT_STEP, math.ceil(length * 0.005 * scale * 100) / 100)
        return Answer("number", total, 2, tolerance, "rounded_sum", 0.0,
                      float(math.ceil(scale * 100) / 100), WEIGHT_STEP)
    if kind == "d_head":
        return _count(settings.d_head, settings.d_model)
    if kind == "scores":
        size = int(np.prod(result.score_shape))
        return _count(size, 2 * size)
    if kind == "which":
        other = compute(twin(settings))
        if np.allclose(np.round(result.weights[view], 2), np.round(other.weights[view], 2)):
            raise AskError(_("With the causal mask on and off this map looks the same (a one-word sentence, or "
                             "every later word already blocked): there is nothing to tell apart."))
        first = twin_first(settings)
        causal_is_b = settings.causal == first  # the scene's own map is B when its twin comes first
        return Answer("choice", options=("A", "B"), right=1 if causal_is_b else 0, why="choice", flipped=first)
    return Answer("none")
