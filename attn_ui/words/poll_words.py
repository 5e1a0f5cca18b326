"""The class poll's sentences, written at run time from the room's state and counts. Pure text, no Streamlit.

Nothing here holds a student's words: a room has none. The only outside text is what a URL carries (a room
code someone typed), and that is shown only after md_escape.
"""

from __future__ import annotations

from collections.abc import Sequence

from attn_ui.words.escape import md_escape

ROUND_NAMES = ("First vote", "Second vote")


def votes_word(count: int) -> str:
    return f"{count} vote" if count == 1 else f"{count} votes"


def students_word(count: int) -> str:
    return f"{count} student" if count == 1 else f"{count} students"


def share(count: int, total: int) -> float:
    """The bar's length: this option's part of the round's votes (0 when nobody voted yet)."""
    return count / total if total else 0.0


def percent(count: int, total: int) -> str:
    return f"{round(100 * share(count, total))}%"


def round_name(round_number: int) -> str:
    return ROUND_NAMES[round_number - 1] if 1 <= round_number <= len(ROUND_NAMES) else f"Round {round_number}"


def bar_label(name: str, text: str, count: int, total: int, *, right: bool | None = None) -> str:
    """One option's line over its bar: the letter, its words, the votes and the share. Marked once revealed."""
    mark = "" if right is None else (" · **right answer**" if right else "")
    words = f" {text}" if text else ""
    return f"**{name}.**{words} · {votes_word(count)} ({percent(count, total)}){mark}"


def counts_sentence(round_number: int, names: Sequence[str], tally: Sequence[int]) -> str:
    """The counts as one sentence, for a screen reader and for anyone who cannot see the bars."""
    total = sum(tally)
    parts = ", ".join(f"{name}: {votes_word(count)}" for name, count in zip(names, tally, strict=True))
    return f"{round_name(round_number)}, {votes_word(total)} in all. {parts}."


def question_line(index: int, count: int) -> str:
    return f"Question {index + 1} of {count}"


def code_for_speech(code: str) -> str:
    """A room code spaced out, so it is read letter by letter and copied without a slip."""
    return " ".join(code)


def typed_code(text: str) -> str:
    """Something a URL or a student typed, safe to show in Markdown."""
    return md_escape(text[:40])
