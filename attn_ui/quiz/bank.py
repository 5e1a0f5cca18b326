"""The question bank of "Check yourself": every question the two lessons pose, as data. No Streamlit here.

A question has options, the index of the right one (or, for an ordering question, the right order), a
one-paragraph explanation, a "why not" for every wrong option, and optionally a Lab link and a `check`. The
check derives the right option from attn_core (shapes, counts, weights), so tests/ui/test_questions_bank.py
can hold every answer to what the core computes. The app never runs any code a student types: the code
questions are choices between fixed snippets, and only the tests execute those snippets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from attn_core import Settings, SettingsError, compute, maths, valid_head_counts

Answer = int | tuple[int, ...]  # an option index, or an order of option indexes


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    blurb: str  # one line under the section's heading


@dataclass(frozen=True)
class Option:
    text: str  # Markdown for a choice; plain code for an ordering step or a code version
    why: str = ""  # wrong option: the mistake it stands for. Ordering step: what goes wrong if it comes too early


@dataclass(frozen=True)
class LabLink:
    """Settings fields (as for Settings.coerce) that make the Lab show the point of a question."""

    label: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    view: Mapping[str, str] = field(default_factory=dict)  # view-only URL keys, e.g. {"row": "6"}

    def __post_init__(self) -> None:  # read-only copies: the bank is shared by every session
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))
        object.__setattr__(self, "view", MappingProxyType(dict(self.view)))

    def settings(self) -> tuple[Settings, list[str]]:
        return Settings.coerce(**self.fields)


@dataclass(frozen=True)
class Question:
    id: str
    section: str
    prompt: str  # Markdown, our own words
    options: tuple[Option, ...]
    answer: Answer
    explanation: str  # one short paragraph: why the answer is right
    kind: str = "choice"  # "choice", "code" (each option is a code version) or "order"
    code: str = ""  # shown with st.code under the prompt
    lab: LabLink | None = None
    check: Callable[[], Answer] | None = field(default=None, repr=False, compare=False)

    @property
    def right_text(self) -> str:
        if self.kind == "order":
            return "\n".join(self.options[i].text for i in self.answer)
        return self.options[self.answer].text


@dataclass(frozen=True)
class Feedback:
    correct: bool
    verdict: str  # Markdown for the coloured box: right or wrong, and what the wrong pick stands for
    more: str = ""  # Markdown shown under the box (the explanation, after a wrong pick)


# --- helpers that turn a core computation into the index of the right option -------------------------


def pick(values: Sequence[Any], value: Any) -> int:
    """Index of the option whose value the core computed; -1 when none matches (a test then fails)."""
    matches = [i for i, candidate in enumerate(values) if candidate == value]
    return matches[0] if len(matches) == 1 else -1


def only_true(*claims: bool | None) -> int:
    """Index of the single option whose claim the core confirms; None marks a claim the core cannot test."""
    true = [i for i, claim in enumerate(claims) if claim is True]
    return true[0] if len(true) == 1 else -1


def letter(index: int) -> str:
    return "ABCDEFGH"[index]


# --- the checks: each one computes its question's answer with the core ---------------------------------

SENTENCE = "Your journey starts with one step"  # the default sentence, 6 words


def _open_cells_4_tokens() -> int:
    result = compute(Settings(sentence="Your journey starts with", causal=True))
    return pick((4, 6, 10, 16), int((~result.blocked[0]).sum()))


def _unchanged_rows() -> int:
    plain, causal = compute(Settings()), compute(Settings(causal=True))
    same = tuple(
        row + 1 for row in range(len(plain.tokens)) if np.allclose(plain.weights[0, row], causal.weights[0, row])
    )
    return pick(((1,), (6,), (), tuple(range(1, 7))), same)


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


def _no_leak_claims() -> int:
    base = compute(Settings(causal=True))
    other = compute(Settings(sentence="Your journey starts with one cat", causal=True))
    earlier_same = np.allclose(base.output[:-1], other.output[:-1])  # rows 1..T-1 ignore the last word
    last_differs = not np.allclose(base.output[-1], other.output[-1])
    zero_weight = bool((base.weights[:, base.blocked_by_causal] == 0).all())
    rows_removed = base.values.shape[1] < len(base.tokens)
    return only_true(rows_removed, None, zero_weight and earlier_same and last_differs)


def _causal_why_claims() -> int:
    leaky, masked = compute(Settings()), compute(Settings(causal=True))
    cheaper = masked.score_bytes < leaky.score_bytes
    return only_true(cheaper, None, leaky.sees_future and not masked.sees_future)


def _zero_score_percent() -> int:
    scores = np.array([[0.34, 0.05, 5.0]])  # (1, 3): the blocked score's own value must not matter
    blocked = np.array([[False, False, True]])
    weights = maths.apply_route(scores, blocked, "zero_score")  # (1, 3)
    assert maths.apply_route(scores, blocked, "neg_inf")[0, 2] == 0.0
    return pick((0, 29, 50), round(100 * float(weights[0, 2])))


def _broadcast_shape() -> int:
    is_pad = np.zeros((2, 5), dtype=bool)  # (B, T)
    padding = maths.padding_mask(is_pad)  # (2, 1, 5)
    assert padding.shape == (2, 1, 5)
    scores = np.zeros((2, 5, 5))  # (B, T, T)
    blocked = np.broadcast_to(maths.combine_masks(np.zeros((5, 5), dtype=bool), padding), scores.shape)
    return pick(((2, 1, 5), (2, 5, 5), (2, 5, 1), "error"), blocked.shape)


def _empty_after_padding() -> int:
    result = compute(Settings(padded=(5, 6)))
    weights = result.weights[0]  # (T, T)
    columns = tuple(int(j) + 1 for j in np.flatnonzero((weights == 0).all(axis=0)))
    rows = tuple(int(i) + 1 for i in np.flatnonzero((weights == 0).all(axis=1)))
    return pick((((5, 6), ()), ((), (5, 6)), ((5, 6), (5, 6)), ((), ())), (columns, rows))


def _one_open_cell_row() -> int:
    always: set[int] | None = None
    for padded_count in range(0, 6):  # pad the last 0..5 words; word 1 stays a real word
        padded = tuple(range(7 - padded_count, 7))
        result = compute(Settings(causal=True, padded=padded))
        open_cells = (~result.blocked[0]).sum(axis=1)  # (T,)
        rows = {int(i) + 1 for i in np.flatnonzero(open_cells == 1)}
        always = rows if always is None else always & rows
    return pick(((1,), (6,), "first PAD row", ()), tuple(sorted(always or ())))


def _rescale_claims() -> int:
    def mean_row_sum(rescale: bool) -> float:
        sums = [compute(Settings(dropout=0.5, roll=roll, rescale=rescale)).row_sums.mean() for roll in range(60)]
        return float(np.mean(sums))

    average_one = abs(mean_row_sum(True) - 1) < 0.05 and abs(mean_row_sum(False) - 0.5) < 0.05
    sums = compute(Settings(dropout=0.5, rescale=True)).row_sums
    exact_every_step = bool(np.allclose(sums, 1))
    return only_true(average_one, exact_every_step, None)


def _dropout_factor() -> int:
    kept = maths.apply_dropout(np.ones(1), np.ones(1, dtype=bool), 0.1, rescale=True)  # (1,)
    return pick((0.9, 1.0, 1.11, 10.0), round(float(kept[0]), 2))


def _inference_claims() -> int:
    trained = compute(Settings(dropout=0.5, training=False))
    plain = compute(Settings())
    off = trained.dropped_cells == 0 and np.array_equal(trained.weights, plain.weights)
    return only_true(not off, not off, off)


def _concat_shape() -> int:
    per_head = np.zeros((2, 3, 2))  # (h, T, dh)
    return pick(((3, 2), (2, 3, 2), (3, 4), (6, 2)), maths.merge_heads(per_head).shape)


def _head_two_column() -> int:
    per_head = np.arange(2.0)[:, None, None] * np.ones((2, 3, 2))  # (h, T, dh), every number = its head index
    row = maths.merge_heads(per_head)[0]  # (d,)
    column_number = int(np.flatnonzero(row == 1)[0]) + 1  # the second head's first column, counted from 1
    return pick((2, 3, 4, 5), column_number)


def _d_head(d_model: int, heads: int, values: tuple[int, ...]) -> Callable[[], int]:
    def check() -> int:
        return pick(values, maths.split_heads(np.zeros((1, d_model)), heads).shape[-1])

    return check


def _lab_d_head() -> int:
    return pick((3, 4, 12, 48), compute(Settings(heads=4)).d_head)


def _divide_claims() -> int:
    try:
        Settings(d_model=12, heads=5)
        refused = False
    except SettingsError:
        refused = True
    fits = all(maths.split_heads(np.zeros((1, 12)), h).shape[-1] * h == 12 for h in valid_head_counts(12))
    full_copy = maths.projection_matrices(0, 12, 4)[0].shape[1] == 12 * 4
    return only_true(full_copy, None, refused and fits)


def _multi_head_claims() -> int:
    shapes = {tuple(m.shape for m in maths.projection_matrices(0, 12, h)) for h in valid_head_counts(12)}
    four = compute(Settings(heads=4))
    maps_differ = not np.allclose(four.weights[0], four.weights[1])
    more_weights = len(shapes) > 1
    same_memory = four.score_bytes == compute(Settings(heads=1)).score_bytes
    return only_true(more_weights, same_memory, len(shapes) == 1 and maps_differ)


def _whole_word_claims() -> int:
    w_q = maths.projection_matrices(0, 4, 2)[0]  # (3, d): rows are input numbers, columns of Q
    first_head = w_q[:, :2]  # (3, dh) the columns head 1 uses
    uses_every_input = bool((np.abs(first_head) > 0).all(axis=1).all())
    return only_true(not uses_every_input, uses_every_input)


def _w_o_claims() -> int:
    result = compute(Settings(heads=2, d_model=4))
    mixes = np.allclose(result.output, result.context @ result.w_o) and bool((result.w_o != 0).all())
    joint_softmax = not np.allclose(result.row_sums, 1)  # a softmax over both heads would leave each below 1
    return only_true(mixes, joint_softmax, not mixes)


def _score_shape() -> int:
    result = compute(Settings(heads=3))  # B = 1, h = 3, T = 6, d_head = 4, d_model = 12
    assert result.scores.shape == result.score_shape[1:]
    return pick(((1, 6, 6), (1, 3, 6, 6), (1, 3, 6, 4), (1, 6, 12)), result.score_shape)


def _double_context() -> int:
    eight = compute(Settings(sentence="a b c d e f g h"))
    sixteen = compute(Settings(sentence="a b c d e f g h i j k l m n o p"))
    return pick((2, 4, 1, 8), sixteen.score_bytes // eight.score_bytes)


# --- the bank -------------------------------------------------------------------------------------------

SECTIONS: tuple[Section, ...] = (
    Section("causal", "Causal mask", "Who may look at whom when the model predicts the next word."),
    Section("padding", "Padding", "PAD tokens, batches and broadcasting."),
    Section("dropout", "Dropout", "Dropping weights while training, and the rescale."),
    Section("heads", "Many heads", "Splitting d_model into heads, concat and W_O."),
    Section("shapes", "Shapes", "The score tensor and why long contexts are expensive."),
    Section("code", "Code", "The two code questions, as choices: spot the classic bugs."),
)

CAUSAL = (
    Question(
        id="causal-why",
        section="causal",
        prompt="A next-token model at position t is trained to output word t + 1. "
        "Why must it be kept from attending to positions after t?",
        options=(
            Option("Attending to later words makes each training step slower.",
                   "Speed is not the reason: the mask does not even make attention cheaper, the full table of "
                   "scores is still computed."),
            Option("Later words carry less meaning, so they only add noise.",
                   "Later words are not weaker; the trouble is that they are too useful, because they contain "
                   "the very word being predicted."),
            Option("It would copy the answer from the later words during training, and those words do not "
                   "exist yet when it writes text."),
        ),
        answer=2,
        explanation="Training shows the model a whole sentence at once, so without a mask the word it must "
        "predict is right there in its input. It learns to read that word off instead of learning language, "
        "and its training loss looks superb. When it generates, the next word has not been written yet, the "
        "shortcut is gone and its guesses collapse. Blocking every later position makes training see exactly "
        "what generation will see.",
        lab=LabLink("See the leaky layer in the Lab", {"causal": False}),
        check=_causal_why_claims,
    ),
    Question(
        id="causal-shape",
        section="causal",
        prompt="A sentence has 6 tokens. What is the shape of its causal mask?",
        options=(
            Option("(6,): one flag per token",
                   "Six flags could only say which words are blocked for everyone, which is what a padding "
                   "mask does. The causal rule differs from row to row."),
            Option("(6, 6)"),
            Option("(1, 6)",
                   "(1, 6) is the shape of a padding mask: a single row that is copied down for every query. "
                   "The causal mask blocks different cells in every row."),
        ),
        answer=1,
        explanation="The mask lies over the weight table, which has one row per word doing the looking and "
        "one column per word being looked at. Whether word i may look at word j depends on both i and j, so "
        "the mask needs a True/False for every pair: 6 rows by 6 columns.",
        lab=LabLink("See the 6 × 6 mask in the Lab", {"causal": True}),
        check=lambda: pick(((6,), (6, 6), (1, 6)), maths.causal_mask(6).shape),
    ),
    Question(
        id="causal-open-cells",
        section="causal",
        prompt="Only the causal mask is on, and the sentence has 4 tokens. Of the 16 weights, how many can be "
        "above 0?",
        options=(
            Option("4", "Not just the diagonal: the mask blocks only the cells strictly above it, so every "
                        "word still sees the words before it."),
            Option("6", "6 is the number of blocked cells, the ones above the diagonal."),
            Option("10"),
            Option("16", "16 is the whole table, as it is without any mask."),
        ),
        answer=2,
        explanation="Row 1 may look only at itself, row 2 at two words, row 3 at three and row 4 at all four: "
        "1 + 2 + 3 + 4 = 10 open cells. The 6 cells above the diagonal get a weight of exactly 0.",
        lab=LabLink("Try it with 4 words in the Lab", {"sentence": "Your journey starts with", "causal": True}),
        check=_open_cells_4_tokens,
    ),
    Question(
        id="causal-masked-count",
        section="causal",
        prompt="Switch the causal mask on for the 6-word sentence. How many cells does it block?",
        options=(
            Option("6", "That would be one blocked cell per row, but early words have more future than late "
                        "ones."),
            Option("15"),
            Option("21", "21 = 1 + 2 + … + 6 counts the open cells, the diagonal included."),
            Option("36", "36 is every cell of the 6 × 6 table."),
        ),
        answer=1,
        explanation="Count the cells above the diagonal row by row: word 1 has 5 later words, word 2 has 4, "
        "and so on down to none for the last word. 5 + 4 + 3 + 2 + 1 = 15, a triangular number; for T tokens "
        "it is T(T − 1)/2.",
        lab=LabLink("See “Masked cells” in the Lab", {"causal": True}),
        check=lambda: pick((6, 15, 21, 36), compute(Settings(causal=True)).masked_cells),
    ),
    Question(
        id="causal-same-row",
        section="causal",
        prompt="Toggle the causal mask on for “Your journey starts with one step”. "
        "Which row of weights stays exactly as it was?",
        options=(
            Option("Row 1 (Your)",
                   "Without the mask row 1 spreads its weight over all six words; with it, row 1 puts "
                   "everything on itself. No row changes more."),
            Option("Row 6 (step)"),
            Option("None: every row changes", "The last word has no future, so the mask takes nothing from "
                                              "its row."),
            Option("All of them: the mask only greys cells out",
                   "The weight a blocked cell loses is shared out again by the softmax, so the open cells of "
                   "that row change too."),
        ),
        answer=1,
        explanation="The last word may look at every word, so the mask removes nothing from its row and its "
        "weights stay the same. Every other row loses its future cells, and the softmax shares the whole "
        "weight among the words that remain, so those rows change. Row 1 changes the most: from six words to "
        "all of its weight on itself. If a lesson told you the top row never changes, it meant with the mask "
        "on: row 1 then always puts all its weight on itself; compared with no mask, it is the row that "
        "changes most.",
        lab=LabLink("Open the Lab on row 6 with the mask on", {"causal": True}, {"row": "6"}),
        check=_unchanged_rows,
    ),
    Question(
        id="causal-neg-inf",
        section="causal",
        prompt="Why are blocked scores set to −∞ *before* the softmax, instead of zeroing the blocked weights "
        "*after* it?",
        options=(
            Option("The softmax then leaves the later words out entirely: each row adds up to 1 and no earlier "
                   "output depends on them. Zeroing afterwards leaves rows below 1 that still depend on them."),
            Option("Both routes are equally safe: a zeroed weight passes nothing on, so no later word can "
                   "change an earlier output.",
                   "The zeroed weights pass nothing on, but the weights that are kept were divided by a sum "
                   "that counted the later words. Change a later word and the earlier rows move."),
            Option("The two routes give different weights even when each row is divided by its new sum.",
                   "After that extra division both routes give identical weights; −∞ simply gets there in one "
                   "step."),
        ),
        answer=0,
        explanation="$e^{-\\infty}$ is 0, so a −∞ score drops out of the softmax: the blocked cell gets weight 0 and "
        "the row is normalised over the open cells alone. Take the softmax first and its denominator has "
        "already counted the future; zeroing those weights afterwards leaves a row that sums to less than 1 "
        "and whose kept weights still move when a later word changes. Dividing by the new total repairs "
        "both; masking first does it all in one step.",
        lab=LabLink("See the rows that no longer add up to 1", {"causal": True, "route": "zero_after"}),
        check=_neg_inf_claims,
    ),
    Question(
        id="causal-no-leak",
        section="causal",
        prompt="With the causal mask on, the values of the later words are still inside V. "
        "Why does nothing leak from them?",
        options=(
            Option("The mask also removes the later rows of V.",
                   "V keeps all its rows: the last word needs every value, its own included."),
            Option("The softmax shrinks those values towards 0.",
                   "The softmax acts on the scores, never on the values; V is left as it is."),
            Option("Their weights are exactly 0, so they add 0 × v = 0 to each earlier word’s output."),
        ),
        answer=2,
        explanation="A word’s output is its row of weights times V. Every later word sits in a blocked cell "
        "of that row, so its value vector is multiplied by exactly 0 and adds nothing. The mask never touches "
        "V; it only makes sure the future is never chosen. The core confirms it: change the last word and the "
        "outputs of all earlier words stay identical.",
        lab=LabLink("Open the Lab with the mask on", {"causal": True}),
        check=_no_leak_claims,
    ),
)

PADDING = (
    Question(
        id="pad-zero-trap",
        section="padding",
        prompt="The word cat has the scores [0.34, 0.05, blocked], and word 3 is PAD. Suppose a blocked score "
        "were set to **0** instead of −∞. With $e^{0.34} \\approx 1.40$, $e^{0.05} \\approx 1.05$ and $e^{0} = 1$, "
        "how much of cat’s weight would go to the PAD?",
        options=(
            Option("0%", "0% is what −∞ gives. A score of 0 turns into $e^{0} = 1$ inside the softmax, which is "
                         "far from nothing."),
            Option("about 29%"),
            Option("exactly 50%", "50% would need the PAD’s $e^{0}$ to match the other two together, but 1 is "
                                  "less than 1.40 + 1.05."),
        ),
        answer=1,
        explanation="A score of 0 does not block anything: $e^{0} = 1$, and that 1 joins the sum. The sum is "
        "$e^{0.34} + e^{0.05} + 1 \\approx 3.46$, so the PAD gets 1 / 3.46 ≈ 0.29 of the weight, against 0.30 "
        "for the second word and 0.41 for the first. Only −∞ becomes exactly 0 after the exponential, which "
        "is why blocked scores must be −∞.",
        lab=LabLink("See the trap in the Lab", {"padded": (5, 6), "route": "zero_score"}),
        check=_zero_score_percent,
    ),
    Question(
        id="pad-broadcast",
        section="padding",
        prompt="A batch holds 2 sentences of 5 tokens. The padding mask has shape (2, 1, 5) and the scores "
        "(2, 5, 5). What shape does the mask take when NumPy broadcasts it against the scores?",
        options=(
            Option("(2, 1, 5)", "The 1 in the middle is the axis that gets stretched; it does not survive "
                                "broadcasting."),
            Option("(2, 5, 5)"),
            Option("(2, 5, 1)", "That would be one flag per query row. The 5 flags are one per key and stay "
                                "on the last axis."),
            Option("None: NumPy raises an error because the shapes differ",
                   "An axis of size 1 stretches to fit the other side; that is exactly why the mask has its "
                   "middle 1."),
        ),
        answer=1,
        explanation="NumPy lines the shapes up from the right. Where one side has a 1 and the other a 5, it "
        "repeats the single row 5 times; where both say 2 or 5 they already agree. So each sentence’s one row "
        "of PAD flags is copied down all 5 query rows: (2, 5, 5), and every query of a sentence is kept away "
        "from the same PAD columns.",
        check=_broadcast_shape,
    ),
    Question(
        id="pad-empty-columns",
        section="padding",
        prompt="In the Lab, causal mask off, make the last two words of “Your journey starts with one step” "
        "PAD. Which cells of the weight table are now all 0?",
        options=(
            Option("Columns 5 and 6 (one, step)"),
            Option("Rows 5 and 6 (one, step)",
                   "Rows belong to the words doing the looking. The PAD rows still look at the real words; "
                   "nothing has to stop them because their output is thrown away."),
            Option("Rows and columns 5 and 6",
                   "Only the columns are blocked. The PAD rows keep their weights on the four real words."),
            Option("None: the PAD words keep some weight",
                   "A PAD column is blocked in every row, so it holds exactly 0."),
        ),
        answer=0,
        explanation="The padding mask blocks keys, and keys are columns: no word may look at a PAD, so "
        "columns 5 and 6 are 0 in every row. The PAD words’ own rows still spread weight over the real words. "
        "That does no harm: nothing downstream uses a PAD position’s output, and the loss ignores it.",
        lab=LabLink("Pad the last two words in the Lab", {"padded": (5, 6)}),
        check=_empty_after_padding,
    ),
    Question(
        id="pad-one-open-cell",
        section="padding",
        prompt="With the causal mask on, pad any number of the last words of the 6-word sentence (padding sits "
        "at the end of a sentence). Which row always has exactly one open cell?",
        options=(
            Option("Row 1 (the first word)"),
            Option("Row 6 (the last word)",
                   "The last row has the most open cells: it sees every word that is not PAD."),
            Option("The first PAD row",
                   "A PAD row can end up with few open cells, but which row that is moves with the padding."),
            Option("None: it depends on the padding",
                   "One row never changes: word 1 only sees itself, and padding at the end never reaches it."),
        ),
        answer=0,
        explanation="With the causal mask on, row 1 may only look at itself, so it has a single open cell "
        "before any padding. Padding at the end never blocks word 1, so that one cell always stays open. "
        "Other rows can drop to one open cell for some padding, but only row 1 has exactly one whatever you "
        "pad.",
        lab=LabLink("Open the Lab: causal mask on, two PADs", {"causal": True, "padded": (5, 6)}, {"row": "1"}),
        check=_one_open_cell_row,
    ),
)

DROPOUT = (
    Question(
        id="dropout-rescale",
        section="dropout",
        prompt="While training, dropout sets a share p of the attention weights to 0. "
        "Why are the surviving weights multiplied by 1/(1 − p)?",
        options=(
            Option("So each row still sums to about 1 on average, and training outputs have the size "
                   "inference outputs have."),
            Option("So every row sums to exactly 1 after every dropout step.",
                   "A row’s sum wobbles with the random pattern of each step; only its average is 1."),
            Option("So the dropped weights can be put back at inference.",
                   "Nothing is put back: at inference dropout is simply switched off."),
        ),
        answer=0,
        explanation="Dropping a share p of a row leaves it summing to about 1 − p, so training outputs would "
        "be smaller than inference outputs, where nothing is dropped. Dividing the survivors by 1 − p brings "
        "the average back to 1. Forget it and the model trains on outputs that are too small and then meets "
        "full-size ones in use: a mismatch that no error message reports.",
        lab=LabLink("See row sums without the rescale", {"dropout": 0.5, "rescale": False}),
        check=_rescale_claims,
    ),
    Question(
        id="dropout-factor",
        section="dropout",
        prompt="GPT-2 trains with dropout p = 0.1. By what factor are the surviving weights scaled?",
        options=(
            Option("× 0.9", "Multiplying by 0.9 would shrink the survivors further, the opposite of the fix."),
            Option("× 1 (unchanged)", "Without a rescale the rows lose about a tenth of their weight on "
                                      "average."),
            Option("× 1.11 (about)"),
            Option("× 10", "10 is 1/p. The rescale divides by the share that survives, 1 − p."),
        ),
        answer=2,
        explanation="The factor is 1/(1 − p) = 1/0.9 ≈ 1.11: the survivors grow by a ninth to make up for "
        "the tenth that was dropped. With p = 0.5 the survivors would double.",
        lab=LabLink("Try p = 0.1 in the Lab", {"dropout": 0.1}),
        check=_dropout_factor,
    ),
    Question(
        id="dropout-inference",
        section="dropout",
        prompt="The model is trained and now generates text. What does attention dropout do?",
        options=(
            Option("It keeps dropping a share p, so every answer comes out different.",
                   "That would make generation random and a little worse; dropout is for training only."),
            Option("It still drops a share p but skips the rescale.",
                   "Neither happens: with dropout off there is nothing to drop and nothing to rescale."),
            Option("Nothing: it is switched off, so the same input always gives the same weights."),
        ),
        answer=2,
        explanation="Dropout only helps during training, where it stops the weights from leaning on a few "
        "favourite keys. At inference it is off: no weight is dropped, nothing is rescaled, and the output "
        "depends only on the input and the trained weights.",
        lab=LabLink("Open the Lab in inference mode", {"dropout": 0.5, "training": False}),
        check=_inference_claims,
    ),
)

HEADS = (
    Question(
        id="heads-concat-shape",
        section="heads",
        prompt="Take 3 words and 2 heads; every head produces 2 numbers for each word. Placing the heads’ "
        "results side by side gives a table called concat, one row per word. What is its shape?",
        options=(
            Option("(3, 2)", "That is the output of one head; concat puts both heads’ numbers in the same "
                             "row."),
            Option("(2, 3, 2)", "That is the heads stacked on top of each other, before they are joined."),
            Option("(3, 4)"),
            Option("(6, 2)", "Putting the heads’ rows under each other would mix up the words; concat joins "
                             "the heads side by side."),
        ),
        answer=2,
        explanation="Concat keeps one row per word, so 3 rows. Each row holds head 1’s 2 numbers followed by "
        "head 2’s 2 numbers: 4 columns, which is d_model again.",
        check=_concat_shape,
    ),
    Question(
        id="heads-start-column",
        section="heads",
        prompt="Take 3 words, d_model = 4 and 2 heads: each head gives 2 numbers a word, and concat is (3, 4) "
        "with head 1 first. Counting columns from 1, at which column does head 2’s output start?",
        options=(
            Option("Column 2", "Column 2 still belongs to head 1, which fills columns 1 and 2."),
            Option("Column 3"),
            Option("Column 4", "Column 4 is head 2’s second column."),
            Option("Column 5", "There is no column 5: concat has columns 1 to 4."),
        ),
        answer=1,
        explanation="Head 1 fills columns 1 and 2, so head 2 starts right after it, at column 3, and fills "
        "columns 3 and 4. In general head n starts at column (n − 1) × d_head + 1.",
        lab=LabLink("Lab: d_model 4, 2 heads, head 2", {"d_model": 4, "heads": 2, "view": 2}),
        check=_head_two_column,
    ),
    Question(
        id="heads-d-head-512",
        section="heads",
        prompt="d_model = 512, split over 8 heads. What is d_head, the width of one head?",
        options=(
            Option("8", "8 is the number of heads, not their width."),
            Option("64"),
            Option("512", "If every head got all 512 numbers, the heads would be full copies; they share "
                          "the width instead."),
            Option("4096", "512 × 8 is what full copies for every head would need."),
        ),
        answer=1,
        explanation="The width is cut into equal slices, one per head: 512 / 8 = 64 numbers each. Together "
        "the 8 heads still cover all 512.",
        check=_d_head(512, 8, (8, 64, 512, 4096)),
    ),
    Question(
        id="heads-gpt2",
        section="heads",
        prompt="GPT-2 small (124M parameters) has d_model = 768 and 12 heads. What is d_head?",
        options=(
            Option("12", "12 is the number of heads."),
            Option("64"),
            Option("768", "768 is the full width, which the 12 heads share."),
            Option("9216", "768 × 12 would give every head its own full copy, which is not how heads work."),
        ),
        answer=1,
        explanation="768 / 12 = 64: twelve views of 64 numbers each, for the width of one 768-number head.",
        check=_d_head(768, 12, (12, 64, 768, 9216)),
    ),
    Question(
        id="heads-lab-d-head",
        section="heads",
        prompt="In the Lab d_model is 12. You raise the heads from 1 to 4. What is d_head now?",
        options=(
            Option("3"),
            Option("4", "4 is the number of heads; d_head is the width each of them gets."),
            Option("12", "12 is d_model, which the heads now share."),
            Option("48", "12 × 4 would mean each head had a full copy of the width."),
        ),
        answer=0,
        explanation="12 / 4 = 3: each head works on 3 numbers. The four maps still differ, because each head "
        "has its own columns of W_Q, W_K and W_V.",
        lab=LabLink("Open the Lab with 4 heads", {"heads": 4}),
        check=_lab_d_head,
    ),
    Question(
        id="heads-divide",
        section="heads",
        prompt="Why must the number of heads h divide d_model?",
        options=(
            Option("Each head needs its own full copy of all d_model numbers.",
                   "Heads do not get copies: W_Q, W_K and W_V keep their size and the heads share their "
                   "columns."),
            Option("Otherwise the softmax rows of some heads would not add up to 1.",
                   "Every head’s softmax is normalised on its own, whatever its width."),
            Option("The width is cut into h equal slices of d_model / h numbers, and a slice cannot hold a "
                   "fraction of a number."),
        ),
        answer=2,
        explanation="Multi-head attention adds no width: it reshapes the d_model columns of Q, K and V into h "
        "blocks of d_model / h. Split 12 into 5 heads and each block would be 2.4 numbers wide, which no "
        "reshape can do. That is why the Lab offers only head counts that divide d_model.",
        check=_divide_claims,
    ),
    Question(
        id="heads-buy",
        section="heads",
        prompt="What does multi-head attention buy, and what does it cost?",
        options=(
            Option("Better accuracy, paid for with h times as many weights in W_Q, W_K and W_V.",
                   "W_Q, W_K and W_V keep the same size whatever h is: the heads share their columns."),
            Option("A longer context for the same memory.",
                   "Heads do nothing for the context length; the score tensor even holds one T × T map per "
                   "head."),
            Option("Several different attention patterns at once, for about the same arithmetic and the same "
                   "number of weights as one full-width head."),
        ),
        answer=2,
        explanation="One head has one way of judging relevance. Cutting the width into h slices gives h heads, "
        "each with its own queries and keys and so its own map, and language needs several at once: "
        "agreement, the word just before, what a pronoun points to. The projections keep their size, so the "
        "weights and the multiply-adds stay about the same; the same work is arranged as h smaller "
        "attentions.",
        lab=LabLink("Compare the heads in the Lab", {"heads": 4}),
        check=_multi_head_claims,
    ),
    Question(
        id="heads-whole-word",
        section="heads",
        prompt="With d_model = 4 and 2 heads, head 1 uses columns 1 and 2 of Q, K and V. "
        "Does head 1 see only half of each word?",
        options=(
            Option("Yes: head 1 reads input numbers 1 and 2 of each word, head 2 reads 3 and 4.",
                   "The split is made after the projection, on Q, K and V, not on the word’s input numbers."),
            Option("No: each column of Q = X @ W_Q mixes all of a word’s input numbers, so head 1 uses all "
                   "of them."),
        ),
        answer=1,
        explanation="The split happens after the projection. Q = X @ W_Q builds every column of Q from every "
        "number of the word, so head 1’s two columns already depend on the whole word. Only in a toy where "
        "W_Q is the identity are Q’s columns the same as X’s.",
        check=_whole_word_claims,
    ),
    Question(
        id="heads-w-o",
        section="heads",
        prompt="After concat, head 1’s numbers sit in columns 1–2 and head 2’s in columns 3–4. "
        "What lets every output number use both heads?",
        options=(
            Option("The output projection W_O: each output column mixes all concat columns."),
            Option("The softmax, which runs over all heads together.",
                   "Each head has its own softmax; every head’s rows add up to 1 on their own."),
            Option("Nothing: the heads stay apart to the end.",
                   "That is what happens if W_O is forgotten, and much of the point of many heads is lost."),
        ),
        answer=0,
        explanation="Concat only places the heads side by side. W_O is a d_model × d_model matrix, so each "
        "output column is a weighted sum of all concat columns, from head 1 and head 2 alike. Leave it out "
        "and each head’s result stays locked in its own columns.",
        check=_w_o_claims,
    ),
)

SHAPES = (
    Question(
        id="shapes-score-tensor",
        section="shapes",
        prompt="Batch size B, h heads, T tokens. What is the shape of the score tensor Q @ Kᵀ?",
        options=(
            Option("(B, T, T)", "That is one map per sentence; each head makes its own."),
            Option("(B, h, T, T)"),
            Option("(B, h, T, d_head)", "That is the shape of Q, K or V once split into heads."),
            Option("(B, T, d_model)", "That is the shape of the layer’s input and output."),
        ),
        answer=1,
        explanation="Each head compares every query with every key, which makes a T × T table; there is one "
        "per head and one set per sentence: (B, h, T, T). Q and K are (B, h, T, d_head), and multiplying by Kᵀ "
        "swaps the d_head axis for a second T.",
        check=_score_shape,
    ),
    Question(
        id="shapes-double-context",
        section="shapes",
        prompt="You double the context length T and keep everything else. "
        "What happens to the memory of the score tensor?",
        options=(
            Option("It doubles", "It would if only the rows grew, but the columns are tokens too."),
            Option("It grows 4 times"),
            Option("It stays the same: only d_model sets its size",
                   "d_model does not even appear in the score tensor’s shape (B, h, T, T)."),
            Option("It grows 8 times", "T appears twice in the shape, not three times."),
        ),
        answer=1,
        explanation="The tensor has T rows and T columns per head, so it grows with T². Twice the context "
        "means four times the cells. At toy lengths that is nothing; at thousands of tokens it dominates "
        "memory, which is why FlashAttention walks through the table in tiles and never stores it whole.",
        check=_double_context,
    ),
)

MASK_STUB = """def causal_mask(L):
    # True: the key comes later
    return ____

# shows 4 x 4 zeros and ones
causal_mask(4).astype(int)"""

HEAD_STUB = """def masked_attention(X, W_Q, W_K, W_V):
    L = X.shape[0]
    d_k = W_Q.shape[1]
    ____  # a version
    return out"""

_PROJECT = "Q, K, V = X @ W_Q, X @ W_K, X @ W_V"
_PROJECT_LINES = "Q = X @ W_Q\nK = X @ W_K\nV = X @ W_V"  # the same, narrow enough for a phone
_SCALE = "scores = Q @ K.T / np.sqrt(d_k)"
_TRIU = "ones = np.ones((L, L), bool)\nblocked = np.triu(ones, k={k})"
_NEG_INF = "scores[blocked] = -np.inf"
_SOFTMAX = "weights = softmax(scores)"
_OUT = "out = weights @ V"


def _version(*lines: str) -> str:
    return "\n".join(lines)


CODE = (
    Question(
        id="code-causal-mask",
        section="code",
        prompt="Fill in the blank so the function returns True (1) wherever a word would look ahead "
        "(column > row) and False (0) everywhere else.",
        code=MASK_STUB,
        options=(
            Option("`np.triu(np.ones((L, L), dtype=bool), k=0)`",
                   "k = 0 keeps the main diagonal too, so no word may look at itself and row 1 is left with "
                   "nothing to look at."),
            Option("`np.tril(np.ones((L, L), dtype=bool), k=-1)`",
                   "np.tril keeps the lower triangle: it blocks the past and leaves the future open, the mirror "
                   "image of a causal mask."),
            Option("`np.triu(np.ones((L, L), dtype=bool), k=1)`"),
        ),
        answer=2,
        explanation="np.triu keeps the cells on and above diagonal k. With k = 1 that starts one step above "
        "the main diagonal: exactly the cells whose column (key) comes after the row (query). For 4 tokens it "
        "prints 3 ones in the first row, 2 in the second, 1 in the third and none in the last.",
        lab=LabLink("See the mask in the Lab", {"sentence": "Your journey starts with", "causal": True}),
    ),
    Question(
        id="code-masked-head",
        section="code",
        kind="code",
        prompt="Which version completes one attention head with a causal mask? `softmax(scores)` is already "
        "defined and works row by row.",
        code=HEAD_STUB,
        options=(
            Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=1), _SOFTMAX, "weights[blocked] = 0.0", _OUT),
                   "This masks after the softmax. The future has already taken its share of every row, so "
                   "the rows that remain add up to less than 1."),
            Option(_version(_PROJECT_LINES, "scores = Q @ K.T / d_k", _TRIU.format(k=1), _NEG_INF, _SOFTMAX, _OUT),
                   "This divides by d_k instead of √d_k: a forgotten square root. The scores come out too "
                   "small, so the weights are flatter than they should be."),
            Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=1), _NEG_INF, _SOFTMAX, _OUT)),
            Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=0), _NEG_INF, _SOFTMAX, _OUT),
                   "k = 0 also blocks the diagonal. Row 1 then has every score at −∞, and its softmax is 0/0: "
                   "NaN."),
        ),
        answer=2,
        explanation="Version C follows the recipe step by step: project to Q, K and V, divide the scores by "
        "√d_k, set the blocked ones to −∞, take the softmax, multiply by V. With X = [[2, 0], [1, 1], [0, 2]], "
        "W_Q = W_V = I and a W_K that swaps the two columns, it returns the rows [2, 0], [1.5, 0.5] and about "
        "[1.72, 0.28].",
    ),
    Question(
        id="code-order",
        section="code",
        kind="order",
        prompt="Put the lines of one masked attention head in order. `blocked` (True above the diagonal) is "
        "already built. Tap the lines in the order they should run.",
        options=(
            Option(_SOFTMAX, "The softmax runs before the mask line, so the weights come from the raw scores and "
                             "the mask changes nothing: masking after the softmax lets the future leak."),
            Option(_SCALE, "The scores need Q and K, which do not exist yet."),
            Option(_OUT, "The output needs the weights, so the softmax must come first."),
            Option(_PROJECT),
            Option(_NEG_INF, "The mask line needs the scores, and they do not exist yet at that point."),
        ),
        answer=(3, 1, 4, 0, 2),
        explanation="Project, score, mask, softmax, mix: Q, K and V come first, then the scaled scores, then "
        "−∞ on the blocked cells, then the softmax turns each row into weights that add up to 1, and finally "
        "the weights pick out a blend of the values.",
    ),
)

QUESTIONS: tuple[Question, ...] = (*CAUSAL, *PADDING, *DROPOUT, *HEADS, *SHAPES, *CODE)
BY_ID: Mapping[str, Question] = MappingProxyType({q.id: q for q in QUESTIONS})  # read-only: shared by sessions
SECTION_BY_ID: Mapping[str, Section] = MappingProxyType({s.id: s for s in SECTIONS})


def in_section(section_id: str) -> tuple[Question, ...]:
    return tuple(q for q in QUESTIONS if q.section == section_id)


# --- grading: pure functions the renderer and the tests share --------------------------------------------


def normalise(question: Question, value: Any) -> Answer | None:
    """A widget value as an answer (an int, or a tuple for an order); None when nothing usable is picked."""
    if value is None:
        return None
    if question.kind == "order":
        order = tuple(int(v) for v in value)
        return order if order else None
    return int(value)


def is_complete(question: Question, answer: Answer | None) -> bool:
    if answer is None:
        return False
    if question.kind == "order":
        return isinstance(answer, tuple) and sorted(answer) == list(range(len(question.options)))
    return isinstance(answer, int) and 0 <= answer < len(question.options)


def is_right(question: Question, answer: Answer | None) -> bool:
    return is_complete(question, answer) and answer == question.answer


def order_problems(question: Question, order: Sequence[int]) -> list[str]:
    """For an ordering question: what goes wrong in this order, one sentence per misplaced step."""
    position = {step: i for i, step in enumerate(order)}
    problems = []
    for earlier, later in zip(question.answer, question.answer[1:], strict=False):
        if earlier in position and later in position and position[later] < position[earlier]:
            problems.append(question.options[later].why)
    return problems


def option_name(question: Question, index: int) -> str:
    if question.kind == "code":
        return f"version {letter(index)}"
    return question.options[index].text


def feedback(question: Question, answer: Answer) -> Feedback:
    """What the page says once an answer is complete: right or wrong, why, and the explanation."""
    if is_right(question, answer):
        return Feedback(True, f"**Right.** {question.explanation}")
    if question.kind == "order":
        why = " ".join(order_problems(question, answer))
        return Feedback(False, f"**Not quite.** {why}", f"**The right order** is below. {question.explanation}")
    right = option_name(question, question.answer).rstrip(".")
    verdict = f"**Not quite.** {question.options[answer].why} **Answer:** {right}."
    return Feedback(False, verdict, question.explanation)


@dataclass(frozen=True)
class Tally:
    right: int  # right on the first complete answer
    answered: int
    total: int


def tally(questions: Iterable[Question], first: Mapping[str, Answer], answers: Mapping[str, Answer]) -> Tally:
    """The score of a set of questions: first answers that were right, questions answered, questions."""
    questions = tuple(questions)
    right = sum(1 for q in questions if q.id in first and is_right(q, first[q.id]))
    answered = sum(1 for q in questions if is_complete(q, answers.get(q.id)))
    return Tally(right, answered, len(questions))
