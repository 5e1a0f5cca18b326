"""The join QR code and short link of the class poll room this browser opened, for any page (projector mode too).

The Class poll page calls remember() once a host link is checked; every page frame then offers one switch,
"Show the poll's join code", that draws the QR code, the room code and the link. Pages where no room was opened
show nothing at all. The QR code is drawn on this server by attn_poll.qr_png (segno), no network.

Session state used here:
    poll.room      JoinLink of the room this session hosts
    poll.showjoin  whether the join code is shown (our copy: the switch's own value goes on a page switch)
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode, urlsplit

import streamlit as st

from attn_lang import _
from attn_poll.codes import normalise_room_code
from attn_poll.errors import PollError
from attn_poll.qr import qr_png
from attn_ui.widgets import held, lang

ROOM_KEY = "poll.room"
SHOW_KEY = "poll.showjoin"
SWITCH_KEY = "poll.showjoin.switch"
PHONE_PATH = "/j/"  # + a room's code: the phone's page (attn_phone), served beside Streamlit by app.py's routes
CLOUD_FRAME = "/~/+"  # Community Cloud's frame around the app: students must not get it in their link


@dataclass(frozen=True)
class JoinLink:
    code: str
    url: str  # the full link the QR code carries

    @property
    def short(self) -> str:
        """The link as a person types it: no scheme."""
        return self.url.split("://", 1)[-1]


def join_url(page_url: str | None, code: str) -> str:
    """The student link for a room, on the same host as the page in view (st.context.url): the phone's page,
    `/j/CODE`, short enough for the back row to type."""
    parts = urlsplit(page_url or "")
    root = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""
    return f"{root}{phone_path(page_url, code)}"


def phone_path(page_url: str | None, code: str, **query: str) -> str:
    """The phone's page for a room as a path on this server (the app's own base path kept, Cloud's frame left out)."""
    base = urlsplit(page_url or "").path.replace(CLOUD_FRAME, "").rsplit("/", 1)[0]
    kept = {key: value for key, value in query.items() if value}
    return f"{base}{PHONE_PATH}{quote(code, safe='')}" + (f"?{urlencode(kept)}" if kept else "")


def remember(code: str) -> JoinLink:
    link = JoinLink(code, join_url(st.context.url, code))
    st.session_state[ROOM_KEY] = link
    return link


def remembered() -> JoinLink | None:
    link = st.session_state.get(ROOM_KEY)
    return link if isinstance(link, JoinLink) else None


def show_qr(link: JoinLink, width: int) -> None:
    # PNG, not the default JPEG: compression blurs the modules' edges, and a phone across a hall needs them sharp.
    st.image(qr_png(link.url), width=width, output_format="PNG",
             alt=_("QR code of the join link for room {code}", code=link.code))


def join_card(link: JoinLink, *, qr_width: int = 220) -> None:
    """The room code, the short link and the QR code, in a box of its own."""
    with st.container(key="poll-join", border=True):
        st.markdown(_("**Join the class poll**"))
        st.markdown(_("Room code: **{code}**", code=link.code))
        st.markdown(_("Go to `{address}`, or scan the code.", address=link.short))
        show_qr(link, qr_width)


def _keep_choice() -> None:
    st.session_state[SHOW_KEY] = bool(st.session_state.get(SWITCH_KEY))


def join_switch() -> None:
    """On any page: one switch that shows the join card of the room this browser opened (nothing without one)."""
    link = remembered()
    if link is None:
        return
    st.session_state[SWITCH_KEY] = bool(st.session_state.get(SHOW_KEY, False))
    st.toggle(_("Show the poll's join code"), key=SWITCH_KEY, **held.start(SWITCH_KEY, of=bool), on_change=_keep_choice,
              help=_("The QR code and link of the class poll room you opened, for late arrivals."))
    if st.session_state[SWITCH_KEY]:
        join_card(link)


LECTURE_VIEW_KEY = "room"  # on the Lab: the live lecture a phone opened it from
FOLLOW_KEY = "live.phone.room"  # the live lecture a phone opened this session's Lab from (back_to_lecture)


def following_lecture() -> str | None:
    """The live lecture this session follows as a student while it runs, or None."""
    code = st.session_state.get(FOLLOW_KEY)
    return code if isinstance(code, str) and code else None


def lecture_view() -> dict[str, str]:
    """The Lab's `room` view key as its URL has it ({} for none or a malformed code): kept while the Lab is used."""
    raw = st.query_params.get(LECTURE_VIEW_KEY)
    if raw is None:
        return {}
    try:
        return {LECTURE_VIEW_KEY: normalise_room_code(raw)}
    except PollError:
        return {}


def follow_lecture_of_lab() -> None:
    """On the Lab, before the page menu is drawn: a Lab opened from a live lecture's phone (`room=CODE`) follows that
    lecture, so the menu leaves the Lecture scenes out (their revealed steps hold every answer); a Lab opened without
    it follows none."""
    kept = lecture_view()
    if kept:
        st.session_state[FOLLOW_KEY] = kept[LECTURE_VIEW_KEY]
    else:
        st.session_state.pop(FOLLOW_KEY, None)


def back_to_lecture() -> None:
    """On the Lab, at the top: "Back to the lecture" when a live lecture's phone opened it (`room=CODE`). One tap
    returns to the phone's page of the lecture, in the same tab."""
    kept = lecture_view()
    if not kept:
        return
    # the Class poll page sends a student's room to the phone's page (poll_view.student_face), in this tab
    st.page_link("pages/10_Class_poll.py", label=_("Back to the lecture"), icon=":material/cast_connected:",
                 query_params={"room": kept[LECTURE_VIEW_KEY], **lang.url_view()})
