"""The shapes section: the score tensor and why long contexts cost memory, each beside its check."""

from __future__ import annotations

from attn_core import Settings, compute
from attn_lang import N_
from attn_ui.quiz.model import Option, Question, Section, pick

SECTION = Section("shapes", N_("Shapes"), N_("The score tensor and why long contexts are expensive."))


def _score_shape() -> int:
    result = compute(Settings(heads=3))  # B = 1, h = 3, T = 6, d_head = 4, d_model = 12
    assert result.scores.shape == result.score_shape[1:], f"scores {result.scores.shape} is not score_shape without B"
    return pick(((1, 6, 6), (1, 3, 6, 6), (1, 3, 6, 4), (1, 6, 12)), result.score_shape)


SCORE_TENSOR = Question(
    id="shapes-score-tensor",
    section="shapes",
    prompt=N_("Batch size B, h heads, T tokens. What is the shape of the score tensor Q @ Kᵀ?"),
    options=(
        Option("(B, T, T)", N_("That is one map per sentence; each head makes its own.")),
        Option("(B, h, T, T)"),
        Option("(B, h, T, d_head)", N_("That is the shape of Q, K or V once split into heads.")),
        Option("(B, T, d_model)", N_("That is the shape of the layer’s input and output.")),
    ),
    answer=1,
    explanation=N_("Each head compares every query with every key, which makes a T × T table; there is one "
    "per head and one set per sentence: (B, h, T, T). Q and K are (B, h, T, d_head), and multiplying by Kᵀ "
    "swaps the d_head axis for a second T."),
    check=_score_shape,
)


def _double_context() -> int:
    eight = compute(Settings(sentence="a b c d e f g h"))
    sixteen = compute(Settings(sentence="a b c d e f g h i j k l m n o p"))
    return pick((2, 4, 1, 8), sixteen.score_bytes // eight.score_bytes)


DOUBLE_CONTEXT = Question(
    id="shapes-double-context",
    section="shapes",
    prompt=N_("You double the context length T and keep everything else. "
    "What happens to the memory of the score tensor?"),
    options=(
        Option(N_("It doubles"), N_("It would if only the rows grew, but the columns are tokens too.")),
        Option(N_("It grows 4 times")),
        Option(N_("It stays the same: only d_model sets its size"),
               N_("d_model does not even appear in the score tensor’s shape (B, h, T, T).")),
        Option(N_("It grows 8 times"), N_("T appears twice in the shape, not three times.")),
    ),
    answer=1,
    explanation=N_("The tensor has T rows and T columns per head, so it grows with T². Twice the context "
    "means four times the cells. At toy lengths that is nothing; at thousands of tokens it dominates "
    "memory, which is why FlashAttention walks through the table in tiles and never stores it whole."),
    check=_double_context,
)


QUESTIONS: tuple[Question, ...] = (SCORE_TENSOR, DOUBLE_CONTEXT)  # the page's order
