"""The Check yourself page: its sections, the overall score, the reset, and its answers in the address.

One question is drawn by attn_ui/widgets/questions.py, which every lesson page shares; this module is what
only the Check yourself page adds. The address holds the section and every answer (`answers`,
attn_core.query.write_answers), so a reload, which starts a new session, restores the progress. It is read only
when the run is a navigation (the page's first run, Back or Forward): a link always wins; any other run only
writes it, once, at its end.
"""

from __future__ import annotations

import streamlit as st

from attn_core.query import ANSWERS_KEY as ANSWERS_PARAM
from attn_core.query import quoted, read_answers, unused_key_notes, write_answers
from attn_lang import N_, _
from attn_ui.quiz.bank import QUESTIONS, SECTION_BY_ID, SECTIONS, in_section
from attn_ui.quiz.model import Section
from attn_ui.widgets import address
from attn_ui.widgets.questions import (
    ANSWERS_KEY,
    FIRST_KEY,
    answers,
    first_answers,
    render_question,
    reset,
    score,
    widget_key,
)
from attn_ui.widgets.state import history_navigation

# --- sections, scores, reset ------------------------------------------------------------------------------


SECTION_KEY = "quiz.section"  # the section in view
URL_SECTION_KEY = "quiz.url"  # the address (key -> value) this page last wrote, or arrived with
PICKER_KEY = "quiz.pick"  # the section picker
SECTION_PARAM = "section"  # ?section=padding opens the page on that section
SHAPES = tuple((q.kind, len(q.options)) for q in QUESTIONS)  # what the `answers` reader checks items against


def restore_from_address() -> list[str]:
    """On a navigation run, take the section and the answers from the address; notes for what was refused.

    Call it before anything reads the answers. `answers` absent (a bare link, the sidebar) keeps the session's
    answers; present, it replaces them. Other runs leave everything to the widgets."""
    if PICKER_KEY in st.session_state and not history_navigation():
        return []
    params = address.arrive(URL_SECTION_KEY)
    notes = unused_key_notes(params, {SECTION_PARAM, ANSWERS_PARAM, *address.KEPT}, N_("Check yourself"))
    wanted = (params.get(SECTION_PARAM) or [None])[-1]
    if wanted in SECTION_BY_ID:
        st.session_state[SECTION_KEY] = wanted
        st.session_state[PICKER_KEY] = wanted
    elif wanted is not None:
        ids = ", ".join(f"`{s.id}`" for s in SECTIONS)
        notes.append(_("There is no section {name}; the sections are {ids}. Showing the first.",
                       name=quoted(wanted[:40]), ids=ids))
        st.session_state[SECTION_KEY] = st.session_state[PICKER_KEY] = SECTIONS[0].id
    if ANSWERS_PARAM in params:
        first, current, answer_notes = read_answers((params[ANSWERS_PARAM] or [""])[-1], SHAPES)
        notes += answer_notes
        st.session_state[FIRST_KEY] = {QUESTIONS[i].id: answer for i, answer in first.items()}
        st.session_state[ANSWERS_KEY] = {QUESTIONS[i].id: answer for i, answer in current.items()}
        for index, question in enumerate(QUESTIONS):  # the widgets say what the address says
            shown = current.get(index) if question.kind != "order" else None
            st.session_state[widget_key(question)] = shown
    return notes


def remember_in_address(section: Section) -> None:
    """Write the section and the answers to the address, in one message, when they changed (one history entry)."""
    index = {question.id: i for i, question in enumerate(QUESTIONS)}
    first = {index[qid]: answer for qid, answer in first_answers().items() if qid in index}
    current = {index[qid]: answer for qid, answer in answers().items() if qid in index}
    wanted = {SECTION_PARAM: section.id}
    written = write_answers(SHAPES, first, current)
    if written:
        wanted[ANSWERS_PARAM] = written
    address.write_address(wanted, URL_SECTION_KEY)


def section_picker() -> Section:
    """The section in view, chosen with one control; kept across reruns, page switches and in the URL.

    The button labels stay fixed: the browser sends back the label of the chosen button, so a label that
    changed with the score would no longer match and the choice would be lost."""
    stored = st.session_state.get(SECTION_KEY, SECTIONS[0].id)
    if st.session_state.get(PICKER_KEY) not in SECTION_BY_ID:
        st.session_state[PICKER_KEY] = stored
    chosen = st.segmented_control(
        _("Section"), [s.id for s in SECTIONS], key=PICKER_KEY, required=True,
        format_func=lambda sid: _(SECTION_BY_ID[sid].title), width="stretch",
    )
    st.session_state[SECTION_KEY] = chosen
    return SECTION_BY_ID[chosen]


def overall_score() -> None:
    """How far the student is: overall, then right on the first try per section."""
    total = score()
    st.progress(
        total.answered / total.total,
        text=_("{answered} of {total} answered · {right} right on the first try", answered=total.answered,
               total=total.total, right=total.right),
    )
    parts = []
    for section in SECTIONS:
        part = score(in_section(section.id))
        parts.append(f"{_(section.title)} {part.right}/{part.total}")
    st.caption(_("Right on the first try: {sections}", sections=" · ".join(parts)))


def reset_controls(section: Section) -> None:
    with st.popover(_("Start again"), icon=":material/restart_alt:"):
        st.markdown(_("Clear your answers and scores. This cannot be undone."))
        st.button(_("Clear “{section}”", section=_(section.title)), key="quiz.reset.section", on_click=reset,
                  args=(in_section(section.id),))
        st.button(_("Clear every section"), key="quiz.reset.all", on_click=reset, type="primary")


def render_section(section: Section) -> None:
    questions = in_section(section.id)
    part = score(questions)
    st.subheader(_(section.title))
    st.caption(_("{blurb} · {right} of {total} right on the first try · {answered} answered", blurb=_(section.blurb),
                 right=part.right, total=part.total, answered=part.answered))
    for number, question in enumerate(questions, start=1):
        render_question(question, f"{number}.", _("Your answer to question {number}", number=number))
