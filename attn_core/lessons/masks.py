"""The maths behind the lesson pages on the causal mask, the padding mask and dropout. NumPy only.

Every function builds on `compute()` or on the step functions in `maths`; none re-implements softmax,
a mask or dropout. Letters in the shape comments are the ones of `maths` (B, T, h, d, dh) plus
    L  the padded length of a batch (every sentence is filled with PAD up to L)
    R  the number of dropout re-rolls
    K  the number of ways of removing blocked cells (the four routes)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_core import engine, maths
from attn_core.engine import HeadMap, Result, compute, read_only
from attn_core.errors import SettingsError
from attn_core.settings import ROUTES, Settings
from attn_core.tokens import embed, tokenize, unique_labels
from attn_lang import N_, _

# --- 1. the cheating head -------------------------------------------------------------------------

CHEAT_SCORE = 8.0  # the scaled score of the one key each query matches: e^8 outweighs the rest ~3000 to 1


@dataclass(frozen=True, eq=False)
class CheatingHead:
    """A head built to copy the next word: query t matches only the key of position t + 1."""

    tokens: tuple[str, ...]
    causal: bool
    weights: np.ndarray  # (T, T)
    output: np.ndarray  # (T, 3) each position's weighted sum of the words' vectors
    guesses: tuple[str, ...]  # per position t < T - 1: the word whose embedding is nearest to the output
    next_words: tuple[str, ...]  # per position t < T - 1: the word that really comes next

    @property
    def weight_on_next(self) -> np.ndarray:
        """How much weight position t puts on position t + 1."""
        return np.diagonal(self.weights, offset=1).copy()  # (T - 1,)

    def head_map(self, head: int | None = None) -> HeadMap:
        """The head as the Lab's map draws it (it has one head, no padding and no dropout)."""
        length = len(self.tokens)
        no_cells = np.zeros((length, length), dtype=bool)  # (T, T)
        future = maths.causal_mask(length) if self.causal else no_cells
        return HeadMap(labels=unique_labels(self.tokens), padded=(), weights=self.weights,
                       weights_before_dropout=self.weights, blocked_by_causal=future, blocked_by_padding=no_cells,
                       dropped=no_cells)

    @property
    def hits(self) -> np.ndarray:
        return np.array([g.casefold() == n.casefold() for g, n in zip(self.guesses, self.next_words, strict=True)])

    @property
    def hit_count(self) -> int:
        return int(self.hits.sum())

    @property
    def positions(self) -> int:
        """Positions that have a next word to predict (all but the last)."""
        return len(self.next_words)

    @property
    def hit_rate(self) -> float:
        return self.hit_count / self.positions if self.positions else 0.0


def position_projections(length: int) -> tuple[np.ndarray, np.ndarray]:
    """W_q and W_k of the cheating head; they act on position one-hots, not on the words.

    Query t is a spike on coordinate t; key j is a spike on coordinate j - 1. So q_t . k_j is large only
    when j = t + 1, and the scaled score there is CHEAT_SCORE.
    """
    sharpness = np.sqrt(CHEAT_SCORE * np.sqrt(length))  # sharpness^2 / sqrt(dh) = CHEAT_SCORE with dh = T
    w_q = sharpness * np.eye(length)  # (T, T)
    w_k = sharpness * np.eye(length, k=-1)  # (T, T): row j has its spike in column j - 1
    return w_q, w_k


def cheating_head(sentence: str, causal: bool) -> CheatingHead:
    """Run the cheating head on a sentence with the causal mask on or off; raise SettingsError on bad text."""
    tokens = tokenize(sentence)
    length = len(tokens)
    positions = np.eye(length)  # (T, T) one-hot position of each word
    w_q, w_k = position_projections(length)
    x = embed(tokens)  # (T, 3)
    queries = (positions @ w_q)[None]  # (1, T, T)
    keys = (positions @ w_k)[None]  # (1, T, T)
    values = x[None]  # (1, T, 3): the values are the words themselves
    scores = maths.scaled_scores(queries, keys)  # (1, T, T)
    future = maths.causal_mask(length) if causal else np.zeros((length, length), dtype=bool)  # (T, T)
    weights = maths.masked_softmax(scores, future)  # (1, T, T)
    output = (weights @ values)[0]  # (T, 3)
    guesses = tuple(nearest_word(output[t], tokens) for t in range(length - 1))
    return CheatingHead(tokens=tokens, causal=causal, weights=read_only(weights[0]), output=read_only(output),
                        guesses=guesses, next_words=tokens[1:])



def nearest_word(vector: np.ndarray, vocabulary: tuple[str, ...]) -> str:
    """The word of the vocabulary whose embedding lies closest to the vector (first one on a tie)."""
    distances = np.linalg.norm(embed(vocabulary) - vector, axis=-1)  # (V,)
    return vocabulary[int(np.argmin(distances))]


# --- 2. change a later word -----------------------------------------------------------------------

# The set-ups of the experiment: (name, causal, route); a name is a message, drawn as _(name)
SETUPS = (
    (N_("no mask"), False, "neg_inf"),
    (N_("mask: -inf before softmax"), True, "neg_inf"),
    (N_("mask: zero after softmax"), True, "zero_after"),
    (N_("mask: blocked score set to 0"), True, "zero_score"),
)
REPLACEMENTS = ("leap", "cat", "tomorrow")  # words offered as the new later word
SAME = 1e-12  # a row "did not move" when no number in it changed by more than this


@dataclass(frozen=True)
class LaterWordChange:
    """How far every row moved when one later word was swapped, under each set-up."""

    position: int  # 1-based position of the word that changed
    old_word: str
    new_word: str
    labels: tuple[str, ...]  # the words of the original sentence
    setups: tuple[str, ...]
    output_change: np.ndarray  # (S, T) largest change of any number in each row's output
    weight_change: np.ndarray  # (S, T) largest change of any weight in each row

    @property
    def earlier_rows(self) -> int:
        return self.position - 1

    def earlier_rows_moved(self, setup: str) -> int:
        """How many rows before the changed word had their output move."""
        row = self.setups.index(setup)
        return int((self.output_change[row, : self.earlier_rows] > SAME).sum())

    def earlier_weights_moved(self, setup: str) -> int:
        """How many rows before the changed word had any weight move."""
        row = self.setups.index(setup)
        return int((self.weight_change[row, : self.earlier_rows] > SAME).sum())


def change_later_word(settings: Settings, position: int, new_word: str) -> LaterWordChange:
    """Swap the word at `position` (1-based) and measure every row under the four set-ups."""
    tokens = list(settings.tokens)
    if not 1 <= position <= len(tokens):
        raise SettingsError(_("Pick a word position from 1 to {length}.", length=len(tokens)))
    words = tokenize(new_word)
    if len(words) != 1:
        raise SettingsError(_("Type one word to put in its place."))
    new_word = words[0]
    old_word = tokens[position - 1]
    tokens[position - 1] = new_word
    changed_sentence = " ".join(tokens)
    output_change, weight_change = [], []
    for _name, causal, route in SETUPS:
        base = settings.replace(causal=causal, route=route, dropout=0.0)
        before, after = compute(base), compute(base.replace(sentence=changed_sentence))
        head = before.view_index
        output_change.append(np.abs(after.output - before.output).max(axis=-1))  # (T,)
        weight_change.append(np.abs(after.weights[head] - before.weights[head]).max(axis=-1))  # (T,)
    return LaterWordChange(
        position=position, old_word=old_word, new_word=new_word, labels=unique_labels(settings.tokens),
        setups=tuple(name for name, __, __ in SETUPS),
        output_change=np.array(output_change), weight_change=np.array(weight_change),
    )  # fmt: skip


def replacement_for(word: str) -> str:
    """The first offered replacement that differs from the word being replaced."""
    return next(r for r in REPLACEMENTS if r.casefold() != word.casefold())


# --- 3. the four routes on one row ----------------------------------------------------------------


@dataclass(frozen=True)
class RouteRows:
    """One query row under each of the four ways of removing blocked cells."""

    row: int  # 0-based query row
    labels: tuple[str, ...]
    routes: tuple[str, ...]
    weights: np.ndarray  # (K, T)
    blocked: np.ndarray  # (T,) bool, the cells of this row the masks block

    @property
    def sums(self) -> np.ndarray:
        return self.weights.sum(axis=-1)  # (K,)

    @property
    def leaked(self) -> np.ndarray:
        """Weight that lands on blocked cells, per route."""
        return self.weights[:, self.blocked].sum(axis=-1)  # (K,)

    def of(self, route: str) -> np.ndarray:
        return self.weights[self.routes.index(route)]  # (T,)


def route_rows(settings: Settings, row: int) -> RouteRows:
    """The same row (0-based) of the head in view, once per route, with the settings' masks."""
    base = settings.replace(dropout=0.0)
    results = [compute(base.replace(route=route)) for route in ROUTES]
    head = results[0].view_index
    return RouteRows(
        row=row, labels=results[0].labels, routes=ROUTES,
        weights=np.stack([r.weights[head, row] for r in results]),  # (K, T)
        blocked=results[0].blocked[head, row].copy(),
    )  # fmt: skip


@dataclass(frozen=True)
class WorkedExample:
    """The lessons' row: two real scores and a blocked PAD, with -inf versus a blocked score of 0."""

    scores: np.ndarray  # (3,) the PAD's own score is irrelevant: both routes overwrite it
    blocked: np.ndarray  # (3,) bool
    exps: np.ndarray  # (3,) e^score with the PAD's score set to 0
    with_neg_inf: np.ndarray  # (3,)
    with_zero_score: np.ndarray  # (3,)

    @property
    def total(self) -> float:
        return float(self.exps.sum())

    @property
    def pad_share(self) -> float:
        return float(self.with_zero_score[2])


def worked_example() -> WorkedExample:
    scores = np.array([0.34, 0.05, 0.0])  # (3,)
    blocked = np.array([False, False, True])  # (3,)
    return WorkedExample(
        scores=scores, blocked=blocked, exps=np.exp(np.where(blocked, 0.0, scores)),
        with_neg_inf=maths.apply_route(scores, blocked, "neg_inf"),
        with_zero_score=maths.apply_route(scores, blocked, "zero_score"),
    )  # fmt: skip


# --- 4. the future is still in V ------------------------------------------------------------------


@dataclass(frozen=True)
class RowTimesValues:
    """One query row of A @ V, term by term: weight_j * v_j for every key j, and their sum."""

    row: int
    labels: tuple[str, ...]
    weights: np.ndarray  # (T,)
    values: np.ndarray  # (T, dh) every key's value vector, the future ones included
    terms: np.ndarray  # (T, dh) weight_j * v_j
    context: np.ndarray  # (dh,) the row of A @ V the core computed
    future: np.ndarray  # (T,) bool, keys after the query

    @property
    def future_value_size(self) -> float:
        """The size of the largest number in the future value vectors: they are not zero."""
        return float(np.abs(self.values[self.future]).max()) if self.future.any() else 0.0

    @property
    def future_value_largest(self) -> float:
        """That number with its sign: the future value entry largest in size, as a cell of V shows it."""
        if not self.future.any():
            return 0.0
        later = self.values[self.future].ravel()  # (n * dh,)
        return float(later[np.argmax(np.abs(later))])

    @property
    def future_term_size(self) -> float:
        """The largest number their terms add to the sum: exactly zero with the mask on."""
        return float(np.abs(self.terms[self.future]).max()) if self.future.any() else 0.0


def row_times_values(result: Result, row: int) -> RowTimesValues:
    head = result.view_index
    weights = result.weights[head, row]  # (T,)
    values = result.values[head]  # (T, dh)
    return RowTimesValues(
        row=row, labels=result.labels, weights=weights.copy(), values=values.copy(),
        terms=weights[:, None] * values,  # (T, dh)
        context=result.per_head_context[head, row].copy(),
        future=np.arange(len(weights)) > row,
    )  # fmt: skip


# --- 5. padding a batch ---------------------------------------------------------------------------

PAD = "PAD"
SECOND_SENTENCE = "Small steps add up fast"  # the shorter sentence of the two-sentence batch


@dataclass(frozen=True)
class PaddedBatch:
    """Sentences of different lengths filled with PAD to one length, and the masks that go with them."""

    grid: tuple[tuple[str, ...], ...]  # (B, L) words, PAD where a sentence ran out
    is_pad: np.ndarray  # (B, L) bool
    padding: np.ndarray  # (B, 1, L) bool, the padding mask ready to broadcast
    broadcast: np.ndarray  # (B, L, L) bool, the padding mask copied down every query row
    combined: np.ndarray  # (B, L, L) bool, OR the causal mask when it is on
    causal: bool

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(int(n) for n in (~self.is_pad).sum(axis=-1))

    @property
    def shapes(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        return self.is_pad.shape, self.padding.shape, self.broadcast.shape


def padded_batch(sentences: tuple[str, ...], causal: bool) -> PaddedBatch:
    """Pad every sentence to the longest one and build its (B, L) -> (B, 1, L) -> (B, L, L) masks."""
    token_lists = [tokenize(s) for s in sentences]
    longest = max(len(t) for t in token_lists)
    grid = tuple(t + (PAD,) * (longest - len(t)) for t in token_lists)
    is_pad = np.array([[i >= len(t) for i in range(longest)] for t in token_lists])  # (B, L)
    padding = maths.padding_mask(is_pad)  # (B, 1, L)
    shape = (len(sentences), longest, longest)
    broadcast = np.broadcast_to(padding, shape)  # (B, L, L)
    future = maths.causal_mask(longest) if causal else np.zeros((longest, longest), dtype=bool)  # (L, L)
    combined = maths.combine_masks(future, padding)  # (B, L, L)
    return PaddedBatch(grid=grid, is_pad=is_pad, padding=padding, broadcast=broadcast, combined=combined,
                       causal=causal)


def two_sentence_batch(sentence: str, short_words: int, causal: bool) -> PaddedBatch:
    """The page's batch: the sentence itself and the first `short_words` words of SECOND_SENTENCE."""
    second = tokenize(SECOND_SENTENCE)
    count = min(max(short_words, 1), len(second))
    return padded_batch((sentence, " ".join(second[:count])), causal)


# --- 6. PAD rows and the empty row ----------------------------------------------------------------


def pad_rows(result: Result) -> dict[int, np.ndarray]:
    """0-based PAD rows that still have keys to look at -> their weights (they sum to 1 and go nowhere)."""
    head = result.view_index
    rows = [pos - 1 for pos in result.settings.padded if pos - 1 not in result.empty_rows]
    return {row: result.weights[head, row].copy() for row in rows}


def naive_empty_row(result: Result, row: int) -> np.ndarray:
    """What a plain softmax gives a row whose every key is blocked: 0 / 0, so NaN in every cell."""
    head = result.view_index
    masked = np.where(result.blocked[head, row], -np.inf, result.scores[head, row])  # (T,) all -inf
    with np.errstate(invalid="ignore"):
        return maths.softmax(masked)  # (T,) NaN: the app's masked_softmax returns zeros instead


# --- 7. dropout over many re-rolls ----------------------------------------------------------------

ROLLS = 200  # re-rolls in the mean-row-sum plot
PATTERN_ROLLS = 10  # re-rolls used to count different maps


@dataclass(frozen=True)
class DropoutRolls:
    """The mean row sum of the head in view over many dropout patterns, with and without the rescale."""

    p: float
    training: bool
    with_rescale: np.ndarray  # (R,) mean row sum of each roll
    without_rescale: np.ndarray  # (R,)

    @staticmethod
    def _running(values: np.ndarray) -> np.ndarray:
        return np.cumsum(values) / np.arange(1, len(values) + 1)  # (R,)

    @property
    def running_with(self) -> np.ndarray:
        return self._running(self.with_rescale)

    @property
    def running_without(self) -> np.ndarray:
        return self._running(self.without_rescale)

    @property
    def mean_with(self) -> float:
        return float(self.with_rescale.mean())

    @property
    def mean_without(self) -> float:
        return float(self.without_rescale.mean())


def mean_row_sum(result: Result) -> float:
    """Mean sum of the rows of the head in view that have something to look at."""
    return _mean_live_row_sum(result.weights[result.view_index], result.blocked[result.view_index])


def _mean_live_row_sum(weights: np.ndarray, blocked: np.ndarray) -> float:
    """Mean sum of the rows (T, T) that have something to look at."""
    live = ~blocked.all(axis=-1)  # (T,)
    return float(weights.sum(axis=-1)[live].mean()) if live.any() else 0.0


def dropout_rolls(settings: Settings, rolls: int = ROLLS) -> DropoutRolls:
    """Re-roll the dropout pattern `rolls` times (roll 0, 1, ...) and record each mean row sum.

    One forward pass: the weights before dropout do not depend on the roll, so only each roll's pattern is drawn
    (the same pattern compute() draws for that roll, which tests/core/test_masks_lessons.py checks)."""
    base = compute(settings.replace(roll=0))
    head = base.view_index
    before, blocked = base.weights_before_dropout, base.blocked[head]  # (h, T, T), (T, T)
    with_rescale, without_rescale = [], []
    for roll in range(rolls):
        kept = ~engine.dropout_pattern(settings.replace(roll=roll), before)[head]  # (T, T)
        for rescale, sums in ((True, with_rescale), (False, without_rescale)):
            weights = maths.apply_dropout(before[head], kept, settings.dropout, rescale) if settings.dropout_active \
                else before[head]  # (T, T)
            sums.append(_mean_live_row_sum(weights, blocked))
    return DropoutRolls(p=settings.dropout, training=settings.training,
                        with_rescale=np.array(with_rescale), without_rescale=np.array(without_rescale))


def survivor_scale(result: Result) -> float:
    """What dropout multiplied the surviving weights by in the head in view (1 when nothing was dropped)."""
    head = result.view_index
    before, after = result.weights_before_dropout[head], result.weights[head]  # (T, T)
    kept = (before > 0) & ~result.dropped[head]
    if not result.settings.dropout_active or not kept.any():
        return 1.0
    return float(np.median(after[kept] / before[kept]))


def different_maps(settings: Settings, rolls: int = PATTERN_ROLLS) -> int:
    """How many different dropout patterns `rolls` re-rolls give: one when dropout is off (inference).

    Two rolls give different weight tables exactly when they drop different cells (every droppable cell holds
    weight), so the patterns are compared and no forward pass is repeated."""
    before = compute(settings.replace(roll=0)).weights_before_dropout  # (h, T, T)
    patterns = {engine.dropout_pattern(settings.replace(roll=roll), before).tobytes() for roll in range(rolls)}
    return len(patterns)
