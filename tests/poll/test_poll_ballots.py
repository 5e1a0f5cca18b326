"""Answers written together count exactly as answers written one at a time (attn_poll/ballots.py): the same outcome
for each, in order, and the same room afterwards (votes, voters, both rate buckets, the projector's activity count).

Two rooms with the same questions on one database and one clock: the first takes each batch with `vote_many`, the
second the same ballots one `vote` at a time. Hypothesis draws the batches from the cases that refuse a vote: a wrong
question or round, an option out of range, a full room, a voter's or the room's bucket empty, a double tap.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from attn_poll import Limits, Poll, PollError, RoundClosed, TooManyVotes
from attn_poll.ballots import MOST_A_BATCH, Ballot
from attn_poll.schema import rooms, voters, votes

QUESTIONS = [("causal-why", 3), ("code-order", 4)]
TIGHT = Limits(max_voters_per_room=4, vote_burst=7, max_votes_per_second=2, voter_vote_burst=2,
               voter_votes_per_second=1, max_open_rooms=10_000)
VOTERS = [f"voter-{n}" for n in range(6)]

ballots = st.builds(Ballot, voter_id=st.sampled_from(VOTERS), question_index=st.sampled_from([0, 0, 0, 1]),
                    round_number=st.sampled_from([None, None, 1, 2]), option=st.integers(-1, 4))
batches = st.lists(st.tuples(st.lists(ballots, max_size=9), st.sampled_from([0.0, 0.0, 0.4, 1.0, 5.0])),
                   min_size=1, max_size=4)


def outcome_of(found: int | PollError) -> tuple:
    return (type(found).__name__, str(found)) if isinstance(found, PollError) else ("counted", found)


def room_after(poll: Poll, code: str) -> dict:
    """What a room holds, in terms both rooms share (voters by their id, not their salted hash)."""
    with poll.store.engine.connect() as connection:
        room = connection.execute(select(rooms).where(rooms.c.code == code)).one()
        rows = connection.execute(select(voters).where(voters.c.room_id == room.id)).all()
        cast = connection.execute(select(votes.c.voter_id, votes.c.question_position, votes.c.round_number,
                                         votes.c.option_index).where(votes.c.room_id == room.id)).all()
    by_id = {row.id: row for row in rows}
    return {"room": (room.vote_tokens, room.tokens_at, room.activity),
            "voters": sorted((row.vote_tokens, row.tokens_at) for row in rows),
            "mine": {voter: poll.my_votes(code, voter) for voter in VOTERS},
            "votes": sorted((by_id[v].tokens_at, q, r, o) for v, q, r, o in cast)}


def rooms_at_a_question(poll: Poll) -> tuple:
    pair = [poll.create_room(QUESTIONS) for __ in range(2)]
    for room in pair:
        poll.next_question(room.code, room.host_secret)
    return pair


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=batches, revote=st.booleans())
def test_a_batch_counts_each_answer_as_it_would_count_alone(store, clock, plan, revote):
    poll = Poll(store, clock=clock, limits=TIGHT)
    together, alone = rooms_at_a_question(poll)
    if revote:  # round 2 open: None and 2 count there, 1 is closed
        for room in (together, alone):
            poll.close_round(room.code, room.host_secret)
            poll.open_revote(room.code, room.host_secret)
    for batch, pause in plan:
        clock.advance(pause)
        found = [outcome_of(outcome) for outcome in poll.vote_many(together.code, batch)]
        expected = []
        for ballot in batch:
            try:
                expected.append(outcome_of(poll.vote(alone.code, ballot.voter_id, ballot.question_index,
                                                     ballot.round_number, ballot.option)))
            except PollError as error:
                expected.append(outcome_of(error))
        assert found == expected, batch
    assert room_after(poll, together.code) == room_after(poll, alone.code)


def test_a_double_tap_in_one_batch_keeps_the_last_choice_and_spends_two_tokens(poll):
    room = poll.create_room(QUESTIONS)
    poll.next_question(room.code, room.host_secret)
    found = poll.vote_many(room.code, [Ballot("ana", 0, None, 0), Ballot("ana", 0, None, 2)])
    assert found == [1, 1]
    assert poll.my_vote(room.code, "ana") == 2
    assert poll.counts(room.code, 0).rounds[0] == (0, 0, 1)


def test_a_refused_ballot_leaves_the_others_of_its_batch_counted(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(vote_burst=2, max_votes_per_second=0.001))
    room = poll.create_room(QUESTIONS)
    poll.next_question(room.code, room.host_secret)
    found = poll.vote_many(room.code, [Ballot("a", 0, None, 0), Ballot("b", 1, None, 0), Ballot("c", 0, 1, 1),
                                       Ballot("d", 0, None, 2)])
    assert found[0] == 1 and found[2] == 1
    assert isinstance(found[1], RoundClosed)  # another question
    assert isinstance(found[3], TooManyVotes)  # the room's bucket held two
    assert poll.counts(room.code, 0).rounds[0] == (1, 1, 0)
    assert poll.state(room.code).voter_count == 2  # the refused new voter was not written


def test_a_list_longer_than_one_transaction_is_written_in_parts(poll):
    room = poll.create_room(QUESTIONS)
    poll.next_question(room.code, room.host_secret)
    many = [Ballot(f"v{n}", 0, None, n % 3) for n in range(MOST_A_BATCH + 7)]
    assert poll.vote_many(room.code, many) == [1] * len(many)
    assert sum(poll.counts(room.code, 0).rounds[0]) == len(many)
