"""A lecture room's rules (Poll.show_scene, Poll.my_votes), on SQLite and PostgreSQL: the room follows the
lecturer's scenes in any order, a scene asked before comes back with its rounds as they were, and nothing is
written when the room already shows the scene."""

from __future__ import annotations

import pytest

from attn_poll import NotHost, Phase, RoomEnded, RoomMoved, RoundClosed, WrongPhase
from attn_ui.words import live

LECTURE = live.lecture_questions()


@pytest.fixture
def lecture(poll):
    return poll.create_room(LECTURE)


def test_a_lecture_room_holds_every_scene_with_its_grid(poll, lecture):
    state = poll.state(lecture.code)
    assert state.question_count == len(LECTURE) == 27
    assert max(count for _, count in LECTURE) <= poll.limits.max_options


def test_the_room_follows_the_scenes_forward_back_and_by_a_jump(poll, lecture):
    code, secret = lecture.code, lecture.host_secret
    state = poll.show_scene(code, secret, 0, False)
    assert (state.question_index, state.phase, state.round_number) == (0, Phase.VOTING, 1)
    poll.vote(code, "s1", 0, 1, 5)
    state = poll.show_scene(code, secret, 0, True)  # Next: the answer, answers closed with it
    assert state.phase is Phase.REVEALED
    with pytest.raises(RoundClosed):
        poll.vote(code, "s1", 0, 1, 4)
    state = poll.show_scene(code, secret, 0, False)  # Back: the answer hidden again, the round stays closed
    assert state.phase is Phase.CLOSED
    state = poll.show_scene(code, secret, 5, False)  # a jump (a slide's link) to scene 6
    assert (state.question_index, state.phase, state.round_number) == (5, Phase.VOTING, 1)
    state = poll.show_scene(code, secret, 0, True)  # back to scene 1, revealed: its vote is still there
    assert (state.question_index, state.phase) == (0, Phase.REVEALED)
    assert poll.counts(code).rounds == ((0, 0, 0, 0, 0, 1),)


def test_a_revote_comes_back_as_round_two(poll, lecture):
    code, secret = lecture.code, lecture.host_secret
    poll.show_scene(code, secret, 2, False)
    poll.vote(code, "s1", 2, 1, 3)
    poll.close_round(code, secret)
    poll.open_revote(code, secret)
    poll.vote(code, "s1", 2, 2, 14)
    poll.show_scene(code, secret, 3, False)
    state = poll.show_scene(code, secret, 2, False)
    assert (state.phase, state.round_number) == (Phase.VOTING, 2)  # left open, so open again: nobody closed it
    rounds = poll.counts(code).rounds
    assert rounds[0][3] == 1 and rounds[1][14] == 1
    assert poll.my_votes(code, "s1") == {(2, 1): 3, (2, 2): 14}


def test_a_scene_linked_revealed_opens_its_round_closed(poll, lecture):
    state = poll.show_scene(lecture.code, lecture.host_secret, 7, True)
    assert (state.question_index, state.phase, state.round_number) == (7, Phase.REVEALED, 1)
    assert len(poll.counts(lecture.code).rounds) == 1  # the export lists it, with no answers


def test_showing_what_is_shown_writes_nothing(poll, lecture):
    first = poll.show_scene(lecture.code, lecture.host_secret, 0, False)
    again = poll.show_scene(lecture.code, lecture.host_secret, 0, False)
    assert again.version == first.version


@pytest.mark.parametrize("index", [-1, 27, 1000, True, "1", 1.5])
def test_a_scene_the_lecture_does_not_have_is_refused(poll, lecture, index):
    before = poll.state(lecture.code)
    with pytest.raises(WrongPhase):
        poll.show_scene(lecture.code, lecture.host_secret, index, False)
    assert poll.state(lecture.code).version == before.version


def test_a_forged_host_link_moves_nothing(poll, lecture):
    poll.show_scene(lecture.code, lecture.host_secret, 0, False)
    with pytest.raises(NotHost):
        poll.show_scene(lecture.code, "x" * 32, 4, True)
    assert poll.state(lecture.code).question_index == 0


def test_an_ended_lecture_stays_where_it_ended(poll, lecture):
    poll.show_scene(lecture.code, lecture.host_secret, 3, False)
    poll.end_room(lecture.code, lecture.host_secret)
    with pytest.raises(RoomEnded):
        poll.show_scene(lecture.code, lecture.host_secret, 4, False)
    assert poll.my_votes(lecture.code, "nobody") == {}


def test_my_votes_are_only_mine(poll, lecture):
    poll.show_scene(lecture.code, lecture.host_secret, 0, False)
    poll.vote(lecture.code, "a", 0, 1, 1)
    poll.vote(lecture.code, "b", 0, 1, 2)
    assert poll.my_votes(lecture.code, "a") == {(0, 1): 1}


def test_only_a_lecturer_closes_a_round_a_scene_left_open_comes_back_open(poll, lecture):
    """Back to the previous scene and Next again: the round the room left open takes answers again, with its answers;
    a round the lecturer closed (Show the answers) comes back closed."""
    code, secret = lecture.code, lecture.host_secret
    poll.show_scene(code, secret, 4, False)
    poll.vote(code, "s1", 4, 1, 2)
    poll.show_scene(code, secret, 3, True)  # Back: the previous scene, revealed
    state = poll.show_scene(code, secret, 4, False)  # Next: scene 5's question again
    assert (state.question_index, state.phase, state.round_number) == (4, Phase.VOTING, 1)
    poll.vote(code, "s2", 4, 1, 3)
    assert poll.counts(code).rounds == (tuple(1 if i in (2, 3) else 0 for i in range(LECTURE[4][1])),)
    poll.close_round(code, secret)
    poll.show_scene(code, secret, 3, True)
    assert poll.show_scene(code, secret, 4, False).phase is Phase.CLOSED
    poll.show_scene(code, secret, 4, True)  # revealed, then left and come back to its question: closed
    poll.show_scene(code, secret, 5, False)
    assert poll.show_scene(code, secret, 4, False).phase is Phase.CLOSED


def test_a_host_action_from_a_page_that_saw_an_older_room_moves_nothing(poll, lecture):
    """Two host pages: the one whose view is older follows the room instead of moving it back."""
    code, secret = lecture.code, lecture.host_secret
    shown = poll.show_scene(code, secret, 4, False)
    moved = poll.show_scene(code, secret, 4, True, expected_version=shown.version)  # the tablet's Next
    assert moved.version == shown.version + 1
    for act in (lambda: poll.show_scene(code, secret, 0, False, expected_version=shown.version),
                lambda: poll.close_round(code, secret, expected_version=shown.version),
                lambda: poll.end_room(code, secret, expected_version=shown.version)):
        with pytest.raises(RoomMoved) as raised:
            act()
        assert (raised.value.state.question_index, raised.value.state.phase) == (4, Phase.REVEALED)
        assert raised.value.state.version == moved.version
    assert poll.state(code).version == moved.version


def test_every_join_and_every_counted_vote_moves_the_board_stamp(poll, lecture):
    code, secret = lecture.code, lecture.host_secret
    poll.show_scene(code, secret, 0, False)
    stamps = [poll.board_stamp(code)]
    poll.join(code, "s1")
    stamps.append(poll.board_stamp(code))
    poll.join(code, "s1")  # the same voter again: nothing new to show
    assert poll.board_stamp(code) == stamps[-1]
    poll.vote(code, "s1", 0, 1, 2)
    stamps.append(poll.board_stamp(code))
    poll.vote(code, "s1", 0, 1, 3)  # a change of mind moves the counts too
    stamps.append(poll.board_stamp(code))
    with pytest.raises(RoundClosed):
        poll.vote(code, "s1", 1, 1, 3)
    assert poll.board_stamp(code) == stamps[-1]
    assert len(set(stamps)) == len(stamps)
    assert poll.board_stamp(code)[:3] == poll.room_stamp(code)
