"""What each experiment of "Train it yourself" shows once a run has finished, in words: the verdict, the tiles and
tables, the learned map in words, and the "Your turn" task about the run on screen. Pure text: no Streamlit, no
Plotly.

Every number is formatted from the run's result at run time, and each comparison ("below", "narrows") is decided
from that result (attn_core.training.measures), so a custom run that turns out differently is described as it
turned out. Each sentence is one whole message with named placeholders. The page's fixed words, the status lines
and the curves in words are in training_words.
"""

from __future__ import annotations

from attn_core.lessons.heads import GPT2
from attn_core.training import measures
from attn_core.training.experiments import Curve, DropoutResult, DropoutRun, HeadsResult, MaskResult, MaskRun
from attn_lang import N_, _, _n, number
from attn_ui.words.escape import md_escape
from attn_ui.words.training_words import WAYS, example_tokens, model_name, rate_label

# --- 1. mask off vs on --------------------------------------------------------------------------------------------


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
