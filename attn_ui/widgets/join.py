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
from urllib.parse import urlencode, urlsplit

import streamlit as st

from attn_lang import _
from attn_poll.codes import normalise_room_code
from attn_poll.errors import PollError
from attn_poll.qr import qr_png
from attn_ui.widgets import lang

ROOM_KEY = "poll.room"
SHOW_KEY = "poll.showjoin"
SWITCH_KEY = "poll.showjoin.switch"
POLL_PATH = "/Class_poll"  # where Streamlit serves pages/10_Class_poll.py
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
    """The student link for a room, on the same host as the page in view (st.context.url)."""
    parts = urlsplit(page_url or "")
    root = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""
    base = parts.path.replace(CLOUD_FRAME, "").rsplit("/", 1)[0]  # the app's own base path, without the page
    return f"{root}{base}{POLL_PATH}?{urlencode({'room': code})}"


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
    st.toggle(_("Show the poll's join code"), key=SWITCH_KEY, on_change=_keep_choice,
              help=_("The QR code and link of the class poll room you opened, for late arrivals."))
    if st.session_state[SWITCH_KEY]:
        join_card(link)


LECTURE_VIEW_KEY = "room"  # on the Lab: the live lecture a phone opened it from
FOLLOW_KEY = "live.phone.room"  # the live lecture this session follows as a student while it runs (live_phone)


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


def back_to_lecture() -> None:
    """On the Lab, at the top: "Back to the lecture" when a live lecture's phone opened it (`room=CODE`). One tap
    returns to the lecture's current scene."""
    kept = lecture_view()
    if kept:
        st.page_link("pages/10_Class_poll.py", label=_("Back to the lecture"), icon=":material/cast_connected:",
                     query_params={"room": kept[LECTURE_VIEW_KEY], **lang.url_view()})
