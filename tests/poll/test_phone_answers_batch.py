"""The phone's answers are written a room's batch at a time (attn_phone/answers.py, group commit): answers that arrive
together share one transaction, each phone still hears about its own answer, in its own language, and an answer
alone is written at once."""

from __future__ import annotations

import asyncio

from attn_lang import _, using
from attn_phone.answers import Answers
from attn_poll import Poll
from attn_ui.words import live

CHOICE = next(n for n in range(1, len(live.SCENES) + 1) if live.live_question(n).kind == "choice")


class Counting:
    """The poll, with its batch writes counted."""

    def __init__(self, poll: Poll) -> None:
        self.poll, self.batches = poll, []

    def vote_many(self, code, ballots):
        self.batches.append(len(ballots))
        return self.poll.vote_many(code, ballots)

    def __getattr__(self, name):
        return getattr(self.poll, name)


def room_at_choice(poll: Poll):
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, CHOICE - 1, False)
    return room


def test_answers_that_arrive_together_share_one_write_and_each_phone_hears_its_own(poll):
    room = room_at_choice(poll)
    counting = Counting(poll)
    answers = Answers(lambda: counting, gather_s=0.05)
    question = live.live_question(CHOICE)

    async def hall():
        first = await answers.count(room.code, "first", "en", CHOICE - 1, "0", None)  # reads the question, keeps it
        return first, await asyncio.gather(*(answers.count(room.code, f"phone-{n}", "en", CHOICE - 1,
                                                           str(n % question.option_count), None) for n in range(40)))

    first, replies = asyncio.run(hall())
    assert first["sent"] and counting.batches == [1, 40]
    assert all(reply["sent"] and reply["r"] == 1 for reply in replies)
    assert [reply["option"] for reply in replies] == [n % question.option_count for n in range(40)]
    assert [reply["say"] for reply in replies] == [question.say(n % question.option_count) for n in range(40)]
    assert sum(poll.counts(room.code, CHOICE - 1).rounds[0]) == 41


def test_a_refusal_in_a_batch_is_that_phones_alone_and_in_its_language(poll):
    room = room_at_choice(poll)
    answers = Answers(lambda: poll, gather_s=0.05)
    poll.vote(room.code, "quick", CHOICE - 1, None, 0)
    for __ in range(9):  # this voter's bucket (10 at once) has one token left, then none
        poll.vote(room.code, "quick", CHOICE - 1, None, 1)

    async def hall():
        return await asyncio.gather(answers.count(room.code, "calm", "en", CHOICE - 1, "1", None),
                                    answers.count(room.code, "quick", "es", CHOICE - 1, "2", None),
                                    answers.count(room.code, "other", "es", CHOICE - 1, "0", None))

    calm, quick, other = asyncio.run(hall())
    with using("es"):
        too_fast = _("You are changing your vote very fast; wait a second, then tap again.")
    assert calm["sent"] and other["sent"]
    assert quick == {"sent": False, "key": "limit", "note": too_fast}
    assert poll.my_vote(room.code, "quick") == 1 and poll.my_vote(room.code, "calm") == 1


def test_an_answer_alone_is_written_alone_and_a_closed_round_says_so(poll):
    room = room_at_choice(poll)
    counting = Counting(poll)
    answers = Answers(lambda: counting)  # the default gather: nobody else comes
    assert asyncio.run(answers.count(room.code, "ana", "en", CHOICE - 1, "1", None))["sent"]
    poll.show_scene(room.code, room.host_secret, CHOICE - 1, True)
    told = asyncio.run(answers.count(room.code, "ana", "en", CHOICE - 1, "0", None))
    assert told["key"] == "closed" and not told["sent"]
    assert counting.batches == [1, 1] and poll.my_vote(room.code, "ana") == 1
