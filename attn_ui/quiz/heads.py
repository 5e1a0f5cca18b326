"""The many-heads section: splitting d_model, concat and W_O, each question beside its check."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attn_core import Settings, SettingsError, compute, maths, valid_head_counts
from attn_lang import N_
from attn_ui.quiz.model import LabLink, Option, Question, Section, only_true, pick

SECTION = Section("heads", N_("Many heads"), N_("Splitting d_model into heads, concat and W_O."))


def _concat_shape() -> int:
    per_head = np.zeros((2, 3, 2))  # (h, T, dh)
    return pick(((3, 2), (2, 3, 2), (3, 4), (6, 2)), maths.merge_heads(per_head).shape)


CONCAT_SHAPE = Question(
    id="heads-concat-shape",
    section="heads",
    prompt=N_("Take 3 words and 2 heads; every head produces 2 numbers for each word. Placing the heads’ "
    "results side by side gives a table called concat, one row per word. What is its shape?"),
    options=(
        Option("(3, 2)", N_("That is the output of one head; concat puts both heads’ numbers in the same "
                            "row.")),
        Option("(2, 3, 2)", N_("That is the heads stacked on top of each other, before they are joined.")),
        Option("(3, 4)"),
        Option("(6, 2)", N_("Putting the heads’ rows under each other would mix up the words; concat joins "
                            "the heads side by side.")),
    ),
    answer=2,
    explanation=N_("Concat keeps one row per word, so 3 rows. Each row holds head 1’s 2 numbers followed by "
    "head 2’s 2 numbers: 4 columns, which is d_model again."),
    check=_concat_shape,
)


def _head_two_column() -> int:
    per_head = np.arange(2.0)[:, None, None] * np.ones((2, 3, 2))  # (h, T, dh), every number = its head index
    row = maths.merge_heads(per_head)[0]  # (d,)
    column_number = int(np.flatnonzero(row == 1)[0]) + 1  # the second head's first column, counted from 1
    return pick((2, 3, 4, 5), column_number)


START_COLUMN = Question(
    id="heads-start-column",
    section="heads",
    prompt=N_("Take 3 words, d_model = 4 and 2 heads: each head gives 2 numbers a word, and concat is (3, 4) "
    "with head 1 first. Counting columns from 1, at which column does head 2’s output start?"),
    options=(
        Option(N_("Column 2"), N_("Column 2 still belongs to head 1, which fills columns 1 and 2.")),
        Option(N_("Column 3")),
        Option(N_("Column 4"), N_("Column 4 is head 2’s second column.")),
        Option(N_("Column 5"), N_("There is no column 5: concat has columns 1 to 4.")),
    ),
    answer=1,
    explanation=N_("Head 1 fills columns 1 and 2, so head 2 starts right after it, at column 3, and fills "
    "columns 3 and 4. In general head n starts at column (n − 1) × d_head + 1."),
    lab=LabLink(N_("Lab: d_model 4, 2 heads, head 2"), {"d_model": 4, "heads": 2, "view": 2}),
    check=_head_two_column,
)


def _d_head(d_model: int, heads: int, values: tuple[int, ...]) -> Callable[[], int]:
    def check() -> int:
        return pick(values, maths.split_heads(np.zeros((1, d_model)), heads).shape[-1])

    return check


D_HEAD_512 = Question(
    id="heads-d-head-512",
    section="heads",
    prompt=N_("d_model = 512, split over 8 heads. What is d_head, the width of one head?"),
    options=(
        Option("8", N_("8 is the number of heads, not their width.")),
        Option("64"),
        Option("512", N_("If every head got all 512 numbers, the heads would be full copies; they share "
                         "the width instead.")),
        Option("4096", N_("512 × 8 is what full copies for every head would need.")),
    ),
    answer=1,
    explanation=N_("The width is cut into equal slices, one per head: 512 / 8 = 64 numbers each. Together "
    "the 8 heads still cover all 512."),
    check=_d_head(512, 8, (8, 64, 512, 4096)),
)


GPT2 = Question(
    id="heads-gpt2",
    section="heads",
    prompt=N_("GPT-2 small (124M parameters) has d_model = 768 and 12 heads. What is d_head?"),
    options=(
        Option("12", N_("12 is the number of heads.")),
        Option("64"),
        Option("768", N_("768 is the full width, which the 12 heads share.")),
        Option("9216", N_("768 × 12 would give every head its own full copy, which is not how heads work.")),
    ),
    answer=1,
    explanation=N_("768 / 12 = 64: twelve views of 64 numbers each, for the width of one 768-number head."),
    check=_d_head(768, 12, (12, 64, 768, 9216)),
)


def _lab_d_head() -> int:
    return pick((3, 4, 12, 48), compute(Settings(heads=4)).d_head)


LAB_D_HEAD = Question(
    id="heads-lab-d-head",
    section="heads",
    prompt=N_("In the Lab d_model is 12. You raise the heads from 1 to 4. What is d_head now?"),
    options=(
        Option("3"),
        Option("4", N_("4 is the number of heads; d_head is the width each of them gets.")),
        Option("12", N_("12 is d_model, which the heads now share.")),
        Option("48", N_("12 × 4 would mean each head had a full copy of the width.")),
    ),
    answer=0,
    explanation=N_("12 / 4 = 3: each head works on 3 numbers. The four maps still differ, because each head "
    "has its own columns of W_Q, W_K and W_V."),
    lab=LabLink(N_("Open the Lab with 4 heads"), {"heads": 4}),
    check=_lab_d_head,
)


def _divide_claims() -> int:
    try:
        Settings(d_model=12, heads=5)
        refused = False
    except SettingsError:
        refused = True
    fits = all(maths.split_heads(np.zeros((1, 12)), h).shape[-1] * h == 12 for h in valid_head_counts(12))
    full_copy = maths.projection_matrices(0, 12, 4)[0].shape[1] == 12 * 4
    return only_true(full_copy, None, refused and fits)


DIVIDE = Question(
    id="heads-divide",
    section="heads",
    prompt=N_("Why must the number of heads h divide d_model?"),
    options=(
        Option(N_("Each head needs its own full copy of all d_model numbers, so W_Q is h times wider."),
               N_("Heads do not get copies: W_Q, W_K and W_V keep their size and the heads share their "
                  "columns.")),
        Option(N_("Otherwise some heads would be narrower, and their softmax rows would not add up to 1."),
               N_("Every head’s softmax is normalised on its own, whatever its width.")),
        Option(N_("The width is cut into h equal slices, and a slice cannot hold a fraction of a number.")),
    ),
    answer=2,
    explanation=N_("Multi-head attention adds no width: it reshapes the d_model columns of Q, K and V into h "
    "blocks of d_model / h. Split 12 into 5 heads and each block would be 2.4 numbers wide, which no "
    "reshape can do. That is why the Lab offers only head counts that divide d_model."),
    check=_divide_claims,
)


def _multi_head_claims() -> int:
    shapes = {tuple(m.shape for m in maths.projection_matrices(0, 12, h)) for h in valid_head_counts(12)}
    four = compute(Settings(heads=4))
    maps_differ = not np.allclose(four.weights[0], four.weights[1])
    more_weights = len(shapes) > 1
    same_memory = four.score_bytes == compute(Settings(heads=1)).score_bytes
    return only_true(more_weights, same_memory, len(shapes) == 1 and maps_differ)


BUY = Question(
    id="heads-buy",
    section="heads",
    prompt=N_("What does multi-head attention buy, and what does it cost?"),
    options=(
        Option(N_("Better accuracy, paid for with h times as many weights in W_Q, W_K and W_V."),
               N_("W_Q, W_K and W_V keep the same size whatever h is: the heads share their columns.")),
        Option(N_("A longer context for the same memory, since each head scores a narrower slice."),
               N_("Heads do nothing for the context length; the score tensor even holds one T × T map per "
                  "head.")),
        Option(N_("Several different attention patterns at once, for about the price of one full-width head.")),
    ),
    answer=2,
    explanation=N_("One head has one way of judging relevance. Cutting the width into h slices gives h heads, "
    "each with its own queries and keys and so its own map, and language needs several at once: "
    "agreement, the word just before, what a pronoun points to. The projections keep their size, so the "
    "weights and the multiply-adds stay about the same; the same work is arranged as h smaller "
    "attentions."),
    lab=LabLink(N_("Compare the heads in the Lab"), {"heads": 4}),
    check=_multi_head_claims,
)


def _whole_word_claims() -> int:
    w_q = maths.projection_matrices(0, 4, 2)[0]  # (3, d): rows are input numbers, columns of Q
    first_head = w_q[:, :2]  # (3, dh) the columns head 1 uses
    uses_every_input = bool((np.abs(first_head) > 0).all(axis=1).all())
    return only_true(not uses_every_input, uses_every_input)


WHOLE_WORD = Question(
    id="heads-whole-word",
    section="heads",
    prompt=N_("With d_model = 4 and 2 heads, head 1 uses columns 1 and 2 of Q, K and V. "
    "Does head 1 see only half of each word?"),
    options=(
        Option(N_("Yes: head 1 reads input numbers 1 and 2 of each word, head 2 reads 3 and 4."),
               N_("The split is made after the projection, on Q, K and V, not on the word’s input numbers.")),
        Option(N_("No: each column of Q = X @ W_Q mixes all of a word’s input numbers.")),
    ),
    answer=1,
    explanation=N_("The split happens after the projection. Q = X @ W_Q builds every column of Q from every "
    "number of the word, so head 1’s two columns already depend on the whole word. Only in a toy where "
    "W_Q is the identity are Q’s columns the same as X’s."),
    check=_whole_word_claims,
)


def _w_o_claims() -> int:
    result = compute(Settings(heads=2, d_model=4))
    mixes = np.allclose(result.output, result.context @ result.w_o) and bool((result.w_o != 0).all())
    joint_softmax = not np.allclose(result.row_sums, 1)  # a softmax over both heads would leave each below 1
    return only_true(mixes, joint_softmax, not mixes)


W_O = Question(
    id="heads-w-o",
    section="heads",
    prompt=N_("After concat, head 1’s numbers sit in columns 1–2 and head 2’s in columns 3–4. "
    "What lets every output number use both heads?"),
    options=(
        Option(N_("The output projection W_O: each output column mixes all concat columns.")),
        Option(N_("The softmax: it runs over all heads together, so their weights mix."),
               N_("Each head has its own softmax; every head’s rows add up to 1 on their own.")),
        Option(N_("Nothing: the heads stay apart to the end, each in its own columns."),
               N_("That is what happens if W_O is forgotten, and much of the point of many heads is lost.")),
    ),
    answer=0,
    explanation=N_("Concat only places the heads side by side. W_O is a d_model × d_model matrix, so each "
    "output column is a weighted sum of all concat columns, from head 1 and head 2 alike. Leave it out "
    "and each head’s result stays locked in its own columns."),
    check=_w_o_claims,
)


QUESTIONS: tuple[Question, ...] = (  # the page's order
    CONCAT_SHAPE, START_COLUMN, D_HEAD_512, GPT2, LAB_D_HEAD, DIVIDE, BUY, WHOLE_WORD, W_O,
)
