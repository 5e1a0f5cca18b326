"""The data the app makes: the grammar's exact entropy, its samples, and repeats that only induction predicts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_core.training.data import BOS, END, PAD, grammar_loss, repeat_sequences, sample_sentences, toy_language

LANGUAGE = toy_language()


def test_the_lesson_sentence_belongs_to_the_language_and_probabilities_sum_to_one():
    assert LANGUAGE.is_sentence(("your", "journey", "starts", "with", "one", "step", END))
    assert not LANGUAGE.is_sentence(("your", "journey", "start", "with", "one", "step", END))  # agreement
    assert math.isclose(sum(s.probability for s in LANGUAGE.sentences), 1.0, rel_tol=1e-12)
    assert LANGUAGE.vocabulary[:2] == (PAD, BOS)


def test_entropy_per_token_is_the_sentence_entropy_over_the_expected_length():
    """The chain rule: the expected sum of next-word entropies is the entropy of a whole sentence."""
    sentence_entropy = -sum(s.probability * math.log(s.probability) for s in LANGUAGE.sentences)
    expected_targets = sum(s.probability * len(s.words) for s in LANGUAGE.sentences)
    assert math.isclose(LANGUAGE.entropy_per_token, sentence_entropy / expected_targets, rel_tol=1e-12)
    assert LANGUAGE.entropy_by_position[-1] == 0.0  # after the last word only END can follow


def test_the_grammar_scores_its_entropy_on_a_large_sample():
    data = sample_sentences(LANGUAGE, 20_000, np.random.default_rng(0))
    assert abs(grammar_loss(LANGUAGE, data) - LANGUAGE.entropy_per_token) < 0.01


def test_sampled_rows_are_bos_a_sentence_and_pad_with_pad_targets_not_counted():
    data = sample_sentences(LANGUAGE, 50, np.random.default_rng(1))
    assert (data.inputs[:, 0] == LANGUAGE.vocabulary.index(BOS)).all()
    pad = LANGUAGE.vocabulary.index(PAD)
    np.testing.assert_array_equal(data.counted, data.targets != pad)
    np.testing.assert_array_equal(data.inputs[:, 1:], data.targets[:, :-1])
    assert (data.targets[:, -1] == pad).all(), "every row keeps one PAD, so END is always an input as well"
    for targets, counted in zip(data.targets, data.counted, strict=True):
        assert LANGUAGE.is_sentence(LANGUAGE.vocabulary[i] for i in targets[counted])


REPEATS = repeat_sequences(2000, 24, 24, (4, 9), np.random.default_rng(2))


def test_the_second_copy_repeats_the_first_and_each_of_its_tokens_occurs_once_before():
    sequences = np.concatenate([REPEATS.data.inputs, REPEATS.data.targets[:, -1:]], axis=1)  # (N, T+1)
    for row, start, length in zip(sequences[:200], REPEATS.first_copy, REPEATS.stretch_length, strict=False):
        first, second = row[start : start + length], row[start + length : start + 2 * length]
        np.testing.assert_array_equal(first, second)
        assert len(set(first)) == length
        assert np.isin(np.delete(row, np.arange(start, start + 2 * length)), first).sum() == 0


def test_the_key_after_the_earlier_copy_holds_the_target():
    rows, queries = np.nonzero(REPEATS.predictable())
    keys = REPEATS.earlier_key()[rows, queries]
    np.testing.assert_array_equal(REPEATS.data.inputs[rows, keys], REPEATS.data.targets[rows, queries])


@pytest.mark.parametrize("position", range(10, 20))
def test_position_alone_cannot_predict_the_repeat(position):
    """At one absolute position, the lag to the earlier copy varies from row to row, and so does whether the
    position is in the repeat at all: no fixed positional pattern finds the answer."""
    on_repeat = REPEATS.predictable()[:, position]
    lags = set((REPEATS.stretch_length[on_repeat] - 1).tolist())
    assert len(lags) >= 4
    assert 0.05 < on_repeat.mean() < 0.95
