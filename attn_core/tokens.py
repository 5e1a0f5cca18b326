"""Words in, vectors out: the sentence's tokens and their 3-d input embeddings.

The default sentence uses the six embeddings of the "LLMs from scratch" chapter 3 notebook, so a student can
check the app against it. Every other word gets a vector made from the word's own bytes (SHA-256), which is
the same on every machine and in every session.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from attn_core.errors import SettingsError
from attn_lang import _

DEFAULT_SENTENCE = "Your journey starts with one step"
MAX_TOKENS = 16
MAX_WORD_CHARS = 24
D_IN = 3
_JOINER = "\u200d"  # zero-width joiner: glues emoji into one picture

# The chapter 3 embeddings of "Your journey starts with one step", keyed by the case-folded word.
LESSON_EMBEDDINGS: Mapping[str, tuple[float, float, float]] = MappingProxyType({
    "your": (0.43, 0.15, 0.89),
    "journey": (0.55, 0.87, 0.66),
    "starts": (0.57, 0.85, 0.64),
    "with": (0.22, 0.58, 0.33),
    "one": (0.77, 0.25, 0.10),
    "step": (0.05, 0.80, 0.55),
})


def tokenize(sentence: str) -> tuple[str, ...]:
    """Split on white space; refuse what the app cannot show (empty, too many words, a huge word)."""
    if not isinstance(sentence, str):
        raise SettingsError(_("The sentence must be text."))
    words = tuple(unicodedata.normalize("NFC", word) for word in sentence.split())
    if not words:
        raise SettingsError(_("The sentence is empty: type at least one word."))
    if len(words) > MAX_TOKENS:
        raise SettingsError(_(
            "That sentence has {words:,} words; the app takes 1 to {most} so every cell stays readable.",
            words=len(words), most=MAX_TOKENS,
        ))
    for word in words:
        if len(word) > MAX_WORD_CHARS:
            raise SettingsError(_(
                "One word is {length:,} characters long; each word may have at most {most}.",
                length=len(word), most=MAX_WORD_CHARS,
            ))
        if _has_invisible(word):
            raise SettingsError(_("The sentence holds control or invisible characters; please type plain words."))
    return words


def _has_invisible(word: str) -> bool:
    """Control, format or private characters; a zero-width joiner between two emoji (👩‍💻) is allowed."""
    for index, ch in enumerate(word):
        if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs"):
            continue
        inside = 0 < index < len(word) - 1
        if not (ch == _JOINER and inside and _is_emoji_part(word[index - 1]) and _is_emoji_part(word[index + 1])):
            return True
    return False


def _is_emoji_part(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"  # symbol, skin tone, emoji presentation


def word_embedding(word: str) -> np.ndarray:
    """The word's 3-d input vector: the lesson's values when it has them, else one made from the word."""
    key = word.casefold()
    if key in LESSON_EMBEDDINGS:
        return np.array(LESSON_EMBEDDINGS[key], dtype=np.float64)  # (3,)
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    raw = np.frombuffer(digest[: 2 * D_IN], dtype=">u2").astype(np.float64)  # (3,) in 0..65535
    return np.round(raw / 65535.0, 2)  # (3,) in [0, 1], two decimals like the lesson's table


def embed(tokens: tuple[str, ...]) -> np.ndarray:
    """Stack the tokens' vectors into the input matrix x."""
    return np.stack([word_embedding(word) for word in tokens])  # (T, 3)


def unique_labels(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Axis labels that stay distinct when a word repeats ("the", "cat", "the (3)")."""
    seen = {word for word in tokens if tokens.count(word) > 1}
    return tuple(f"{word} ({pos})" if word in seen else word for pos, word in enumerate(tokens, start=1))
