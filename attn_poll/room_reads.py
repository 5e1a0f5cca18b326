"""What a room shows, read from its rows: the reads of anyone with the code (the projector, the phones, the held
checks' stamps), the row helpers the rules of attn_poll.rooms read through, and the phone's statements built once.

Poll (attn_poll.rooms) is a RoomReads: these reads change nothing, so a phone's poll costs no write.
"""

from __future__ import annotations

from sqlalchemy import Connection, Row, bindparam, func, null, select

from attn_lang import _, _n
from attn_poll import codes
from attn_poll.errors import PollError, RoomEnded, RoomExpired, RoomNotFound
from attn_poll.room_values import Clock, Limits, Phase, PhoneView, ProjectorView, QuestionCounts, RoomState
from attn_poll.schema import questions, rooms, specs, voters, votes
from attn_poll.store import Store


class RoomReads:
    """The reads of a Poll, over its store, clock and limits (Poll's fields)."""

    store: Store
    clock: Clock
    limits: Limits

    # --- students -------------------------------------------------------------------------------------

    def my_votes(self, code: str, voter_id: str) -> dict[tuple[int, int], int]:
        """Every vote this voter cast in the room, by (question index, round): a student's own recap."""

        def work(connection: Connection) -> dict[tuple[int, int], int]:
            room = self._room(connection, code, allow_ended=True)
            rows = connection.execute(
                select(votes.c.question_position, votes.c.round_number, votes.c.option_index)
                .join(voters, voters.c.id == votes.c.voter_id)
                .where(voters.c.room_id == room.id, votes.c.room_id == room.id,
                       voters.c.voter_hash == codes.hash_voter(voter_id, room.voter_salt)))
            return {(position, round_number): option for position, round_number, option in rows}

        return self.store.read(work)

    def my_vote(self, code: str, voter_id: str) -> int | None:
        """This voter's answer in the current round (in a second round, their first when they did not vote again),
        or None: lets a reloaded page show the vote it kept."""
        return self.store.read(lambda connection: self._my_vote(connection, self._room(connection, code,
                                                                                       allow_ended=True), voter_id))

    def question_list(self, code: str) -> tuple[tuple[str, str | None], ...]:
        """Every question of the room in order: (question id, its spec or None). What a lecture's recap words each
        answer with, and what a host page compares with the deck it presents."""

        def work(connection: Connection) -> tuple[tuple[str, str | None], ...]:
            room = self._room(connection, code, allow_ended=True)
            spec = select(specs.c.spec).where(specs.c.room_id == room.id, specs.c.position == questions.c.position)
            rows = connection.execute(select(questions.c.question_id, spec.scalar_subquery())
                                      .where(questions.c.room_id == room.id).order_by(questions.c.position))
            return tuple((question_id, found) for question_id, found in rows)

        return self.store.read(work)

    def phone_view(self, code: str, voter_id: str) -> PhoneView:
        """State, this voter's current vote and the change stamp from one transaction: what a phone draws."""

        def work(connection: Connection) -> PhoneView:  # two queries: the room's row, then all the rest at once
            room = self._room(connection, code, allow_ended=True)
            voter_hash = codes.hash_voter(voter_id, room.voter_salt)
            found = connection.execute(PHONE_VIEW, {  # built once (every phone of a room asks it at once)
                "room_id": room.id, "position": room.question_position, "round": room.round_number,
                "voter_hash": voter_hash}).one()
            carried = found.my_round is not None and found.my_round != room.round_number
            return PhoneView(state=self._state_from(room, found), my_vote=found.my_vote,
                             stamp=(*self._room_stamp(room), found.voted_at), carried=carried)

        return self.store.read(work)

    def phone_stamp(self, code: str, voter_id: str) -> tuple:
        """A value that changes whenever anything a phone shows changes (a host action, this voter's vote from any
        tab, the room expiring), and costs two short indexed reads: what an idle phone polls."""
        return self.store.read(lambda connection: self._stamp(connection, self._room(
            connection, code, allow_ended=True, plain=True), voter_id))

    def room_stamp(self, code: str) -> tuple:
        """(version, phase, expired): changes whenever a host action or the clock changes what a phone shows; one
        indexed read of the room's row. What a phone's browser polls over plain HTTP (attn_ui/views/poll_route.py),
        with no Streamlit run at all."""
        return self.store.read(lambda connection: self._room_stamp(self._room(connection, code, allow_ended=True,
                                                                               plain=True)))

    def board_stamp(self, code: str) -> tuple:
        """(version, phase, expired, activity): changes whenever what a projector's board shows may change (a host
        action, a voter joining, a vote counted, the clock); one indexed read of the room's row. What a host page's
        browser holds its check on (attn_ui/views/poll_route.py), instead of reading the counts every second."""
        return self.store.read(lambda connection: self._board_stamp(self._room(connection, code, allow_ended=True,
                                                                                plain=True)))

    def _board_stamp(self, room: Row) -> tuple:
        return (*self._room_stamp(room), room.activity)

    # --- anyone with the code (the projector, the phones) ---------------------------------------------

    def state(self, code: str) -> RoomState:
        return self.store.read(lambda connection: self._state(connection, self._room(connection, code,
                                                                                     allow_ended=True)))

    def counts(self, code: str, question_index: int | None = None) -> QuestionCounts | None:
        """Votes per option per round for a question (the current one by default); None in the lobby."""

        def work(connection: Connection) -> QuestionCounts | None:
            room = self._room(connection, code, allow_ended=True)
            position = room.question_position if question_index is None else question_index
            return None if position is None else self._counts(connection, room.id, position)

        return self.store.read(work)

    def projector_view(self, code: str) -> ProjectorView:
        """State and the current question's counts from one transaction: what a projector polls each second."""

        def work(connection: Connection) -> ProjectorView:
            room = self._room(connection, code, allow_ended=True)
            position = room.question_position
            counts = None if position is None else self._counts(connection, room.id, position)
            return ProjectorView(state=self._state(connection, room), counts=counts, stamp=self._board_stamp(room))

        return self.store.read(work)

    # --- inside -------------------------------------------------------------------------------------

    def _room(self, connection: Connection, code: str, *, lock: bool = False, allow_ended: bool = False,
              plain: bool = False) -> Row:
        """The room row for a code a person typed; RoomNotFound, RoomExpired or RoomEnded otherwise.
        plain: the row alone, without the current question's option count (the phone's cheap stamp)."""
        canonical = codes.normalise_room_code(code)
        query = ROOM_PLAIN if plain else ROOM
        if lock:  # PostgreSQL: one writer per room at a time (SQLite's BEGIN IMMEDIATE already serialises)
            query = query.with_for_update()
        room = connection.execute(query, {"code": canonical}).first()
        if room is None:
            raise RoomNotFound(_("No room has that code. Check the code on the projector."))
        if room.expires_at <= self.clock():
            hours = round(self.limits.room_lifetime_s / 3600)
            raise RoomExpired(_n("This room has expired; rooms close {count} hour after they open.",
                                 "This room has expired; rooms close {count} hours after they open.", hours))
        if room.phase == Phase.ENDED and not allow_ended:
            raise RoomEnded(_("The host has ended this room."))
        return room

    def _stamp(self, connection: Connection, room: Row, voter_id: str) -> tuple:
        """(room version, phase, expired, this voter's last vote time): equal stamps mean an unchanged phone."""
        voted_at = connection.execute(select(self._voted_at_query(room, codes.hash_voter(
            voter_id, room.voter_salt)))).scalar_one_or_none()
        return (*self._room_stamp(room), voted_at)

    def _room_stamp(self, room: Row) -> tuple:
        """(version, phase, expired): what changes whenever a host action or the clock changes what a phone shows."""
        return room.version, room.phase, room.expires_at <= self.clock()

    @staticmethod
    def _voted_at_query(room: Row, voter_hash: str):
        return select(voters.c.tokens_at).where(voters.c.room_id == room.id,
                                                voters.c.voter_hash == voter_hash).scalar_subquery()

    def _state(self, connection: Connection, room: Row) -> RoomState:
        """One query (three scalar subqueries), since phones and the projector ask for this every second."""
        return self._state_from(room, connection.execute(select(*self._state_columns(room))).one())

    @staticmethod
    def _state_columns(room: Row) -> tuple:
        current = (questions.c.room_id == room.id, questions.c.position == room.question_position)
        return (
            select(questions.c.question_id).where(*current).scalar_subquery().label("question_id"),
            select(questions.c.left_phase).where(*current).scalar_subquery().label("left_phase"),
            select(specs.c.spec).where(specs.c.room_id == room.id, specs.c.position == room.question_position)
            .scalar_subquery().label("question_spec"),
            select(func.count()).where(questions.c.room_id == room.id).scalar_subquery().label("question_count"),
            select(func.count()).where(voters.c.room_id == room.id).scalar_subquery().label("voter_count"),
        )

    @staticmethod
    def _state_from(room: Row, found: Row) -> RoomState:
        return RoomState(
            code=room.code, phase=Phase(room.phase), question_index=room.question_position,
            question_id=found.question_id, option_count=room.option_count or 0, round_number=room.round_number,
            question_count=found.question_count, voter_count=found.voter_count, version=room.version,
            expires_at=room.expires_at, answer_shown=room.phase == Phase.REVEALED or (
                room.phase == Phase.ENDED and found.left_phase == Phase.REVEALED), question_spec=found.question_spec,
        )

    def _my_vote(self, connection: Connection, room: Row, voter_id: str) -> int | None:
        return connection.execute(select(self._my_vote_query(room, codes.hash_voter(
            voter_id, room.voter_salt)))).scalar_one_or_none()

    @staticmethod
    def _my_vote_query(room: Row, voter_hash: str, column=votes.c.option_index):
        """The voter's answer in the room's current round as a scalar subquery (NULL in the lobby): in a second
        round their second vote, else their first, which counts again. `column` picks what is read of it."""
        if room.question_position is None:
            return null()
        return select(column).join(voters, voters.c.id == votes.c.voter_id).where(
            voters.c.room_id == room.id, voters.c.voter_hash == voter_hash,
            votes.c.room_id == room.id, votes.c.question_position == room.question_position,
            votes.c.round_number <= room.round_number).order_by(votes.c.round_number.desc()).limit(1).scalar_subquery()

    def _counts(self, connection: Connection, room_id: int, position: int) -> QuestionCounts:
        spec = select(specs.c.spec).where(specs.c.room_id == room_id, specs.c.position == position)
        question = connection.execute(
            select(questions, spec.scalar_subquery().label("spec"))
            .where(questions.c.room_id == room_id, questions.c.position == position)
        ).first()
        if question is None:
            raise PollError(_("This room has no question number {number}.", number=position + 1))
        tallies = [[0] * question.option_count for __ in range(question.rounds_opened)]
        answers: dict[int, dict[int, int]] = {}  # voter -> round -> option
        for voter, round_number, option in connection.execute(
            select(votes.c.voter_id, votes.c.round_number, votes.c.option_index)
            .where(votes.c.room_id == room_id, votes.c.question_position == position)
        ):
            answers.setdefault(voter, {})[round_number] = option
        for rounds_voted in answers.values():
            for round_number in range(1, question.rounds_opened + 1):
                option = rounds_voted.get(round_number, rounds_voted.get(1) if round_number == 2 else None)
                if option is not None:
                    tallies[round_number - 1][option] += 1
        second = [voted for voted in answers.values() if 2 in voted]
        return QuestionCounts(question_index=position, question_id=question.question_id,
                              option_count=question.option_count, rounds=tuple(tuple(t) for t in tallies),
                              changed=sum(1 in voted and voted[1] != voted[2] for voted in second),
                              added=sum(1 not in voted for voted in second), spec=question.spec)


# The phone's reads, built once: a scene change makes every phone of a room ask them within a second, and building a
# statement (its clauses, its cache key) cost SQLAlchemy several times what SQLite takes to answer it
# (bench/phone_redraw.py). Each is the same query as the room's helpers above, with its values as parameters.
ROOM_PLAIN = select(rooms).where(rooms.c.code == bindparam("code"))
ROOM = select(rooms, select(questions.c.option_count).where(
    questions.c.room_id == rooms.c.id, questions.c.position == rooms.c.question_position
).scalar_subquery().label("option_count")).where(rooms.c.code == bindparam("code"))


def _phone_vote(column):
    """The voter's answer in the round open (a second round: their second vote, else their first): NULL in the lobby,
    whose position is NULL and matches no vote."""
    return select(column).join(voters, voters.c.id == votes.c.voter_id).where(
        voters.c.room_id == bindparam("room_id"), voters.c.voter_hash == bindparam("voter_hash"),
        votes.c.room_id == bindparam("room_id"), votes.c.question_position == bindparam("position"),
        votes.c.round_number <= bindparam("round")).order_by(votes.c.round_number.desc()).limit(1).scalar_subquery()


PHONE_VIEW = select(
    select(questions.c.question_id).where(questions.c.room_id == bindparam("room_id"),
                                          questions.c.position == bindparam("position")).scalar_subquery()
    .label("question_id"),
    select(questions.c.left_phase).where(questions.c.room_id == bindparam("room_id"),
                                         questions.c.position == bindparam("position")).scalar_subquery()
    .label("left_phase"),
    select(specs.c.spec).where(specs.c.room_id == bindparam("room_id"), specs.c.position == bindparam("position"))
    .scalar_subquery().label("question_spec"),
    select(func.count()).where(questions.c.room_id == bindparam("room_id")).scalar_subquery().label("question_count"),
    select(func.count()).where(voters.c.room_id == bindparam("room_id")).scalar_subquery().label("voter_count"),
    _phone_vote(votes.c.option_index).label("my_vote"),
    _phone_vote(votes.c.round_number).label("my_round"),
    select(voters.c.tokens_at).where(voters.c.room_id == bindparam("room_id"),
                                     voters.c.voter_hash == bindparam("voter_hash")).scalar_subquery()
    .label("voted_at"),
)
