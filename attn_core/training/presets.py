"""The page's one-click runs. Each preset is shipped precomputed in assets/training/ (by
scripts/precompute_training.py), so it shows at once even on a slow server; a test regenerates each one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from attn_core.training import experiments
from attn_core.training.results import from_json
from attn_lang import N_

ASSET_FOLDER = Path(__file__).resolve().parents[2] / "assets" / "training"


@dataclass(frozen=True)
class Preset:
    name: str  # also the asset's file name
    title: str  # what the page calls it: an English message (translate it where it is drawn)
    config: object  # MaskExperiment, HeadsExperiment or DropoutExperiment
    seed: int
    steps: Callable[..., Iterator[experiments.Progress]]  # the experiment's generator of Progress

    def progress(self) -> Iterator[experiments.Progress]:
        """Train it live, Progress by Progress."""
        return self.steps(self.config, self.seed)

    @property
    def asset(self) -> Path:
        return ASSET_FOLDER / f"{self.name}.json"

    def shipped(self):
        """The precomputed result, equal to what progress() ends with on the machine that made it."""
        return from_json(self.asset.read_text())


PRESETS = MappingProxyType({
    preset.name: preset
    for preset in (
        Preset("mask", N_("Mask off vs on"), experiments.MaskExperiment(), 0, experiments.mask_experiment_steps),
        Preset("heads", N_("Heads specialise"), experiments.HeadsExperiment(), 0, experiments.heads_experiment_steps),
        Preset("dropout", N_("Dropout against memorising"), experiments.DropoutExperiment(), 0,
               experiments.dropout_experiment_steps),
    )
})
