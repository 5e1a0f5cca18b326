"""The code section: the code stubs, the snippets its options are built from, and its three questions."""

from __future__ import annotations

from attn_lang import N_
from attn_ui.quiz.model import LabLink, Option, Question, Section

SECTION = Section("code", N_("Code"), N_("Read code: finish a causal mask, pick the masked head that works, "
                                         "and put a head's lines in order."))  # no count to go stale


# The app only shows these snippets; tests/ui/test_questions_bank.py is the one place that runs them.
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


CAUSAL_MASK = Question(
    id="code-causal-mask",
    section="code",
    prompt=N_("Fill in the blank so the function returns True (1) wherever a word would look ahead "
    "(column > row) and False (0) everywhere else."),
    code=MASK_STUB,
    options=(
        Option("`np.triu(np.ones((L, L), dtype=bool), k=0)`",
               N_("k = 0 keeps the main diagonal too, so no word may look at itself and row 1 is left with "
                  "nothing to look at.")),
        Option("`np.tril(np.ones((L, L), dtype=bool), k=-1)`",
               N_("np.tril keeps the lower triangle: it blocks the past and leaves the future open, the mirror "
                  "image of a causal mask.")),
        Option("`np.triu(np.ones((L, L), dtype=bool), k=1)`"),
    ),
    answer=2,
    explanation=N_("np.triu keeps the cells on and above diagonal k. With k = 1 that starts one step above "
    "the main diagonal: exactly the cells whose column (key) comes after the row (query). For 4 tokens it "
    "prints 3 ones in the first row, 2 in the second, 1 in the third and none in the last."),
    lab=LabLink(N_("See the mask in the Lab"), {"sentence": "Your journey starts with", "causal": True}),
)


MASKED_HEAD = Question(
    id="code-masked-head",
    section="code",
    kind="code",
    prompt=N_("Which version completes one attention head with a causal mask? `softmax(scores)` is already "
    "defined and works row by row."),
    code=HEAD_STUB,
    options=(
        Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=1), _SOFTMAX, "weights[blocked] = 0.0", _OUT),
               N_("This masks after the softmax. The future has already taken its share of every row, so "
                  "the rows that remain add up to less than 1.")),
        Option(_version(_PROJECT_LINES, "scores = Q @ K.T / d_k", _TRIU.format(k=1), _NEG_INF, _SOFTMAX, _OUT),
               N_("This divides by d_k instead of √d_k: a forgotten square root. The scores come out too "
                  "small, so the weights are flatter than they should be.")),
        Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=1), _NEG_INF, _SOFTMAX, _OUT)),
        Option(_version(_PROJECT_LINES, _SCALE, _TRIU.format(k=0), _NEG_INF, _SOFTMAX, _OUT),
               N_("k = 0 also blocks the diagonal. Row 1 then has every score at −∞, and its softmax is 0/0: "
                  "NaN.")),
    ),
    answer=2,
    explanation=N_("Version C follows the recipe step by step: project to Q, K and V, divide the scores by "
    "√d_k, set the blocked ones to −∞, take the softmax, multiply by V. With X = [[2, 0], [1, 1], [0, 2]], "
    "W_Q = W_V = I and a W_K that swaps the two columns, it returns the rows [2, 0], [1.5, 0.5] and about "
    "[1.72, 0.28]."),
)


ORDER = Question(
    id="code-order",
    section="code",
    kind="order",
    prompt=N_("Put the lines of one masked attention head in order. `blocked` (True above the diagonal) is "
    "already built. Tap the lines in the order they should run."),
    options=(
        Option(_SOFTMAX, N_("The softmax runs before the mask line, so the weights come from the raw scores and "
                            "the mask changes nothing: masking after the softmax lets the future leak.")),
        Option(_SCALE, N_("The scores need Q and K, which do not exist yet.")),
        Option(_OUT, N_("The output needs the weights, so the softmax must come first.")),
        Option(_PROJECT),
        Option(_NEG_INF, N_("The mask line needs the scores, and they do not exist yet at that point.")),
    ),
    answer=(3, 1, 4, 0, 2),
    explanation=N_("Project, score, mask, softmax, mix: Q, K and V come first, then the scaled scores, then "
    "−∞ on the blocked cells, then the softmax turns each row into weights that add up to 1, and finally "
    "the weights pick out a blend of the values."),
    poll_prompt=N_("Put the lines of one masked attention head in order. `blocked` (True above the diagonal) is "
                   "already built. Which program runs the lines in the right order?"),
)


QUESTIONS: tuple[Question, ...] = (CAUSAL_MASK, MASKED_HEAD, ORDER)  # the page's order
