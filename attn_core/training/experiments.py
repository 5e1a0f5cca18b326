"""The three experiments. Each is a generator of Progress, for a page that draws growing curves:

    for progress in mask_experiment_steps(MaskExperiment(), seed=0):
        bar.progress(progress.fraction)  # and draw progress.curves
    result = progress.result  # set on the last Progress only; leaving the loop early stops the training

`run(steps)` drives one to its end and returns the result. Results are frozen dataclasses of tuples, numbers and
strings (JSON through attn_core.training.results), rounded to the digits a page shows, so a rerun on the same
machine gives an equal result.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from attn_core.training import measures
from attn_core.training.data import (
    Dataset,
    grammar_loss,
    repeat_sequences,
    sample_sentences,
    toy_language,
)
from attn_core.training.loop import TrainConfig, inference_loss, train_steps
from attn_core.training.model import ModelConfig, attention_maps

TRAIN_DATA_STREAM, HELD_OUT_STREAM, SAMPLE_STREAM = 21, 22, 23  # generator keys for data and generation
LOSS_DIGITS, SCORE_DIGITS, MAP_DIGITS = 4, 3, 3
EVALUATION_ROWS = 256  # training rows the train curve is measured on: enough for a smooth curve, cheap


# What a Progress's `stage` says: English keys (the run board groups curves by them, and they cross the training
# process as JSON); the page words each one in the reader's language (attn_ui/words/training_words.stage_text).
STAGE_UNMASKED, STAGE_MASKED = "training without the causal mask", "training with the causal mask"
STAGE_HEADS, STAGE_DONE = "training two layers on the repeats", "done"


def dropout_stage(p: float) -> str:
    """The stage key of the dropout model with rate p."""
    return f"training with dropout p = {p:g}"


def rounded(value: float, digits: int = LOSS_DIGITS) -> float:
    return round(float(value), digits)


@dataclass(frozen=True)
class Curve:
    name: str  # "train", "held_out", "generating", "repeat"
    steps: tuple[int, ...]
    losses: tuple[float, ...]  # nats per counted token


@dataclass(frozen=True)
class Progress:
    fraction: float  # 0 to 1 over the whole experiment
    stage: str  # which model is training: a STAGE_* key or dropout_stage(p), worded by the page
    curves: tuple[Curve, ...]  # the curves of the model training now, so far
    result: object = None  # the experiment's result, on the last Progress only


def run(steps: Iterator[Progress]):
    """Drive an experiment to its end; return its result."""
    last = None
    for last in steps:  # noqa: B007 (only the last Progress carries the result)
        pass
    return last.result


def train_with_progress(model_config, train_config, seed, train_data, evaluations, stage, done, share):
    """Train one model, yielding Progress over [done, done + share]; return (params, curves) at the end."""
    steps: list[int] = []
    losses: dict[str, list[float]] = {name: [] for name in evaluations}
    params, curves = None, ()
    for snapshot in train_steps(model_config, train_config, seed, train_data, evaluations):
        steps.append(snapshot.step)
        for name, value in snapshot.losses.items():
            losses[name].append(rounded(value))
        curves = tuple(Curve(name, tuple(steps), tuple(values)) for name, values in losses.items())
        params = snapshot.params
        yield Progress(done + share * snapshot.fraction, stage, curves)
    return params, curves


def final(curves: tuple[Curve, ...], name: str) -> float:
    return next(curve.losses[-1] for curve in curves if curve.name == name)


def known_levels(config) -> dict[str, float]:
    """The reference levels an experiment's result will report that its data alone fixes, so a page can draw
    them before any training: the toy language's true entropy (mask, dropout) and chance, ln V (mask, heads).
    The experiments fill their results' `entropy` and `chance_loss` from here, so the two are the same numbers."""
    if isinstance(config, HeadsExperiment):
        return {"chance": rounded(math.log(config.vocab_size))}
    language = toy_language()
    levels = {"entropy": rounded(language.entropy_per_token)}
    if isinstance(config, MaskExperiment):
        levels["chance"] = rounded(math.log(len(language.vocabulary)))
    return levels


# --- 1. mask off vs on ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaskExperiment:
    train_sentences: int = 2048  # drawn from the grammar (repeats allowed: a language repeats itself)
    held_out_sentences: int = 256  # drawn separately, for the held-out and generating losses
    d_model: int = 32
    heads: int = 2
    layers: int = 1
    train: TrainConfig = TrainConfig(steps=1200, batch_size=32, learning_rate=3e-3, log_every=50)
    prompt: tuple[str, ...] = ("your", "journey")  # the lesson's first two words
    samples: int = 64  # generated continuations per model, for the grammar shares
    shown: int = 4  # of which the page shows this many


@dataclass(frozen=True)
class MaskRun:
    causal: bool
    curves: tuple[Curve, ...]  # train, held_out (one pass, the mask as trained), generating (prefix by prefix)
    train_loss: float
    held_out_loss: float
    generating_loss: float
    grammatical_transitions: float  # share of generated word-to-word steps the grammar allows
    grammatical_sentences: float  # share of generated continuations that make a sentence of the language
    samples: tuple[str, ...]  # a few generated continuations of the prompt


@dataclass(frozen=True)
class MaskResult:
    config: MaskExperiment
    seed: int
    entropy: float  # true next-word entropy of the language, nats per token
    entropy_by_position: tuple[float, ...]  # true entropy of the t-th next word
    grammar_held_out_loss: float  # the grammar's own loss on the held-out sentences
    chance_loss: float  # ln V: a model that knows nothing
    runs: tuple[MaskRun, MaskRun]  # mask off, mask on

    @property
    def unmasked(self) -> MaskRun:
        return self.runs[0]

    @property
    def masked(self) -> MaskRun:
        return self.runs[1]


def mask_experiment_steps(config: MaskExperiment, seed: int) -> Iterator[Progress]:
    language = toy_language()
    train_data = sample_sentences(language, config.train_sentences, np.random.default_rng([seed, TRAIN_DATA_STREAM]))
    held_out = sample_sentences(language, config.held_out_sentences, np.random.default_rng([seed, HELD_OUT_STREAM]))
    train_view = train_data.rows(np.arange(min(EVALUATION_ROWS, len(train_data))))
    runs = []
    for index, causal in enumerate((False, True)):
        model_config = ModelConfig(len(language.vocabulary), language.length, config.d_model, config.heads,
                                   config.layers, causal, pad_id=0)
        evaluations = {
            "train": lambda params, c=model_config: inference_loss(params, train_view, c),
            "held_out": lambda params, c=model_config: inference_loss(params, held_out, c),
            "generating": lambda params, c=model_config: measures.generating_loss(params, held_out, c),
        }
        stage = STAGE_MASKED if causal else STAGE_UNMASKED
        params, curves = yield from train_with_progress(model_config, config.train, seed, train_data, evaluations,
                                                        stage, index / 2, 1 / 2)
        rng = np.random.default_rng([seed, SAMPLE_STREAM])  # the same draws for both models: a fair comparison
        texts = measures.generate(params, model_config, language, config.prompt, config.samples, rng)
        transitions, sentences = measures.grammatical_shares(language, config.prompt, texts)
        runs.append(MaskRun(
            causal=causal,
            curves=curves,
            train_loss=final(curves, "train"),
            held_out_loss=final(curves, "held_out"),
            generating_loss=final(curves, "generating"),
            grammatical_transitions=rounded(transitions, SCORE_DIGITS),
            grammatical_sentences=rounded(sentences, SCORE_DIGITS),
            samples=tuple(" ".join(text) for text in texts[: config.shown]),
        ))
    levels = known_levels(config)
    result = MaskResult(
        config=config,
        seed=seed,
        entropy=levels["entropy"],
        entropy_by_position=tuple(rounded(h) for h in language.entropy_by_position),
        grammar_held_out_loss=rounded(grammar_loss(language, held_out)),
        chance_loss=levels["chance"],
        runs=tuple(runs),
    )
    yield Progress(1.0, STAGE_DONE, runs[-1].curves, result)


# --- 2. heads specialise ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadsExperiment:
    vocab_size: int = 24
    length: int = 24  # tokens a sequence
    stretch: tuple[int, int] = (4, 9)  # shortest and longest repeated stretch
    train_rows: int = 65_536  # more rows than the run reads, so it cannot memorise and must find the rule
    held_out_rows: int = 256
    d_model: int = 32
    heads: int = 2
    layers: int = 2
    train: TrainConfig = TrainConfig(steps=2000, batch_size=32, learning_rate=1e-2, log_every=50)


@dataclass(frozen=True)
class HeadScore:
    layer: int  # 1-based, as the page names it
    head: int  # 1-based
    previous_token: float  # mean weight on key i-1 from query i
    induction: float  # on the repeat: mean weight on the key right after the earlier copy of the query's token
    duplicate_token: float  # on the repeat: mean weight on the earlier copy of the query's token itself
    silenced_loss: float  # held-out loss with this head's output set to zero
    silenced_repeat_loss: float  # loss on the repeated stretch with this head silenced


@dataclass(frozen=True)
class HeadsResult:
    config: HeadsExperiment
    seed: int
    chance_loss: float  # ln V
    curves: tuple[Curve, ...]  # held_out (every target), repeat (targets induction can predict)
    held_out_loss: float
    repeat_loss: float
    heads: tuple[HeadScore, ...]  # layer by layer, head by head
    example: tuple[int, ...]  # the token ids of the held-out sequence the maps show
    example_first_copy: int  # 0-based start of its stretch
    example_stretch_length: int
    maps: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...]  # (L, h, T, T) inference-mode weights

    def weight_map(self, layer: int, head: int) -> np.ndarray:
        """The learned attention weights of one head (1-based layer and head) on the example, read-only."""
        array = np.array(self.maps[layer - 1][head - 1])  # (T, T)
        array.setflags(write=False)
        return array


def heads_experiment_steps(config: HeadsExperiment, seed: int) -> Iterator[Progress]:
    draw = (config.length, config.vocab_size, config.stretch)
    train_data = repeat_sequences(config.train_rows, *draw, np.random.default_rng([seed, TRAIN_DATA_STREAM])).data
    held_out = repeat_sequences(config.held_out_rows, *draw, np.random.default_rng([seed, HELD_OUT_STREAM]))
    on_repeat = held_out.predictable()  # (N, T)
    model_config = ModelConfig(config.vocab_size, config.length, config.d_model, config.heads, config.layers)
    evaluations = {
        "held_out": lambda params: inference_loss(params, held_out.data, model_config),
        "repeat": lambda params: measures.loss_on(params, held_out.data, on_repeat, model_config),
    }
    params, curves = yield from train_with_progress(model_config, config.train, seed, train_data, evaluations,
                                                    STAGE_HEADS, 0.0, 1.0)
    scores = measures.head_scores(params, held_out, model_config)
    heads = []
    for layer in range(config.layers):
        for head in range(config.heads):
            silenced = ((layer, head),)
            heads.append(HeadScore(
                layer=layer + 1,
                head=head + 1,
                previous_token=rounded(scores["previous_token"][layer, head], SCORE_DIGITS),
                induction=rounded(scores["induction"][layer, head], SCORE_DIGITS),
                duplicate_token=rounded(scores["duplicate_token"][layer, head], SCORE_DIGITS),
                silenced_loss=rounded(measures.loss_on(params, held_out.data, held_out.data.counted, model_config,
                                                       silenced)),
                silenced_repeat_loss=rounded(measures.loss_on(params, held_out.data, on_repeat, model_config,
                                                              silenced)),
            ))
    maps = attention_maps(params, held_out.data.inputs[:1], model_config)[:, 0]  # (L, h, T, T)
    result = HeadsResult(
        config=config,
        seed=seed,
        chance_loss=known_levels(config)["chance"],
        curves=curves,
        held_out_loss=final(curves, "held_out"),
        repeat_loss=final(curves, "repeat"),
        heads=tuple(heads),
        example=tuple(int(token) for token in held_out.data.inputs[0]),
        example_first_copy=int(held_out.first_copy[0]),
        example_stretch_length=int(held_out.stretch_length[0]),
        maps=tuple(tuple(tuple(tuple(rounded(w, MAP_DIGITS) for w in row) for row in head) for head in layer)
                   for layer in maps),
    )
    yield Progress(1.0, STAGE_DONE, curves, result)


# --- 3. dropout against memorising ------------------------------------------------------------------------


@dataclass(frozen=True)
class DropoutExperiment:
    train_sentences: int = 24  # few enough to memorise
    held_out_sentences: int = 512
    rates: tuple[float, ...] = (0.0, 0.1, 0.3)  # dropout p on the attention weights
    d_model: int = 32
    heads: int = 2
    layers: int = 2
    train: TrainConfig = TrainConfig(steps=800, batch_size=16, learning_rate=3e-3, log_every=25)


@dataclass(frozen=True)
class DropoutRun:
    p: float
    curves: tuple[Curve, ...]  # train (the whole training set), held_out; both with dropout off
    train_loss: float
    held_out_loss: float

    @property
    def gap(self) -> float:
        return round(self.held_out_loss - self.train_loss, LOSS_DIGITS)


@dataclass(frozen=True)
class DropoutResult:
    config: DropoutExperiment
    seed: int
    entropy: float  # true next-word entropy: a train loss below it means memorised sentences
    grammar_train_loss: float  # the grammar's own loss on these training sentences
    grammar_held_out_loss: float
    distinct_train_sentences: int
    runs: tuple[DropoutRun, ...]  # one per rate, in config.rates order


def dropout_experiment_steps(config: DropoutExperiment, seed: int) -> Iterator[Progress]:
    language = toy_language()
    train_data = sample_sentences(language, config.train_sentences, np.random.default_rng([seed, TRAIN_DATA_STREAM]))
    held_out = sample_sentences(language, config.held_out_sentences, np.random.default_rng([seed, HELD_OUT_STREAM]))
    runs = []
    for index, p in enumerate(config.rates):
        model_config = ModelConfig(len(language.vocabulary), language.length, config.d_model, config.heads,
                                   config.layers, dropout=p, pad_id=0)
        evaluations = {
            "train": lambda params, c=model_config: inference_loss(params, train_data, c),
            "held_out": lambda params, c=model_config: inference_loss(params, held_out, c),
        }
        share = 1 / len(config.rates)
        __, curves = yield from train_with_progress(model_config, config.train, seed, train_data, evaluations,
                                                   dropout_stage(p), index * share, share)
        runs.append(DropoutRun(p, curves, final(curves, "train"), final(curves, "held_out")))
    result = DropoutResult(
        config=config,
        seed=seed,
        entropy=known_levels(config)["entropy"],
        grammar_train_loss=rounded(grammar_loss(language, train_data)),
        grammar_held_out_loss=rounded(grammar_loss(language, held_out)),
        distinct_train_sentences=distinct_rows(train_data),
        runs=tuple(runs),
    )
    yield Progress(1.0, STAGE_DONE, runs[-1].curves, result)


def distinct_rows(data: Dataset) -> int:
    return len({tuple(row) for row in data.inputs.tolist()})
