"""Go live for a page's lecture: the room a lecture opens with, and whether a room the address names is that lecture.

A page's lecture is the built-in one (the Lecture scenes page: `deck` is None) or a lecturer's own deck (the Your
lecture page). A deck's room keeps each scene's spec with its question (room_questions), so its phones, projector,
CSV and recap are worded from the database; the host page presents the deck from its own address, so it runs the
room only while the two are the same deck, scene for scene: a deck edited since Go live, or another deck, is another
lecture. live_view draws Go live and the room; this module only opens and checks.

Session state used here:
    live.checked       (room code, the deck's specs or None) the room this session found to be its page's lecture
"""

from __future__ import annotations

import streamlit as st

from attn_core.deck import Deck
from attn_lang import _
from attn_poll import NewRoom
from attn_ui.views import poll_service
from attn_ui.words import live, room_questions

CHECKED_KEY = "live.checked"


def specs_of(deck: Deck | None) -> tuple[str, ...] | None:
    """What a deck's room keeps of each scene (None for the built-in lecture, whose ids say it all)."""
    return None if deck is None else tuple(room_questions.scene_spec(scene) for scene in deck.scenes)


def open_room(deck: Deck | None) -> tuple[NewRoom | None, str | None]:
    """A room for the lecture, in the lobby, and this session marked as its host's; or why there is none."""
    if deck is None:
        questions, specs = live.lecture_questions(), ()
    else:
        questions, specs = room_questions.deck_questions(deck)
    most = poll_service.poll().limits.max_options
    for number, (__, count) in enumerate(questions, start=1):
        if count > most:  # a count over a huge state: say which scene, before the room refuses the whole lecture
            return None, _("Scene {number} asks for a number from a grid of {count:,} answers; a live room takes at "
                           "most {most:,}. Ask it about a smaller state, then go live.", number=number, count=count,
                           most=most)
    openers = poll_service.opener_keys()
    room, error = poll_service.attempt(lambda: poll_service.poll().create_room(questions, openers=openers,
                                                                               specs=specs))
    if error is not None:
        return None, str(error)
    poll_service.remember_host(room.code, room.host_secret)
    st.session_state[CHECKED_KEY] = (room.code, specs_of(deck))
    return room, None


def lecture_of(code: str, deck: Deck | None) -> str | None:
    """Which lecture room `code` runs: "this" (the page's: the built-in scenes, or its deck scene for scene), "other"
    (another lecture, another deck, or another version of this one), or None (a class poll, or no answer now). Asked
    once a session while the answer is "this"."""
    mark = (code, specs_of(deck))
    if st.session_state.get(CHECKED_KEY) == mark:
        return "this"
    listed, error = poll_service.attempt(lambda: poll_service.poll().question_list(code))
    first = listed[0][0] if error is None and listed else None
    if live.scene_of(first) is None and room_questions.deck_of(first) is None:
        return None
    same = live.scene_of(first) is not None if deck is None else tuple(spec for __, spec in listed) == mark[1]
    if not same:
        return "other"
    st.session_state[CHECKED_KEY] = mark
    return "this"
