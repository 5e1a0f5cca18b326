"""The class poll without a room in the address: join one by its code (a student), or open one (a lecturer).

Session state used here (besides poll_parts' and join's keys):
    poll.open.note     why "Open a room" was refused, shown beside that button
    poll.join.note     why the typed code was refused, shown beside the Join button
    poll.typed         the join form's text box
    poll.pick.<id>     the question checkboxes of "Open a room"
"""

from __future__ import annotations

import streamlit as st

from attn_lang import _, _n
from attn_poll import PollError
from attn_poll.codes import normalise_room_code
from attn_ui.quiz.bank import SECTIONS
from attn_ui.quiz.poll_questions import POLL_QUESTIONS
from attn_ui.views import poll_parts, poll_service
from attn_ui.widgets import join, lang

OPEN_NOTE_KEY = "poll.open.note"
JOIN_NOTE_KEY = "poll.join.note"
TYPED_KEY = "poll.typed"
PICK_PREFIX = "poll.pick."
POLL_PAGE = "pages/10_Class_poll.py"


def _join_typed() -> None:
    typed = st.session_state.get(TYPED_KEY, "")
    try:
        st.query_params["room"] = normalise_room_code(typed)
    except PollError as error:
        st.session_state[JOIN_NOTE_KEY] = str(error)


def _open_room() -> None:
    picked = [q for q in POLL_QUESTIONS if st.session_state.get(PICK_PREFIX + q.id)]
    if not picked:
        st.session_state[OPEN_NOTE_KEY] = _("Pick at least one question for the room.")
        return
    openers = poll_service.opener_keys()
    room, error = poll_service.attempt(
        lambda: poll_service.poll().create_room([(q.id, q.option_count) for q in picked], openers=openers))
    if error is not None:
        st.session_state[OPEN_NOTE_KEY] = str(error)
        return
    poll_service.remember_host(room.code, room.host_secret)  # the host page hands the browser its cookie
    join.remember(room.code)
    st.query_params.from_dict({"room": room.code, **lang.url_view()})  # no secret in the address


def open_face(problem: str = "") -> None:
    poll_parts.show_problem(problem)
    poll_parts.show_note()
    with st.form("poll-join-form", border=True, enter_to_submit=True):
        st.markdown(_("**Join a room.** Type the code shown on the projector."))
        st.text_input(_("Room code"), key=TYPED_KEY, max_chars=40, placeholder=_("For example 7KD3Q9X"))
        st.form_submit_button(_("Join"), key="poll.join", icon=":material/login:", on_click=_join_typed)
        poll_parts.show_note(JOIN_NOTE_KEY)
    st.subheader(_("Open a room"), anchor=False)
    st.markdown(_("For the lecturer. Pick the questions to ask, in the order below. Students vote on their phones; "
                  "the projector shows the count for each option, not the answer, until you reveal it."))
    for section in SECTIONS:
        questions = [q for q in POLL_QUESTIONS if q.section == section.id]
        with st.expander(_(section.title), key=f"poll-section-{section.id}"):  # a stable key: a label that changed
            for question in questions:                                        # would close the expander
                st.checkbox(_(question.prompt), key=PICK_PREFIX + question.id)
    picked = sum(bool(st.session_state.get(PICK_PREFIX + q.id)) for q in POLL_QUESTIONS)
    st.button(_n("Open a room with {count} question", "Open a room with {count} questions", picked),
              key="poll.open", type="primary", icon=":material/how_to_vote:", disabled=not picked,
              on_click=_open_room)
    poll_parts.show_note(OPEN_NOTE_KEY)  # beside the button that was pressed, not at the top of a long page

