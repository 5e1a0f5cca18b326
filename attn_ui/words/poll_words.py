"""The class poll's sentences, written at run time from the room's state and counts, in the run's language. Pure
text, no Streamlit.

Nothing here holds a student's words: a room has none. The only outside text is what a URL carries (a room
code someone typed), and that is shown only after md_escape.
"""

from __future__ import annotations

from collections.abc import Sequence

from attn_lang import N_, _, _n
from attn_ui.words.escape import md_escape

ROUND_NAMES = (N_("First vote"), N_("Second vote"))


def votes_word(count: int) -> str:
    return _n("{count} vote", "{count} votes", count)


def students_word(count: int) -> str:
    return _n("{count} student", "{count} students", count)


def students_in(count: int) -> str:
    return _n("{count} student in the room", "{count} students in the room", count)


def share(count: int, total: int) -> float:
    """The bar's length: this option's part of the round's votes (0 when nobody voted yet)."""
    return count / total if total else 0.0


def percent(count: int, total: int) -> str:
    return _("{percent}%", percent=round(100 * share(count, total)))


def round_name(round_number: int) -> str:
    if 1 <= round_number <= len(ROUND_NAMES):
        return _(ROUND_NAMES[round_number - 1])
    return _("Round {number}", number=round_number)


def bar_label(name: str, text: str, count: int, total: int, *, right: bool | None = None) -> str:
    """One option's line over its bar: the letter, its words, the votes and the share. Marked once revealed."""
    if text:
        label = _("**{name}.** {text} · {votes} ({percent})", name=name, text=text, votes=votes_word(count),
                  percent=percent(count, total))
    else:
        label = _("**{name}.** · {votes} ({percent})", name=name, votes=votes_word(count),
                  percent=percent(count, total))
    return _("{label} · **right**", label=label) if right else label  # short: two rounds' bars share a board


def counts_sentence(round_number: int, names: Sequence[str], tally: Sequence[int]) -> str:
    """The counts as one sentence, for a screen reader and for anyone who cannot see the bars."""
    parts = ", ".join(_("{name}: {votes}", name=name, votes=votes_word(count))
                      for name, count in zip(names, tally, strict=True))
    return _("{round}, {votes} in all. {parts}.", round=round_name(round_number), votes=votes_word(sum(tally)),
             parts=parts)


def question_line(index: int, count: int) -> str:
    return _("Question {number} of {count}", number=index + 1, count=count)


def code_for_speech(code: str) -> str:
    """A room code spaced out, so it is read letter by letter and copied without a slip."""
    return " ".join(code)


def typed_code(text: str) -> str:
    """Something a URL or a student typed, safe to show in Markdown."""
    return md_escape(text[:40])
