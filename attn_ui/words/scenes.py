"""The lecture scenes as data: one Lab state per scene, a line or two of narration, and the row to point at.

A lecturer steps through them with Next / Back on the "Lecture scenes" page; a slide links to one scene with
`?scene=N` (1-based). The numbers the narration quotes are checked against the core in tests/ui/test_scenes.py,
so editing a scene's settings without its words (or the other way round) fails a test.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_core import Settings


@dataclass(frozen=True)
class Scene:
    """One step of the lecture."""

    title: str
    settings: Settings  # the Lab's state; settings.view is the head shown
    narration: str  # one or two sentences, Markdown, no user text
    row: int | None = None  # 1-based query row to outline, or None
    training: str | None = None  # a training preset ("mask", "heads"): the scene shows its curves, not a map


CAUSAL = Settings(causal=True)
FOUR_HEADS = CAUSAL.replace(heads=4)

SCENES: tuple[Scene, ...] = (
    Scene(
        "No mask: every word sees the future",
        Settings(),
        "Without a mask, *journey* (row 2) spreads its weight over all six words, including the four that come "
        "after it. The tile **Sees future?** says Yes, and **0** cells are masked.",
        row=2,
    ),
    Scene(
        "The causal mask switches on",
        CAUSAL,
        "Every cell above the diagonal turns grey: **15** future cells (5 + 4 + 3 + 2 + 1) now get weight 0. "
        "Row 2 shares its whole weight between *Your* and *journey*, and still sums to 1.",
        row=2,
    ),
    Scene(
        "The top row sees only itself",
        CAUSAL,
        "*Your* is the first word, so the mask leaves it a single key: itself. Whatever its scores were, "
        "its weight on itself is now **1.00**.",
        row=1,
    ),
    Scene(
        "The bottom row is unchanged",
        CAUSAL,
        "*step* is the last word: nothing lies in its future, so the mask blocks none of its keys and its row "
        "has the same weights as in scene 1.",
        row=6,
    ),
    Scene(
        "Four heads: head 1",
        FOUR_HEADS,
        "Four heads split d_model = 12 into slices of **d_head = 3** numbers each. Head 1 has its own pattern; "
        "the mask still blocks the same 15 cells.",
        row=3,
    ),
    Scene(
        "Head 2",
        FOUR_HEADS.replace(view=2),
        "Same words, same mask, different slice of W_q and W_k: head 2 weighs the words differently from head 1.",
        row=3,
    ),
    Scene(
        "Head 3",
        FOUR_HEADS.replace(view=3),
        "Head 3 is a third way of looking at the same sentence. No head is the right one; the model keeps all four.",
        row=3,
    ),
    Scene(
        "Head 4, and what comes next",
        FOUR_HEADS.replace(view=4),
        "After the last head, the four outputs of 3 numbers are placed side by side (back to 12) and mixed by W_o.",
        row=3,
    ),
    Scene(
        "Dropout 0.5 while training",
        CAUSAL.replace(dropout=0.5),
        "Each legal weight is dropped with chance p = 0.5, and in this pattern **7** of the 21 are set to 0 "
        "(cells marked *drop*); the survivors are doubled (× 1 / (1 − 0.5)), so the rows sum to **0.00** to "
        "**2.00**, 1 on average over many patterns.",
        row=2,
    ),
    Scene(
        "Dropout without the rescale",
        CAUSAL.replace(dropout=0.5, rescale=False),
        "The same cells dropped, but the survivors are not doubled: rows sum to 1 at most, so in training the "
        "output is smaller than at inference. This is the bug the rescale prevents.",
        row=2,
    ),
    Scene(
        "Two words padded",
        CAUSAL.replace(padded=(5, 6)),
        "*one* and *step* are now PAD: their columns go dark grey for every query (**12** cells; **18** masked "
        "with the future). A PAD row such as row 6 still looks at the real words; its output is simply never used.",
        row=6,
    ),
    Scene(
        "A row with nothing to look at",
        CAUSAL.replace(padded=(1,)),
        "Pad the first word and the mask on: *Your* may only look at itself, and itself is PAD. Its row has no "
        "legal key, so the app sets it to 0 instead of dividing by zero.",
        row=1,
    ),
)


# --- Train it yourself: scenes that show what a model that learns does with the mask and the heads. They show the
# preset's shipped curves instead of a Lab map (the numbers under them are formatted from that run), and keep
# the Lab state the run trained with for "Open in the Lab".
TRAINING_SCENES: tuple[Scene, ...] = (
    Scene(
        "A model trained without the mask, and one with it",
        CAUSAL,
        "Left, no mask: the training loss dives towards zero because each position can read the next word. Right, "
        "the mask on: the loss settles on the language's true entropy, and only this model writes sentences.",
        training="mask",
    ),
    Scene(
        "Heads that learned to look back",
        CAUSAL,
        "On sequences with a repeated stretch, the loss on the repeat stalls near chance and then drops in a few "
        "hundred steps. That is when a head learns to find the earlier copy and read what came after it.",
        training="heads",
    ),
)
SCENES = SCENES + TRAINING_SCENES


def scene_number(raw: str | None, count: int = len(SCENES)) -> tuple[int, str | None]:
    """The 1-based scene a URL's `scene` value asks for, and a note when it could not be used."""
    if raw is None or not raw.strip():
        return 1, None
    text = raw.strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= count:
        return int(text), None
    shown = text[:20].replace("`", "'")
    return 1, f"There is no scene `{shown}`; the scenes are numbered 1 to {count}. Showing scene 1."
