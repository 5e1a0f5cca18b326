"""The dropout section: dropping weights while training and the rescale, each question beside its check."""

from __future__ import annotations

import numpy as np

from attn_core import Settings, compute, maths
from attn_lang import N_
from attn_ui.quiz.model import LabLink, Option, Question, Section, only_true, pick

SECTION = Section("dropout", N_("Dropout"), N_("Dropping weights while training, and the rescale."))


def _rescale_claims() -> int:
    def mean_row_sum(rescale: bool) -> float:
        sums = [compute(Settings(dropout=0.5, roll=roll, rescale=rescale)).row_sums.mean() for roll in range(60)]
        return float(np.mean(sums))

    average_one = abs(mean_row_sum(True) - 1) < 0.05 and abs(mean_row_sum(False) - 0.5) < 0.05
    sums = compute(Settings(dropout=0.5, rescale=True)).row_sums
    exact_every_step = bool(np.allclose(sums, 1))
    return only_true(average_one, exact_every_step, None)


RESCALE = Question(
    id="dropout-rescale",
    section="dropout",
    prompt=N_("While training, dropout sets a share p of the attention weights to 0. "
    "Why are the surviving weights multiplied by 1/(1 − p)?"),
    options=(
        Option(N_("So each row still sums to about 1 on average, as rows do at inference.")),
        Option(N_("So every row sums to exactly 1 after every dropout step, as the softmax left it."),
               N_("A row’s sum wobbles with the random pattern of each step; only its average is 1.")),
        Option(N_("So the dropped weights can be put back at inference, when the full rows are needed."),
               N_("Nothing is put back: at inference dropout is simply switched off.")),
    ),
    answer=0,
    explanation=N_("Dropping a share p of a row leaves it summing to about 1 − p, so training outputs would "
    "be smaller than inference outputs, where nothing is dropped. Dividing the survivors by 1 − p brings "
    "the average back to 1. Forget it and the model trains on outputs that are too small and then meets "
    "full-size ones in use: a mismatch that no error message reports."),
    lab=LabLink(N_("See row sums without the rescale"), {"dropout": 0.5, "rescale": False}),
    check=_rescale_claims,
)


def _dropout_factor() -> int:
    kept = maths.apply_dropout(np.ones(1), np.ones(1, dtype=bool), 0.1, rescale=True)  # (1,)
    return pick((0.9, 1.0, 1.11, 10.0), round(float(kept[0]), 2))


FACTOR = Question(
    id="dropout-factor",
    section="dropout",
    prompt=N_("GPT-2 trains with dropout p = 0.1. By what factor are the surviving weights scaled?"),
    options=(
        Option(N_("× 0.9"), N_("Multiplying by 0.9 would shrink the survivors further, the opposite of the fix.")),
        Option(N_("× 1 (unchanged)"), N_("Without a rescale the rows lose about a tenth of their weight on "
                                  "average.")),
        Option(N_("× 1.11 (about)")),
        Option("× 10", N_("10 is 1/p. The rescale divides by the share that survives, 1 − p.")),
    ),
    answer=2,
    explanation=N_("The factor is 1/(1 − p) = 1/0.9 ≈ 1.11: the survivors grow by a ninth to make up for "
    "the tenth that was dropped. With p = 0.5 the survivors would double."),
    lab=LabLink(N_("Try p = 0.1 in the Lab"), {"dropout": 0.1}),
    check=_dropout_factor,
)


def _inference_claims() -> int:
    trained = compute(Settings(dropout=0.5, training=False))
    plain = compute(Settings())
    off = trained.dropped_cells == 0 and np.array_equal(trained.weights, plain.weights)
    return only_true(not off, not off, off)


INFERENCE = Question(
    id="dropout-inference",
    section="dropout",
    prompt=N_("The model is trained and now generates text. What does attention dropout do?"),
    options=(
        Option(N_("It keeps dropping a share p, so every answer comes out different."),
               N_("That would make generation random and a little worse; dropout is for training only.")),
        Option(N_("It still drops a share p but skips the rescale."),
               N_("Neither happens: with dropout off there is nothing to drop and nothing to rescale.")),
        Option(N_("Nothing: it is switched off, so the same input always gives the same weights.")),
    ),
    answer=2,
    explanation=N_("Dropout only helps during training, where it stops the weights from leaning on a few "
    "favourite keys. At inference it is off: no weight is dropped, nothing is rescaled, and the output "
    "depends only on the input and the trained weights."),
    lab=LabLink(N_("Open the Lab in inference mode"), {"dropout": 0.5, "training": False}),
    check=_inference_claims,
)


QUESTIONS: tuple[Question, ...] = (RESCALE, FACTOR, INFERENCE)  # the page's order
