"""What the "Train it yourself" page lets a student choose, as one frozen value: the experiment, its switches and
the seed. It plays the part Settings plays for the Lab: widgets or the URL -> TrainChoice -> an experiment config.

The bounds keep every run within 10 s on one core of the development machine (bench/train.py): the dearest
choice of each experiment, measured, is in docs/training.md. A URL value outside them is replaced, with a note (in
the language of the run: the notes are made for the page that shows them, never cached).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from attn_core.training import experiments
from attn_core.training.presets import PRESETS
from attn_lang import _

EXPERIMENTS = tuple(PRESETS)  # "mask", "heads", "dropout", in the page's order
HEAD_OPTIONS = (1, 2, 4)  # divisors of the model width 32 that stay fast
LAYER_OPTIONS = (1, 2)  # offered by the heads experiment: one layer cannot learn the repeat
RATE_OPTIONS = (0.0, 0.1, 0.2, 0.3, 0.5)  # dropout p on the attention weights
MAX_RATES = 3  # dropout models trained in one run
SEED_LIMIT = 999
# (fewest, most, step) Adam updates a model, per experiment
STEP_BOUNDS = MappingProxyType({"mask": (100, 2400, 100), "heads": (100, 2000, 100), "dropout": (100, 1500, 100)})
FOUR_HEADS_MOST = 1600  # the heads experiment with 4 heads: 2000 steps measured 9.3 s of CPU, too close to 10


def step_bounds(experiment: str, heads: int) -> tuple[int, int, int]:
    """(fewest, most, step) training steps for this experiment and head count."""
    fewest, most, step = STEP_BOUNDS[experiment]
    if experiment == "heads" and heads == 4:
        most = FOUR_HEADS_MOST
    return fewest, most, step


@dataclass(frozen=True)
class TrainChoice:
    """One run the page can start. Fields an experiment does not offer keep that experiment's own value, so two
    equal runs are always equal choices (the cache key is the repr)."""

    experiment: str = "mask"
    heads: int = 2
    layers: int = 1
    rates: tuple[float, ...] = ()
    steps: int = 1200
    seed: int = 0

    @property
    def preset(self):
        return PRESETS[self.experiment]

    @property
    def config(self):
        """The experiment's config with this choice's switches."""
        base = self.preset.config
        changes = {"heads": self.heads, "train": dataclasses.replace(base.train, steps=self.steps)}
        if self.experiment == "heads":
            changes["layers"] = self.layers
        if self.experiment == "dropout":
            changes["rates"] = self.rates
        return dataclasses.replace(base, **changes)

    @property
    def is_preset(self) -> bool:
        """The preset exactly: its shipped result is this choice's result."""
        return self.seed == self.preset.seed and self.config == self.preset.config

    @property
    def models(self) -> int:
        """How many models the run trains one after another."""
        return {"mask": 2, "heads": 1, "dropout": len(self.rates)}[self.experiment]

    def progress(self) -> Iterator[experiments.Progress]:
        return self.preset.steps(self.config, self.seed)

    def to_query(self) -> dict[str, str]:
        """The URL keys that differ from the experiment's preset (the experiment itself always)."""
        default = preset_choice(self.experiment)
        query = {"exp": self.experiment}
        for key, field in QUERY_FIELDS.items():
            value = getattr(self, field)
            if value != getattr(default, field):
                query[key] = ",".join(f"{r:g}" for r in value) if field == "rates" else str(value)
        return query


QUERY_FIELDS = MappingProxyType({"heads": "heads", "layers": "layers", "p": "rates", "steps": "steps", "seed": "seed"})


def preset_choice(experiment: str) -> TrainChoice:
    """The choice that is the experiment's preset."""
    preset = PRESETS[experiment]
    config = preset.config
    return TrainChoice(experiment, config.heads, config.layers, tuple(getattr(config, "rates", ())),
                       config.train.steps, preset.seed)


def _integer(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None


def _shown(text: str) -> str:
    """A bad URL value as a note shows it: short, inside one code span it cannot close."""
    return "`" + text[:20].replace("`", "'") + "`"


def coerce(experiment: str, heads=None, layers=None, rates=None, steps=None, seed=None) -> tuple[TrainChoice, list]:
    """A valid choice from values that may be out of bounds (widgets, a hand-written link); notes say what moved."""
    notes: list[str] = []
    if experiment not in EXPERIMENTS:
        notes.append(_("There is no experiment {value}; showing the first one.", value=_shown(str(experiment))))
        experiment = EXPERIMENTS[0]
    default = preset_choice(experiment)
    values = {}
    if heads is not None and heads not in HEAD_OPTIONS:
        notes.append(_("Heads can be {options}; using {value}.", options=", ".join(map(str, HEAD_OPTIONS)),
                       value=default.heads))
        heads = None
    values["heads"] = default.heads if heads is None else heads
    offered_layers = experiment == "heads"
    if layers is not None and offered_layers and layers not in LAYER_OPTIONS:
        notes.append(_("Layers can be {options} or {last}; using {value}.",
                       options=", ".join(map(str, LAYER_OPTIONS[:-1])), last=LAYER_OPTIONS[-1], value=default.layers))
        layers = None
    values["layers"] = layers if offered_layers and layers is not None else default.layers
    if experiment == "dropout" and rates is not None:
        kept = tuple(sorted({r for r in rates if r in RATE_OPTIONS}))[:MAX_RATES]
        if not kept or len(kept) != len(set(rates)):
            shown = ", ".join(f"{r:g}" for r in RATE_OPTIONS)  # as a link writes them (p=0.1,0.3)
            if kept:
                notes.append(_("Dropout p can be 1 to {most} of {options}; keeping the ones that fit.",
                               most=MAX_RATES, options=shown))
            else:
                notes.append(_("Dropout p can be 1 to {most} of {options}; using the preset's.", most=MAX_RATES,
                               options=shown))
        values["rates"] = kept or default.rates
    else:
        values["rates"] = default.rates
    fewest, most, step = step_bounds(experiment, values["heads"])
    if steps is not None and not (fewest <= steps <= most and steps % step == 0):
        fixed = min(max(fewest, round(steps / step) * step), most)
        notes.append(_("Steps run from {fewest} to {most} in steps of {step}; using {fixed}.", fewest=fewest,
                       most=most, step=step, fixed=fixed))
        steps = fixed
    values["steps"] = default.steps if steps is None else steps
    if seed is not None and not 0 <= seed <= SEED_LIMIT:
        notes.append(_("The seed runs from 0 to {most}; using {value}.", most=SEED_LIMIT, value=default.seed))
        seed = None
    values["seed"] = default.seed if seed is None else seed
    return TrainChoice(experiment, **values), notes


def from_query(params: Mapping[str, list[str]]) -> tuple[TrainChoice, list[str]]:
    """Read the page's URL keys (each a list of values, the last one counts); never raises."""
    def last(key: str) -> str | None:
        values = params.get(key) or []
        return values[-1] if values else None

    notes: list[str] = []
    experiment = (last("exp") or EXPERIMENTS[0]).strip().lower()
    numbers = {}
    for key in ("heads", "layers", "steps", "seed"):
        text = last(key)
        if text is None:
            continue
        number = _integer(text)
        if number is None:
            notes.append(_("{key} = {value} is not a whole number; using the preset's.", key=key, value=_shown(text)))
        numbers[key] = number
    rates = None
    text = last("p")
    if text is not None:
        try:
            rates = tuple(round(float(part), 2) for part in text.split(",") if part.strip())
        except ValueError:
            notes.append(_("p = {value} is not a list of numbers; using the preset's.", value=_shown(text)))
            rates = None
    choice, fixes = coerce(experiment, rates=rates, **numbers)
    return choice, notes + fixes
