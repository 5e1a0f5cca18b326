"""The class poll's storage and rules: rooms, rounds, votes and counts over SQLAlchemy. Never imports Streamlit."""

from attn_poll.errors import (
    BadQuestions,
    BadRoomCode,
    BadVoter,
    Busy,
    LimitReached,
    NotHost,
    PollError,
    Reconnecting,
    RoomEnded,
    RoomExpired,
    RoomFull,
    RoomMoved,
    RoomNotFound,
    RoundClosed,
    SchemaTooNew,
    StorageError,
    TooManyRooms,
    TooManyVotes,
    UnknownOption,
    WrongPhase,
)
from attn_poll.export import counts_csv
from attn_poll.room_values import Limits, NewRoom, Phase, PhoneView, ProjectorView, QuestionCounts, RoomState
from attn_poll.rooms import Poll
from attn_poll.store import URL_ENV, DatabaseError, Store, open_store, resolve_url

__all__ = [
    "DatabaseError",
    "BadQuestions", "BadRoomCode", "BadVoter", "Busy", "LimitReached", "Limits", "NewRoom", "NotHost", "Phase",
    "PhoneView", "Poll", "PollError", "ProjectorView", "QuestionCounts", "Reconnecting", "RoomEnded",
    "RoomExpired", "RoomFull", "RoomMoved", "RoomNotFound", "RoomState", "RoundClosed", "SchemaTooNew", "StorageError",
    "Store", "TooManyRooms", "TooManyVotes", "URL_ENV", "UnknownOption", "WrongPhase", "counts_csv",
    "open_store", "resolve_url",
]
