"""The class poll on screen: which face the address asks for, and the page's frame.

No room -> open a room or join one by its code (poll_open); a room this browser hosts -> the host's controls and
projector board (poll_host); any other room -> the phone's page (attn_phone, `/j/CODE`: the app's routes send an old
`?room=CODE` link there before Streamlit loads; a code typed in this page's form goes there from student_face).
A browser hosts a room when it opened it, or opened its host link (`?room=CODE&host=SECRET`) once: the
secret then lives in the session and a cookie, never in the address or on the screen (host_access). Every poll call
goes through poll_service.attempt: an error becomes its sentence, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from attn_lang import _
from attn_poll import NotHost, PollError, RoomExpired, RoomNotFound, StorageError
from attn_poll.codes import normalise_room_code
from attn_ui.views import host_access, poll_parts, poll_service
from attn_ui.views.poll_host import host_face
from attn_ui.views.poll_open import open_face
from attn_ui.widgets import join, lang, look, poll_look, projector
from attn_ui.widgets.marks import follow_mark_script
from attn_ui.widgets.nav import sidebar_nav

__all__ = ["Face", "face", "frame", "host_face", "open_face", "student_face"]

# Sends the browser to the phone's page of the room its mark names, in place (Back does not return here), on the
# app's own base path, keeping the page's language.
PHONE_GO_JS = follow_mark_script("attn-phone-go", "phonego", """
  const apply = (code) => {
    if (!/^[0-9A-Z]{7}$/.test(code)) return;
    const base = location.pathname.replace("/~/+", "").replace(/\\/[^/]*$/, "");
    const lang = new URLSearchParams(location.search).get("lang");
    location.replace(base + "/j/" + code + (lang ? "?lang=" + encodeURIComponent(lang) : ""));
  };""")


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
    poll_look.apply_poll_look()
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
    __, error = poll_service.attempt(lambda: poll_service.poll().state(code))
    if isinstance(error, RoomNotFound | RoomExpired):  # a mistyped or old code: offer to type it again
        return Face("open", problem=str(error))
    return Face("student", code)  # storage trouble: the phone shows the note and retries by itself


def student_face(code: str, problem: str = "") -> None:
    """A student's room is answered on the phone's page, not here: say where it is and send the browser there (a
    mark with the room's code, which PHONE_GO_JS follows; the app's routes send an old link there before this page
    ever loads, so this is for a code typed in this page's form, or a page switched to from the Lab)."""
    poll_parts.show_problem(problem)
    st.markdown(_("Room {code} is answered on its page for phones.", code=code))
    label = _("Open room {code}", code=code)
    st.markdown(f"[{label}]({join.phone_path(st.context.url, code, **lang.url_view())})")
    if not problem:
        with st.container(key=f"attn-phonego-{code}"):  # the mark: a room code is 7 of [0-9A-Z]
            st.html(PHONE_GO_JS, unsafe_allow_javascript=True)
