"""Which language a message is drawn in, for the run being drawn.

Several students' sessions run in one process at once, each in its own thread, so the language cannot be a global.
It is, in order:
1. the language a caller asked for with `using(code)` (a test, the lecturer's CSV);
2. the language of the Streamlit session being drawn, as attn_ui/widgets/lang.py reads it from the session (it hands
   its reader to set_language_source once, at import: the same function for every session, holding no one's data);
3. English.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from attn_lang.languages import DEFAULT

_CHOSEN: ContextVar[str | None] = ContextVar("attn_lang_chosen", default=None)


class _Source:
    """The Streamlit layer's reader of a session's language. One slot, written at import by that layer."""

    __slots__ = ("read",)

    def __init__(self) -> None:
        self.read: Callable[[], str | None] | None = None


_SOURCE = _Source()


def set_language_source(read: Callable[[], str | None]) -> None:
    """Where to find the language of the session being drawn (None from `read`: no session, English)."""
    _SOURCE.read = read


def current_language() -> str:
    chosen = _CHOSEN.get()
    if chosen:
        return chosen
    read = _SOURCE.read
    if read is not None:
        found = read()
        if found:
            return found
    return DEFAULT


@contextlib.contextmanager
def using(code: str) -> Iterator[str]:
    """Draw everything inside in language `code`, whatever the session chose."""
    token = _CHOSEN.set(code)
    try:
        yield code
    finally:
        _CHOSEN.reset(token)
