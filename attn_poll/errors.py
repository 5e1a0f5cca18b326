"""What can go wrong in a room. Every message is a sentence to show on screen as it is."""

from __future__ import annotations


class PollError(Exception):
    """Base of every poll error; the message is written for the person who caused it."""


class RoomNotFound(PollError):
    """No room has this code (or the code is not a room code at all)."""


class BadRoomCode(RoomNotFound):
    """The text cannot be a room code: wrong length or characters."""


class RoomExpired(PollError):
    """The room was open for its whole lifetime and is now closed for good."""


class RoomEnded(PollError):
    """The host ended the room."""


class RoundClosed(PollError):
    """A vote for a round that is not open (closed, not started yet, or another question)."""


class UnknownOption(PollError):
    """A vote for an option the question does not have."""


class NotHost(PollError):
    """A host action without the room's host secret."""


class WrongPhase(PollError):
    """A host action the room's phase does not allow (reveal before closing, a third round, ...)."""


class RoomMoved(PollError):
    """A host action made from a page that showed the room at an older version: another host page (a second device, a
    reload) moved the room since. Nothing was changed; `state` is the room as it is now, for the page to follow."""

    def __init__(self, message: str, state=None) -> None:
        super().__init__(message)
        self.state = state


class BadVoter(PollError):
    """The voter id the page passed in is empty or too long (a page bug, not a student's)."""


class BadQuestions(PollError):
    """The list of questions for a new room is empty or has a question without two options."""


class LimitReached(PollError):
    """A cap was hit: too many open rooms, voters in a room, or votes in one second."""


class TooManyRooms(LimitReached):
    pass


class RoomFull(LimitReached):
    pass


class TooManyVotes(LimitReached):
    pass


class StorageError(PollError):
    """The database could not be used for now; trying again later may work."""


class Reconnecting(StorageError):
    """The connection to the database was lost and one retry did not bring it back."""


class Busy(StorageError):
    """The database stayed locked by other writers for longer than a student should wait."""


class SchemaTooNew(StorageError):
    """The database was set up by a newer version of the app."""
