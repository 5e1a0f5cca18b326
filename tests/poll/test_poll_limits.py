"""Limits that stop one client, not a class, on both databases: a vote rate per voter on top of the room's,
room openings per browser and per client address, and lobbies nobody used closing early.

Every figure comes from Limits (the defaults unless a test says otherwise) and the fake clock."""

from __future__ import annotations

import contextlib
import math

import pytest

from attn_poll import Limits, Phase, Poll, RoomExpired, TooManyRooms, TooManyVotes

QUESTIONS = (("masks.causal", 3),)
LIMITS = Limits()


def start(poll: Poll, openers=()):
    room = poll.create_room(QUESTIONS, openers=openers)
    poll.next_question(room.code, room.host_secret)
    return room


def test_one_voter_tapping_700_times_in_2_s_cannot_silence_the_room(poll, clock):
    room = start(poll)
    accepted = 0
    for tap in range(700):  # the prankster: 700 changes of vote in 2 s
        clock.advance(2 / 700)
        try:
            poll.vote(room.code, "prankster", 0, 1, tap % 3)
            accepted += 1
        except TooManyVotes as error:
            assert "very fast" in str(error)
    most = LIMITS.voter_vote_burst + math.ceil(2 * LIMITS.voter_votes_per_second)
    assert LIMITS.voter_vote_burst <= accepted <= most, accepted
    for n in range(20):  # the classmates, all at once
        poll.vote(room.code, f"classmate-{n}", 0, 1, n % 3)
    counts = poll.counts(room.code).rounds[0]
    assert sum(counts) == 21, "all 20 classmates' first votes counted, and the prankster once"


def test_a_voter_changing_their_mind_a_few_times_a_second_is_never_refused(poll, clock):
    room = start(poll)
    for tap in range(60):  # 3 changes a second for 20 s
        clock.advance(1 / 3)
        poll.vote(room.code, "undecided", 0, 1, tap % 3)
    assert poll.my_vote(room.code, "undecided") == 59 % 3


def test_a_voter_refused_for_speed_spends_none_of_the_rooms_bucket(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(vote_burst=12, max_votes_per_second=0.001))
    room = start(poll)
    for tap in range(200):  # no time passes: the voter's own bucket (10) empties first
        with contextlib.suppress(TooManyVotes):
            poll.vote(room.code, "prankster", 0, 1, tap % 3)
    poll.vote(room.code, "a", 0, 1, 0)
    poll.vote(room.code, "b", 0, 1, 1)  # 10 + 2 = the room's 12
    with pytest.raises(TooManyVotes, match="this second"):
        poll.vote(room.code, "c", 0, 1, 2)


def test_one_browser_opens_a_few_rooms_then_waits(poll, clock):
    browser = ("browser:token-1", "address:203.0.113.7")
    for _ in range(LIMITS.opens_per_browser):
        poll.create_room(QUESTIONS, openers=browser)
    with pytest.raises(TooManyRooms, match=r"this browser.*in \d+ s"):
        poll.create_room(QUESTIONS, openers=browser)
    poll.create_room(QUESTIONS, openers=("browser:token-2", "address:203.0.113.7"))  # a colleague's laptop
    clock.advance(LIMITS.browser_refill_s)
    poll.create_room(QUESTIONS, openers=browser)


def test_one_address_opens_a_few_rooms_whatever_browser_it_claims(poll, clock):
    for n in range(LIMITS.opens_per_address):
        poll.create_room(QUESTIONS, openers=(f"browser:new-{n}", "address:198.51.100.9"))
    with pytest.raises(TooManyRooms, match="this network address"):
        poll.create_room(QUESTIONS, openers=("browser:new-x", "address:198.51.100.9"))
    with pytest.raises(TooManyRooms):
        poll.create_room(QUESTIONS, openers=("address:198.51.100.9",))  # no cookie at all
    poll.create_room(QUESTIONS, openers=("browser:lecturer", "address:192.0.2.1"))


def test_a_refused_opening_takes_no_token_and_opens_no_room(poll, clock):
    opener = ("browser:token-1",)
    rooms = [poll.create_room(QUESTIONS, openers=opener) for _ in range(LIMITS.opens_per_browser)]
    for _ in range(5):
        with pytest.raises(TooManyRooms):
            poll.create_room(QUESTIONS, openers=opener)
    clock.advance(LIMITS.browser_refill_s)  # one token back, not less for the refused tries
    poll.create_room(QUESTIONS, openers=opener)
    assert len({r.code for r in rooms}) == LIMITS.opens_per_browser


def test_a_prankster_floods_then_a_lecturer_still_opens_a_room_within_a_minute(poll, clock):
    """A bare client with no cookie asks for a room every 0.2 s for 100 s, from the lecture hall's address."""
    hall = "address:203.0.113.50"
    got, start_at = 0, clock.now
    while clock.now < start_at + 100:
        try:
            poll.create_room(QUESTIONS, openers=(hall,))
            got += 1
        except TooManyRooms:
            pass
        clock.advance(0.2)
    most = LIMITS.opens_per_address + math.ceil(100 / LIMITS.address_refill_s)
    assert got <= most, f"the flooder got {got} rooms"
    # A lecturer elsewhere (the staff network) opens at once.
    poll.create_room(QUESTIONS, openers=("browser:lecturer-1", "address:192.0.2.10"))
    # A lecturer on the hall's own address, once the flood stops: within a minute.
    waited = 0.0
    while True:
        try:
            poll.create_room(QUESTIONS, openers=("browser:lecturer-2", hall))
            break
        except TooManyRooms:
            clock.advance(1)
            waited += 1
            assert waited <= 60, "the lecturer still could not open a room after a minute"
    print(f"flooder got {got} rooms in 100 s; the hall's lecturer waited {waited:.0f} s")


def test_rooms_nobody_joined_close_early_and_free_the_cap(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(max_open_rooms=6))
    flood = [poll.create_room(QUESTIONS, openers=(f"address:10.0.0.{n}",)) for n in range(6)]  # six addresses
    with pytest.raises(TooManyRooms, match="open rooms"):
        poll.create_room(QUESTIONS)
    lecture = flood[0]
    poll.join(lecture.code, "student")  # somebody joined: this one stays
    touched = flood[1]
    clock.advance(LIMITS.idle_close_s - LIMITS.touch_every_s + 1)
    poll.touch_host(touched.code, touched.host_secret)  # its host page is still up: this one stays too
    clock.advance(LIMITS.touch_every_s)
    fresh = poll.create_room(QUESTIONS)  # the four idle lobbies closed, so there is room again
    assert poll.state(fresh.code).phase is Phase.LOBBY
    assert poll.state(lecture.code).phase is Phase.LOBBY and poll.state(touched.code).phase is Phase.LOBBY
    for idle in flood[2:]:
        with pytest.raises(RoomExpired):
            poll.state(idle.code)


def test_a_room_in_use_never_closes_early(poll, clock):
    room = start(poll)  # a host action: voting, not a lobby
    clock.advance(LIMITS.idle_close_s * 3)
    poll.create_room(QUESTIONS)
    assert poll.state(room.code).phase is Phase.VOTING


def test_the_phone_stamp_changes_with_a_host_action_and_this_voters_vote_only(poll, clock):
    room = start(poll)
    poll.join(room.code, "me")
    before = poll.phone_stamp(room.code, "me")
    poll.vote(room.code, "someone-else", 0, 1, 1)
    assert poll.phone_stamp(room.code, "me") == before, "a classmate's vote changes nothing on my phone"
    clock.advance(1)
    poll.vote(room.code, "me", 0, 1, 2)
    mine = poll.phone_stamp(room.code, "me")
    assert mine != before
    assert poll.phone_view(room.code, "me").stamp == mine
    poll.close_round(room.code, room.host_secret)
    assert poll.phone_stamp(room.code, "me") != mine
