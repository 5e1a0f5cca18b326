"""The causal-mask section: who may look at whom, each question beside the check that computes its answer."""

from __future__ import annotations

import numpy as np

from attn_core import Settings, compute, maths
from attn_lang import N_
from attn_ui.quiz.model import LabLink, Option, Question, Section, only_true, pick

SECTION = Section("causal", N_("Causal mask"), N_("Who may look at whom when the model predicts the next word."))


def _causal_why_claims() -> int:
    leaky, masked = compute(Settings()), compute(Settings(causal=True))
    cheaper = masked.score_bytes < leaky.score_bytes
    return only_true(cheaper, None, leaky.sees_future and not masked.sees_future)


WHY = Question(
    id="causal-why",
    section="causal",
    prompt=N_("A next-token model at position t is trained to output word t + 1. "
    "Why must it be kept from attending to positions after t?"),
    options=(
        Option(N_("Reading the later words makes each training step slower, so training would take far too long."),
               N_("Speed is not the reason: the mask does not even make attention cheaper, the full table of "
                  "scores is still computed.")),
        Option(N_("Later words carry less meaning than earlier ones, so attending to them only adds noise."),
               N_("Later words are not weaker; the trouble is that they are too useful, because they contain "
                  "the very word being predicted.")),
        Option(N_("It would copy the answer from the later words in training, and they do not exist yet when "
                  "it writes text.")),
    ),
    answer=2,
    explanation=N_("Training shows the model a whole sentence at once, so without a mask the word it must "
    "predict is right there in its input. It learns to read that word off instead of learning language, "
    "and its training loss looks superb. When it generates, the next word has not been written yet, the "
    "shortcut is gone and its guesses collapse. Blocking every later position makes training see exactly "
    "what generation will see."),
    lab=LabLink(N_("See the leaky layer in the Lab"), {"causal": False}),
    check=_causal_why_claims,
)


SHAPE = Question(
    id="causal-shape",
    section="causal",
    prompt=N_("A sentence has 6 tokens. What is the shape of its causal mask?"),
    options=(
        Option(N_("(6,): one flag per token"),
               N_("Six flags could only say which words are blocked for everyone, which is what a padding "
                  "mask does. The causal rule differs from row to row.")),
        Option("(6, 6)"),
        Option("(1, 6)",
               N_("(1, 6) is the shape of a padding mask: a single row that is copied down for every query. "
                  "The causal mask blocks different cells in every row.")),
    ),
    answer=1,
    explanation=N_("The mask lies over the weight table, which has one row per word doing the looking and "
    "one column per word being looked at. Whether word i may look at word j depends on both i and j, so "
    "the mask needs a True/False for every pair: 6 rows by 6 columns."),
    lab=LabLink(N_("See the 6 × 6 mask in the Lab"), {"causal": True}),
    check=lambda: pick(((6,), (6, 6), (1, 6)), maths.causal_mask(6).shape),
)


def _open_cells_4_tokens() -> int:
    result = compute(Settings(sentence="Your journey starts with", causal=True))
    return pick((4, 6, 10, 16), int((~result.blocked[0]).sum()))


OPEN_CELLS = Question(
    id="causal-open-cells",
    section="causal",
    prompt=N_("Only the causal mask is on, and the sentence has 4 tokens. Of the 16 weights, how many can be "
    "above 0?"),
    options=(
        Option("4", N_("Not just the diagonal: the mask blocks only the cells strictly above it, so every "
                       "word still sees the words before it.")),
        Option("6", N_("6 is the number of blocked cells, the ones above the diagonal.")),
        Option("10"),
        Option("16", N_("16 is the whole table, as it is without any mask.")),
    ),
    answer=2,
    explanation=N_("Row 1 may look only at itself, row 2 at two words, row 3 at three and row 4 at all four: "
    "1 + 2 + 3 + 4 = 10 open cells. The 6 cells above the diagonal get a weight of exactly 0."),
    lab=LabLink(N_("Try it with 4 words in the Lab"), {"sentence": "Your journey starts with", "causal": True}),
    check=_open_cells_4_tokens,
)


MASKED_COUNT = Question(
    id="causal-masked-count",
    section="causal",
    prompt=N_("Switch the causal mask on for the 6-word sentence. How many cells does it block?"),
    options=(
        Option("6", N_("That would be one blocked cell per row, but early words have more future than late "
                       "ones.")),
        Option("15"),
        Option("21", N_("21 = 1 + 2 + … + 6 counts the open cells, the diagonal included.")),
        Option("36", N_("36 is every cell of the 6 × 6 table.")),
    ),
    answer=1,
    explanation=N_("Count the cells above the diagonal row by row: word 1 has 5 later words, word 2 has 4, "
    "and so on down to none for the last word. 5 + 4 + 3 + 2 + 1 = 15, a triangular number; for T tokens "
    "it is T(T − 1)/2."),
    lab=LabLink(N_("See “Masked cells” in the Lab"), {"causal": True}),
    check=lambda: pick((6, 15, 21, 36), compute(Settings(causal=True)).masked_cells),
)


def _unchanged_rows() -> int:
    plain, causal = compute(Settings()), compute(Settings(causal=True))
    same = tuple(
        row + 1 for row in range(len(plain.tokens)) if np.allclose(plain.weights[0, row], causal.weights[0, row])
    )
    return pick(((1,), (6,), (), tuple(range(1, 7))), same)


SAME_ROW = Question(
    id="causal-same-row",
    section="causal",
    prompt=N_("Toggle the causal mask on for “Your journey starts with one step”. "
    "Which row of weights stays exactly as it was?"),
    options=(
        Option(N_("Row 1 (Your)"),
               N_("Without the mask row 1 spreads its weight over all six words; with it, row 1 puts "
                  "everything on itself. No row changes more.")),
        Option(N_("Row 6 (step)")),
        Option(N_("None: every row changes"), N_("The last word has no future, so the mask takes nothing from "
                                             "its row.")),
        Option(N_("All of them: the mask only greys cells out"),
               N_("The weight a blocked cell loses is shared out again by the softmax, so the open cells of "
                  "that row change too.")),
    ),
    answer=1,
    explanation=N_("The last word may look at every word, so the mask removes nothing from its row and its "
    "weights stay the same. Every other row loses its future cells, and the softmax shares the whole "
    "weight among the words that remain, so those rows change. Row 1 changes the most: from six words to "
    "all of its weight on itself. If a lesson told you the top row never changes, it meant with the mask "
    "on: row 1 then always puts all its weight on itself; compared with no mask, it is the row that "
    "changes most."),
    lab=LabLink(N_("Open the Lab on row 6 with the mask on"), {"causal": True}, {"row": "6"}),
    check=_unchanged_rows,
)


def _earlier_rows_move(route: str) -> bool:
    """Change the last word with the causal mask on: does any earlier row's output move?"""
    base = compute(Settings(causal=True, route=route))
    other = compute(Settings(sentence="Your journey starts with one leap", causal=True, route=route))
    return not np.allclose(base.output[:-1], other.output[:-1], rtol=0, atol=1e-12)


def _neg_inf_claims() -> int:
    scores = compute(Settings()).scores  # (h, T, T) before any mask
    blocked = maths.causal_mask(scores.shape[-1])  # (T, T)
    neg_inf = maths.apply_route(scores, blocked, "neg_inf")
    zero_after = maths.apply_route(scores, blocked, "zero_after")
    renormalized = maths.apply_route(scores, blocked, "renormalize")
    one_step = (np.allclose(neg_inf.sum(-1), 1) and bool((zero_after.sum(-1) < 1 - 1e-9).any())
                and not _earlier_rows_move("neg_inf") and _earlier_rows_move("zero_after"))
    zero_after_safe = not _earlier_rows_move("zero_after")
    different = not np.allclose(neg_inf, renormalized)
    return only_true(one_step, zero_after_safe, different)


NEG_INF = Question(
    id="causal-neg-inf",
    section="causal",
    prompt=N_("Why are blocked scores set to −∞ *before* the softmax, instead of zeroing the blocked weights "
    "*after* it?"),
    options=(
        Option(N_("The softmax then leaves the later words out entirely: each row adds up to 1 and no earlier "
                  "output depends on them.")),
        Option(N_("Both routes are equally safe: a zeroed weight passes nothing on, so no later word can "
                  "change an earlier output."),
               N_("The zeroed weights pass nothing on, but the weights that are kept were divided by a sum "
                  "that counted the later words. Change a later word and the earlier rows move.")),
        Option(N_("The two routes give different weights even when each row is divided by its new sum: a "
                  "softmax cannot be undone."),
               N_("After that extra division both routes give identical weights; −∞ simply gets there in one "
                  "step.")),
    ),
    answer=0,
    explanation=N_("$e^{-\\infty}$ is 0, so a −∞ score drops out of the softmax: the blocked cell gets weight 0 and "
    "the row is normalised over the open cells alone. Take the softmax first and its denominator has "
    "already counted the future; zeroing those weights afterwards leaves a row that sums to less than 1 "
    "and whose kept weights still move when a later word changes. Dividing by the new total repairs "
    "both; masking first does it all in one step."),
    lab=LabLink(N_("See the rows that no longer add up to 1"), {"causal": True, "route": "zero_after"}),
    check=_neg_inf_claims,
)


def _no_leak_claims() -> int:
    base = compute(Settings(causal=True))
    other = compute(Settings(sentence="Your journey starts with one cat", causal=True))
    earlier_same = np.allclose(base.output[:-1], other.output[:-1])  # rows 1..T-1 ignore the last word
    last_differs = not np.allclose(base.output[-1], other.output[-1])
    zero_weight = bool((base.weights[:, base.blocked_by_causal] == 0).all())
    rows_removed = base.values.shape[1] < len(base.tokens)
    return only_true(rows_removed, None, zero_weight and earlier_same and last_differs)


NO_LEAK = Question(
    id="causal-no-leak",
    section="causal",
    prompt=N_("With the causal mask on, the values of the later words are still inside V. "
    "Why does nothing leak from them?"),
    options=(
        Option(N_("The mask also removes the later rows of V, so each output is built from the earlier values "
                  "alone."),
               N_("V keeps all its rows: the last word needs every value, its own included.")),
        Option(N_("The softmax shrinks those values towards 0, so what they add to each output is tiny."),
               N_("The softmax acts on the scores, never on the values; V is left as it is.")),
        Option(N_("Their weights are exactly 0, so they add 0 × v = 0 to each earlier word’s output.")),
    ),
    answer=2,
    explanation=N_("A word’s output is its row of weights times V. Every later word sits in a blocked cell "
    "of that row, so its value vector is multiplied by exactly 0 and adds nothing. The mask never touches "
    "V; it only makes sure the future is never chosen. The core confirms it: change the last word and the "
    "outputs of all earlier words stay identical."),
    lab=LabLink(N_("Open the Lab with the mask on"), {"causal": True}),
    check=_no_leak_claims,
)


def _zero_score_percent() -> int:
    scores = np.array([[0.34, 0.05, 5.0]])  # (1, 3): the blocked score's own value must not matter
    blocked = np.array([[False, False, True]])
    weights = maths.apply_route(scores, blocked, "zero_score")  # (1, 3)
    assert maths.apply_route(scores, blocked, "neg_inf")[0, 2] == 0.0, "a -inf score must get a weight of exactly 0"
    return pick((0, 29, 50), round(100 * float(weights[0, 2])))


ZERO_TRAP = Question(  # page 1's question, so it counts under the causal mask; last here, it keeps its place in
    # the bank's order (an `answers` link is positional) and its id
    id="pad-zero-trap",
    section="causal",
    prompt=N_("A query row has the scores [0.34, 0.05, blocked]: the third word comes after the query, so it must "
    "be blocked. Suppose a blocked score were set to **0** instead of −∞. With "
    "$e^{0.34} \\approx 1.40$, $e^{0.05} \\approx 1.05$ and $e^{0} = 1$, how much of the row’s weight would "
    "go to the blocked word?"),
    options=(
        Option("0%", N_("−∞ would give 0%. A score of 0 turns into $e^{0} = 1$ inside the softmax, which is "
                        "far from nothing.")),
        Option(N_("about 29%")),
        Option(N_("exactly 50%"), N_("50% would need the blocked word’s $e^{0}$ to match the other two together, but "
                                     "1 is less than 1.40 + 1.05.")),
    ),
    answer=1,
    explanation=N_("A score of 0 does not block anything: $e^{0} = 1$, and that 1 joins the sum. The sum is "
    "$e^{0.34} + e^{0.05} + 1 \\approx 1.40 + 1.05 + 1 = 3.45$, so the blocked word gets 1 / 3.45 ≈ 0.29 of the "
    "weight, against 0.30 for the second word and 0.41 for the first. Only −∞ becomes exactly 0 after the "
    "exponential, which is why blocked scores must be −∞."),
    # the question's blocked word is a later one: the Lab shows the causal mask with zero scores, and a row whose
    # later words take weight
    lab=LabLink(N_("See the trap in the Lab"), {"causal": True, "route": "zero_score"}, {"row": "2"}),
    check=_zero_score_percent,
)


QUESTIONS: tuple[Question, ...] = (WHY, SHAPE, OPEN_CELLS, MASKED_COUNT, SAME_ROW, NEG_INF, NO_LEAK,
                                   ZERO_TRAP)  # the page's order
