"""What a room is and what its rules give back: its phases, its limits, and the frozen values a Poll returns (the new
room, the state, a question's counts, the projector's and a phone's views) and the stamps the held checks compare.

Plain values, no database: the rules are attn_poll.rooms, the reads attn_poll.room_reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

Clock = Callable[[], float]  # seconds since the epoch, like time.time


class Phase(StrEnum):
    LOBBY = "lobby"  # students join; no question yet
    VOTING = "voting"  # the current round takes votes
    CLOSED = "closed"  # the round is over; the spread is shown, not the answer
    REVEALED = "revealed"  # the right option is shown
    ENDED = "ended"  # the host ended the room; counts stay readable until it expires


@dataclass(frozen=True)
class Limits:
    room_lifetime_s: float = 12 * 3600  # a lecture day; then the room and its code are gone
    max_open_rooms: int = 200  # open = not ended and not expired, across the whole app
    max_voters_per_room: int = 5000  # the largest hall (3,000 phones, docs/deployment.md) with room to spare
    max_votes_per_second: float = 1000  # per room, sustained: a script stops here; 3,000 phones in 10 s are 300/s
    vote_burst: int = 10000  # per room at once: every voter at the cap can vote and change their mind once
    voter_votes_per_second: float = 3  # per voter, sustained: changing one's mind a few times a second is fine
    voter_vote_burst: int = 10  # per voter at once; 700 taps in 2 s get about 16 through, not the room's bucket
    opens_per_browser: int = 3  # rooms one browser may open at once ...
    browser_refill_s: float = 120  # ... and one more every this many seconds
    opens_per_address: int = 10  # rooms one client address may open at once (a lecture hall may share one) ...
    address_refill_s: float = 30  # ... and one more every this many seconds
    idle_close_s: float = 600  # a lobby nobody joined and no host touched for this long closes early
    touch_every_s: float = 60  # a host page marks its room as touched at most this often
    max_questions: int = 100
    # a numeric prediction's grid of answers (a lettered choice stops at 26 on the page): a lecturer's own scene may
    # ask for a weight under heavy dropout (0 to 10 in steps of 0.01) or a count of up to 2,000
    max_options: int = 2001
    max_spec_chars: int = 10_000  # a question's spec (a lecturer's scene: its state and their words, about 2,000)
    purge_after_s: float = 24 * 3600  # an expired room is deleted this long after it expired


@dataclass(frozen=True)
class NewRoom:
    code: str  # what students type; 7 characters of Crockford base32
    host_secret: str  # only the host link carries it; the database keeps a hash


@dataclass(frozen=True)
class RoomState:
    code: str
    phase: Phase
    question_index: int | None  # None in the lobby
    question_id: str | None
    option_count: int  # 0 in the lobby
    round_number: int  # 0 in the lobby, then 1 or 2
    question_count: int
    voter_count: int
    version: int  # changes with every host action
    expires_at: float
    answer_shown: bool = False  # the current question's answer is on the projector: revealed, or ended once revealed
    question_spec: str | None = None  # what the current question's id is too short to hold (a lecturer's scene)

    @property
    def accepting_votes(self) -> bool:
        return self.phase is Phase.VOTING

    @property
    def revealed(self) -> bool:
        return self.phase is Phase.REVEALED

    @property
    def has_next_question(self) -> bool:
        return (self.question_index if self.question_index is not None else -1) + 1 < self.question_count


@dataclass(frozen=True)
class QuestionCounts:
    """A question's answers, round by round. A second round counts every voter once: their second vote, or their
    first when they did not vote again (a student who keeps an answer after the talk still holds it)."""

    question_index: int
    question_id: str
    option_count: int
    rounds: tuple[tuple[int, ...], ...]  # rounds[r - 1][option]: answers per option in round r, for rounds opened
    changed: int = 0  # voters whose second-round answer differs from their first
    added: int = 0  # voters who answered first in the second round
    spec: str | None = None  # what the question's id is too short to hold (a lecturer's scene), or None

    def total(self, round_number: int) -> int:
        return sum(self.rounds[round_number - 1])


@dataclass(frozen=True)
class ProjectorView:
    state: RoomState
    counts: QuestionCounts | None  # None in the lobby
    stamp: tuple = ()  # board_stamp's value read in the same transaction


@dataclass(frozen=True)
class PhoneView:
    state: RoomState
    my_vote: int | None  # this voter's answer in the current round (a second round's carries the first's), or None
    stamp: tuple = ()  # phone_stamp's value read in the same transaction
    carried: bool = False  # my_vote is the first round's answer, counted again in the second


def stamp_text(version: int, phase: str, expired: bool, *activity: int) -> str:
    """A stamp (Poll.room_stamp, Poll.board_stamp) as the held checks and the pages write it: "version:phase:expired"
    and, for a board, ":activity"."""
    return ":".join((str(version), str(phase), str(int(expired)), *(str(count) for count in activity)))
