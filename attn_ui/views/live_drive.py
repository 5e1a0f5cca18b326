"""One driver for a live lecture's room: the room moves only when this page's lecturer moves the page (Next, Back, a
key, the browser's Back, a link typed into this tab); a page just opened, or whose room another page moved, follows
the room instead. attn_ui/views/live_view.py calls drive() on every run of a live lecture's host page.

Session state used here:
    live.drawn         (room code, scene, revealed, room version) as this page last drew the room: tells this page's
                       own moves (the step in the address changed) from a page opened or a room moved elsewhere
    live.link.asked    (room code, scene, revealed) an opened link asked for while the room was elsewhere: offered in
                       the badge's menu as an explicit move (live_view)
"""

from __future__ import annotations

import streamlit as st

from attn_lang import _
from attn_poll import Phase, RoomMoved, RoomState
from attn_ui.views import poll_service, scene_nav

DRAWN_KEY = "live.drawn"
ASKED_KEY = "live.link.asked"


def room_step(state: RoomState) -> tuple[int, bool] | None:
    """The scene (from 1) and whether its answer shows, as the room has them; None before its first scene."""
    if state.question_index is None:
        return None
    return state.question_index + 1, state.phase is Phase.REVEALED


def drive(code: str, secret: str, state: RoomState, number: int, revealed: bool) -> tuple[RoomState, int, bool]:
    """One driver for the room: this page moves it only when its own lecturer moved the page (Next, Back, a key, the
    browser's Back, a link typed into this tab); otherwise the page follows the room.

    What this session drew last (DRAWN_KEY: the room's code, the step and the room's version then) tells the two
    apart. A page just opened (a reload, a second device, a host link: a new session) or a page whose room another
    page moved (its board saw the version change) shows the room where it is and moves nothing. A move is made only
    from the version this page last drew (Poll's expected_version): if another page moved the room in between, this
    page follows instead, so two pages never pull the room between them and no round closes that nobody closed."""
    drawn = st.session_state.get(DRAWN_KEY)
    here = room_step(state)
    if state.phase is Phase.ENDED or here == (number, revealed):
        _drew(code, number, revealed, state)
        return state, number, revealed
    moved_here = isinstance(drawn, tuple) and len(drawn) == 4 and drawn[0] == code and drawn[1:3] != (number, revealed)
    if here is None or moved_here:
        expected = drawn[3] if moved_here else state.version
        moved, error = poll_service.attempt(
            lambda: poll_service.poll().show_scene(code, secret, number - 1, revealed, expected_version=expected))
        if error is None:
            _drew(code, number, revealed, moved)
            return moved, number, revealed
        if not isinstance(error, RoomMoved):
            poll_service.show_problem(error)
            return state, number, revealed
        state, here = error.state, room_step(error.state)
        if here is None:
            return state, number, revealed
        st.toast(_("Another host page moved the lecture first: this page shows scene {number}, where the room is.",
                   number=here[0]), icon=":material/sync:")
    else:
        st.toast(_("The lecture is at scene {number}: this page shows it there. Next and Back move the room from "
                   "here.", number=here[0]), icon=":material/sync:")
        if drawn is None:  # a link opened: its step waits in the badge's menu, one explicit press away
            st.session_state[ASKED_KEY] = (code, number, revealed)
    scene_nav.write_step(*here)
    _drew(code, *here, state)
    return state, *here


def _drew(code: str, number: int, revealed: bool, state: RoomState) -> None:
    st.session_state[DRAWN_KEY] = (code, number, revealed, state.version)
