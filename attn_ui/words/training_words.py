"""Every word of the "Train it yourself" page. Pure text: no Streamlit, no Plotly.

The constants hold no numbers: each number a student reads is formatted here from a run's result at run time,
and each comparison ("below", "narrows") is decided from that result, so a custom run that turns out differently
is described as it turned out.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from types import MappingProxyType

from attn_core.lessons.heads import GPT2
from attn_core.training import measures
from attn_core.training.experiments import Curve, DropoutResult, DropoutRun, HeadsResult, MaskResult, MaskRun
from attn_ui.words.escape import md_escape

TITLE = "Train it yourself"
QUESTION = "What do the mask, dropout and heads do to a model that learns?"
INTRO = (
    "The other pages show the machinery. Here a tiny model learns, in front of you, with the switches the Lab "
    "has. It is written in NumPy with its gradients worked out by hand, and its attention calls the Lab's own "
    "mask, softmax and dropout functions. Pick an experiment and predict what it shows: its precomputed run opens "
    "once you have answered. Or press **Train** to run it live with your settings and watch the curves grow."
)
EXPERIMENT_LABEL = "Experiment"
EXPERIMENT_NAMES = MappingProxyType({"mask": "Mask off vs on", "heads": "Heads specialise",
                                     "dropout": "Dropout against memorising"})
EXPERIMENT_HOW = MappingProxyType({
    "mask": (
        "Two models learn one toy language, a small grammar around the lesson's words: one without the "
        "causal mask, one with it. The **training loss** reads each sentence in one pass, the way the model "
        "trains. The **generating loss** gives the model only the words written so far, the way it is used: the "
        "future does not exist yet. The two grey dotted lines are levels, each named at its right end: "
        "**chance**, the loss of a model that knows nothing and spreads its guess evenly over the vocabulary, and "
        "the language's **true entropy**, the lowest loss a model can reach on average. The coloured lines are "
        "the models' losses, one colour a model, both on one scale; the generating loss is the dotted one. Watch "
        "for a training loss that goes below the true entropy, and for the generating loss: does it follow the "
        "training loss down, or stay up?"
    ),
    "heads": (
        "A model learns sequences of random tokens in which a stretch repeats. Where the stretch starts and how "
        "long it is change from row to row, so the only way to predict the second copy is to find the earlier "
        "copy of the current token and read the token that came after it. Watch the **loss on the repeat**: does it "
        "stay near chance, and if it drops, when? A drop is the sign that the heads found that trick."
    ),
    "dropout": (
        "Models with dropout on their attention weights learn a tiny training set, small enough that a model may "
        "learn it by heart. Watch the **training loss** against the true entropy: below it means sentences learned "
        "by heart, not the grammar. Watch the **held-out loss** on new sentences: how far it ends above the "
        "training loss is the gap, and the question is whether dropout shrinks it."
    ),
})
SETTINGS_LABELS = MappingProxyType({"heads": "Heads", "layers": "Layers", "rates": "Dropout p to compare",
                                    "steps": "Training steps a model", "seed": "Seed"})
SETTINGS_HELP = MappingProxyType({
    "heads": "Attention heads in each layer; the model width is split between them.",
    "layers": "Attention layers stacked on top of each other.",
    "rates": "Each p trains its own model, dropout on the attention weights while it trains.",
    "steps": "Adam updates for each model; the bounds keep a run short.",
    "seed": ("Fixes the data, the starting weights and the dropout draws, so a run can be repeated bit for bit, "
             "on this server or any other with an Intel or AMD processor."),
})
SHOW_MASKED = "Tiles and samples of the model with the causal mask"
SHOW_MASKED_HELP = ("Both models train in this experiment and both are on the chart; the switch picks which one "
                    "the tiles and the written samples show.")
TRAIN_BUTTON, STOP_BUTTON = "Train", "Stop"
PRESET_SHOWN = "The precomputed run of this preset is below. **Train** runs it again live."
PRESET_FOLD = "The precomputed run"
RESULT_FOLD = "What this run shows"
VERDICT_QUESTIONS = MappingProxyType({"mask": "train-mask-off-zero", "heads": "train-heads-layer-two",
                                      "dropout": "train-dropout-gap"})  # the question each preset asks first
PRESET_WHILE_WAITING = "Meanwhile: the precomputed run of this preset. The live run replaces it when its turn comes."
NOT_RUN_YET = "This setting has not been trained on this server yet: press **Train**."
STOPPED = "Stopped. Nothing of this run is kept; press **Train** to start again."
CURVE_LABELS = MappingProxyType({"train": "training loss", "held_out": "held-out loss",
                                 "generating": "generating loss", "repeat": "loss on the repeat"})
STEP_AXIS = "training step"
LOSS_AXIS = "loss (nats per token)"
ENTROPY_LEVEL = "true entropy"
CHANCE_LEVEL = "chance"
CURVES_IN_WORDS = "The curves in words"
SAMPLES_HEADING = "What it writes"
HEADS_TABLE_HEADING = "Per head: what it looks at, and what silencing it changes"
HEADS_TABLE_HOW = (
    "**L** is the layer, **H** the head. **Previous-token**: weight on the token just before. **Duplicate-token**: "
    "weight on the earlier copy of "
    "the current token. **Induction**: weight on the token right after that earlier copy. **Without it**: the "
    "loss on the repeat with this head's output set to zero, and in brackets its change from the full model's "
    "loss (in the column's name): a plus means the loss rises without the head, a minus that it falls."
)
MAP_PICK = "Map of"
MAP_HOW = (
    "The learned weights of one head on one held-out sequence, inference mode, drawn by the Lab's own map. "
    "Tokens are letters. Colour is the weight, from dark purple (none) to yellow (all of the row); grey cells are "
    "the future the causal mask blocks. Click a row to read it."
)
MAP_TABLE = "The map as a table"
DROPOUT_HEADING = "At the end of training"
LEARNING_TABLE = "The numbers"
MODEL_MASKED, MODEL_UNMASKED = "mask on", "mask off"
BOTH_MODELS = "mask off and mask on, on one scale"
MASK_LINK_LABEL = "Train a model with and without the mask"
SCENE_LINK_LABEL = "Open the experiment on Train it yourself"


def settings_summary(experiment: str, heads, layers, rates, steps, seed) -> str:
    """The folded settings' label in projector mode: what is chosen, in one line (values as the widgets hold them;
    one the page would not use is left out rather than shown)."""
    parts = [EXPERIMENT_NAMES.get(experiment, "Settings")]
    if isinstance(heads, int):
        parts.append(f"{heads} head{'s' if heads != 1 else ''}")
    if experiment == "heads" and isinstance(layers, int):
        parts.append(f"{layers} layer{'s' if layers != 1 else ''}")
    if experiment == "dropout" and rates:
        parts.append("p = " + ", ".join(f"{p:g}" for p in rates))
    if isinstance(steps, int):
        parts.append(f"{steps:,} steps")
    if isinstance(seed, int | float):
        parts.append(f"seed {int(seed)}")
    return " · ".join(parts) + " (change)"


def rate_label(p: float) -> str:
    return f"p = {p:g}"


def model_name(run: MaskRun) -> str:
    return MODEL_MASKED if run.causal else MODEL_UNMASKED


def example_tokens(result: HeadsResult) -> tuple[str, ...]:
    """The example sequence's token ids as letters (a, b, c, ...), so a repeat is easy to spot."""
    return tuple(chr(ord("a") + token) for token in result.example)


# --- before and during a run ---------------------------------------------------------------------------


def seconds(value: float) -> str:
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


def estimate_text(estimate: float, models: int) -> str:
    many = f"{models} models, one after another" if models > 1 else "one model"
    return f"Training takes about **{seconds(estimate)}** on this server ({many}), measured from its own steps."


def waiting_text(ahead: int, wait: float) -> str:
    runs = "1 run" if ahead == 1 else f"{ahead} runs"
    return (f"Waiting for a free slot: {runs} ahead, about {seconds(wait)}. Other sessions' runs take turns, so the "
            "server stays quick for everyone.")


def stage_text(choice, stage: str) -> str:
    """Which model is training, in words (the heads experiment's own words name its layers)."""
    if choice.experiment == "heads":
        return f"training {choice.layers} layer{'s' if choice.layers > 1 else ''} on the repeats"
    return stage or "starting"


def percent_done(fraction: float) -> int:
    """The whole percent a progress bar shows: Streamlit's own rule (it truncates), so the bar, its text and the
    status line all say one number."""
    return min(100, max(0, int(fraction * 100)))


def training_text(stage: str, fraction: float, elapsed: float, left: float) -> str:
    """The live status line: how far, how long so far, and the time still to go at the run's own pace (it changes
    with every redraw, so a busy server's slower steps show up in it)."""
    done = f"{stage.capitalize()}: {percent_done(fraction)}% after {seconds(elapsed)}"
    if fraction >= 1:
        return done + ", finishing."
    how = "first estimate" if fraction <= 0 else "at its pace so far"
    return done + f", about {seconds(left)} to go ({how})."


def levels_of(experiment: str, known: dict[str, float]) -> tuple[tuple[str, float], ...]:
    """The reference lines an experiment's chart draws, from its levels (a result's, or the core's known_levels
    before a run): the same lines, in the same order, while it trains and when it has finished."""
    wanted = {"mask": ("entropy", "chance"), "heads": ("chance",), "dropout": ("entropy",)}[experiment]
    label = {"entropy": ENTROPY_LEVEL, "chance": CHANCE_LEVEL}
    return tuple((label[name], known[name]) for name in wanted)


def live_chart(choice, stages) -> tuple[list, str | None, int]:
    """(groups, title, groups the finished chart has) of the live chart, encoded as the finished chart is: the mask
    experiment draws only the model training now, named; the heads experiment its one model; dropout one group a p,
    in the order they train, each in its p's colour from the first one on."""
    if choice.experiment == "mask":
        index = len(stages) - 1  # the core trains mask off first, then mask on (MaskResult.runs)
        name = (MODEL_UNMASKED, MODEL_MASKED)[index]
        groups = [(model, curves) for model, (__, curves) in zip((MODEL_UNMASKED, MODEL_MASKED), stages, strict=False)]
        return groups, f"{name}: model {index + 1} of {choice.models}", 2
    if choice.experiment == "dropout":
        groups = [(rate_label(p), curves) for p, (__, curves) in zip(choice.rates, stages, strict=False)]
        return groups, None, len(choice.rates)
    return [("", stages[-1][1])], None, 1


def result_chart(result) -> tuple[list, tuple[tuple[str, float], ...], str | None]:
    """(groups, levels, title) of a finished run's loss chart: both mask models, the heads model, or every p."""
    if isinstance(result, MaskResult):  # both models on one scale, so the cheating one is in view
        return [(model_name(run), run.curves) for run in result.runs], mask_levels(result), BOTH_MODELS
    if isinstance(result, HeadsResult):
        return [("", result.curves)], heads_levels(result), None
    return [(rate_label(run.p), run.curves) for run in result.runs], dropout_levels(result), None


def done_text(elapsed: float, shared: bool) -> str:
    if elapsed <= 0:
        return "Trained earlier on this server with these settings: the result is shared, not trained again."
    extra = " Other sessions watched the same run." if shared else ""
    return f"Trained live in {seconds(elapsed)}.{extra}"


def failed_text(error: str) -> str:
    return f"The run failed: {md_escape(error)}. Try another setting."


# --- curves in words -----------------------------------------------------------------------------------------


def curve_summary(curve: Curve, model: str = "") -> str:
    """One curve in a sentence: where it starts, where it ends, its lowest point."""
    name = CURVE_LABELS.get(curve.name, curve.name) + (f" ({model})" if model else "")
    if not curve.losses:
        return f"{name.capitalize()}: no point yet."
    low = min(range(len(curve.losses)), key=curve.losses.__getitem__)
    text = (f"{name.capitalize()}: {curve.losses[0]:.4f} at step {curve.steps[0]}, "
            f"{curve.losses[-1]:.4f} at step {curve.steps[-1]}")
    if low != len(curve.losses) - 1:
        text += f"; lowest {curve.losses[low]:.4f} at step {curve.steps[low]}"
    return text + "."


def curves_in_words(groups: Sequence[tuple[str, Sequence[Curve]]], levels: Sequence[tuple[str, float]]) -> str:
    """A Markdown list: every curve of the chart, then its reference lines."""
    lines = [f"- {curve_summary(curve, model)}" for model, curves in groups for curve in curves]
    lines += [f"- {label.capitalize()}: {value:.4f} (a grey dotted line)." for label, value in levels]
    return "\n".join(lines)


def chart_alt(title: str, groups, levels) -> str:
    """The chart's text alternative: its title and each curve's summary."""
    parts = [title + "."] + [curve_summary(curve, model) for model, curves in groups for curve in curves]
    parts += [f"{label}: {value:.4f}." for label, value in levels]
    return " ".join(parts)


# --- 1. mask off vs on --------------------------------------------------------------------------------------------


def mask_levels(result: MaskResult) -> tuple[tuple[str, float], ...]:
    return levels_of("mask", {"entropy": result.entropy, "chance": result.chance_loss})


def mask_tiles(run: MaskRun) -> dict[str, str]:
    return {
        "Training loss": f"{run.train_loss:.4f}",
        "Generating loss": f"{run.generating_loss:.4f}",
        "Grammatical steps": f"{run.grammatical_transitions:.0%}",
        "Whole sentences": f"{run.grammatical_sentences:.0%}",
    }


def tiles_heading(run: MaskRun) -> str:
    return f"The tiles: **{model_name(run)}**"


def _relation(value: float, level: float, close: float = 0.1) -> str:
    if abs(value - level) <= close:
        return "close to"
    return "below" if value < level else "above"


def mask_verdict(result: MaskResult) -> str:
    """What the two runs show, every number and comparison from the result."""
    off, on = result.unmasked, result.masked
    return (
        f"Without the mask the training loss ends at **{off.train_loss:.4f}**, {_relation(off.train_loss, 0, 0.01)} "
        f"zero and {_relation(off.train_loss, result.entropy)} the true entropy ({result.entropy:.4f}), while its "
        f"generating loss ends at **{off.generating_loss:.2f}**, {_relation(off.generating_loss, result.chance_loss)} "
        f"chance ({result.chance_loss:.2f}){_unmasked_reading(result)} With "
        f"the mask the training loss ends at **{on.train_loss:.4f}** and the generating loss at "
        f"**{on.generating_loss:.4f}**, {_relation(on.generating_loss, result.entropy)} the true entropy. "
        f"{on.grammatical_sentences:.0%} of the masked model's sentences are in the language, against "
        f"{off.grammatical_sentences:.0%} without the mask."
    )


def _unmasked_reading(result: MaskResult) -> str:
    """What the unmasked model's two losses say it learned, decided by measures.read_ahead (a clause that ends the
    sentence it follows)."""
    off = result.unmasked
    if measures.read_ahead(off.train_loss, off.generating_loss, result.entropy):
        return ": it learned to read the next word, which generation never has."
    if off.generating_loss > off.train_loss + measures.READ_AHEAD_MARGIN:
        return (". Its training loss did not end clearly below the true entropy, so this run does not show it "
                "reading the next word, but its generating loss ends higher than its training loss: it leans on "
                "words that generation does not have yet.")
    return (". Its generating loss ends close to its training loss: in this run it did not learn to lean on the "
            "next word.")


def mask_task(result: MaskResult | None) -> str:
    """The mask experiment's "Your turn", about the chart on screen (both models) or, before any run, a prediction."""
    if result is None:
        return ("Your turn: predict, then press **Train**. Will the model without the mask end with a training loss "
                "below the true entropy, and will its generating loss follow it down?")
    off = result.unmasked
    if measures.read_ahead(off.train_loss, off.generating_loss, result.entropy):
        return ("Your turn: on the chart, which model has the better training loss, and which one's generating loss "
                "would you trust to write sentences? Then choose a different number of heads and press **Train**: "
                "does the model without the mask still read ahead?")
    return ("Your turn: on the chart, the model without the mask does not read ahead in this run. Choose more "
            "training steps or a different number of heads and press **Train**: does it learn to, then?")


def mask_verdict_short(result: MaskResult) -> str:
    """The comparison of both models in three short lines, for projector mode: the same numbers and comparisons as
    mask_verdict, fewer words."""
    off, on = result.unmasked, result.masked
    return "\n".join((
        f"- **{MODEL_UNMASKED.capitalize()}**: training loss **{off.train_loss:.4f}**, "
        f"{_relation(off.train_loss, 0, 0.01)} zero; generating loss **{off.generating_loss:.2f}**, "
        f"{_relation(off.generating_loss, result.chance_loss)} chance ({result.chance_loss:.2f}).",
        f"- **{MODEL_MASKED.capitalize()}**: generating loss **{on.generating_loss:.4f}**, "
        f"{_relation(on.generating_loss, result.entropy)} the true entropy ({result.entropy:.4f}).",
        f"- Sentences in the language: **{on.grammatical_sentences:.0%}** with the mask, "
        f"**{off.grammatical_sentences:.0%}** without.",
    ))


NUMBER_WORDS = MappingProxyType({2: "two", 3: "three", 4: "four"})


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
    return [dataclasses.replace(curve, name=f"{CURVE_LABELS.get(curve.name, curve.name)} ({model})") if model
            else curve for model, curves in groups for curve in curves]


def overlap_text(curves: Sequence[Curve], tolerance: float) -> str:
    """Which curves of a chart lie on top of each other, so a student knows why fewer lines show; "" if none do.
    `tolerance` is the loss a drawn line's width covers on the chart (training_charts.line_loss_width)."""
    sentences = []
    for subset, gap in _together(curves, tolerance):
        names = [CURVE_LABELS.get(curve.name, curve.name) for curve in subset]
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        how_close = ("are equal at every step" if gap == 0 else
                     f"lie on top of each other: at no step are they more than {gap:.4f} apart, less than the width "
                     "of a line on this chart")
        count = NUMBER_WORDS.get(len(subset), str(len(subset)))
        sentences.append(f"The {listed} {how_close}, so {count} curves show as one.")
    return " ".join(sentences)


def scene_numbers(result) -> str:
    """A training scene's numbers, from the shipped run: the final losses that the narration describes."""
    if isinstance(result, MaskResult):
        off, on = result.unmasked, result.masked
        return (f"No mask: training loss **{off.train_loss:.4f}**, generating loss **{off.generating_loss:.2f}**. "
                f"Mask on: **{on.train_loss:.4f}** and **{on.generating_loss:.4f}**; true entropy "
                f"{result.entropy:.4f}, chance {result.chance_loss:.2f}.")
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    drop = _drop_step(repeat) if _repeat_course(result) == "dropped" else None
    return (f"Loss on the repeat: **{repeat.losses[0]:.2f}** at the start, **{result.repeat_loss:.2f}** at step "
            f"{repeat.steps[-1]}" + (f"; the steepest fall is just before step {drop}." if drop else "."))


def samples_markdown(result: MaskResult, run: MaskRun) -> str:
    """The prompt and the generated continuations, every word escaped."""
    prompt = " ".join(md_escape(word) for word in result.config.prompt)
    lines = [f"Prompt: **{prompt}** … ({model_name(run)}, sampled word by word)"]
    lines += [f"- {prompt} *{md_escape(sample)}*" for sample in run.samples]
    return "\n".join(lines)


# --- 2. heads specialise -------------------------------------------------------------------------------------


def heads_levels(result: HeadsResult) -> tuple[tuple[str, float], ...]:
    return levels_of("heads", {"chance": result.chance_loss})


def _signed(value: float) -> str:
    """A change as a student reads it: +0.12, −0.04 (a real minus sign), or 0.00."""
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text.replace("-", "\u2212")


def silenced_change(result: HeadsResult, score) -> tuple[str, str]:
    """(the change of the loss on the repeat when this head is silenced, against the full model, as shown; what it
    does: "rises", "falls" or "stays"). The change is of the two numbers as printed, so the table adds up."""
    change = round(score.silenced_repeat_loss, 2) - round(result.repeat_loss, 2)
    text = _signed(change)
    return text, "stays" if text == "0.00" else ("rises" if change > 0 else "falls")


def without_column(result: HeadsResult) -> str:
    return f"without it: loss on the repeat (full model {result.repeat_loss:.2f})"


def heads_rows(result: HeadsResult) -> list[dict[str, str]]:
    """The head table, one row a head, numbers as the page prints them. The last column is the loss on the repeat
    with the head silenced and, in brackets, its signed change from the full model's loss named in the header."""
    rows = []
    for score in result.heads:
        change, way = silenced_change(result, score)
        rows.append({"head": f"L{score.layer} H{score.head}", "previous-token": f"{score.previous_token:.3f}",
                     "duplicate-token": f"{score.duplicate_token:.3f}", "induction": f"{score.induction:.3f}",
                     without_column(result): f"{score.silenced_repeat_loss:.2f} ({change}, {way})"})
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
    numbers = (f"from **{repeat.losses[0]:.2f}** to **{result.repeat_loss:.2f}** (chance "
               f"{result.chance_loss:.2f})")
    course = _repeat_course(result)
    if course == "dropped":
        drop = _drop_step(repeat)
        return (f"The loss on the repeat drops well below chance, {numbers}. The steepest fall comes just before step "
                f"{drop}: the heads found the trick.")
    if course == "near chance":
        return (f"The loss on the repeat stays near chance, {numbers}: in this run the heads did not find the trick "
                "of reading what followed the earlier copy.")
    way = "falls" if result.repeat_loss < repeat.losses[0] else "rises"
    return (f"The loss on the repeat {way} only part of the way, {numbers}: not near chance, and not below half of "
            "it either.")


def heads_task(result: HeadsResult | None, layers: int) -> str:
    """The heads experiment's "Your turn", about the run on screen or, before any run, a prediction."""
    if result is None:
        return ("Your turn: predict, then press **Train**. Will the loss on the repeat drop well below chance with "
                "these settings, or stay near it?")
    if _repeat_course(result) == "dropped":
        other = "one layer" if layers > 1 else "another seed"
        return (f"Your turn: the loss on the repeat drops in this run. Choose {other} and press **Train**: does it "
                "still drop, or stay near chance?")
    other = "two layers" if layers < 2 else "more training steps"
    return (f"Your turn: the loss on the repeat does not drop in this run. Choose {other} and press **Train**: does "
            "it drop then?")


def heads_verdict(result: HeadsResult) -> str:
    best = max(result.heads, key=lambda score: score.induction)
    worst = max(result.heads, key=lambda score: score.silenced_repeat_loss)
    text = (
        f"{_repeat_sentence(result)} The strongest induction score is layer {best.layer}, head "
        f"{best.head} at **{best.induction:.3f}**."
    )
    if silenced_change(result, worst)[1] == "rises":
        text += (f" Silencing layer {worst.layer}, head {worst.head} costs the dearest: the loss on the repeat "
                 f"rises from {result.repeat_loss:.2f} to **{worst.silenced_repeat_loss:.2f}**.")
    else:
        text += " Silencing any one head does not raise the loss on the repeat."
    falls = [score for score in result.heads if silenced_change(result, score)[1] == "falls"]
    for score in falls:
        text += (f" Without layer {score.layer}, head {score.head} the loss on the repeat falls, to "
                 f"{score.silenced_repeat_loss:.2f}: the model does better on the repeat without it.")
    return text


def map_alt(result: HeadsResult, layer: int, head: int) -> str:
    """The learned map's text alternative: where each query of the example looks most."""
    tokens = example_tokens(result)
    weights = result.maps[layer - 1][head - 1]
    parts = [f"Learned attention weights of layer {layer}, head {head} on {len(tokens)} tokens; causal mask on."]
    for position, (token, row) in enumerate(zip(tokens, weights, strict=True), start=1):
        best = max(range(len(row)), key=row.__getitem__)
        parts.append(f"{position} {token} looks most at {best + 1} {tokens[best]} ({row[best]:.2f}).")
    return " ".join(parts)


def map_rows(result: HeadsResult, layer: int, head: int) -> list[dict[str, str]]:
    """The learned map as a table for screen readers, one row a query and every weight in words. Two columns,
    not one a key, so the table wraps instead of scrolling sideways (24 key columns would)."""
    tokens = example_tokens(result)
    rows = []
    for query, weights in enumerate(result.maps[layer - 1][head - 1]):
        seen = "; ".join(f"{key + 1} {tokens[key]} {weights[key]:.2f}" for key in range(query + 1))
        later = len(tokens) - query - 1
        blocked = f"; {later} later keys blocked (future)" if later else ""
        rows.append({"query": f"{query + 1} {tokens[query]}", "weight on each key it may see": seen + blocked})
    return rows


def map_row_sentence(result: HeadsResult, layer: int, head: int, row: int) -> str:
    tokens = example_tokens(result)
    weights = result.maps[layer - 1][head - 1][row]
    order = sorted(range(row + 1), key=lambda key: -weights[key])[:3]
    top = ", ".join(f"**{key + 1} {tokens[key]}** {weights[key]:.2f}" for key in order)
    return f"Query **{row + 1} {tokens[row]}** looks most at {top}."


# --- 3. dropout against memorising -------------------------------------------------------------------------


def dropout_levels(result: DropoutResult) -> tuple[tuple[str, float], ...]:
    return levels_of("dropout", {"entropy": result.entropy})


def dropout_rows(result: DropoutResult) -> list[dict[str, str]]:
    return [{"dropout p": f"{run.p:g}", "training loss": f"{run.train_loss:.3f}",
             "held-out loss": f"{run.held_out_loss:.3f}", "gap": f"{run.gap:.2f}"} for run in result.runs]


def _memorised_sentence(result: DropoutResult, runs) -> str:
    """How many models learned their sentences by heart (measures.by_heart), in a sentence that fits the count."""
    setting = f"{result.config.train_sentences} training sentences ({result.distinct_train_sentences} different)"
    entropy = f"the true entropy ({result.entropy:.2f})"
    memorised = [run for run in runs if measures.by_heart(run.train_loss, result.entropy)]
    if not memorised:
        count = "the model does not end" if len(runs) == 1 else f"none of the {len(runs)} models ends"
        return (f"With {setting}, {count} with a training loss below {entropy}: no sentence learned by heart shows "
                "in this run.")
    if len(memorised) == len(runs):
        count = "the model ends" if len(runs) == 1 else f"all {len(runs)} models end"
        return f"With {setting}, {count} with a training loss below {entropy}: sentences learned by heart."
    names = ", ".join(rate_label(run.p) for run in memorised)
    return (f"With {setting}, {len(memorised)} of {len(runs)} models end with a training loss below {entropy} "
            f"({names}): those learned sentences by heart, the others did not.")


def _gap_sentence(no_dropout: DropoutRun, best: DropoutRun, result: DropoutResult) -> str:
    """How the gap of the dropout model with the lowest held-out loss compares with p = 0's: decided from the two
    gaps themselves (measures.gap_change), not from the held-out losses."""
    change = measures.gap_change(no_dropout.gap, best.gap)
    gaps = f"from {no_dropout.gap:.2f} (p = 0) to **{best.gap:.2f}** ({rate_label(best.p)})"
    if change == "same":
        return (f" The gap stays about where it was: {no_dropout.gap:.2f} at p = 0, {best.gap:.2f} at "
                f"{rate_label(best.p)}.")
    if change == "widens":
        return f" Yet the gap between training and held-out loss widens, {gaps}."
    if measures.gap_closed(best.gap):
        return f" It narrows the gap {gaps}, and closes it."
    text = f" It narrows the gap {gaps}, but does not close it."
    if measures.by_heart(best.train_loss, result.entropy):
        text += (" At this scale the few training sentences give too little to learn from, and dropout cannot make "
                 f"up for that. {_lesson_model_warning()}")
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
        return text + f" The held-out loss is {only.held_out_loss:.3f}, a gap of {only.gap:.2f}."
    if no_dropout is None:
        best = min(runs, key=lambda run: run.held_out_loss)
        return text + (f" There is no p = 0 model here, so this run cannot say what dropout changes: add p = 0 to "
                       f"compare. Of these, {rate_label(best.p)} has the lowest held-out loss, "
                       f"{best.held_out_loss:.3f}.")
    best = min(with_dropout, key=lambda run: run.held_out_loss)
    if best.held_out_loss >= no_dropout.held_out_loss:
        text += (f" Here dropout did not lower the held-out loss: p = 0 ends at {no_dropout.held_out_loss:.3f}, "
                 f"the best with dropout ({rate_label(best.p)}) at {best.held_out_loss:.3f}.")
    else:
        text += (f" Dropout {rate_label(best.p)} lowers the held-out loss from {no_dropout.held_out_loss:.3f} "
                 f"(p = 0) to **{best.held_out_loss:.3f}**.")
    return text + _gap_sentence(no_dropout, best, result)


def dropout_task(result: DropoutResult | None) -> str:
    """The dropout experiment's "Your turn", about the run on screen or, before any run, a prediction."""
    if result is None:
        return ("Your turn: predict, then press **Train**. Will dropout lower the held-out loss against p = 0, and "
                "will the gap close?")
    runs = sorted(result.runs, key=lambda run: run.p)
    no_dropout = next((run for run in runs if run.p == 0), None)
    with_dropout = [run for run in runs if run.p > 0]
    if no_dropout is None or not with_dropout:
        return ("Your turn: choose p = 0 and at least one p above it, and press **Train**: does dropout lower the "
                "held-out loss?")
    best = min(with_dropout, key=lambda run: run.held_out_loss)
    lowered = "still lower" if best.held_out_loss < no_dropout.held_out_loss else "lower, this time,"
    gap = "stay closed" if measures.gap_closed(best.gap) else "stay open"
    return (f"Your turn: change the seed and press **Train**. With other training sentences, does dropout {lowered} "
            f"the held-out loss, and does the gap {gap}?")


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
    return (f"The lesson warns of the same at scale: its GPT-2-sized model, {size} parameters, trained on one short "
            "story, learns that story by heart.")
