"""The training loop as a generator: batch, forward, loss, backward, Adam, and every few steps a snapshot.

A page iterates `for snapshot in train_steps(...)`, draws the curves so far and may stop by leaving the loop.
Every random draw (initial weights, batches, dropout) comes from a Generator seeded by (seed, stream), so a run
is a function of its config and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from attn_core.training import layers
from attn_core.training.data import Dataset
from attn_core.training.model import ModelConfig, draw_keeps, forward, init_parameters, loss_and_gradients

INIT_STREAM, BATCH_STREAM, DROPOUT_STREAM = 11, 12, 13  # generator keys: one independent stream per use


@dataclass(frozen=True)
class TrainConfig:
    steps: int = 600  # Adam updates
    batch_size: int = 32  # sequences per update
    learning_rate: float = 3e-3  # Adam's step size
    log_every: int = 25  # steps between snapshots (and points on the curves)


@dataclass
class AdamState:
    """Adam's running means of the gradient and of its square, one array a parameter."""

    first: dict[str, np.ndarray]
    second: dict[str, np.ndarray]
    step: int = 0
    first_decay: float = 1.0  # BETA1 ** step, kept by multiplying: `**` calls the C library's pow, whose last
    second_decay: float = 1.0  # bit differs between CPUs (attn_core.portable says why that matters)


BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8


def adam_start(params: dict[str, np.ndarray]) -> AdamState:
    return AdamState({k: np.zeros_like(v) for k, v in params.items()}, {k: np.zeros_like(v) for k, v in params.items()})


def adam_update(params: dict[str, np.ndarray], grads: dict[str, np.ndarray], state: AdamState, rate: float) -> None:
    """One Adam step, in place: each parameter moves by its bias-corrected mean gradient over its typical size."""
    state.step += 1
    state.first_decay *= BETA1
    state.second_decay *= BETA2
    correction1, correction2 = 1 - state.first_decay, 1 - state.second_decay
    for name, gradient in grads.items():
        state.first[name] = BETA1 * state.first[name] + (1 - BETA1) * gradient
        state.second[name] = BETA2 * state.second[name] + (1 - BETA2) * gradient * gradient
        step = rate * (state.first[name] / correction1) / (np.sqrt(state.second[name] / correction2) + EPSILON)
        params[name] -= step


def inference_loss(params, data: Dataset, config: ModelConfig) -> float:
    """Mean loss over the counted targets, every position read in one pass, dropout off."""
    logits, __ = forward(params, data.inputs, config)  # (N, T, V)
    return layers.softmax_loss(logits, data.targets, data.counted)[0]


@dataclass(frozen=True)
class Snapshot:
    """The state of a run after `step` updates; `params` are the live weights (read them, do not keep them)."""

    step: int
    steps: int
    batch_loss: float | None  # mean loss of the batches since the last snapshot (dropout on if p > 0); None at 0
    losses: Mapping[str, float]  # each evaluation's loss now, in inference mode
    params: Mapping[str, np.ndarray] = field(repr=False)

    @property
    def fraction(self) -> float:
        return self.step / self.steps


Evaluation = Callable[[dict], float]


def train_steps(
    model_config: ModelConfig,
    train_config: TrainConfig,
    seed: int,
    train_data: Dataset,
    evaluations: Mapping[str, Evaluation] = MappingProxyType({}),
) -> Iterator[Snapshot]:
    """Train from fresh weights; yield a Snapshot at step 0 and after every `log_every` steps."""
    params = init_parameters(model_config, np.random.default_rng([seed, INIT_STREAM]))
    batch_rng = np.random.default_rng([seed, BATCH_STREAM])
    dropout_rng = np.random.default_rng([seed, DROPOUT_STREAM])
    adam = adam_start(params)
    yield _snapshot(0, train_config.steps, None, params, evaluations)

    batch_losses = []
    for step in range(1, train_config.steps + 1):
        batch = train_data.rows(batch_rng.integers(0, len(train_data), size=train_config.batch_size))
        keeps = None
        if model_config.dropout > 0:
            keeps = draw_keeps(model_config, *batch.inputs.shape, dropout_rng)  # (B, h, T, T) a layer
        loss, grads = loss_and_gradients(params, batch.inputs, batch.targets, batch.counted, model_config, keeps)
        adam_update(params, grads, adam, train_config.learning_rate)
        batch_losses.append(loss)
        if step % train_config.log_every == 0 or step == train_config.steps:
            yield _snapshot(step, train_config.steps, float(np.mean(batch_losses)), params, evaluations)
            batch_losses = []


def _snapshot(step: int, steps: int, batch_loss: float | None, params, evaluations: Mapping[str, Evaluation]):
    losses = MappingProxyType({name: float(evaluate(params)) for name, evaluate in evaluations.items()})
    return Snapshot(step, steps, batch_loss, losses, MappingProxyType(params))
