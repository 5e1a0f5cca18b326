"""The room's rules on both databases: phases, votes, host secret, bad input, expiry, caps, counts, CSV."""

from __future__ import annotations

import math

import pytest
from sqlalchemy import func, select, update

from attn_poll import (
    BadQuestions,
    BadRoomCode,
    BadVoter,
    Limits,
    NotHost,
    Phase,
    Poll,
    RoomEnded,
    RoomExpired,
    RoomFull,
    RoomNotFound,
    RoundClosed,
    TooManyRooms,
    TooManyVotes,
    UnknownOption,
    WrongPhase,
    codes,
)
from attn_poll.schema import metadata, rooms, voters, votes

QUESTIONS = (("masks.causal", 3), ("heads.split", 4))


def start(poll: Poll, question_list=QUESTIONS):
    """A room with its first question open for round 1."""
    room = poll.create_room(question_list)
    poll.next_question(room.code, room.host_secret)
    return room


def vote_count(poll: Poll) -> int:
    return poll.store.read(lambda c: c.execute(select(func.count()).select_from(votes)).scalar_one())


# --- codes and secrets ---------------------------------------------------------------------------------


def test_room_codes_are_short_typeable_and_hold_30_bits():
    drawn = {codes.new_room_code() for _ in range(2000)}
    assert all(len(code) == 7 and set(code) <= set(codes.ALPHABET) for code in drawn)
    assert len(codes.ALPHABET) == 32 and not set("ILOU") & set(codes.ALPHABET)
    assert codes.CODE_LENGTH * math.log2(len(codes.ALPHABET)) >= 30
    assert len(drawn) >= 1995  # 2000 draws from 2**35: a collision is rare, many would mean a weak generator


@pytest.mark.parametrize("typed, canonical", [
    ("abc1def", "ABC1DEF"), (" ABC-1DEF ", "ABC1DEF"), ("abcldef", "ABC1DEF"), ("o0oo0o0", "0000000"),
])
def test_a_typed_code_is_read_kindly(typed, canonical):
    assert codes.normalise_room_code(typed) == canonical


@pytest.mark.parametrize("typed", ["", "ABC12", "ABC12345", "ABCU123", "ABC#123", "A" * 41, None, 1234567])
def test_a_malformed_code_is_refused(typed):
    with pytest.raises(BadRoomCode, match="not a room code"):
        codes.normalise_room_code(typed)


def test_the_host_secret_is_checked_in_constant_time(monkeypatch):
    compared = []
    real = codes.hmac.compare_digest
    monkeypatch.setattr(codes.hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    secret = codes.new_host_secret()
    stored = codes.hash_host_secret(secret)
    assert codes.host_secret_matches(secret, stored)
    wrong = secret[:-1] + ("y" if secret.endswith("x") else "x")  # one secret in 64 ends in x: still a wrong one
    assert not codes.host_secret_matches(wrong, stored)
    assert not codes.host_secret_matches(None, stored) and not codes.host_secret_matches("x" * 10_000, stored)
    assert len(compared) == 4  # every check, even a malformed secret, goes through compare_digest
    assert all(len(a) == len(b) == 64 for a, b in compared)  # equal lengths: no early exit on the length


# --- the phases -------------------------------------------------------------------------------------


def test_a_room_runs_vote_revote_reveal_next_end(poll):
    room = poll.create_room(QUESTIONS)
    state = poll.state(room.code)
    assert (state.phase, state.question_index, state.round_number, state.question_count) == (Phase.LOBBY, None, 0, 2)
    assert poll.projector_view(room.code).counts is None

    state = poll.next_question(room.code, room.host_secret)
    assert (state.phase, state.question_id, state.option_count, state.round_number) == (Phase.VOTING,
                                                                                         "masks.causal", 3, 1)
    assert state.accepting_votes and not state.revealed and state.has_next_question
    poll.vote(room.code, "phone-a", 0, 1, 2)
    poll.vote(room.code, "phone-b", 0, 1, 2)
    poll.vote(room.code, "phone-c", 0, 1, 0)
    assert poll.close_round(room.code, room.host_secret).phase is Phase.CLOSED
    state = poll.open_revote(room.code, room.host_secret)
    assert (state.phase, state.round_number) == (Phase.VOTING, 2)
    poll.vote(room.code, "phone-a", 0, 2, 1)
    poll.vote(room.code, "phone-c", 0, 2, 1)
    poll.close_round(room.code, room.host_secret)
    state = poll.reveal(room.code, room.host_secret)
    assert state.revealed and not state.accepting_votes

    view = poll.projector_view(room.code)
    # the two rounds side by side: the shift is the lesson. phone-b kept C, so C still counts once in round 2
    assert view.counts.rounds == ((1, 0, 2), (0, 2, 1))
    assert (view.counts.total(1), view.counts.total(2), view.state.voter_count) == (3, 3, 3)
    assert (view.counts.changed, view.counts.added) == (2, 0)

    state = poll.next_question(room.code, room.host_secret)
    assert (state.question_index, state.question_id, state.round_number, state.has_next_question) == (
        1, "heads.split", 1, False)
    assert poll.counts(room.code).rounds == ((0, 0, 0, 0),)
    assert poll.counts(room.code, 0).rounds == ((1, 0, 2), (0, 2, 1))  # earlier questions stay readable
    versions = [poll.state(room.code).version]
    assert poll.end_room(room.code, room.host_secret).phase is Phase.ENDED
    assert poll.state(room.code).version == versions[0] + 1


@pytest.mark.parametrize("actions, refused, message", [
    ((), "close_round", "no open round"),
    ((), "reveal", "Close the round"),
    ((), "open_revote", "second round"),
    (("next_question",), "next_question", "Reveal the answer"),
    (("next_question",), "reveal", "Close the round"),
    (("next_question",), "open_revote", "second round"),
    (("next_question", "close_round"), "next_question", "Reveal the answer"),
    (("next_question", "close_round", "close_round"), None, None),
    (("next_question", "close_round", "open_revote"), "open_revote", "second round"),
    (("next_question", "close_round", "open_revote", "close_round"), "open_revote", "only once"),
    (("next_question", "close_round", "reveal", "next_question", "close_round", "reveal"), "next_question",
     "last question"),
])
def test_host_actions_out_of_order_are_refused_and_change_nothing(poll, actions, refused, message):
    room = poll.create_room(QUESTIONS)
    if refused is None:  # a double click on close: the second one is refused
        actions, refused, message = actions[:-1], actions[-1], "no open round"
    for action in actions:
        getattr(poll, action)(room.code, room.host_secret)
    before = poll.state(room.code)
    with pytest.raises(WrongPhase, match=message):
        getattr(poll, refused)(room.code, room.host_secret)
    assert poll.state(room.code) == before


def test_an_ended_room_refuses_everything_but_reading(poll):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    poll.end_room(room.code, room.host_secret)
    with pytest.raises(RoomEnded):
        poll.vote(room.code, "phone-a", 0, 1, 2)
    with pytest.raises(RoomEnded):
        poll.join(room.code, "phone-b")
    for action in ("next_question", "close_round", "reveal", "end_room"):
        with pytest.raises(RoomEnded):
            getattr(poll, action)(room.code, room.host_secret)
    assert poll.counts(room.code).rounds == ((0, 1, 0),)
    assert poll.my_vote(room.code, "phone-a") == 1
    assert poll.verify_host(room.code, room.host_secret).phase is Phase.ENDED
    with pytest.raises(NotHost):
        poll.verify_host(room.code, "phone-a")
    assert "1,masks.causal,1,B,1" in poll.export_csv(room.code, room.host_secret)


# --- votes ------------------------------------------------------------------------------------------


def test_a_changed_vote_is_an_update_not_a_second_vote(poll):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 0)
    assert poll.my_vote(room.code, "phone-a") == 0
    poll.vote(room.code, "phone-a", 0, 1, 2)
    poll.vote(room.code, "phone-a", 0, 1, 2)  # a reload sending the same vote again
    assert poll.counts(room.code).rounds == ((0, 0, 1),)
    assert vote_count(poll) == 1
    assert poll.my_vote(room.code, "phone-a") == 2 and poll.my_vote(room.code, "phone-z") is None


def test_a_phone_sees_the_room_and_its_own_vote_in_one_read(poll):
    room = poll.create_room(QUESTIONS)
    assert poll.phone_view(room.code, "phone-a").my_vote is None  # the lobby: nothing to vote on yet
    with pytest.raises(BadVoter):
        poll.phone_view(room.code, "")
    poll.next_question(room.code, room.host_secret)
    poll.vote(room.code, "phone-a", 0, 1, 2)
    poll.vote(room.code, "phone-b", 0, 1, 0)
    view = poll.phone_view(room.code, "phone-a")
    assert (view.my_vote, view.state) == (2, poll.state(room.code))
    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    kept = poll.phone_view(room.code, "phone-a")
    assert (kept.my_vote, kept.carried) == (2, True)  # round 2 starts from the first answer, which counts again
    assert poll.my_vote(room.code, "phone-a") == 2
    poll.vote(room.code, "phone-a", 0, 2, 1)
    changed = poll.phone_view(room.code, "phone-a")
    assert (changed.my_vote, changed.carried) == (1, False)
    assert (poll.phone_view(room.code, "phone-new").my_vote, poll.phone_view(room.code, "phone-new").carried) == (
        None, False)


def test_a_second_round_counts_every_voter_once_and_says_who_changed(poll):
    room = poll.create_room(QUESTIONS)
    poll.next_question(room.code, room.host_secret)
    for voter, option in (("keeps", 0), ("changes", 0), ("repeats", 2), ("silent", 1)):
        poll.vote(room.code, voter, 0, 1, option)
    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    poll.vote(room.code, "changes", 0, 2, 1)
    poll.vote(room.code, "repeats", 0, 2, 2)  # the same answer again: not a change
    poll.vote(room.code, "late", 0, 2, 2)  # first answer in the second round
    counts = poll.counts(room.code)
    assert counts.rounds == ((2, 1, 1), (1, 2, 2))
    assert (counts.total(1), counts.total(2), counts.changed, counts.added) == (4, 5, 1, 1)


def test_a_second_tab_is_the_same_voter(poll):
    room = start(poll)
    assert poll.join(room.code, "phone-a").voter_count == 1
    assert poll.join(room.code.lower(), "phone-a").voter_count == 1
    poll.vote(room.code, "phone-a", 0, 1, 1)
    poll.vote(room.code, "phone-a", 0, 1, 0)
    assert poll.state(room.code).voter_count == 1 and poll.counts(room.code).rounds == ((1, 0, 0),)


def test_the_database_keeps_no_voter_id_and_no_host_secret(poll):
    room_one, room_two = start(poll), start(poll)
    for room in (room_one, room_two):
        poll.vote(room.code, "browser-7f3a", 0, 1, 1)

    def every_value(connection):
        return [value for table in metadata.sorted_tables for row in connection.execute(select(table))
                for value in row]

    stored = [str(value) for value in poll.store.read(every_value)]
    assert not any("browser-7f3a" in value or room_one.host_secret in value for value in stored)
    hashes = poll.store.read(lambda c: c.execute(select(voters.c.voter_hash)).scalars().all())
    assert len(set(hashes)) == 2  # one salt per room: the same browser cannot be followed from room to room


@pytest.mark.parametrize("question_index, round_number, why", [(1, 1, "another question"), (0, 2, "round 2")])
def test_a_vote_for_a_round_the_page_did_not_show_is_refused(poll, question_index, round_number, why):
    room = start(poll)
    with pytest.raises(RoundClosed, match="closed"):
        poll.vote(room.code, "phone-a", question_index, round_number, 0)
    assert vote_count(poll) == 0


def test_a_vote_for_a_closed_round_is_refused_and_the_old_vote_stays(poll):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    poll.close_round(room.code, room.host_secret)
    with pytest.raises(RoundClosed, match="not counted"):
        poll.vote(room.code, "phone-a", 0, 1, 2)
    poll.open_revote(room.code, room.host_secret)
    with pytest.raises(RoundClosed):  # a page still showing round 1
        poll.vote(room.code, "phone-a", 0, 1, 2)
    assert poll.counts(room.code).rounds == ((0, 1, 0), (0, 1, 0))  # the first answer stands in both rounds


def test_no_vote_in_the_lobby(poll):
    room = poll.create_room(QUESTIONS)
    with pytest.raises(RoundClosed):
        poll.vote(room.code, "phone-a", 0, 1, 0)
    assert vote_count(poll) == 0


@pytest.mark.parametrize("option", [-1, 3, 99, True, 1.0, "1", None])
def test_an_unknown_option_is_refused_and_changes_nothing(poll, option):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    with pytest.raises(UnknownOption, match="not one of"):
        poll.vote(room.code, "phone-a", 0, 1, option)
    with pytest.raises(UnknownOption):
        poll.vote(room.code, "phone-b", 0, 1, option)
    assert poll.counts(room.code).rounds == ((0, 1, 0),) and poll.state(room.code).voter_count == 1


@pytest.mark.parametrize("voter_id", ["", None, "x" * 201, 42])
def test_a_voter_id_the_page_got_wrong_is_refused(poll, voter_id):
    room = start(poll)
    with pytest.raises(BadVoter):
        poll.vote(room.code, voter_id, 0, 1, 0)
    assert vote_count(poll) == 0


def test_an_unknown_or_malformed_code_is_refused_everywhere(poll):
    room = start(poll)
    unknown = next(c for c in iter(codes.new_room_code, None) if c != room.code)
    for code, error in ((unknown, RoomNotFound), ("hello", BadRoomCode), ("", BadRoomCode), (None, BadRoomCode)):
        with pytest.raises(error):
            poll.vote(code, "phone-a", 0, 1, 0)
        with pytest.raises(error):
            poll.state(code)
        with pytest.raises(error):
            poll.close_round(code, room.host_secret)
    assert issubclass(BadRoomCode, RoomNotFound)  # a page may catch both as one "no such room"
    assert vote_count(poll) == 0 and poll.state(room.code).phase is Phase.VOTING


# --- the host secret ----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["close_round", "open_revote", "reveal", "next_question", "end_room",
                                    "export_csv", "verify_host"])
def test_a_forged_host_secret_changes_nothing(poll, action):
    room = start(poll)
    other = poll.create_room(QUESTIONS)
    before = poll.state(room.code)
    forged = ("", None, "phone-a", room.host_secret[:-1], room.host_secret + "x", other.host_secret, room.code)
    for secret in forged:
        with pytest.raises(NotHost, match="Only the host link"):
            getattr(poll, action)(room.code, secret)
    assert poll.state(room.code) == before
    assert poll.verify_host(room.code, room.host_secret) == before


def test_a_student_cannot_act_as_host(poll):
    room = start(poll)
    poll.join(room.code, "phone-a")
    with pytest.raises(NotHost):
        poll.close_round(room.code, "phone-a")  # a voter id is never a host secret
    stored = poll.store.read(lambda c: c.execute(select(rooms.c.host_hash)).scalar_one())
    assert stored == codes.hash_host_secret(room.host_secret) != room.host_secret


# --- time and caps -------------------------------------------------------------------------------------


def test_a_room_expires_after_12_hours(poll, clock):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    clock.advance(12 * 3600 - 1)
    poll.vote(room.code, "phone-a", 0, 1, 2)
    clock.advance(1)
    for call in (lambda: poll.vote(room.code, "phone-a", 0, 1, 0), lambda: poll.state(room.code),
                 lambda: poll.join(room.code, "phone-b"), lambda: poll.close_round(room.code, room.host_secret),
                 lambda: poll.export_csv(room.code, room.host_secret)):
        with pytest.raises(RoomExpired, match="12 hours"):
            call()
    clock.advance(-1)
    assert poll.counts(room.code).rounds == ((0, 0, 1),)  # the refused vote changed nothing


def test_a_long_expired_room_is_deleted_when_a_room_opens(poll, clock):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    clock.advance(36 * 3600 + 1)
    poll.create_room(QUESTIONS)
    with pytest.raises(RoomNotFound):
        poll.state(room.code)
    assert vote_count(poll) == 0
    assert poll.store.read(lambda c: c.execute(select(func.count()).select_from(voters)).scalar_one()) == 0


def test_the_open_rooms_cap(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(max_open_rooms=2))
    first, _ = poll.create_room(QUESTIONS), poll.create_room(QUESTIONS)
    with pytest.raises(TooManyRooms, match="already has 2 open rooms"):
        poll.create_room(QUESTIONS)
    poll.end_room(first.code, first.host_secret)  # an ended room frees its place
    third = poll.create_room(QUESTIONS)
    with pytest.raises(TooManyRooms):
        poll.create_room(QUESTIONS)
    clock.advance(12 * 3600)  # so does an expired one
    assert poll.state(poll.create_room(QUESTIONS).code).phase is Phase.LOBBY
    with pytest.raises(RoomExpired):
        poll.state(third.code)


def test_the_voters_per_room_cap(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(max_voters_per_room=3))
    room = start(poll)
    for voter in ("phone-a", "phone-b", "phone-c"):
        poll.vote(room.code, voter, 0, 1, 0)
    with pytest.raises(RoomFull, match="full: it already has 3 voters"):
        poll.join(room.code, "phone-d")
    with pytest.raises(RoomFull):
        poll.vote(room.code, "phone-d", 0, 1, 1)
    poll.vote(room.code, "phone-a", 0, 1, 2)  # those inside can still change their vote
    assert poll.counts(room.code).rounds == ((2, 0, 1),) and poll.state(room.code).voter_count == 3
    assert poll.join(poll.create_room(QUESTIONS).code, "phone-d").voter_count == 1  # the cap is per room


def test_the_votes_per_second_cap(store, clock):
    poll = Poll(store, clock=clock, limits=Limits(max_votes_per_second=5, vote_burst=10))
    room, other = start(poll), start(poll)
    for number in range(10):  # a burst as large as the bucket passes
        poll.vote(room.code, f"phone-{number}", 0, 1, 0)
    with pytest.raises(TooManyVotes, match="this second"):
        poll.vote(room.code, "phone-10", 0, 1, 1)
    poll.vote(other.code, "phone-10", 0, 1, 1)  # per room: another room is not slowed down
    clock.advance(0.2)  # 5 votes a second: one more vote 0.2 s later, and only one
    poll.vote(room.code, "phone-10", 0, 1, 1)
    with pytest.raises(TooManyVotes):
        poll.vote(room.code, "phone-0", 0, 1, 2)
    clock.advance(1)
    for number in range(5):
        poll.vote(room.code, f"phone-{number}", 0, 1, 2)
    with pytest.raises(TooManyVotes):
        poll.vote(room.code, "phone-5", 0, 1, 2)
    assert poll.counts(room.code).rounds == ((5, 1, 5),)
    assert poll.state(room.code).voter_count == 11  # the refused votes registered no voter


@pytest.mark.parametrize("question_list, message", [
    ((), "between 1 and"), ((("q", 1),), "between 2 and"), ((("q", 2002),), "between 2 and"),
    ((("q", True),), "whole number"), ((("q", 2.0),), "whole number"), ((("", 3),), "id of 1 to 120"),
    ((("q" * 121, 3),), "id of 1 to 120"), (tuple(("q", 2) for _ in range(101)), "between 1 and 100"),
])
def test_bad_question_lists_open_no_room(poll, question_list, message):
    with pytest.raises(BadQuestions, match=message):
        poll.create_room(question_list)
    assert poll.store.read(lambda c: c.execute(select(func.count()).select_from(rooms)).scalar_one()) == 0


# --- reading and export ---------------------------------------------------------------------------------


def test_a_second_process_sees_every_vote_at_once(poll, open_test_store, clock):
    reader = Poll(open_test_store(), clock=clock)  # its own engine and pool, as another app process has
    room = start(poll)
    seen = []
    for number, option in enumerate((0, 1, 1, 2, 1)):
        poll.vote(room.code, f"phone-{number}", 0, 1, option)
        seen.append(reader.projector_view(room.code).counts.rounds[0])
    assert seen == [(1, 0, 0), (1, 1, 0), (1, 2, 0), (1, 2, 1), (1, 3, 1)]
    poll.close_round(room.code, room.host_secret)
    assert reader.state(room.code).phase is Phase.CLOSED


def test_the_csv_has_counts_per_option_per_round_and_no_identities(poll):
    room = start(poll)
    for voter, first in (("phone-a", 0), ("phone-b", 2), ("phone-c", 1)):
        poll.vote(room.code, voter, 0, 1, first)
    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    for voter, second in (("phone-a", 2), ("phone-b", 2)):
        poll.vote(room.code, voter, 0, 2, second)
    poll.close_round(room.code, room.host_secret)
    poll.reveal(room.code, room.host_secret)
    poll.next_question(room.code, room.host_secret)
    poll.vote(room.code, "phone-c", 1, 1, 3)
    assert poll.export_csv(room.code, room.host_secret) == (
        "question_number,question_id,round,option,votes\n"  # lettered as the projector and the phones letter them
        "1,masks.causal,1,A,1\n1,masks.causal,1,B,1\n1,masks.causal,1,C,1\n"
        "1,masks.causal,2,A,0\n1,masks.causal,2,B,1\n1,masks.causal,2,C,2\n"  # phone-c's B counts again
        "2,heads.split,1,A,0\n2,heads.split,1,B,0\n2,heads.split,1,C,0\n2,heads.split,1,D,1\n"
    )


def test_csv_letters_are_the_projector_s_letters():
    from attn_poll.export import option_letter
    from attn_ui.words import live

    assert [option_letter(i) for i in range(26)] == [live.letter(i) for i in range(26)]
    assert [option_letter(i) for i in (26, 27, 51, 52, 200)] == ["AA", "AB", "AZ", "BA", "GS"]


def test_an_ended_room_keeps_its_answer_on_the_board_once_revealed(poll):
    room = start(poll)
    poll.vote(room.code, "phone-a", 0, 1, 0)
    poll.close_round(room.code, room.host_secret)
    assert not poll.state(room.code).answer_shown
    poll.reveal(room.code, room.host_secret)
    assert poll.state(room.code).answer_shown
    poll.end_room(room.code, room.host_secret)
    assert poll.state(room.code).answer_shown and poll.projector_view(room.code).state.answer_shown
    other = start(poll)
    poll.end_room(other.code, other.host_secret)  # ended while voting: the answer was never shown
    assert not poll.state(other.code).answer_shown


def test_nothing_logged_names_a_student(poll, caplog):
    caplog.set_level("DEBUG")
    room = start(poll)
    poll.vote(room.code, "browser-secret-id", 0, 1, 0)
    for bad in (lambda: poll.vote(room.code, "browser-secret-id", 0, 1, 9),
                lambda: poll.close_round(room.code, "browser-secret-id")):
        with pytest.raises(Exception) as raised:
            bad()
        assert "browser-secret-id" not in str(raised.value)
    assert "browser-secret-id" not in caplog.text and room.host_secret not in caplog.text


def test_a_room_changed_behind_the_rules_back_is_read_as_stored(poll):
    """The read path has no cache of its own: a change made straight in the table shows on the next read."""
    room = start(poll)
    poll.store.write(lambda c: c.execute(update(rooms).values(phase=Phase.REVEALED.value)))
    assert poll.state(room.code).revealed


def test_every_host_action_tells_the_process_s_listeners_the_room_and_a_refused_one_does_not(poll):
    heard: list[str] = []
    poll.on_moved(heard.append)
    poll.on_moved(heard.append)  # added twice, called once
    room = poll.create_room([("causal-why", 4), ("padding-where", 3)])
    poll.next_question(room.code, room.host_secret)
    poll.close_round(room.code, room.host_secret)
    poll.reveal(room.code, room.host_secret)
    with pytest.raises(NotHost):
        poll.next_question(room.code, "not the secret")
    poll.show_scene(room.code, room.host_secret, 1, False)
    poll.end_room(room.code, room.host_secret)
    assert heard == [room.code] * 5
