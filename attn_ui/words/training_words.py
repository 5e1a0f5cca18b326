"""Every word of the "Train it yourself" page. Pure text: no Streamlit, no Plotly.

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

from attn_core.lessons.heads import GPT2
from attn_core.training import measures
from attn_core.training.experiments import (
    STAGE_MASKED,
    STAGE_UNMASKED,
    Curve,
    DropoutResult,
    DropoutRun,
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
    "mask, softmax and dropout functions. Pick an experiment and predict what it shows: its precomputed run opens "
    "once you have answered. Or press **Train** to run it live with your settings and watch the curves grow."
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
        "long it is change from row to row, so the only way to predict the second copy is to find the earlier "
        "copy of the current token and read the token that came after it. Watch the **loss on the repeat**: does it "
        "stay near chance, and if it drops, when? A drop is the sign that the heads found that trick."
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
PRESET_FOLD = N_("The precomputed run")
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


# --- 1. mask off vs on --------------------------------------------------------------------------------------------


def mask_levels(result: MaskResult) -> tuple[tuple[str, float], ...]:
    return levels_of("mask", {"entropy": result.entropy, "chance": result.chance_loss})


def mask_tiles(run: MaskRun) -> dict[str, str]:
    return {
        N_("Training loss"): number(run.train_loss, ".4f"),
        N_("Generating loss"): number(run.generating_loss, ".4f"),
        N_("Grammatical steps"): number(run.grammatical_transitions, ".0%"),
        N_("Whole sentences"): number(run.grammatical_sentences, ".0%"),
    }


def tiles_heading(run: MaskRun) -> str:
    return _("The tiles: **{model}**", model=model_name(run))


# Where a loss ends against a level, as a whole phrase that names the level (a loss "close to zero", "below the
# true entropy", "above chance"): the sentences below put the phrase where English puts it.


def _relation(value: float, level: float, close: float = 0.1) -> str:
    """"close", "below" or "above": where `value` ends against `level`."""
    if abs(value - level) <= close:
        return "close"
    return "below" if value < level else "above"


def _against_zero(value: float) -> str:
    way = _relation(value, 0, 0.01)
    if way == "close":
        # Translators: where a loss ends, as a phrase inside a sentence ("... ends at 0.0012, close to zero")
        return _("close to zero")
    return _("below zero") if way == "below" else _("above zero")


def _against_entropy(value: float, entropy: float) -> str:
    way = _relation(value, entropy)
    if way == "close":
        # Translators: where a loss ends, as a phrase inside a sentence ("..., close to the true entropy (1.2345)")
        return _("close to the true entropy")
    return _("below the true entropy") if way == "below" else _("above the true entropy")


def _against_chance(value: float, chance: float) -> str:
    way = _relation(value, chance)
    if way == "close":
        # Translators: where a loss ends, as a phrase inside a sentence ("..., above chance (3.04)"): chance is the
        # loss of a model that knows nothing
        return _("close to chance")
    return _("below chance") if way == "below" else _("above chance")


def mask_verdict(result: MaskResult) -> str:
    """What the two runs show, every number and comparison from the result."""
    off, on = result.unmasked, result.masked
    values = {"train": off.train_loss, "vs_zero": _against_zero(off.train_loss),
              "vs_entropy": _against_entropy(off.train_loss, result.entropy), "entropy": result.entropy,
              "generating": off.generating_loss, "vs_chance": _against_chance(off.generating_loss, result.chance_loss),
              "chance": result.chance_loss}
    # what the unmasked model's two losses say it learned, decided by measures.read_ahead
    if measures.read_ahead(off.train_loss, off.generating_loss, result.entropy):
        unmasked = _("Without the mask the training loss ends at **{train:.4f}**, {vs_zero} and {vs_entropy} "
                     "({entropy:.4f}), while its generating loss ends at **{generating:.2f}**, {vs_chance} "
                     "({chance:.2f}): it learned to read the next word, which generation never has.", **values)
    elif off.generating_loss > off.train_loss + measures.READ_AHEAD_MARGIN:
        unmasked = _("Without the mask the training loss ends at **{train:.4f}**, {vs_zero} and {vs_entropy} "
                     "({entropy:.4f}), while its generating loss ends at **{generating:.2f}**, {vs_chance} "
                     "({chance:.2f}). Its training loss did not end clearly below the true entropy, so this run does "
                     "not show it reading the next word, but its generating loss ends higher than its training loss: "
                     "it leans on words that generation does not have yet.", **values)
    else:
        unmasked = _("Without the mask the training loss ends at **{train:.4f}**, {vs_zero} and {vs_entropy} "
                     "({entropy:.4f}), while its generating loss ends at **{generating:.2f}**, {vs_chance} "
                     "({chance:.2f}). Its generating loss ends close to its training loss: in this run it did not "
                     "learn to lean on the next word.", **values)
    masked = _("With the mask the training loss ends at **{train:.4f}** and the generating loss at "
               "**{generating:.4f}**, {vs_entropy}.", train=on.train_loss, generating=on.generating_loss,
               vs_entropy=_against_entropy(on.generating_loss, result.entropy))
    sentences = _("{masked:.0%} of the masked model's sentences are in the language, against {unmasked:.0%} without "
                  "the mask.", masked=on.grammatical_sentences, unmasked=off.grammatical_sentences)
    return " ".join((unmasked, masked, sentences))


def mask_task(result: MaskResult | None) -> str:
    """The mask experiment's "Your turn", about the chart on screen (both models) or, before any run, a prediction."""
    if result is None:
        return _("Your turn: predict, then press **Train**. Will the model without the mask end with a training loss "
                 "below the true entropy, and will its generating loss follow it down?")
    off = result.unmasked
    if measures.read_ahead(off.train_loss, off.generating_loss, result.entropy):
        return _("Your turn: on the chart, which model has the better training loss, and which one's generating loss "
                 "would you trust to write sentences? Then choose a different number of heads and press **Train**: "
                 "does the model without the mask still read ahead?")
    return _("Your turn: on the chart, the model without the mask does not read ahead in this run. Choose more "
             "training steps or a different number of heads and press **Train**: does it learn to, then?")


def mask_verdict_short(result: MaskResult) -> str:
    """The comparison of both models in three short lines, for projector mode: the same numbers and comparisons as
    mask_verdict, fewer words."""
    off, on = result.unmasked, result.masked
    return "\n".join((
        _("- **Mask off**: training loss **{train:.4f}**, {vs_zero}; generating loss **{generating:.2f}**, "
          "{vs_chance} ({chance:.2f}).", train=off.train_loss, vs_zero=_against_zero(off.train_loss),
          generating=off.generating_loss, vs_chance=_against_chance(off.generating_loss, result.chance_loss),
          chance=result.chance_loss),
        _("- **Mask on**: generating loss **{generating:.4f}**, {vs_entropy} ({entropy:.4f}).",
          generating=on.generating_loss, vs_entropy=_against_entropy(on.generating_loss, result.entropy),
          entropy=result.entropy),
        _("- Sentences in the language: **{masked:.0%}** with the mask, **{unmasked:.0%}** without.",
          masked=on.grammatical_sentences, unmasked=off.grammatical_sentences),
    ))


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


def scene_numbers(result) -> str:
    """A training scene's numbers, from the shipped run: the final losses that the narration describes."""
    if isinstance(result, MaskResult):
        off, on = result.unmasked, result.masked
        return _("No mask: training loss **{off_train:.4f}**, generating loss **{off_generating:.2f}**. Mask on: "
                 "**{on_train:.4f}** and **{on_generating:.4f}**; true entropy {entropy:.4f}, chance {chance:.2f}.",
                 off_train=off.train_loss, off_generating=off.generating_loss, on_train=on.train_loss,
                 on_generating=on.generating_loss, entropy=result.entropy, chance=result.chance_loss)
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    drop = _drop_step(repeat) if _repeat_course(result) == "dropped" else None
    values = {"first": repeat.losses[0], "last": result.repeat_loss, "step": repeat.steps[-1]}
    if drop:
        return _("Loss on the repeat: **{first:.2f}** at the start, **{last:.2f}** at step {step}; the steepest fall "
                 "is just before step {drop}.", drop=drop, **values)
    return _("Loss on the repeat: **{first:.2f}** at the start, **{last:.2f}** at step {step}.", **values)


def samples_markdown(result: MaskResult, run: MaskRun) -> str:
    """The prompt and the generated continuations, every word escaped (they are the toy language's own words)."""
    prompt = " ".join(md_escape(word) for word in result.config.prompt)
    lines = [_("Prompt: **{prompt}** … ({model}, sampled word by word)", prompt=prompt, model=model_name(run))]
    lines += [f"- {prompt} *{md_escape(sample)}*" for sample in run.samples]
    return "\n".join(lines)


# --- 2. heads specialise -------------------------------------------------------------------------------------


def heads_levels(result: HeadsResult) -> tuple[tuple[str, float], ...]:
    return levels_of("heads", {"chance": result.chance_loss})


def _signed(value: float) -> str:
    """A change as a student reads it: +0.12, −0.04 (a real minus sign), or 0.00."""
    if f"{value:+.2f}" in ("+0.00", "-0.00"):
        return number(0.0, ".2f")
    return number(value, "+.2f").replace("-", "\u2212")


def silenced_change(result: HeadsResult, score) -> tuple[str, str]:
    """(the change of the loss on the repeat when this head is silenced, against the full model, as shown; what it
    does: "rises", "falls" or "stays"). The change is of the two numbers as printed, so the table adds up."""
    change = round(score.silenced_repeat_loss, 2) - round(result.repeat_loss, 2)
    way = "stays" if f"{change:+.2f}" in ("+0.00", "-0.00") else ("rises" if change > 0 else "falls")
    return _signed(change), way


def without_column(result: HeadsResult) -> str:
    return _("without it: loss on the repeat (full model {loss:.2f})", loss=result.repeat_loss)


def heads_rows(result: HeadsResult) -> list[dict[str, str]]:
    """The head table, one row a head, numbers as the page prints them. The last column is the loss on the repeat
    with the head silenced and, in brackets, its signed change from the full model's loss named in the header."""
    # Translators: the column headers of the per-head table (what each head looks at)
    head, previous, duplicate, induction = _("head"), _("previous-token"), _("duplicate-token"), _("induction")
    without = without_column(result)
    rows = []
    for score in result.heads:
        change, way = silenced_change(result, score)
        rows.append({head: f"L{score.layer} H{score.head}", previous: number(score.previous_token, ".3f"),
                     duplicate: number(score.duplicate_token, ".3f"), induction: number(score.induction, ".3f"),
                     without: f"{number(score.silenced_repeat_loss, '.2f')} ({change}, {_(WAYS[way])})"})
    return rows


def _drop_step(curve: Curve) -> int | None:
    """The step after which the repeat curve fell furthest between two points (None on a flat curve)."""
    return measures.steepest_fall(curve.steps, curve.losses)


def _repeat_course(result: HeadsResult) -> str:
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    return measures.course(repeat.losses, result.chance_loss)


def _repeat_sentence(result: HeadsResult) -> str:
    """What the loss on the repeat did, decided by measures.course: dropped well below chance, stayed near it, or
    fell (or rose) only part of the way."""
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    values = {"first": repeat.losses[0], "last": result.repeat_loss, "chance": result.chance_loss}
    course = _repeat_course(result)
    if course == "dropped":
        return _("The loss on the repeat drops well below chance, from **{first:.2f}** to **{last:.2f}** (chance "
                 "{chance:.2f}). The steepest fall comes just before step {drop}: the heads found the trick.",
                 drop=_drop_step(repeat), **values)
    if course == "near chance":
        return _("The loss on the repeat stays near chance, from **{first:.2f}** to **{last:.2f}** (chance "
                 "{chance:.2f}): in this run the heads did not find the trick of reading what followed the earlier "
                 "copy.", **values)
    if result.repeat_loss < repeat.losses[0]:
        return _("The loss on the repeat falls only part of the way, from **{first:.2f}** to **{last:.2f}** (chance "
                 "{chance:.2f}): not near chance, and not below half of it either.", **values)
    return _("The loss on the repeat rises only part of the way, from **{first:.2f}** to **{last:.2f}** (chance "
             "{chance:.2f}): not near chance, and not below half of it either.", **values)


def heads_task(result: HeadsResult | None, layers: int) -> str:
    """The heads experiment's "Your turn", about the run on screen or, before any run, a prediction."""
    if result is None:
        return _("Your turn: predict, then press **Train**. Will the loss on the repeat drop well below chance with "
                 "these settings, or stay near it?")
    if _repeat_course(result) == "dropped":
        if layers > 1:
            return _("Your turn: the loss on the repeat drops in this run. Choose one layer and press **Train**: does "
                     "it still drop, or stay near chance?")
        return _("Your turn: the loss on the repeat drops in this run. Choose another seed and press **Train**: does "
                 "it still drop, or stay near chance?")
    if layers < 2:
        return _("Your turn: the loss on the repeat does not drop in this run. Choose two layers and press **Train**: "
                 "does it drop then?")
    return _("Your turn: the loss on the repeat does not drop in this run. Choose more training steps and press "
             "**Train**: does it drop then?")


def heads_verdict(result: HeadsResult) -> str:
    best = max(result.heads, key=lambda score: score.induction)
    worst = max(result.heads, key=lambda score: score.silenced_repeat_loss)
    sentences = [_repeat_sentence(result),
                 _("The strongest induction score is layer {layer}, head {head} at **{score:.3f}**.", layer=best.layer,
                   head=best.head, score=best.induction)]
    if silenced_change(result, worst)[1] == "rises":
        sentences.append(_("Silencing layer {layer}, head {head} costs the dearest: the loss on the repeat rises from "
                           "{full:.2f} to **{silenced:.2f}**.", layer=worst.layer, head=worst.head,
                           full=result.repeat_loss, silenced=worst.silenced_repeat_loss))
    else:
        sentences.append(_("Silencing any one head does not raise the loss on the repeat."))
    falls = [score for score in result.heads if silenced_change(result, score)[1] == "falls"]
    for score in falls:
        sentences.append(_("Without layer {layer}, head {head} the loss on the repeat falls, to {silenced:.2f}: the "
                           "model does better on the repeat without it.", layer=score.layer, head=score.head,
                           silenced=score.silenced_repeat_loss))
    return " ".join(sentences)


def map_alt(result: HeadsResult, layer: int, head: int) -> str:
    """The learned map's text alternative: where each query of the example looks most."""
    tokens = example_tokens(result)
    weights = result.maps[layer - 1][head - 1]
    parts = [_("Learned attention weights of layer {layer}, head {head} on {count} tokens; causal mask on.",
               layer=layer, head=head, count=len(tokens))]
    for position, (token, row) in enumerate(zip(tokens, weights, strict=True), start=1):
        best = max(range(len(row)), key=row.__getitem__)
        parts.append(_("{position} {token} looks most at {best} {best_token} ({weight:.2f}).", position=position,
                       token=token, best=best + 1, best_token=tokens[best], weight=row[best]))
    return " ".join(parts)


def map_rows(result: HeadsResult, layer: int, head: int) -> list[dict[str, str]]:
    """The learned map as a table for screen readers, one row a query and every weight in words. Two columns,
    not one a key, so the table wraps instead of scrolling sideways (24 key columns would)."""
    tokens = example_tokens(result)
    # Translators: the column headers of the learned map as a table: the query, and its weight on every key it sees
    query_column, seen_column = _("query"), _("weight on each key it may see")
    rows = []
    for query, weights in enumerate(result.maps[layer - 1][head - 1]):
        seen = "; ".join(f"{key + 1} {tokens[key]} {number(weights[key], '.2f')}" for key in range(query + 1))
        later = len(tokens) - query - 1
        blocked = "; " + _n("{count} later key blocked (future)", "{count} later keys blocked (future)", later) \
            if later else ""
        rows.append({query_column: f"{query + 1} {tokens[query]}", seen_column: seen + blocked})
    return rows


def map_row_sentence(result: HeadsResult, layer: int, head: int, row: int) -> str:
    tokens = example_tokens(result)
    weights = result.maps[layer - 1][head - 1][row]
    order = sorted(range(row + 1), key=lambda key: -weights[key])[:3]
    top = ", ".join(f"**{key + 1} {tokens[key]}** {number(weights[key], '.2f')}" for key in order)
    return _("Query **{position} {token}** looks most at {top}.", position=row + 1, token=tokens[row], top=top)


# --- 3. dropout against memorising -------------------------------------------------------------------------


def dropout_levels(result: DropoutResult) -> tuple[tuple[str, float], ...]:
    return levels_of("dropout", {"entropy": result.entropy})


def dropout_rows(result: DropoutResult) -> list[dict[str, str]]:
    # Translators: the column headers of the dropout table: the rate p, the two losses and the gap between them
    rate, train, held_out, gap = _("dropout p"), _("training loss"), _("held-out loss"), _("gap")
    return [{rate: number(run.p, "g"), train: number(run.train_loss, ".3f"),
             held_out: number(run.held_out_loss, ".3f"), gap: number(run.gap, ".2f")} for run in result.runs]


def _memorised_sentence(result: DropoutResult, runs) -> str:
    """How many models learned their sentences by heart (measures.by_heart), in a sentence that fits the count."""
    values = {"sentences": result.config.train_sentences, "distinct": result.distinct_train_sentences,
              "entropy": result.entropy, "count": len(runs)}
    memorised = [run for run in runs if measures.by_heart(run.train_loss, result.entropy)]
    if not memorised and len(runs) == 1:
        return _("With {sentences} training sentences ({distinct} different), the model does not end with a training "
                 "loss below the true entropy ({entropy:.2f}): no sentence learned by heart shows in this run.",
                 **values)
    if not memorised:
        return _("With {sentences} training sentences ({distinct} different), none of the {count} models ends with a "
                 "training loss below the true entropy ({entropy:.2f}): no sentence learned by heart shows in this "
                 "run.", **values)
    if len(memorised) == len(runs) == 1:
        return _("With {sentences} training sentences ({distinct} different), the model ends with a training loss "
                 "below the true entropy ({entropy:.2f}): sentences learned by heart.", **values)
    if len(memorised) == len(runs):
        return _("With {sentences} training sentences ({distinct} different), all {count} models end with a training "
                 "loss below the true entropy ({entropy:.2f}): sentences learned by heart.", **values)
    names = ", ".join(rate_label(run.p) for run in memorised)
    return _("With {sentences} training sentences ({distinct} different), {memorised} of {count} models end with a "
             "training loss below the true entropy ({entropy:.2f}) ({names}): those learned sentences by heart, the "
             "others did not.", memorised=len(memorised), names=names, **values)


def _gap_sentence(no_dropout: DropoutRun, best: DropoutRun, result: DropoutResult) -> str:
    """How the gap of the dropout model with the lowest held-out loss compares with p = 0's: decided from the two
    gaps themselves (measures.gap_change), not from the held-out losses."""
    change = measures.gap_change(no_dropout.gap, best.gap)
    values = {"before": no_dropout.gap, "after": best.gap, "rate": rate_label(best.p)}
    if change == "same":
        return _("The gap stays about where it was: {before:.2f} at p = 0, {after:.2f} at {rate}.", **values)
    if change == "widens":
        return _("Yet the gap between training and held-out loss widens, from {before:.2f} (p = 0) to "
                 "**{after:.2f}** ({rate}).", **values)
    if measures.gap_closed(best.gap):
        return _("It narrows the gap from {before:.2f} (p = 0) to **{after:.2f}** ({rate}), and closes it.", **values)
    text = _("It narrows the gap from {before:.2f} (p = 0) to **{after:.2f}** ({rate}), but does not close it.",
             **values)
    if measures.by_heart(best.train_loss, result.entropy):
        text += " " + _("At this scale the few training sentences give too little to learn from, and dropout cannot "
                        "make up for that.") + " " + _lesson_model_warning()
    return text


def dropout_verdict(result: DropoutResult) -> str:
    """The honest sentences: did the models learn by heart, did dropout lower the held-out loss against p = 0, and
    what happened to the gap. Each is decided from the runs (measures), and nothing is said against a p = 0 model
    that was not trained."""
    runs = sorted(result.runs, key=lambda run: run.p)
    text = _memorised_sentence(result, runs)
    no_dropout = next((run for run in runs if run.p == 0), None)
    with_dropout = [run for run in runs if run.p > 0]
    if len(runs) == 1:
        only = runs[0]
        return text + " " + _("The held-out loss is {loss:.3f}, a gap of {gap:.2f}.", loss=only.held_out_loss,
                              gap=only.gap)
    if no_dropout is None:
        best = min(runs, key=lambda run: run.held_out_loss)
        return text + " " + _("There is no p = 0 model here, so this run cannot say what dropout changes: add p = 0 "
                              "to compare. Of these, {rate} has the lowest held-out loss, {loss:.3f}.",
                              rate=rate_label(best.p), loss=best.held_out_loss)
    best = min(with_dropout, key=lambda run: run.held_out_loss)
    if best.held_out_loss >= no_dropout.held_out_loss:
        text += " " + _("Here dropout did not lower the held-out loss: p = 0 ends at {before:.3f}, the best with "
                        "dropout ({rate}) at {after:.3f}.", before=no_dropout.held_out_loss, rate=rate_label(best.p),
                        after=best.held_out_loss)
    else:
        text += " " + _("Dropout {rate} lowers the held-out loss from {before:.3f} (p = 0) to **{after:.3f}**.",
                        rate=rate_label(best.p), before=no_dropout.held_out_loss, after=best.held_out_loss)
    return text + " " + _gap_sentence(no_dropout, best, result)


def dropout_task(result: DropoutResult | None) -> str:
    """The dropout experiment's "Your turn", about the run on screen or, before any run, a prediction."""
    if result is None:
        return _("Your turn: predict, then press **Train**. Will dropout lower the held-out loss against p = 0, and "
                 "will the gap close?")
    runs = sorted(result.runs, key=lambda run: run.p)
    no_dropout = next((run for run in runs if run.p == 0), None)
    with_dropout = [run for run in runs if run.p > 0]
    if no_dropout is None or not with_dropout:
        return _("Your turn: choose p = 0 and at least one p above it, and press **Train**: does dropout lower the "
                 "held-out loss?")
    best = min(with_dropout, key=lambda run: run.held_out_loss)
    lowered = best.held_out_loss < no_dropout.held_out_loss
    closed = measures.gap_closed(best.gap)
    if lowered and closed:
        return _("Your turn: change the seed and press **Train**. With other training sentences, does dropout still "
                 "lower the held-out loss, and does the gap stay closed?")
    if lowered:
        return _("Your turn: change the seed and press **Train**. With other training sentences, does dropout still "
                 "lower the held-out loss, and does the gap stay open?")
    if closed:
        return _("Your turn: change the seed and press **Train**. With other training sentences, does dropout lower, "
                 "this time, the held-out loss, and does the gap stay closed?")
    return _("Your turn: change the seed and press **Train**. With other training sentences, does dropout lower, "
             "this time, the held-out loss, and does the gap stay open?")


def page_task(choice, result) -> str:
    """The "Your turn" line under the result on screen (None: nothing on screen yet)."""
    if choice.experiment == "mask":
        return mask_task(result)
    if choice.experiment == "heads":
        return heads_task(result, choice.layers)
    return dropout_task(result)


def _lesson_model_warning() -> str:
    """The lesson's own case, sized from the core's record of it (GPT-2 124M)."""
    size = GPT2.name.rsplit(" ", 1)[-1]
    return _("The lesson warns of the same at scale: its GPT-2-sized model, {size} parameters, trained on one short "
             "story, learns that story by heart.", size=size)
