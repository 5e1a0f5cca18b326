"""An answer from the phone's page, counted (attn_phone/routes.py hands each POST here): the room's question read
once and kept, the typed number or the option checked against it, the write (with the room's other answers that
arrive meanwhile, in one transaction), and the reply's words.

Nothing here is the room's state: the questions kept are a room's fixed list (a question never changes once its room
is made), kept QUESTION_TTL_S, well under the day a code names its room after it ends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from attn_lang import _, using
from attn_phone import screens
from attn_poll import DatabaseError, Poll, PollError, RoomExpired, RoomNotFound, StorageError
from attn_poll.ballots import Ballot
from attn_poll.errors import LimitReached, RoundClosed, UnknownOption
from attn_ui.quiz.poll_questions import POLL_BY_ID
from attn_ui.words import live
from attn_ui.words.room_questions import SceneUnreadable

STORAGE_DOWN = "The class poll cannot reach its database right now. It is reconnecting; this page retries by itself."
QUESTION_TTL_S = 600.0  # how long a room's question is kept here for its answers (question_at)
MAX_KEPT_QUESTIONS = 4096
POLL_KEPT_S = 5.0  # the process's Poll, as poll() gave it, is used this long before poll() is asked again (it reads the
# deployment's secrets and settings: a cost on every answer, for a value that does not change while the process runs)
GATHER_S = 0.10  # a room's first waiting answer waits this long for others (group commit: 1,000 phones at 100 answers a
# second, 0.93 ms of server CPU an answer, tap -> confirmed p95 0.10 s, bench/phone_request_cost.py; 50 ms gave batches
# half as large, and PostgreSQL 0.0058 s of server CPU a phone-minute against 0.0049 s, docs/lecture.md)


class Answers:
    """The answers of one process's phones, over its Poll (`poll()`). An answer is checked against its question here,
    then written with the other answers of its room that arrive meanwhile, in one transaction (group commit: one
    room lock and one commit for many phones, each answer counted as it would be alone, attn_poll/ballots.py)."""

    def __init__(self, poll: Callable[[], Poll], gather_s: float = GATHER_S) -> None:
        self.poll = poll
        self.gather_s = gather_s
        self.questions: dict[tuple[str, int], tuple[float, str | None, str | None]] = {}  # see question_at
        # (room code, language) -> the answers waiting for the next write, each with the future its request awaits
        self.waiting: dict[tuple[str, str], list[tuple[Ballot, asyncio.Future]]] = {}
        self.writing: set[tuple[str, str]] = set()  # the rooms (in a language) whose answers a task is writing now

    async def count(self, code: str, voter: str, lang: str, position: int, option_text: str | None,
                    typed: str | None) -> dict[str, Any]:
        """Count an answer in the round open when it is written (a revote of the same question takes it): the reply's
        words for the phone."""
        if self._kept(code, position) is not None:
            checked = self.check(code, lang, position, option_text, typed)  # nothing to read: no thread needed
        else:
            checked = await run_in_threadpool(self.check, code, lang, position, option_text, typed)
        if checked.get("sent") is False:
            return checked
        try:
            counted_round = await self.written(code, lang, Ballot(voter, position, None, checked["option"]))
        except Exception as error:  # noqa: BLE001 (the ones a phone is told of; anything else is raised again)
            return self.refusal(error, lang)
        return {"sent": True, "key": "sent", "q": position, "r": counted_round, **checked}

    def check(self, code: str, lang: str, position: int, option_text: str | None, typed: str | None
              ) -> dict[str, Any]:
        """The answer against its question: {option, say, shown, note} to write, or a refusal's {sent, key, note}."""
        with using(lang):
            try:
                at = self.question_at(self.poll(), code, position)
                if at is None:  # the room is not at this question now: its rounds are closed
                    return self.note("closed", _("This round is closed, so your vote was not counted."))
                question_id, spec = at
                found = screens.room_question(question_id, spec, lang)
            except Exception as error:  # noqa: BLE001 (as in count)
                return self.refusal(error, lang)
            asked = None if found is None else found.question
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
                note = ""
                if abs(asked.values[option] - read) > asked.step * 1e-6:
                    note = _("Counted as {counted}, the nearest step to {typed}.", counted=asked.options[option],
                             typed="\x02").replace("\x02", typed.strip()[:20])
                return {"option": option, "say": asked.say(option), "shown": asked.options[option], "note": note}
            count = asked.option_count if asked is not None else self.option_count(question_id)
            option = _option(option_text, count)
            if option is None:  # a discussion has no option at all
                return self.note("option", _("That is not one of this question's options, so nothing was sent."))
            return {"option": option, "say": asked.say(option) if asked is not None else live.letter(option),
                    "shown": None, "note": ""}

    def refusal(self, error: Exception, lang: str) -> dict[str, Any]:
        """What a phone is told of an answer refused or not written; an error no phone should see is raised again."""
        with using(lang):
            if isinstance(error, SceneUnreadable):
                return self.note("option", str(error))
            if isinstance(error, RoundClosed):
                return self.note("closed", str(error))
            if isinstance(error, UnknownOption):
                return self.note("option", _("That is not one of this question's options, so nothing was sent."))
            if isinstance(error, LimitReached):
                return self.note("limit", str(error))
            if isinstance(error, RoomNotFound | RoomExpired):
                return self.note("closed", str(error))
            if isinstance(error, PollError):
                return self.note("storage" if isinstance(error, StorageError) else "closed", str(error))
            if isinstance(error, DatabaseError):
                return self.note("storage", _(STORAGE_DOWN))
        raise error

    async def written(self, code: str, lang: str, ballot: Ballot) -> int:
        """The round this ballot counted in, once written with its room's others (PollError: refused)."""
        future = asyncio.get_running_loop().create_future()
        key = (code, lang)  # a batch is written in one language: a refusal's words are the phone's own
        self.waiting.setdefault(key, []).append((ballot, future))
        if key not in self.writing:
            self.writing.add(key)
            asyncio.ensure_future(self._write(key))
        return await future

    async def _write(self, key: tuple[str, str]) -> None:
        """Write this room's waiting answers, a batch at a time, until none wait. The first batch goes at once (or
        after gather_s); answers that arrive while a batch is written go in the next."""
        code, lang = key
        try:
            if self.gather_s:
                await asyncio.sleep(self.gather_s)
            while self.waiting.get(key):
                batch = self.waiting.pop(key)
                try:
                    outcomes = await run_in_threadpool(self._vote_many, code, lang, [b for b, __ in batch])
                except Exception as error:  # noqa: BLE001 (the database itself: every answer of the batch hears it)
                    outcomes = [error] * len(batch)
                for (__, future), outcome in zip(batch, outcomes, strict=True):
                    if future.done():  # its request went away
                        continue
                    if isinstance(outcome, Exception):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self.writing.discard(key)

    def _vote_many(self, code: str, lang: str, ballots: list[Ballot]) -> list[int | PollError]:
        with using(lang):
            return self.poll().vote_many(code, ballots)

    def question_at(self, poll: Poll, code: str, position: int) -> tuple[str | None, str | None] | None:
        """(question id, spec) of the room's question at `position`: read from the room when it is the
        room's question now, then kept here for QUESTION_TTL_S, so the answers to a question read nothing before
        their write (a room's questions never change; a code names one room for a day after it ends, far longer
        than an entry is kept). None: the room is not at that question now (nor was it, here, within the time)."""
        kept = self._kept(code, position)
        if kept is not None:
            return kept
        now = time.monotonic()
        state = poll.state(code)
        if state.question_index is None:
            return None
        if len(self.questions) >= MAX_KEPT_QUESTIONS:
            self.questions.clear()
        entry = (now, state.question_id, state.question_spec)
        self.questions[(code, state.question_index)] = entry
        return entry[1:] if state.question_index == position else None

    def _kept(self, code: str, position: int) -> tuple[str | None, str | None] | None:
        """(question id, spec) kept here for the room's question at `position`, while it is fresh; else None."""
        kept = self.questions.get((code, position))
        return kept[1:] if kept is not None and time.monotonic() - kept[0] < QUESTION_TTL_S else None

    @staticmethod
    def note(key: str, text: str) -> dict[str, Any]:
        return {"sent": False, "key": key, "note": text}

    @staticmethod
    def option_count(question_id: str | None) -> int:
        """A class poll question's options (a lecture's are its Live's)."""
        question = POLL_BY_ID.get(question_id or "")
        return 0 if question is None else question.option_count


def kept_for(poll: Callable[[], Poll], seconds: float) -> Callable[[], Poll]:
    """poll(), asked again at most every `seconds` (a Poll is the process's engine, shared by every request)."""
    kept: list = [0.0, None]

    def kept_poll() -> Poll:
        now = time.monotonic()
        if kept[1] is None or now - kept[0] > seconds:
            kept[1], kept[0] = poll(), now
        return kept[1]

    return kept_poll


def _option(text: str | None, count: int) -> int | None:
    if text is None or not text.isdigit() or len(text) > 3:
        return None
    option = int(text)
    return option if 0 <= option < count else None
