"""Train a tiny attention model in NumPy: the model, its hand-written gradients, the data, the experiments.

A page needs only this:

    preset = PRESETS["mask"]                     # or "heads", "dropout"
    result = preset.shipped()                    # precomputed: shows at once
    for progress in preset.progress():           # or mask_experiment_steps(MaskExperiment(...), seed)
        ...                                      # progress.fraction, progress.stage, progress.curves
    result = progress.result                     # on the last Progress only

Results are frozen dataclasses of tuples and numbers; to_json / from_json turn them into compact JSON.
"""

from attn_core.training.experiments import (
    Curve,
    DropoutExperiment,
    DropoutResult,
    DropoutRun,
    HeadScore,
    HeadsExperiment,
    HeadsResult,
    MaskExperiment,
    MaskResult,
    MaskRun,
    Progress,
    dropout_experiment_steps,
    heads_experiment_steps,
    mask_experiment_steps,
    run,
)
from attn_core.training.loop import Snapshot, TrainConfig, train_steps
from attn_core.training.model import ModelConfig
from attn_core.training.presets import PRESETS, Preset
from attn_core.training.results import from_json, to_json

__all__ = [
    "PRESETS",
    "Curve",
    "DropoutExperiment",
    "DropoutResult",
    "DropoutRun",
    "HeadScore",
    "HeadsExperiment",
    "HeadsResult",
    "MaskExperiment",
    "MaskResult",
    "MaskRun",
    "ModelConfig",
    "Preset",
    "Progress",
    "Snapshot",
    "TrainConfig",
    "dropout_experiment_steps",
    "from_json",
    "heads_experiment_steps",
    "mask_experiment_steps",
    "run",
    "to_json",
    "train_steps",
]
