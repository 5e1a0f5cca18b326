"""Data the app makes itself, seeded, with no download.

(a) A toy language: a small probabilistic grammar built around "Your journey starts with one step". Each state
    of the grammar says which words may come next and how likely each is; the state is fixed by the words so
    far, so the true next-word entropy follows exactly from the grammar.
(b) Repeat sequences: random tokens, then a stretch, then the same stretch again. The prefix length and the
    stretch length vary, so "the token right after the earlier copy of me" is the only reliable clue.

A data set is three arrays of one shape (N, T): inputs, targets (inputs shifted by one) and counted (which
targets the loss counts; PAD targets are not counted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

PAD, BOS, END = "<pad>", "<s>", "."

# state -> ((word, probability, next state), ...); "done" emits nothing. No state can be reached twice in one
# sentence, so the language is finite. "long" and "small" make the next word depend on a word two back.
GRAMMAR = MappingProxyType({
    "start": (("your", 0.5, "any"), ("one", 0.25, "single"), ("two", 0.25, "plural")),
    "any": (
        ("long", 0.3, "long any"),
        ("journey", 0.25, "noun single"),
        ("journeys", 0.2, "noun plural"),
        ("walk", 0.15, "noun single"),
        ("walks", 0.1, "noun plural"),
    ),
    "single": (("long", 0.4, "long single"), ("journey", 0.4, "noun single"), ("walk", 0.2, "noun single")),
    "plural": (("long", 0.4, "long plural"), ("journeys", 0.4, "noun plural"), ("walks", 0.2, "noun plural")),
    "long any": (("journey", 0.5, "noun single"), ("journeys", 0.5, "noun plural")),
    "long single": (("journey", 0.6, "noun single"), ("walk", 0.4, "noun single")),
    "long plural": (("journeys", 0.6, "noun plural"), ("walks", 0.4, "noun plural")),
    "noun single": (("starts", 0.6, "verb"), ("ends", 0.4, "verb")),
    "noun plural": (("start", 0.6, "verb"), ("end", 0.4, "verb")),
    "verb": (("with", 0.75, "with"), ("after", 0.25, "with")),
    "with": (("one", 0.6, "count single"), ("two", 0.4, "count plural")),
    "count single": (("step", 0.6, "object"), ("stride", 0.2, "object"), ("small", 0.2, "small single")),
    "count plural": (("steps", 0.6, "object"), ("strides", 0.2, "object"), ("small", 0.2, "small plural")),
    "small single": (("step", 1.0, "object"),),
    "small plural": (("steps", 1.0, "object"),),
    "object": ((END, 1.0, "done"),),
    "done": (),
})


@dataclass(frozen=True)
class Sentence:
    words: tuple[str, ...]  # the words after BOS, END included
    probability: float
    entropies: tuple[float, ...]  # nats: the true entropy of each next word given the words before it


@dataclass(frozen=True)
class Language:
    """Everything the grammar implies, computed once by walking every path."""

    vocabulary: tuple[str, ...]  # PAD first, then BOS, then the words in grammar order
    sentences: tuple[Sentence, ...]
    entropy_per_token: float  # E[sum of next-word entropies] / E[targets]: the loss's own averaging
    entropy_by_position: tuple[float, ...]  # mean true entropy of the t-th target, over sentences that reach it
    allowed_transitions: frozenset[tuple[str, str]]  # (word, next word) pairs some sentence has

    @property
    def length(self) -> int:
        """Inputs per sequence: BOS + the longest sentence, with room for one PAD target after END."""
        return max(len(sentence.words) for sentence in self.sentences) + 1

    def ids(self, words) -> list[int]:
        return [self.vocabulary.index(word) for word in words]

    def is_sentence(self, words) -> bool:
        return tuple(words) in {sentence.words for sentence in self.sentences}


def state_entropy(state: str) -> float:
    return -sum(p * math.log(p) for __, p, __ in GRAMMAR[state])


def walk(state: str, words: tuple[str, ...], probability: float, entropies: tuple[float, ...]):
    """Every sentence reachable from `state`, with its probability and per-word entropies."""
    if not GRAMMAR[state]:
        yield Sentence(words, probability, entropies)
        return
    here = state_entropy(state)
    for word, p, next_state in GRAMMAR[state]:
        yield from walk(next_state, (*words, word), probability * p, (*entropies, here))


def toy_language() -> Language:
    sentences = tuple(walk("start", (), 1.0, ()))
    vocabulary = [PAD, BOS]
    for rules in GRAMMAR.values():
        vocabulary += [word for word, __, __ in rules if word not in vocabulary]
    expected_entropy = sum(s.probability * sum(s.entropies) for s in sentences)
    expected_targets = sum(s.probability * len(s.words) for s in sentences)
    longest = max(len(s.words) for s in sentences)
    by_position = []
    for t in range(longest):
        reach = [s for s in sentences if len(s.words) > t]
        mass = sum(s.probability for s in reach)
        by_position.append(sum(s.probability * s.entropies[t] for s in reach) / mass)
    transitions = {pair for s in sentences for pair in zip((BOS, *s.words[:-1]), s.words, strict=True)}
    return Language(
        vocabulary=tuple(vocabulary),
        sentences=sentences,
        entropy_per_token=expected_entropy / expected_targets,
        entropy_by_position=tuple(by_position),
        allowed_transitions=frozenset(transitions),
    )


@dataclass(frozen=True)
class Dataset:
    inputs: np.ndarray  # (N, T) token ids
    targets: np.ndarray  # (N, T) the next token of each input
    counted: np.ndarray  # (N, T) bool, targets the loss counts

    def __len__(self) -> int:
        return self.inputs.shape[0]

    def rows(self, index: np.ndarray) -> Dataset:
        return Dataset(self.inputs[index], self.targets[index], self.counted[index])


def from_sequences(sequences: np.ndarray, counted: np.ndarray) -> Dataset:
    """(N, T+1) token ids -> inputs and targets shifted by one; counted (N, T+1) marks targets to count."""
    return Dataset(sequences[:, :-1], sequences[:, 1:], counted[:, 1:])


def sample_sentences(language: Language, count: int, rng: np.random.Generator) -> Dataset:
    """Draw `count` sentences from the grammar; each row is BOS, the words, END, then PAD."""
    probabilities = np.array([s.probability for s in language.sentences])  # (S,)
    picks = rng.choice(len(language.sentences), size=count, p=probabilities / probabilities.sum())  # (N,)
    pad_id = language.vocabulary.index(PAD)
    sequences = np.full((count, language.length + 1), pad_id, dtype=np.int64)  # (N, T+1)
    for row, pick in enumerate(picks):
        ids = language.ids((BOS, *language.sentences[pick].words))
        sequences[row, : len(ids)] = ids
    return from_sequences(sequences, sequences != pad_id)


def grammar_loss(language: Language, data: Dataset) -> float:
    """The loss the grammar itself scores on these rows: the best any model can expect, measured here."""
    probability_of = {s.words: s for s in language.sentences}
    total, count = 0.0, 0
    for targets, counted in zip(data.targets, data.counted, strict=True):
        words = tuple(language.vocabulary[i] for i in targets[counted])
        total -= math.log(probability_of[words].probability)
        count += len(words)
    return total / count


# --- (b) repeat sequences ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RepeatData:
    data: Dataset
    first_copy: np.ndarray  # (N,) where the stretch starts
    stretch_length: np.ndarray  # (N,) how long it is; the second copy starts at first_copy + stretch_length

    def predictable(self) -> np.ndarray:
        """(N, T) bool: targets inside the second copy after its first token, which induction can predict."""
        positions = np.arange(self.data.inputs.shape[1])[None, :]  # (1, T)
        second = (self.first_copy + self.stretch_length)[:, None]  # (N, 1)
        return (positions >= second) & (positions < second + self.stretch_length[:, None] - 1)  # (N, T)

    def earlier_key(self) -> np.ndarray:
        """(N, T) the key right after the earlier copy of each predictable query's token; -1 elsewhere."""
        positions = np.arange(self.data.inputs.shape[1])[None, :]  # (1, T)
        key = positions - self.stretch_length[:, None] + 1  # (N, T)
        return np.where(self.predictable(), key, -1)


def repeat_sequences(count: int, length: int, vocab: int, stretch: tuple[int, int], rng: np.random.Generator):
    """Random prefix, a stretch of distinct tokens, the stretch again, random filler; no PAD.

    Prefix and filler use only tokens outside the stretch, so each token of the second copy has exactly one
    earlier occurrence. Prefix and stretch lengths are drawn per row, so neither where the copy starts nor how
    far back it lies is fixed.
    """
    shortest, longest = stretch
    lengths = rng.integers(shortest, longest + 1, size=count)  # (N,)
    starts = np.floor(rng.random(count) * (length + 2 - 2 * lengths)).astype(np.int64)  # (N,) 0 .. T+1-2m
    order = np.argsort(rng.random((count, vocab)), axis=1)  # (N, V) a random order of the vocabulary a row
    # filler: the tokens of each row's order after its first m, which are the stretch
    pick = lengths[:, None] + np.floor(rng.random((count, length + 1)) * (vocab - lengths)[:, None])  # (N, T+1)
    sequences = np.take_along_axis(order, pick.astype(np.int64), axis=1)  # (N, T+1)
    offset = np.arange(length + 1)[None, :] - starts[:, None]  # (N, T+1) position from the first copy's start
    in_copy = (offset >= 0) & (offset < 2 * lengths[:, None])  # (N, T+1)
    within = np.where(in_copy, offset % lengths[:, None], 0)  # (N, T+1) index into the stretch
    sequences = np.where(in_copy, np.take_along_axis(order, within, axis=1), sequences)  # (N, T+1)
    data = from_sequences(sequences, np.ones_like(sequences, dtype=bool))
    return RepeatData(data, starts, lengths)
