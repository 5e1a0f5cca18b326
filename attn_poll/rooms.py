"""The rules of a room: who may do what, in which phase, how often. Plain Python over a Store; no Streamlit.

A room runs one question at a time:

    LOBBY --next_question--> VOTING (round 1) --close_round--> CLOSED --open_revote--> VOTING (round 2)
    CLOSED --reveal--> REVEALED --next_question--> VOTING (next question, round 1) ... end_room --> ENDED

A lecture room (the Lecture scenes page's Go live) asks one question per scene and follows the lecturer instead:
show_scene moves to any question, in any order, and shows or hides its answer, so the lecturer's Back and the
browser's Back move the phones too; close_round, open_revote and reveal work in it as above.

Host actions need the host secret. Students are opaque voter ids chosen by the page; only a salted hash of
one is stored. Every method reads or writes the database afresh, so several app processes can share a room.

What a room is and gives back (Phase, Limits, RoomState, ...) is attn_poll.room_values; the reads that change
nothing (a phone's view, the projector's, the stamps) and the row helpers are attn_poll.room_reads (a Poll is a
RoomReads).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, Row, delete, func, insert, select, update

from attn_lang import _
from attn_poll import codes
from attn_poll.ballots import Voting
from attn_poll.errors import (
    BadQuestions,
    NotHost,
    PollError,
    RoomEnded,
    RoomFull,
    RoomMoved,
    TooManyRooms,
    WrongPhase,
)
from attn_poll.export import counts_csv
from attn_poll.room_values import Clock, Limits, NewRoom, Phase, QuestionCounts, RoomState
from attn_poll.schema import openers as opener_buckets
from attn_poll.schema import questions, rooms, voters, votes
from attn_poll.schema import specs as question_specs
from attn_poll.store import Store


@dataclass(frozen=True)
class Poll(Voting):
    """The room rules over one Store. Cheap to build; share one per app process."""

    store: Store
    clock: Clock = time.time
    limits: Limits = Limits()
    # told the room's code after each write this Poll commits that a page shows (a host action, a voter joining, a vote;
    # on_moved): a hint that the room may have moved, in the thread that wrote; what moved is read from the database.
    # The held routes of this process listen.
    listeners: list[Callable[[str], None]] = field(default_factory=list, compare=False, repr=False)

    def on_moved(self, listener: Callable[[str], None]) -> None:
        """Call listener(code) after each write a page shows that this Poll commits (once, however often it is
        added)."""
        if listener not in self.listeners:
            self.listeners.append(listener)

    # --- the host -------------------------------------------------------------------------------------

    def create_room(self, question_list: Sequence[tuple[str, int]], openers: Sequence[str] = (),
                    specs: Sequence[str | None] = ()) -> NewRoom:
        """A room over (question_id, option_count) pairs, in that order, waiting in the lobby. An option count of 0 is
        a question with nothing to answer (a discussion): every vote for it is refused.

        openers name who asks, e.g. ("browser:<token>", "address:<ip>"): each has its own bucket of openings
        (Limits.opens_per_browser / opens_per_address by its prefix); TooManyRooms when one is empty.
        specs, when given, holds one text per question (None for none): what its id is too short to hold, kept with
        the room (a lecturer's own scene; RoomState.question_spec, QuestionCounts.spec, question_list)."""
        question_list, specs = tuple(question_list), tuple(specs)
        self._check_questions(question_list)
        self._check_specs(question_list, specs)
        openers = tuple(dict.fromkeys(o for o in openers if isinstance(o, str) and o))
        for __ in range(5):  # a code already taken: draw again (about 1 in 170 million with 200 rooms open)
            room = NewRoom(code=codes.new_room_code(), host_secret=codes.new_host_secret())
            if self.store.write(lambda connection, room=room: self._insert_room(connection, room, question_list,
                                                                                openers, specs)):
                return room
        raise PollError(_("Could not find a free room code; try again."))

    def verify_host(self, code: str, host_secret: str) -> RoomState:
        """The room's state if host_secret is its host secret (an ended room too, for its export); NotHost if not."""
        return self.store.read(lambda connection: self._state(connection, self._host_room(
            connection, code, host_secret, allow_ended=True)))

    def touch_host(self, code: str, host_secret: str) -> None:
        """The host page is still there: the room is not idle. Writes at most once per Limits.touch_every_s."""

        def work(connection: Connection) -> None:
            room = self._host_room(connection, code, host_secret, allow_ended=True)
            now = self.clock()
            if (room.touched_at or room.created_at) < now - self.limits.touch_every_s:
                connection.execute(update(rooms).where(rooms.c.id == room.id).values(touched_at=now))

        self.store.write(work)

    # Every host action takes `expected_version`: the room's version on the page that acts. When another host page
    # (a second device, a reload) moved the room since, nothing changes and RoomMoved carries the room as it is, for
    # that page to follow: a lecturer's press means "from what I see", never "from where someone else took it".

    def next_question(self, code: str, host_secret: str, expected_version: int | None = None) -> RoomState:
        """From the lobby or after a reveal: the next question opens for round 1."""
        return self._host_action(code, host_secret, self._to_next_question, expected_version)

    def close_round(self, code: str, host_secret: str, expected_version: int | None = None) -> RoomState:
        return self._host_action(code, host_secret, self._to_closed, expected_version)

    def open_revote(self, code: str, host_secret: str, expected_version: int | None = None) -> RoomState:
        """After round 1 closes: round 2 of the same question; round 1's counts stay as they were, and every first
        answer counts in round 2 until its voter changes it."""
        return self._host_action(code, host_secret, self._to_revote, expected_version)

    def reveal(self, code: str, host_secret: str, expected_version: int | None = None) -> RoomState:
        return self._host_action(code, host_secret, self._to_revealed, expected_version)

    def show_scene(self, code: str, host_secret: str, question_index: int, revealed: bool,
                   expected_version: int | None = None) -> RoomState:
        """A lecture room follows its lecturer: question_index is on screen, its answer showing or not.

        A question never asked opens round 1 (and closes it at once when it opens revealed, from a link to a
        revealed scene). A question asked before comes back as it was left: its rounds as they were, a round that was
        still open open again (only a lecturer closes a round), one closed or revealed closed, or revealed when asked.
        Nothing is written when the room already shows this."""

        def step(connection: Connection, room: Row) -> dict | None:
            if isinstance(question_index, bool) or not isinstance(question_index, int):
                raise WrongPhase(_("A scene is given by its position."))
            if room.question_position == question_index:
                phase = Phase(room.phase)
                if revealed and phase is not Phase.REVEALED:
                    return {"phase": Phase.REVEALED.value}
                if not revealed and phase is Phase.REVEALED:
                    return {"phase": Phase.CLOSED.value}
                return None
            found = connection.execute(select(questions.c.rounds_opened, questions.c.left_phase).where(
                questions.c.room_id == room.id, questions.c.position == question_index)).first()
            if found is None:
                raise WrongPhase(_("This lecture has no scene number {number}.", number=question_index + 1))
            if room.question_position is not None:  # the question left keeps its phase for a return
                connection.execute(update(questions).where(
                    questions.c.room_id == room.id, questions.c.position == room.question_position
                ).values(left_phase=room.phase))
            if found.rounds_opened == 0:
                self._open_round(connection, room.id, question_index, 1, missing="")
                phase = Phase.REVEALED if revealed else Phase.VOTING
                return {"phase": phase.value, "question_position": question_index, "round_number": 1}
            if revealed:
                phase = Phase.REVEALED
            else:
                phase = Phase.VOTING if found.left_phase == Phase.VOTING.value else Phase.CLOSED
            return {"phase": phase.value, "question_position": question_index, "round_number": found.rounds_opened}

        return self._host_action(code, host_secret, step, expected_version)

    def end_room(self, code: str, host_secret: str, expected_version: int | None = None) -> RoomState:
        return self._host_action(code, host_secret, self._to_ended, expected_version)

    def export_rows(self, code: str, host_secret: str) -> tuple[QuestionCounts, ...]:
        """Counts for every question that was asked, every round opened; no voter appears."""

        def work(connection: Connection) -> tuple[QuestionCounts, ...]:
            room = self._host_room(connection, code, host_secret, allow_ended=True)
            positions = connection.execute(
                select(questions.c.position).where(questions.c.room_id == room.id, questions.c.rounds_opened > 0)
                .order_by(questions.c.position)
            ).scalars()
            return tuple(self._counts(connection, room.id, position) for position in positions)

        return self.store.read(work)

    def export_csv(self, code: str, host_secret: str) -> str:
        """export_rows as CSV text (see export.counts_csv), ready for a download button."""
        return counts_csv(self.export_rows(code, host_secret))

    # --- students -------------------------------------------------------------------------------------

    def join(self, code: str, voter_id: str) -> RoomState:
        """Register a voter (idempotent: a reload or a second tab is the same voter). RoomFull at the cap."""

        def work(connection: Connection) -> tuple[RoomState, bool]:
            room = self._room(connection, code, lock=True)
            joined = self._voter(connection, room, voter_id, create=False) is None
            if joined:
                self._voter(connection, room, voter_id, create=True)
            return self._state(connection, room), joined

        state, joined = self.store.write(work)
        if joined:
            self._tell(state.code)
        return state

    # --- inside -------------------------------------------------------------------------------------

    def _check_questions(self, question_list: tuple[tuple[str, int], ...]) -> None:
        if not 0 < len(question_list) <= self.limits.max_questions:
            raise BadQuestions(_("A room needs between 1 and {most} questions.", most=self.limits.max_questions))
        for question_id, option_count in question_list:
            if not isinstance(question_id, str) or not 0 < len(question_id) <= 120:
                raise BadQuestions(_("Every question needs an id of 1 to 120 characters."))
            if isinstance(option_count, bool) or not isinstance(option_count, int):
                raise BadQuestions(_("Question {question!r} needs a whole number of options.", question=question_id))
            if option_count != 0 and not 2 <= option_count <= self.limits.max_options:
                raise BadQuestions(_("Question {question!r} needs between 2 and {most} options.", question=question_id,
                                                 most=self.limits.max_options))

    def _check_specs(self, question_list: tuple[tuple[str, int], ...], specs: tuple[str | None, ...]) -> None:
        if specs and len(specs) != len(question_list):
            raise BadQuestions(_("A room's questions need one spec each, or none at all."))
        most = self.limits.max_spec_chars
        if any(spec is not None and (not isinstance(spec, str) or not 0 < len(spec) <= most) for spec in specs):
            raise BadQuestions(_("A question's spec is text of 1 to {most} characters.", most=most))

    def _insert_room(self, connection: Connection, room: NewRoom, question_list, openers: tuple[str, ...],
                     specs: tuple[str | None, ...] = ()) -> bool:
        now = self.clock()
        self.store.lock_for_transaction(connection, "create room")  # two processes must not both pass the cap
        self._purge(connection, now)
        self._close_idle_lobbies(connection, now)
        open_rooms = connection.execute(
            select(func.count()).select_from(rooms).where(rooms.c.expires_at > now, rooms.c.phase != Phase.ENDED.value)
        ).scalar_one()
        if open_rooms >= self.limits.max_open_rooms:
            raise TooManyRooms(_("The class poll already has {rooms} open rooms; end one or wait for one to "
                                 "expire.", rooms=open_rooms))
        taken = connection.execute(select(rooms.c.id).where(rooms.c.code == room.code)).first()
        if taken is not None:
            return False
        for opener in openers:
            self._take_opening(connection, opener, now)
        room_id = connection.execute(
            insert(rooms).values(code=room.code, host_hash=codes.hash_host_secret(room.host_secret),
                                 voter_salt=codes.new_salt(), created_at=now,
                                 expires_at=now + self.limits.room_lifetime_s, phase=Phase.LOBBY.value,
                                 question_position=None, round_number=0, version=0,
                                 vote_tokens=self.limits.vote_burst, tokens_at=now, touched_at=now)
            .returning(rooms.c.id)
        ).scalar_one()
        connection.execute(insert(questions), [
            {"room_id": room_id, "position": position, "question_id": question_id, "option_count": option_count,
             "rounds_opened": 0}
            for position, (question_id, option_count) in enumerate(question_list)
        ])
        kept = [{"room_id": room_id, "position": position, "spec": spec}
                for position, spec in enumerate(specs) if spec is not None]
        if kept:
            connection.execute(insert(question_specs), kept)
        return True

    def _purge(self, connection: Connection, now: float) -> None:
        """Delete rooms long expired, with everything in them, so the database holds only live lectures."""
        old = select(rooms.c.id).where(rooms.c.expires_at < now - self.limits.purge_after_s)
        for table in (votes, voters, question_specs, questions):
            connection.execute(delete(table).where(table.c.room_id.in_(old)))
        connection.execute(delete(rooms).where(rooms.c.id.in_(old)))
        full_again = now - max(self.limits.browser_refill_s * self.limits.opens_per_browser,
                               self.limits.address_refill_s * self.limits.opens_per_address)
        # A bucket that has refilled needs no row.
        connection.execute(delete(opener_buckets).where(opener_buckets.c.tokens_at < full_again))

    def _close_idle_lobbies(self, connection: Connection, now: float) -> None:
        """A lobby nobody joined, whose host did nothing for Limits.idle_close_s, expires now: it frees its place."""
        joined = select(voters.c.id).where(voters.c.room_id == rooms.c.id).exists()
        connection.execute(update(rooms).where(
            rooms.c.phase == Phase.LOBBY.value, rooms.c.expires_at > now,
            func.coalesce(rooms.c.touched_at, rooms.c.created_at) < now - self.limits.idle_close_s, ~joined,
        ).values(expires_at=now))

    def _take_opening(self, connection: Connection, opener: str, now: float) -> None:
        """One token from this opener's bucket of room openings; TooManyRooms, with the wait, when it is empty."""
        by_browser = opener.startswith("browser:")
        burst = self.limits.opens_per_browser if by_browser else self.limits.opens_per_address
        refill_s = self.limits.browser_refill_s if by_browser else self.limits.address_refill_s
        key = hashlib.sha256(f"attn-lab room opener\x00{opener}".encode()).hexdigest()
        query = select(opener_buckets).where(opener_buckets.c.opener_hash == key)
        row = connection.execute(query.with_for_update()).first()
        tokens = float(burst) if row is None else min(float(burst), row.tokens + max(0.0, now - row.tokens_at)
                                                      / refill_s)
        if tokens < 1:
            wait = math.ceil((1 - tokens) * refill_s)
            raise TooManyRooms(_("Too many rooms opened from this browser just now; you can open another in {wait} s.",
                                 wait=wait) if by_browser else
                               _("Too many rooms opened from this network address just now; you can open another in "
                                 "{wait} s.", wait=wait))
        values = {"tokens": tokens - 1, "tokens_at": now}
        if row is None:
            connection.execute(insert(opener_buckets).values(opener_hash=key, **values))
        else:
            connection.execute(update(opener_buckets).where(opener_buckets.c.opener_hash == key).values(**values))

    def _host_room(self, connection: Connection, code: str, host_secret: str, *, lock: bool = False,
                   allow_ended: bool = False) -> Row:
        room = self._room(connection, code, lock=lock, allow_ended=True)
        if not codes.host_secret_matches(host_secret, room.host_hash):
            raise NotHost(_("Only the host link can control this room."))
        if room.phase == Phase.ENDED and not allow_ended:
            raise RoomEnded(_("The host has ended this room."))
        return room

    def _voter(self, connection: Connection, room: Row, voter_id: str, *, create: bool) -> int | None:
        voter_hash = codes.hash_voter(voter_id, room.voter_salt)
        found = connection.execute(
            select(voters.c.id).where(voters.c.room_id == room.id, voters.c.voter_hash == voter_hash)
        ).scalar_one_or_none()
        if found is not None or not create:
            return found
        joined = connection.execute(select(func.count()).where(voters.c.room_id == room.id)).scalar_one()
        if joined >= self.limits.max_voters_per_room:
            raise RoomFull(_("This room is full: it already has {joined} voters.", joined=joined))
        voter = connection.execute(
            insert(voters).values(room_id=room.id, voter_hash=voter_hash).returning(voters.c.id)
        ).scalar_one()
        connection.execute(update(rooms).where(rooms.c.id == room.id).values(activity=rooms.c.activity + 1))
        return voter

    def _host_action(self, code: str, host_secret: str, step: Callable[[Connection, Row], dict | None],
                     expected_version: int | None = None) -> RoomState:
        """step gives the row's new values, or None for nothing to change (no write, the version stays). With
        expected_version, a room at another version is left as it is: RoomMoved, with its state."""

        def work(connection: Connection) -> RoomState:
            room = self._host_room(connection, code, host_secret, lock=True)
            if expected_version is not None and room.version != expected_version:
                raise RoomMoved(_("Another host page moved this room first; this page now shows it where it is."),
                                self._state(connection, self._room(connection, code, allow_ended=True)))
            values = step(connection, room)
            if values is None:
                return self._state(connection, self._room(connection, code, allow_ended=True))
            connection.execute(update(rooms).where(rooms.c.id == room.id).values(version=room.version + 1,
                                                                                 touched_at=self.clock(), **values))
            return self._state(connection, self._room(connection, code, allow_ended=True))

        state = self.store.write(work)
        self._tell(state.code)
        return state

    def _tell(self, code: str) -> None:
        for listener in tuple(self.listeners):
            listener(code)

    def _to_next_question(self, connection: Connection, room: Row) -> dict:
        if room.phase not in (Phase.LOBBY, Phase.REVEALED):
            raise WrongPhase(_("Reveal the answer before moving to the next question."))
        position = 0 if room.question_position is None else room.question_position + 1
        self._open_round(connection, room.id, position, 1, missing=_("That was the last question; end the room."))
        return {"phase": Phase.VOTING.value, "question_position": position, "round_number": 1}

    def _to_closed(self, _connection: Connection, room: Row) -> dict:
        if room.phase != Phase.VOTING:
            raise WrongPhase(_("There is no open round to close."))
        return {"phase": Phase.CLOSED.value}

    def _to_revote(self, connection: Connection, room: Row) -> dict:
        if room.phase != Phase.CLOSED or room.round_number != 1:
            raise WrongPhase(_("A second round opens only after the first round closes, and only once."))
        self._open_round(connection, room.id, room.question_position, 2, missing="")
        return {"phase": Phase.VOTING.value, "round_number": 2}

    def _to_revealed(self, _connection: Connection, room: Row) -> dict:
        if room.phase != Phase.CLOSED:
            raise WrongPhase(_("Close the round before revealing the answer."))
        return {"phase": Phase.REVEALED.value}

    def _to_ended(self, connection: Connection, room: Row) -> dict:
        """The question on screen keeps the phase it ended in: an answer revealed stays revealed on the board."""
        if room.question_position is not None:
            connection.execute(update(questions).where(
                questions.c.room_id == room.id, questions.c.position == room.question_position
            ).values(left_phase=room.phase))
        return {"phase": Phase.ENDED.value}

    def _open_round(self, connection: Connection, room_id: int, position: int, round_number: int, *,
                    missing: str) -> None:
        opened = connection.execute(
            update(questions).where(questions.c.room_id == room_id, questions.c.position == position)
            .values(rounds_opened=round_number)
        ).rowcount
        if not opened:
            raise WrongPhase(missing)
