"""What the experiments measure on a trained model: losses read the way the model is used, generated text and
how grammatical it is, and the standard head scores.
"""

from __future__ import annotations

import numpy as np

from attn_core import portable
from attn_core.training import layers
from attn_core.training.data import BOS, END, PAD, Dataset, Language, RepeatData
from attn_core.training.model import ModelConfig, attention_maps, forward


def generating_loss(params, data: Dataset, config: ModelConfig) -> float:
    """The loss as the model is used: each next word predicted from the prefix alone, the future not yet written.

    For each position t the model runs on inputs[:, :t+1] only, so nothing after t exists to be read. With the
    causal mask this equals the one-pass loss (up to rounding); without it, it is what generation would score.
    """
    total, count = 0.0, 0
    for position in range(data.inputs.shape[1]):
        rows = np.flatnonzero(data.counted[:, position])  # (n,) rows with a target here
        if rows.size == 0:
            continue
        logits, __ = forward(params, data.inputs[rows, : position + 1], config)  # (n, t+1, V)
        log_probs = layers.log_softmax(logits[:, position])  # (n, V)
        total -= float(log_probs[np.arange(rows.size), data.targets[rows, position]].sum())
        count += rows.size
    return total / count


def loss_on(params, data: Dataset, counted: np.ndarray, config: ModelConfig, silenced=()) -> float:
    """One-pass inference loss over the targets `counted` (N, T) marks, optionally with heads silenced."""
    logits, __ = forward(params, data.inputs, config, silenced=silenced)  # (N, T, V)
    return layers.softmax_loss(logits, data.targets, counted)[0]


def generate(params, config: ModelConfig, language: Language, prompt: tuple[str, ...], samples: int,
             rng: np.random.Generator) -> list[tuple[str, ...]]:
    """Sample `samples` continuations of BOS + prompt, one word at a time from the prefix, until END."""
    end_id, pad_id = language.vocabulary.index(END), language.vocabulary.index(PAD)
    tokens = np.tile(language.ids((BOS, *prompt)), (samples, 1))  # (S, t)
    finished = np.zeros(samples, dtype=bool)  # (S,)
    while tokens.shape[1] < config.length and not finished.all():
        logits, __ = forward(params, tokens, config)  # (S, t, V)
        probabilities = portable.exp(layers.log_softmax(logits[:, -1]))  # (S, V)
        cumulative = probabilities.cumsum(axis=-1)  # (S, V)
        draws = rng.random(samples)[:, None] * cumulative[:, -1:]  # (S, 1)
        words = np.minimum((cumulative <= draws).sum(axis=-1), probabilities.shape[-1] - 1)  # (S,)
        words = np.where(finished, pad_id, words)  # (S,)
        tokens = np.concatenate([tokens, words[:, None]], axis=1)  # (S, t+1)
        finished |= words == end_id
    texts = []
    for row in tokens[:, len(prompt) + 1 :]:
        words = [language.vocabulary[i] for i in row if i != pad_id]
        texts.append(tuple(words[: words.index(END) + 1] if END in words else words))
    return texts


def grammatical_shares(language: Language, prompt: tuple[str, ...], texts) -> tuple[float, float]:
    """(share of generated transitions the grammar allows, share of whole sentences in the language)."""
    allowed = total = whole = 0
    for text in texts:
        words = (BOS, *prompt, *text)
        pairs = list(zip(words[len(prompt) : -1], words[len(prompt) + 1 :], strict=True))  # from the prompt's end
        allowed += sum(pair in language.allowed_transitions for pair in pairs)
        total += len(pairs)
        whole += language.is_sentence((*prompt, *text))
    return allowed / max(total, 1), whole / max(len(texts), 1)


def head_scores(params, repeats: RepeatData, config: ModelConfig) -> dict[str, np.ndarray]:
    """Per layer and head, in inference mode, each an (L, h) array:

    previous_token: mean weight on key i-1 from query i (every query but the first);
    induction: on the repeated stretch, mean weight on the key right after the earlier copy of the query's token;
    duplicate_token: on the repeated stretch, mean weight on the earlier copy of the query's token itself.
    """
    maps = attention_maps(params, repeats.data.inputs, config)  # (L, N, h, T, T)
    length = maps.shape[-1]
    queries = np.arange(1, length)  # (T-1,)
    previous = maps[..., queries, queries - 1].mean(axis=(1, 3))  # (L, h)
    rows, stretch_queries = np.nonzero(repeats.predictable())  # (n,), (n,)
    after_copy = repeats.earlier_key()[rows, stretch_queries]  # (n,)
    induction = maps[:, rows, :, stretch_queries, after_copy].mean(axis=0)  # (L, h): fancy index puts n first
    duplicate = maps[:, rows, :, stretch_queries, after_copy - 1].mean(axis=0)  # (L, h)
    return {"previous_token": previous, "induction": induction, "duplicate_token": duplicate}


# --- what a run's curves did, for the sentences that describe it ------------------------------------------------
# Each page sentence that says what a curve did ("drops", "stays near chance", "read the next word", "by heart",
# "narrows the gap") is chosen by one of these, from the run's own numbers, so no run can contradict its words.

NEAR_CHANCE_SHARE = 0.1  # a loss within a tenth of chance of it "stays near chance"
DROPPED_SHARE = 0.5  # a loss that ends below half of chance has "dropped" (the repeat: chance 3.18, a drop ~0.2)
READ_AHEAD_MARGIN = 0.1  # nats below the true entropy a one-pass loss must end to show the model read ahead
GAP_SAME = 0.01  # gaps within this of each other are "about the same"
GAP_CLOSED = 0.1  # a gap this small or smaller is "closed"


def course(losses, chance: float) -> str:
    """How a loss curve ended against chance: "dropped" (below DROPPED_SHARE of chance), "near chance" (within
    NEAR_CHANCE_SHARE of it) or "partly" (in between, or above chance by more than that)."""
    final = float(np.asarray(losses, dtype=float)[-1])
    if final < DROPPED_SHARE * chance:
        return "dropped"
    if abs(final - chance) <= NEAR_CHANCE_SHARE * chance:
        return "near chance"
    return "partly"


def steepest_fall(steps, losses) -> int | None:
    """The step that ends the largest fall between two logged points (None on a curve that never falls)."""
    values = np.asarray(losses, dtype=float)  # (n,)
    if values.size < 2:
        return None
    falls = values[:-1] - values[1:]  # (n-1,)
    best = int(np.argmax(falls))
    return int(steps[best + 1]) if falls[best] > 0 else None


def read_ahead(train_loss: float, generating_loss: float, entropy: float) -> bool:
    """Did a model read the word it predicts? Its one-pass loss ends clearly below the true entropy (no model that
    only sees the past can, on average) while its generating loss, the past alone, stays clearly above that."""
    return train_loss < entropy - READ_AHEAD_MARGIN and generating_loss > train_loss + READ_AHEAD_MARGIN


def by_heart(train_loss: float, entropy: float) -> bool:
    """A training loss below the true entropy: the model knows its training sentences, not just the grammar."""
    return train_loss < entropy


def gap_change(before: float, after: float) -> str:
    """How a gap moved from `before` to `after`: "narrows", "widens" or "same" (within GAP_SAME)."""
    if abs(after - before) <= GAP_SAME:
        return "same"
    return "narrows" if after < before else "widens"


def gap_closed(gap: float) -> bool:
    return gap <= GAP_CLOSED
