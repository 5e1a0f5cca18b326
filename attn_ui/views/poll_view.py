"""The class poll on screen: which face the address asks for, and the page's frame.

No room -> open a room or join one by its code (poll_open); a room this browser hosts -> the host's controls and
projector board (poll_host); any other room -> a student's phone (poll_phone, and live_phone for a live lecture's
scenes). A browser hosts a room when it opened it, or opened its host link (`?room=CODE&host=SECRET`) once: the
secret then lives in the session and a cookie, never in the address or on the screen (host_access). Every poll call
goes through poll_service.attempt: an error becomes its sentence, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from attn_lang import _
from attn_poll import NotHost, PollError, RoomExpired, RoomNotFound, StorageError
from attn_poll.codes import normalise_room_code
from attn_ui.views import host_access, live_phone, poll_service
from attn_ui.views.poll_host import host_face
from attn_ui.views.poll_open import open_face
from attn_ui.views.poll_phone import student_face
from attn_ui.widgets import lang, look, projector
from attn_ui.widgets.nav import sidebar_nav
from attn_ui.words import live

__all__ = ["Face", "face", "frame", "host_face", "open_face", "student_face"]


@dataclass(frozen=True)
class Face:
    kind: str  # "open", "host" or "student"
    code: str = ""  # the canonical room code (host and student)
    secret: str = ""  # the host secret (host only)
    problem: str = ""  # why the URL could not be used as it is ("" when it could)


def frame(switch: bool = True) -> None:
    """The page's frame. `switch=False`: the face draws the projector switch itself (the host: in its tools row,
    which saves the board a row of its 720 px)."""
    lang.choose()
    st.set_page_config(page_title=_("Class poll · Attention Lab"), page_icon=":material/how_to_vote:", layout="wide")
    look.apply_look()
    look.apply_poll_look()
    sidebar_nav()
    projector.page_mode(switch=switch)  # the app-wide mode and its CSS, on every face of the poll
    st.title(_("Class poll"))


def _hosts(code: str, secret: str | None) -> tuple[bool, PollError | None]:
    """Does `secret` control this room? A storage error counts as yes: the host's face shows the note and tries again
    by itself."""
    if not secret:
        return False, None
    __, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, secret))
    return error is None or isinstance(error, StorageError), error


def face() -> Face:
    """Which face the URL asks for, from the address and this browser's host rights. Draws nothing."""
    room = projector.url_value("room")
    linked = projector.url_value("host")
    if room is None:
        problem = _("A host link needs its room code as well.") if linked is not None else ""
        return Face("open", problem=problem)
    try:
        code = normalise_room_code(room)
    except PollError as error:
        return Face("open", problem=str(error))
    link_hosts, link_error = _hosts(code, linked)
    if link_hosts:
        return Face("host", code, linked)
    held = host_access.secret_for(code)  # this session's or this browser's cookie
    if held != linked and _hosts(code, held)[0]:
        return Face("host", code, held)
    if isinstance(link_error, NotHost):
        return Face("student", code, problem=str(link_error))
    state, error = poll_service.attempt(lambda: poll_service.poll().state(code))
    if isinstance(error, RoomNotFound | RoomExpired):  # a mistyped or old code: offer to type it again
        return Face("open", problem=str(error))
    live_phone.follow_lecture(code, state if error is None and live.scene_of(state.question_id) else None)
    return Face("student", code)  # storage trouble: the phone shows the note and retries by itself
