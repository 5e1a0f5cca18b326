"""The padding section: PAD tokens, batches and broadcasting, each question beside its check."""

from __future__ import annotations

import numpy as np

from attn_core import Settings, compute, maths
from attn_lang import N_
from attn_ui.quiz.model import LabLink, Option, Question, Section, pick

SECTION = Section("padding", N_("Padding"), N_("PAD tokens, batches and broadcasting."))


def _broadcast_shape() -> int:
    is_pad = np.zeros((2, 5), dtype=bool)  # (B, T)
    padding = maths.padding_mask(is_pad)  # (2, 1, 5)
    assert padding.shape == (2, 1, 5), f"padding_mask gave {padding.shape}, not (B, 1, T) = (2, 1, 5)"
    scores = np.zeros((2, 5, 5))  # (B, T, T)
    blocked = np.broadcast_to(maths.combine_masks(np.zeros((5, 5), dtype=bool), padding), scores.shape)
    return pick(((2, 1, 5), (2, 5, 5), (2, 5, 1), "error"), blocked.shape)


BROADCAST = Question(
    id="pad-broadcast",
    section="padding",
    prompt=N_("A batch holds 2 sentences of 5 tokens. The padding mask has shape (2, 1, 5) and the scores "
    "(2, 5, 5). What shape does the mask take when NumPy broadcasts it against the scores?"),
    options=(
        Option("(2, 1, 5)", N_("The 1 in the middle is the axis that gets stretched; it does not survive "
                               "broadcasting.")),
        Option("(2, 5, 5)"),
        Option("(2, 5, 1)", N_("That would be one flag per query row. The 5 flags are one per key and stay "
                               "on the last axis.")),
        Option(N_("None: NumPy raises an error because the shapes differ"),
               N_("An axis of size 1 stretches to fit the other side; that is exactly why the mask has its "
                  "middle 1.")),
    ),
    answer=1,
    explanation=N_("NumPy lines the shapes up from the right. Where one side has a 1 and the other a 5, it "
    "repeats the single row 5 times; where both say 2 or 5 they already agree. So each sentence’s one row "
    "of PAD flags is copied down all 5 query rows: (2, 5, 5), and every query of a sentence is kept away "
    "from the same PAD columns."),
    check=_broadcast_shape,
)


def _empty_after_padding() -> int:
    result = compute(Settings(padded=(5, 6)))
    weights = result.weights[0]  # (T, T)
    columns = tuple(int(j) + 1 for j in np.flatnonzero((weights == 0).all(axis=0)))
    rows = tuple(int(i) + 1 for i in np.flatnonzero((weights == 0).all(axis=1)))
    return pick((((5, 6), ()), ((), (5, 6)), ((5, 6), (5, 6)), ((), ())), (columns, rows))


EMPTY_COLUMNS = Question(
    id="pad-empty-columns",
    section="padding",
    prompt=N_("In the Lab, causal mask off, make the last two words of “Your journey starts with one step” "
    "PAD. Which cells of the weight table are now all 0?"),
    options=(
        Option(N_("Columns 5 and 6 (one, step)")),
        Option(N_("Rows 5 and 6 (one, step)"),
               N_("Rows belong to the words doing the looking. The PAD rows still look at the real words; "
                  "nothing has to stop them because their output is thrown away.")),
        Option(N_("Rows and columns 5 and 6"),
               N_("Only the columns are blocked. The PAD rows keep their weights on the four real words.")),
        Option(N_("None: the PAD words keep some weight"),
               N_("A PAD column is blocked in every row, so it holds exactly 0.")),
    ),
    answer=0,
    explanation=N_("The padding mask blocks keys, and keys are columns: no word may look at a PAD, so "
    "columns 5 and 6 are 0 in every row. The PAD words’ own rows still spread weight over the real words. "
    "That does no harm: nothing downstream uses a PAD position’s output, and the loss ignores it."),
    lab=LabLink(N_("Pad the last two words in the Lab"), {"padded": (5, 6)}),
    check=_empty_after_padding,
)


def _one_open_cell_row() -> int:
    always: set[int] | None = None
    for padded_count in range(0, 6):  # pad the last 0..5 words; word 1 stays a real word
        padded = tuple(range(7 - padded_count, 7))
        result = compute(Settings(causal=True, padded=padded))
        open_cells = (~result.blocked[0]).sum(axis=1)  # (T,)
        rows = {int(i) + 1 for i in np.flatnonzero(open_cells == 1)}
        always = rows if always is None else always & rows
    every_word = compute(Settings(causal=True, padded=tuple(range(1, 7))))  # all six PAD: the prompt leaves it out
    assert not (~every_word.blocked[0, 0]).any(), "padding every word leaves row 1 nothing to look at"
    return pick(((1,), (6,), "first PAD row", ()), tuple(sorted(always or ())))


ONE_OPEN_CELL = Question(
    id="pad-one-open-cell",
    section="padding",
    prompt=N_("With the causal mask on, pad some of the last words of the 6-word sentence, but not the first word "
    "(padding sits at the end of a sentence). Which row always has exactly one open cell?"),
    options=(
        Option(N_("Row 1 (the first word)")),
        Option(N_("Row 6 (the last word)"),
               N_("The last row has the most open cells: it sees every word that is not PAD.")),
        Option(N_("The first PAD row"),
               N_("A PAD row can end up with few open cells, but which row that is moves with the padding.")),
        Option(N_("None: it depends on the padding"),
               N_("One row never changes: word 1 only sees itself, and padding that leaves it real never reaches "
                  "it.")),
    ),
    answer=0,
    explanation=N_("With the causal mask on, row 1 may only look at itself, so it has a single open cell "
    "before any padding. Padding at the end blocks word 1 only when every word is PAD, which the question leaves "
    "out; so that one cell always stays open. Other rows can drop to one open cell for some padding, but only row 1 "
    "has exactly one whatever you pad. (Pad all six, and row 1 is left with nothing to look at.)"),
    lab=LabLink(N_("Open the Lab: causal mask on, two PADs"), {"causal": True, "padded": (5, 6)}, {"row": "1"}),
    check=_one_open_cell_row,
)


QUESTIONS: tuple[Question, ...] = (BROADCAST, EMPTY_COLUMNS, ONE_OPEN_CELL)  # the page's order
