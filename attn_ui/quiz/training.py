"""The training section: predict what the runs of "Train it yourself" show, each question beside its check.

The checks read the shipped runs (assets/training/, regenerated bit for bit by tests/core/test_training_presets.py),
so an answer is what the page itself shows, not a belief about training.
"""

from __future__ import annotations

from attn_core.training import PRESETS
from attn_lang import N_
from attn_ui.quiz.model import Option, Question, Section, only_true

SECTION = Section("training", N_("Train it yourself"),
                  N_("What the causal mask, the heads and dropout do to a model that learns. Predict, then train it."))


def _shipped(name: str):
    return PRESETS[name].shipped()


def _which_reaches_zero() -> int:
    off = _shipped("mask").unmasked
    chance = _shipped("mask").chance_loss
    one_pass = off.train_loss < 0.01 and off.held_out_loss < 0.01
    return only_true(one_pass and off.generating_loss > chance, off.generating_loss < 0.01,
                     off.train_loss > 0.5 * chance)


REACHES_ZERO = Question(
    id="train-mask-off-zero",
    section="training",
    prompt=N_("A model learns the toy language **without** the causal mask. Which of its losses falls close to zero?"),
    options=(
        Option(N_("The training and held-out losses, read in one pass: each position sees the next word.")),
        Option(N_("The generating loss: the model has learnt the grammar and writes perfect sentences."),
               N_("Generating, the next word does not exist yet, so there is nothing to copy: that loss ends above "
                  "chance, and the sentences fall apart.")),
        Option(N_("None of them: without the mask the scores are too noisy for it to learn."),
               N_("It learns fast, but it learns to copy the word to its right instead of predicting it.")),
    ),
    answer=0,
    explanation=N_("Without the mask the position of a word can look at the word after it, so in one pass the "
    "answer is right there: training and held-out losses both drop close to zero. Generating, the model sees "
    "only what it has written, and its loss ends above chance. Great training loss, useless generation."),
    check=_which_reaches_zero,
)


def _masked_generating() -> int:
    result = _shipped("mask")
    on = result.masked
    close = abs(on.generating_loss - on.train_loss) < 0.01
    settled = all(result.entropy <= loss < result.entropy + 0.05 for loss in (on.train_loss, on.generating_loss))
    return only_true(close and settled, on.generating_loss > on.train_loss + 0.5,
                     on.generating_loss < on.train_loss - 0.5)


MASKED_GENERATING = Question(
    id="train-mask-on-generating",
    section="training",
    prompt=N_("Now **with** the causal mask. How does the generating loss end, next to the training loss?"),
    options=(
        Option(N_("About equal: both settle just above the language's true entropy.")),
        Option(N_("Far above it, as without the mask: generating is harder than reading."),
               N_("With the mask, a position cannot read a later word, so removing the later words changes nothing.")),
        Option(N_("Far below it: with the mask on, generating is easier than reading."),
               N_("The true entropy is a floor no model goes below on average; both sit on it.")),
    ),
    answer=0,
    explanation=N_("With the mask each prediction already uses only the words before it, just as in "
    "generation, so the two losses agree. They settle just above the true entropy: the grammar's own "
    "uncertainty about the next word, which no model can remove."),
    check=_masked_generating,
)


def _layer_two_scores() -> int:
    second = [score for score in _shipped("heads").heads if score.layer == 2]
    induction = all(s.induction > max(s.previous_token, s.duplicate_token) for s in second)
    previous = all(s.previous_token > max(s.induction, s.duplicate_token) for s in second)
    duplicate = all(s.duplicate_token > max(s.induction, s.previous_token) for s in second)
    return only_true(previous, induction, duplicate)


LAYER_TWO = Question(
    id="train-heads-layer-two",
    section="training",
    prompt=N_("A two-layer model learns sequences in which a stretch repeats. After training, where do the "
    "second layer's heads put their weight while they read the repeat?"),
    options=(
        Option(N_("On the token just before the current one (a previous-token head)."),
               N_("That pattern is what interpretability work often finds in the first layer; here the second "
                  "layer's weight on it stays small.")),
        Option(N_("On the token after the earlier copy of the current token (induction heads).")),
        Option(N_("On the earlier copy of the current token itself, where it last appeared."),
               N_("That is the first layer's trick in this run; the second layer reads one position further on.")),
    ),
    answer=1,
    explanation=N_("To predict the second copy, the model must find where the current token appeared before and "
    "read what came next. Both second-layer heads learn to do that: their induction score dominates."),
    check=_layer_two_scores,
)


def _silenced_head() -> int:
    result = _shipped("heads")
    worst = max(result.heads, key=lambda score: score.silenced_repeat_loss)
    breaks = worst.silenced_repeat_loss > 0.9 * result.chance_loss
    duplicate_head = worst.layer == 1 and worst.duplicate_token > 0.9 and breaks
    previous_head = worst.previous_token > 0.5 and breaks
    return only_true(previous_head, duplicate_head, not breaks)


SILENCED = Question(
    id="train-heads-silence",
    section="training",
    prompt=N_("Silencing a head sets its output to zero. Silencing which head sends the loss on the repeat back "
    "to about chance?"),
    options=(
        Option(N_("A previous-token head, which looks at the token just before the current one."),
               N_("No head of this run became a previous-token head; their scores stay small.")),
        Option(N_("The first-layer head that looks at the earlier copy of the current token.")),
        Option(N_("None: the other heads take over, so the loss on the repeat barely moves."),
               N_("Silence that first-layer head and the repeat loss climbs back to about chance: the second "
                  "layer had nothing to read.")),
    ),
    answer=1,
    explanation=N_("The first layer finds the earlier copy of the current token; the second layer reads the "
    "token after it. Take the first step away and the second has nothing to work with, so the repeat "
    "becomes as hard as random tokens."),
    check=_silenced_head,
)


def _dropout_gap() -> int:
    result = _shipped("dropout")
    first, *others = sorted(result.runs, key=lambda run: run.p)
    best = min(others, key=lambda run: run.held_out_loss)
    narrows = best.gap < first.gap
    closes = best.gap < 0.1
    return only_true(narrows and not closes, closes, not narrows)


DROPOUT_GAP = Question(
    id="train-dropout-gap",
    section="training",
    prompt=N_("A model learns a training set small enough to learn by heart. What does dropout on the attention "
    "weights do to the gap between its training loss and its held-out loss?"),
    options=(
        Option(N_("It narrows the gap, but the gap stays wide.")),
        Option(N_("It closes the gap: both losses end up level."),
               N_("At this size there is too little text to learn the grammar from; dropout cannot make up for it.")),
        Option(N_("It widens the gap: the held-out loss goes up."),
               N_("The held-out loss goes down with dropout here, not up.")),
    ),
    answer=0,
    explanation=N_("Dropout keeps the model from leaning on single attention weights, so it memorises a little "
    "less and the held-out loss goes down. But with a couple of dozen sentences the model still learns them "
    "by heart; the lesson's model has far more text to learn from."),
    check=_dropout_gap,
)

QUESTIONS: tuple[Question, ...] = (REACHES_ZERO, MASKED_GENERATING, LAYER_TWO, SILENCED, DROPOUT_GAP)
