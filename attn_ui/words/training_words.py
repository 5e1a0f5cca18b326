"""The "Train it yourself" page's fixed words, and its words before, during and around a run: the status lines,
the charts' levels and the curves put in words. What each experiment's finished run shows (its verdict, its tables
and its "Your turn") is in training_results. Pure text: no Streamlit, no Plotly.

The constants hold no numbers: each number a student reads is formatted here from a run's result at run time,
and each comparison ("below", "narrows") is decided from that result, so a custom run that turns out differently
is described as it turned out.

The constants are English messages marked with N_ (translated where they are drawn: `_(words.INTRO)`, or through
the helpers below such as curve_label and model_name); the functions return text in the language of the run, each
sentence one whole message with named placeholders, its numbers written as the language writes them.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from types import MappingProxyType

from attn_core.training.experiments import (
    STAGE_MASKED,
    STAGE_UNMASKED,
    Curve,
    DropoutResult,
    HeadsResult,
    MaskResult,
    MaskRun,
    dropout_stage,
)
from attn_lang import N_, _, _n, number
from attn_ui.words.escape import md_escape

TITLE = N_("Train it yourself")
QUESTION = N_("What do the mask, dropout and heads do to a model that learns?")
INTRO = N_(
    "The other pages show the machinery. Here a tiny model learns, in front of you, with the switches the Lab "
    "has. It is written in NumPy with its gradients worked out by hand, and its attention calls the Lab's own "
    "mask, softmax and dropout functions. Pick an experiment and predict what it shows in the question above "
    "**Train**: once you have answered, its precomputed run opens and **Train** runs it live with your settings, "
    "so you can watch the curves grow."
)
EXPERIMENT_LABEL = N_("Experiment")
EXPERIMENT_NAMES = MappingProxyType({"mask": N_("Mask off vs on"), "heads": N_("Heads specialise"),
                                     "dropout": N_("Dropout against memorising")})
EXPERIMENT_HOW = MappingProxyType({
    "mask": N_(
        "Two models learn one toy language, a small grammar around the lesson's words: one without the "
        "causal mask, one with it. The **training loss** reads each sentence in one pass, the way the model "
        "trains. The **generating loss** gives the model only the words written so far, the way it is used: the "
        "future does not exist yet. The two grey dotted lines are levels, each named at its right end: "
        "**chance**, the loss of a model that knows nothing and spreads its guess evenly over the vocabulary, and "
        "the language's **true entropy**, the lowest loss a model can reach on average. The coloured lines are "
        "the models' losses, one colour a model, both on one scale; the generating loss is the dotted one. Watch "
        "where each training loss ends next to the two levels, and whether each generating loss ends with it."
    ),
    "heads": N_(
        "A model learns sequences of random tokens in which a stretch repeats. Where the stretch starts and how "
        "long it is change from row to row, so nothing but the sequence itself can tell the model what comes next "
        "in the second copy. Watch the **loss on the repeat**: does it stay near chance, and if it drops, when? A "
        "drop is the sign that the heads learned to use the earlier copy; the question below asks how."
    ),
    "dropout": N_(
        "Models with dropout on their attention weights learn a tiny training set, small enough that a model may "
        "learn it by heart. Watch the **training loss** against the true entropy: below it means sentences learned "
        "by heart, not the grammar. Watch the **held-out loss** on new sentences: how far it ends above the "
        "training loss is the gap, and the question is whether dropout shrinks it."
    ),
})
SETTINGS_LABELS = MappingProxyType({"heads": N_("Heads"), "layers": N_("Layers"), "rates": N_("Dropout p to compare"),
                                    "steps": N_("Training steps a model"), "seed": N_("Seed")})
SETTINGS_HELP = MappingProxyType({
    "heads": N_("Attention heads in each layer; the model width is split between them."),
    "layers": N_("Attention layers stacked on top of each other."),
    "rates": N_("Each p trains its own model, dropout on the attention weights while it trains."),
    "steps": N_("Adam updates for each model; the bounds keep a run short."),
    "seed": N_("Fixes the data, the starting weights and the dropout draws, so a run can be repeated bit for bit, "
               "on this server or any other with an Intel or AMD processor."),
})
SHOW_MASKED = N_("Tiles and samples of the model with the causal mask")
SHOW_MASKED_HELP = N_("Both models train in this experiment and both are on the chart; the switch picks which one "
                      "the tiles and the written samples show.")
# Translators: the buttons that start and stop a training run (the page's sentences name the first: **Train**)
TRAIN_BUTTON, STOP_BUTTON = N_("Train"), N_("Stop")
PRESET_SHOWN = N_("The precomputed run of this preset is below. **Train** runs it again live.")
PREDICT_TO_TRAIN = N_("Each run of this experiment, live or precomputed, answers the question "
                      "above, so **Train** and the run wait until you have picked your answer.")
RESULT_FOLD = N_("What this run shows")
VERDICT_QUESTIONS = MappingProxyType({"mask": "train-mask-off-zero", "heads": "train-heads-layer-two",
                                      "dropout": "train-dropout-gap"})  # the question each preset asks first
PRESET_WHILE_WAITING = N_("Meanwhile: the precomputed run of this preset. The live run replaces it when its turn "
                          "comes.")
NOT_RUN_YET = N_("This setting has not been trained on this server yet: press **Train**.")
ESTIMATING = N_("Timing a few steps on this server, to say how long a run takes…")
STOPPED = N_("Stopped. Nothing of this run is kept; press **Train** to start again.")
CURVE_LABELS = MappingProxyType({"train": N_("training loss"), "held_out": N_("held-out loss"),
                                 "generating": N_("generating loss"), "repeat": N_("loss on the repeat")})
STEP_AXIS = N_("training step")
LOSS_AXIS = N_("loss (nats per token)")
ENTROPY_LEVEL = N_("true entropy")
# Translators: the label of a level line on the loss chart: the loss of a model that guesses evenly (ln V)
CHANCE_LEVEL = N_("chance")
CURVES_IN_WORDS = N_("The curves in words")
SAMPLES_HEADING = N_("What it writes")
HEADS_TABLE_HEADING = N_("Per head: what it looks at, and what silencing it changes")
HEADS_TABLE_HOW = N_(
    "**L** is the layer, **H** the head. **Previous-token**: weight on the token just before. **Duplicate-token**: "
    "weight on the earlier copy of "
    "the current token. **Induction**: weight on the token right after that earlier copy. **Without it**: the "
    "loss on the repeat with this head's output set to zero, and in brackets its change from the full model's "
    "loss (in the column's name): a plus means the loss rises without the head, a minus that it falls."
)
# Translators: the label of a choice of heads ("layer 1, head 2", ...) whose learned map is drawn
MAP_PICK = N_("Map of")
MAP_HOW = N_(
    "The learned weights of one head on one held-out sequence, inference mode, drawn by the Lab's own map. "
    "Tokens are letters. Colour is the weight, from dark purple (none) to yellow (all of the row); grey cells are "
    "the future the causal mask blocks. Pick a row under **Row to read** (or click it on the map) to read it."
)
# Translators: the chooser of the learned map's query row whose weights are put in words
ROW_PICK = N_("Row to read")
ROW_PICK_EMPTY = N_("Pick a row, or click one on the map")
MAP_TABLE = N_("The map as a table")
DROPOUT_HEADING = N_("At the end of training")
LEARNING_TABLE = N_("The numbers")
# Translators: the two models of the mask experiment, as the chart's legend and titles name them
MODEL_MASKED, MODEL_UNMASKED = N_("mask on"), N_("mask off")
BOTH_MODELS = N_("mask off and mask on, on one scale")
MASK_LINK_LABEL = N_("Train a model with and without the mask")
SCENE_LINK_LABEL = N_("Open the experiment on Train it yourself")
# what the loss on the repeat does when one head is silenced, as the per-head table says it
WAYS = MappingProxyType({
    # Translators: the loss on the repeat rises when this head is silenced (a cell of the per-head table)
    "rises": N_("rises"),
    # Translators: the loss on the repeat falls when this head is silenced (a cell of the per-head table)
    "falls": N_("falls"),
    # Translators: the loss on the repeat stays the same when this head is silenced (a cell of the per-head table)
    "stays": N_("stays"),
})
NUMBER_WORDS = MappingProxyType({2: N_("two"), 3: N_("three"), 4: N_("four")})  # how many curves show as one


def capitalised(text: str) -> str:
    """A label at the start of a sentence: its first letter upper case, the rest as it is."""
    return text[:1].upper() + text[1:]


def curve_label(name: str) -> str:
    """A curve's label ("training loss") in the run's language; a name without a label stays as it is."""
    return _(CURVE_LABELS[name]) if name in CURVE_LABELS else name


def settings_summary(experiment: str, heads, layers, rates, steps, seed) -> str:
    """The folded settings' label in projector mode: what is chosen, in one line (values as the widgets hold them;
    one the page would not use is left out rather than shown)."""
    parts = [_(EXPERIMENT_NAMES[experiment]) if experiment in EXPERIMENT_NAMES else _("Settings")]
    if isinstance(heads, int):
        parts.append(_n("{count} head", "{count} heads", heads))
    if experiment == "heads" and isinstance(layers, int):
        parts.append(_n("{count} layer", "{count} layers", layers))
    if experiment == "dropout" and rates:
        # Translators: what separates the numbers of a list ("0, 0.1, 0.3"); with a decimal comma, "; " reads better
        parts.append("p = " + _(", ").join(number(p, "g") for p in rates))
    if isinstance(steps, int):
        parts.append(_n("{count:,} step", "{count:,} steps", steps))
    if isinstance(seed, int | float):
        parts.append(_("seed {seed}", seed=int(seed)))
    # Translators: the label of the folded settings: what is chosen ("Mask off vs on · 2 heads · ..."), to change
    return _("{settings} (change)", settings=" · ".join(parts))


def rate_label(p: float) -> str:
    return f"p = {number(p, 'g')}"


def model_name(run: MaskRun) -> str:
    return _(MODEL_MASKED) if run.causal else _(MODEL_UNMASKED)


def example_tokens(result: HeadsResult) -> tuple[str, ...]:
    """The example sequence's token ids as letters (a, b, c, ...), so a repeat is easy to spot."""
    return tuple(chr(ord("a") + token) for token in result.example)


# --- before and during a run ---------------------------------------------------------------------------


def seconds(value: float) -> str:
    return f"{number(value, '.1f')} s" if value < 10 else f"{number(value, '.0f')} s"


def estimate_text(estimate: float, models: int) -> str:
    return _n("Training takes about **{time}** on this server (one model), measured from its own steps.",
              "Training takes about **{time}** on this server ({count} models, one after another), measured from "
              "its own steps.", models, time=seconds(estimate))


def waiting_text(ahead: int, wait: float) -> str:
    return _n("Waiting for a free slot: {count} run ahead, about {time}. Other sessions' runs take turns, so the "
              "server stays quick for everyone.",
              "Waiting for a free slot: {count} runs ahead, about {time}. Other sessions' runs take turns, so the "
              "server stays quick for everyone.", ahead, time=seconds(wait))


def stage_text(choice, stage: str) -> str:
    """Which model is training, in words (the heads experiment's own words name its layers). `stage` is the core's
    key for it (attn_core.training.experiments: STAGE_*, dropout_stage)."""
    if choice.experiment == "heads":
        return _n("training {count} layer on the repeats", "training {count} layers on the repeats", choice.layers)
    if stage == STAGE_MASKED:
        return _("training with the causal mask")
    if stage == STAGE_UNMASKED:
        return _("training without the causal mask")
    for p in choice.rates:
        if stage == dropout_stage(p):
            return _("training with dropout p = {p:g}", p=p)
    return stage or _("starting")


def percent_done(fraction: float) -> int:
    """The whole percent a progress bar shows: Streamlit's own rule (it truncates), so the bar, its text and the
    status line all say one number."""
    return min(100, max(0, int(fraction * 100)))


def training_text(stage: str, fraction: float, elapsed: float, left: float) -> str:
    """The live status line: how far, how long so far, and the time still to go at the run's own pace (it changes
    with every redraw, so a busy server's slower steps show up in it). `stage` is stage_text's."""
    values = {"stage": capitalised(stage), "percent": percent_done(fraction), "elapsed": seconds(elapsed),
              "left": seconds(left)}
    if fraction >= 1:
        return _("{stage}: {percent}% after {elapsed}, finishing.", **values)
    if fraction <= 0:
        return _("{stage}: {percent}% after {elapsed}, about {left} to go (first estimate).", **values)
    return _("{stage}: {percent}% after {elapsed}, about {left} to go (at its pace so far).", **values)


def levels_of(experiment: str, known: dict[str, float]) -> tuple[tuple[str, float], ...]:
    """The reference lines an experiment's chart draws, from its levels (a result's, or the core's known_levels
    before a run): the same lines, in the same order, while it trains and when it has finished."""
    wanted = {"mask": ("entropy", "chance"), "heads": ("chance",), "dropout": ("entropy",)}[experiment]
    label = {"entropy": ENTROPY_LEVEL, "chance": CHANCE_LEVEL}
    return tuple((_(label[name]), known[name]) for name in wanted)


def live_chart(choice, stages) -> tuple[list, str | None, int]:
    """(groups, title, groups the finished chart has) of the live chart, encoded as the finished chart is: the mask
    experiment draws only the model training now, named; the heads experiment its one model; dropout one group a p,
    in the order they train, each in its p's colour from the first one on."""
    if choice.experiment == "mask":
        index = len(stages) - 1  # the core trains mask off first, then mask on (MaskResult.runs)
        models = (_(MODEL_UNMASKED), _(MODEL_MASKED))
        groups = [(model, curves) for model, (__, curves) in zip(models, stages, strict=False)]
        return groups, _("{name}: model {index} of {count}", name=models[index], index=index + 1,
                         count=choice.models), 2
    if choice.experiment == "dropout":
        groups = [(rate_label(p), curves) for p, (__, curves) in zip(choice.rates, stages, strict=False)]
        return groups, None, len(choice.rates)
    return [("", stages[-1][1])], None, 1


def result_chart(result) -> tuple[list, tuple[tuple[str, float], ...], str | None]:
    """(groups, levels, title) of a finished run's loss chart: both mask models, the heads model, or every p."""
    if isinstance(result, MaskResult):  # both models on one scale, so the cheating one is in view
        return [(model_name(run), run.curves) for run in result.runs], mask_levels(result), _(BOTH_MODELS)
    if isinstance(result, HeadsResult):
        return [("", result.curves)], heads_levels(result), None
    return [(rate_label(run.p), run.curves) for run in result.runs], dropout_levels(result), None


def done_text(elapsed: float, shared: bool) -> str:
    if elapsed <= 0:
        return _("Trained earlier on this server with these settings: the result is shared, not trained again.")
    if shared:
        return _("Trained live in {time}. Other sessions watched the same run.", time=seconds(elapsed))
    return _("Trained live in {time}.", time=seconds(elapsed))


def failed_text(error: str) -> str:
    return _("The run failed: {error}. Try another setting.", error=md_escape(error))


# --- curves in words -----------------------------------------------------------------------------------------


def curve_name(curve: Curve, model: str = "") -> str:
    """A curve as the chart's legend names it: its label, and its model's in brackets when there are several."""
    label = curve_label(curve.name)
    return f"{label} ({model})" if model else label


def curve_summary(curve: Curve, model: str = "") -> str:
    """One curve in a sentence: where it starts, where it ends, its lowest point."""
    name = capitalised(curve_name(curve, model))
    if not curve.losses:
        return _("{name}: no point yet.", name=name)
    low = min(range(len(curve.losses)), key=curve.losses.__getitem__)
    values = {"name": name, "first": curve.losses[0], "first_step": curve.steps[0], "last": curve.losses[-1],
              "last_step": curve.steps[-1]}
    if low != len(curve.losses) - 1:
        return _("{name}: {first:.4f} at step {first_step}, {last:.4f} at step {last_step}; lowest {lowest:.4f} at "
                 "step {lowest_step}.", lowest=curve.losses[low], lowest_step=curve.steps[low], **values)
    return _("{name}: {first:.4f} at step {first_step}, {last:.4f} at step {last_step}.", **values)


def curves_in_words(groups: Sequence[tuple[str, Sequence[Curve]]], levels: Sequence[tuple[str, float]]) -> str:
    """A Markdown list: every curve of the chart, then its reference lines."""
    lines = [f"- {curve_summary(curve, model)}" for model, curves in groups for curve in curves]
    lines += ["- " + _("{level}: {value:.4f} (a grey dotted line).", level=capitalised(label), value=value)
              for label, value in levels]
    return "\n".join(lines)


def chart_alt(title: str, groups, levels) -> str:
    """The chart's text alternative: its title and each curve's summary."""
    parts = [title + "."] + [curve_summary(curve, model) for model, curves in groups for curve in curves]
    parts += [f"{label}: {number(value, '.4f')}." for label, value in levels]
    return " ".join(parts)


# --- the levels each experiment's chart draws -----------------------------------------------------------


def mask_levels(result: MaskResult) -> tuple[tuple[str, float], ...]:
    return levels_of("mask", {"entropy": result.entropy, "chance": result.chance_loss})


def heads_levels(result: HeadsResult) -> tuple[tuple[str, float], ...]:
    return levels_of("heads", {"chance": result.chance_loss})


def dropout_levels(result: DropoutResult) -> tuple[tuple[str, float], ...]:
    return levels_of("dropout", {"entropy": result.entropy})




# --- curves on top of each other ----------------------------------------------------------------------


def _apart(first: Curve, second: Curve) -> float:
    """The largest gap between two curves over the steps both have."""
    common = dict(zip(second.steps, second.losses, strict=True))
    return max((abs(loss - common[step]) for step, loss in zip(first.steps, first.losses, strict=True)
                if step in common), default=float("inf"))


def _together(curves: Sequence[Curve], tolerance: float) -> list[tuple[tuple[Curve, ...], float]]:
    """Sets of curves that are closer than `tolerance` at every step, pair by pair (so each draws as one line),
    the largest set first, with the largest gap inside it."""
    left, found = list(curves), []
    while len(left) > 1:
        best = None
        for size in range(len(left), 1, -1):
            for subset in itertools.combinations(left, size):
                gap = max(_apart(a, b) for a, b in itertools.combinations(subset, 2))
                if gap < tolerance and (best is None or gap < best[1]):
                    best = (subset, gap)
            if best:
                break
        if best is None:
            break
        found.append(best)
        left = [curve for curve in left if curve not in best[0]]
    return found


def labelled_curves(groups: Sequence[tuple[str, Sequence[Curve]]]) -> list[Curve]:
    """A chart's curves, each named as its legend names it ("training loss (mask off)"), for overlap_text."""
    return [dataclasses.replace(curve, name=curve_name(curve, model)) if model else curve
            for model, curves in groups for curve in curves]


def overlap_text(curves: Sequence[Curve], tolerance: float) -> str:
    """Which curves of a chart lie on top of each other, so a student knows why fewer lines show; "" if none do.
    `tolerance` is the loss a drawn line's width covers on the chart (training_charts.line_loss_width)."""
    sentences = []
    for subset, gap in _together(curves, tolerance):
        names = [curve_label(curve.name) for curve in subset]
        # Translators: a list of curves' names, its last two joined ("training loss, held-out loss and ...")
        listed = _("{others} and {last}", others=", ".join(names[:-1]), last=names[-1])
        count = _(NUMBER_WORDS[len(subset)]) if len(subset) in NUMBER_WORDS else str(len(subset))
        if gap == 0:
            sentences.append(_("The {curves} are equal at every step, so {count} curves show as one.",
                               curves=listed, count=count))
        else:
            sentences.append(_("The {curves} lie on top of each other: at no step are they more than {gap:.4f} "
                               "apart, less than the width of a line on this chart, so {count} curves show as one.",
                               curves=listed, gap=gap, count=count))
    return " ".join(sentences)
