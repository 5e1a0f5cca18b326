"""Votes, one or many at a time: a room's answers that arrive together are written in one transaction (one lock of
the room, one commit), each counted exactly as it would be alone and in the same order.

Poll (attn_poll/rooms.py) is a Voting. `vote` is `vote_many` of one ballot, so the rules below are the only rules:

- the room takes votes (VOTING) on that question, in that round (or, with round None, in the round open now);
- the option is one of the question's;
- a voter new to the room counts against the room's cap (RoomFull);
- the voter's own bucket, then the room's, gives a token (TooManyVotes otherwise; a refused vote spends none);
- the vote replaces this voter's earlier vote in the round.

A refused ballot changes nothing and is given back as its PollError; the others still count. A failure of the
database itself (DatabaseError) fails the whole batch, as it failed a single vote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

from sqlalchemy import Connection, Row, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from attn_lang import _
from attn_poll import codes
from attn_poll.errors import PollError, RoomFull, RoundClosed, TooManyVotes, UnknownOption
from attn_poll.room_reads import RoomReads
from attn_poll.room_values import Phase
from attn_poll.schema import rooms, voters, votes

MOST_A_BATCH = 500  # ballots in one transaction at most (a longer list is written in several)


@dataclass(frozen=True)
class Ballot:
    """One answer: who (the page's opaque voter id), which question and round (None: the round open now), which
    option."""

    voter_id: str
    question_index: int
    round_number: int | None
    option: int


@dataclass
class _Voter:
    """A voter as this batch sees it: its row id (None until written), its bucket now, new to the room or not (a new
    voter is written only when one of its ballots counts)."""

    id: int | None
    tokens: float
    new: bool


class Voting(RoomReads):
    """Votes over a Store; see the module's rules. Needs store, clock, limits and _tell (Poll has them)."""

    def vote(self, code: str, voter_id: str, question_index: int, round_number: int | None, option: int) -> int:
        """Vote, or change this voter's vote, in the round the page showed (`round_number`), or with None in the round
        open now on that question (a revote opened since the page was drawn takes it: the phone's page, which reads
        nothing before its write). Refused once that round closes. Returns the round counted in."""
        outcome = self.vote_many(code, (Ballot(voter_id, question_index, round_number, option),))[0]
        if isinstance(outcome, PollError):
            raise outcome
        return outcome

    def vote_many(self, code: str, ballots: Sequence[Ballot]) -> list[int | PollError]:
        """Each ballot as `vote` would count it, in order: the round it counted in, or the PollError that refused it.
        RoomNotFound, RoomExpired and RoomEnded refuse the whole list (raised, as by `vote`)."""
        outcomes: list[int | PollError] = []
        for start in range(0, len(ballots), MOST_A_BATCH):
            part = tuple(ballots[start:start + MOST_A_BATCH])
            found, told = self.store.write(lambda connection, part=part: self._count_ballots(connection, code, part))
            outcomes.extend(found)
            if told is not None:
                self._tell(told)
        return outcomes

    def _count_ballots(self, connection: Connection, code: str, ballots: tuple[Ballot, ...]
                       ) -> tuple[list[int | PollError], str | None]:
        room = self._room(connection, code, lock=True)
        now = self.clock()
        limits = self.limits
        hashes = [codes.hash_voter(ballot.voter_id, room.voter_salt) for ballot in ballots]
        seen: dict[str, _Voter] = {
            row.voter_hash: _Voter(row.id, _refilled(row, now, limits.voter_vote_burst, limits.voter_votes_per_second),
                                   new=False)
            for row in connection.execute(_BATCH_VOTERS, {"room": room.id, "hashes": sorted(set(hashes))})}
        joined: int | None = None  # voters in the room, read when a new one first needs it
        room_tokens = min(float(limits.vote_burst),
                          room.vote_tokens + max(0.0, now - room.tokens_at) * limits.max_votes_per_second)
        chosen: dict[str, int] = {}  # voter hash -> option, the last counted (one vote a voter a round)
        counted = 0
        outcomes: list[int | PollError] = []
        for ballot, voter_hash in zip(ballots, hashes, strict=True):
            try:
                _check(room, ballot)
                voter = seen.get(voter_hash)
                if voter is None:
                    if joined is None:
                        joined = connection.execute(
                            select(func.count()).where(voters.c.room_id == room.id)).scalar_one()
                    if joined >= limits.max_voters_per_room:
                        raise RoomFull(_("This room is full: it already has {joined} voters.", joined=joined))
                    voter = _Voter(None, float(limits.voter_vote_burst), new=True)
                if voter.tokens < 1:
                    raise TooManyVotes(_("You are changing your vote very fast; wait a second, then tap again."))
                if room_tokens < 1:
                    raise TooManyVotes(_("Too many votes in this room this second; your vote was not counted, try "
                                         "again."))
            except PollError as error:
                outcomes.append(error)
                continue
            if voter_hash not in seen:
                seen[voter_hash] = voter
                joined += 1
            voter.tokens -= 1
            room_tokens -= 1
            counted += 1
            chosen[voter_hash] = ballot.option
            outcomes.append(room.round_number)
        if not chosen:
            return outcomes, None
        self._write_ballots(connection, room, now, seen, chosen, room_tokens, counted)
        return outcomes, room.code

    def _write_ballots(self, connection: Connection, room: Row, now: float, seen: dict[str, _Voter],
                       chosen: dict[str, int], room_tokens: float, counted_votes: int) -> None:
        """The batch's writes: new voters, the others' buckets, the room's bucket and activity (+1 a voter new to the
        room, +1 a vote counted, as a projector's count wakes on it), then each voter's last vote of the round."""
        counted = [(voter_hash, seen[voter_hash]) for voter_hash in chosen]  # the voters a ballot counted for
        for voter_hash, voter in counted:
            if voter.new:
                voter.id = connection.execute(
                    insert(voters).values(room_id=room.id, voter_hash=voter_hash, vote_tokens=voter.tokens,
                                          tokens_at=now).returning(voters.c.id)).scalar_one()
        known = [{"voter": voter.id, "tokens": voter.tokens, "now": now} for __, voter in counted if not voter.new]
        if known:
            connection.execute(_VOTER_BUCKET, known)
        added = sum(voter.new for __, voter in counted)
        connection.execute(_ROOM_BUCKET, {"room": room.id, "tokens": room_tokens, "now": now,
                                          "more": added + counted_votes})
        connection.execute(_VOTE_UPSERT[self.store.dialect],
                           [{"room_id": room.id, "question_position": room.question_position,
                             "round_number": room.round_number, "voter_id": seen[voter_hash].id,
                             "option_index": option} for voter_hash, option in chosen.items()])


# The batch's statements, built once: SQLAlchemy keeps each one's compiled form under a key it memoizes on the
# statement object itself, so a statement built anew for every batch paid for that key (and for ON CONFLICT's
# `excluded` columns) every time.
_BATCH_VOTERS = (select(voters.c.id, voters.c.voter_hash, voters.c.vote_tokens, voters.c.tokens_at)
                 .where(voters.c.room_id == bindparam("room"),
                        voters.c.voter_hash.in_(bindparam("hashes", expanding=True))))
_VOTER_BUCKET = (update(voters).where(voters.c.id == bindparam("voter"))
                 .values(vote_tokens=bindparam("tokens"), tokens_at=bindparam("now")))
_ROOM_BUCKET = (update(rooms).where(rooms.c.id == bindparam("room"))
                .values(vote_tokens=bindparam("tokens"), tokens_at=bindparam("now"),
                        activity=rooms.c.activity + bindparam("more")))


def _built_vote_upsert(insert_of):
    """Each voter's vote of the round, replacing an earlier one: INSERT ... ON CONFLICT, which SQLite and PostgreSQL
    spell alike (each dialect's own insert)."""
    upsert = insert_of(votes)
    return upsert.on_conflict_do_update(index_elements=list(votes.primary_key.columns),
                                        set_={"option_index": upsert.excluded.option_index})


_VOTE_UPSERT = MappingProxyType({"postgresql": _built_vote_upsert(postgresql.insert),
                                 "sqlite": _built_vote_upsert(sqlite.insert)})


def _check(room: Row, ballot: Ballot) -> None:
    """The room takes this ballot's question and round, and its option is one of the question's."""
    if room.phase != Phase.VOTING or room.question_position != ballot.question_index or (
            ballot.round_number is not None and room.round_number != ballot.round_number):
        raise RoundClosed(_("This round is closed, so your vote was not counted."))
    option = ballot.option
    if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < room.option_count:
        raise UnknownOption(_("That option is not one of this question's options."))


def _refilled(row: Row, now: float, burst: int, per_second: float) -> float:
    """A voter's bucket now: full when it never voted, else refilled since its last vote, up to the burst."""
    if row.vote_tokens is None:
        return float(burst)
    return min(float(burst), row.vote_tokens + max(0.0, now - row.tokens_at) * per_second)
