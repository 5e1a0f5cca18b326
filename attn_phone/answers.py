"""An answer from the phone's page, counted (attn_phone/routes.py hands each POST here): the room's question read
once and kept, the typed number or the option checked against it, one write, and the reply's words.

Nothing here is the room's state: the questions kept are a room's fixed list (a question never changes once its room
is made), kept QUESTION_TTL_S, well under the day a code names its room after it ends.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from attn_lang import _, using
from attn_phone import screens
from attn_poll import DatabaseError, Poll, PollError, RoomExpired, RoomNotFound, StorageError
from attn_poll.errors import LimitReached, RoundClosed, UnknownOption
from attn_ui.quiz.poll_questions import POLL_BY_ID
from attn_ui.words import live
from attn_ui.words.room_questions import SceneUnreadable

STORAGE_DOWN = "The class poll cannot reach its database right now. It is reconnecting; this page retries by itself."
QUESTION_TTL_S = 600.0  # how long a room's question is kept here for its answers (question_at)
MAX_KEPT_QUESTIONS = 4096


class Answers:
    """The answers of one process's phones, over its Poll (`poll()`)."""

    def __init__(self, poll: Callable[[], Poll]) -> None:
        self.poll = poll
        self.questions: dict[tuple[str, int], tuple[float, str | None, str | None]] = {}  # see question_at

    def count(self, code: str, voter: str, lang: str, position: int, option_text: str | None,
              typed: str | None) -> dict[str, Any]:
        """Count an answer in the round open when it arrives (a revote of the same question takes it)."""
        with using(lang):
            try:
                poll = self.poll()
                at = self.question_at(poll, code, position)
                if at is None:  # the room is not at this question now: its rounds are closed
                    return self.note("closed", _("This round is closed, so your vote was not counted."))
                question_id, spec = at
                found = screens.room_question(question_id, spec, lang)
                asked = None if found is None else found.question
                say, shown, note, key = None, None, "", "sent"
                if typed is not None and asked is not None:
                    if asked.kind != "number":
                        return self.note("option", _("That is not one of this question's options, so nothing was "
                                                     "sent."))
                    if not typed.strip():
                        return self.note("empty", _("Type a number first, then press Send."))
                    read = live.read_typed(typed)
                    option = None if read is None else asked.nearest(read)
                    if option is None:
                        return self.note("range", _("Your answer must be a number from {low} to {high}, so nothing "
                                                    "was sent.", low=asked.options[0], high=asked.options[-1]))
                    if abs(asked.values[option] - read) > asked.step * 1e-6:
                        note = _("Counted as {counted}, the nearest step to {typed}.", counted=asked.options[option],
                                 typed="\x02").replace("\x02", typed.strip()[:20])
                    say, shown = asked.say(option), asked.options[option]
                else:
                    count = asked.option_count if asked is not None else self.option_count(question_id)
                    option = _option(option_text, count)
                    if option is None:  # a discussion has no option at all
                        return self.note("option", _("That is not one of this question's options, so nothing was "
                                                     "sent."))
                    say = asked.say(option) if asked is not None else live.letter(option)
                counted_round = poll.vote(code, voter, position, None, option)  # the round open now, read as it
                # is written: a revote opened since the page was drawn takes the answer
            except SceneUnreadable as error:
                return self.note("option", str(error))
            except RoundClosed as error:
                return self.note("closed", str(error))
            except UnknownOption:
                return self.note("option", _("That is not one of this question's options, so nothing was sent."))
            except LimitReached as error:
                return self.note("limit", str(error))
            except (RoomNotFound, RoomExpired) as error:
                return self.note("closed", str(error))
            except PollError as error:
                return self.note("storage" if isinstance(error, StorageError) else "closed", str(error))
            except DatabaseError:
                return self.note("storage", _(STORAGE_DOWN))
            return {"sent": True, "key": key, "q": position, "r": counted_round, "option": option, "say": say,
                    "shown": shown, "note": note}

    def question_at(self, poll: Poll, code: str, position: int) -> tuple[str | None, str | None] | None:
        """(question id, spec) of the room's question at `position`: read from the room when it is the
        room's question now, then kept here for QUESTION_TTL_S, so the answers to a question read nothing before
        their write (a room's questions never change; a code names one room for a day after it ends, far longer
        than an entry is kept). None: the room is not at that question now (nor was it, here, within the time)."""
        now = time.monotonic()
        kept = self.questions.get((code, position))
        if kept is not None and now - kept[0] < QUESTION_TTL_S:
            return kept[1:]
        state = poll.state(code)
        if state.question_index is None:
            return None
        if len(self.questions) >= MAX_KEPT_QUESTIONS:
            self.questions.clear()
        entry = (now, state.question_id, state.question_spec)
        self.questions[(code, state.question_index)] = entry
        return entry[1:] if state.question_index == position else None

    @staticmethod
    def note(key: str, text: str) -> dict[str, Any]:
        return {"sent": False, "key": key, "note": text}

    @staticmethod
    def option_count(question_id: str | None) -> int:
        """A class poll question's options (a lecture's are its Live's)."""
        question = POLL_BY_ID.get(question_id or "")
        return 0 if question is None else question.option_count


def _option(text: str | None, count: int) -> int | None:
    if text is None or not text.isdigit() or len(text) > 3:
        return None
    option = int(text)
    return option if 0 <= option < count else None
