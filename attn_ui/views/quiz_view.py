"""The Check yourself page: its sections, the overall score, the reset, and its answers in the address.

One question is drawn by attn_ui/widgets/questions.py, which every lesson page shares; this module is what
only the Check yourself page adds. The address holds the section (left out for the first) and every answer
(`answers`, attn_core.query.write_answers), so a reload, which starts a new session, restores the progress. It is
read only when the run is a navigation (the page's first run, Back or Forward): a link always wins, and Back and
Forward bring back exactly what their entry holds (no `answers`: nothing answered), so Back undoes "Start again"
and Forward clears again; a bare link (the sidebar) keeps the session's answers. Any other run only writes it,
once, at its end; what a navigation run writes replaces the page's entry instead of adding one.
"""

from __future__ import annotations

import streamlit as st

from attn_core.query import ANSWERS_KEY as ANSWERS_PARAM
from attn_core.query import quoted, unused_key_notes
from attn_lang import N_, _
from attn_ui.quiz.bank import BY_ID, QUESTIONS, SECTION_BY_ID, SECTIONS, in_section
from attn_ui.quiz.model import Section
from attn_ui.quiz.pages import PAGE_QUESTIONS
from attn_ui.widgets import address, held, questions
from attn_ui.widgets.questions import render_question, reset, score
from attn_ui.widgets.state import history_navigation

# --- sections, scores, reset ------------------------------------------------------------------------------


SECTION_KEY = "quiz.section"  # the section in view
URL_SECTION_KEY = "quiz.url"  # the address (key -> value) this page last wrote, or arrived with
ARRIVED_KEY = "quiz.arrived"  # this run is a navigation run: what it writes replaces the page's history entry
PICKER_KEY = "quiz.pick"  # the section picker
PAGE = "pages/8_Check_yourself.py"
SECTION_PARAM = "section"  # ?section=padding opens the page on that section


def restore_from_address() -> list[str]:
    """On a navigation run, take the section and the answers from the address; notes for what was refused.

    Call it before anything reads the answers. `answers` absent from a link (the sidebar) keeps the session's
    answers; absent on Back or Forward, nothing is answered; present, it replaces them. Other runs leave everything
    to the widgets."""
    st.session_state[ARRIVED_KEY] = False
    if PICKER_KEY in st.session_state and not history_navigation():
        return []
    st.session_state[ARRIVED_KEY] = True
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
    elif history_navigation():
        st.session_state[SECTION_KEY] = st.session_state[PICKER_KEY] = SECTIONS[0].id
    if ANSWERS_PARAM in params or history_navigation():
        notes += questions.restore(QUESTIONS, (params.get(ANSWERS_PARAM) or [None])[-1], ANSWERS_PARAM)
    return notes


def remember_in_address(section: Section) -> None:
    """Write the section (unless it is the first) and the answers to the address, in one message, when they changed:
    one history entry a change, none on a navigation run (it replaces the entry the browser made)."""
    wanted = {SECTION_PARAM: section.id} if section.id != SECTIONS[0].id else {}
    written = questions.address_value(QUESTIONS)
    if written:
        wanted[ANSWERS_PARAM] = written
    address.write_address(wanted, URL_SECTION_KEY, replace=bool(st.session_state.get(ARRIVED_KEY)))


def section_picker() -> Section:
    """The section in view, chosen with one control; kept across reruns, page switches and in the URL.

    The button labels stay fixed: the browser sends back the label of the chosen button, so a label that
    changed with the score would no longer match and the choice would be lost."""
    stored = st.session_state.get(SECTION_KEY, SECTIONS[0].id)
    chosen = held.one_of(
        _("Section"), [s.id for s in SECTIONS], key=PICKER_KEY, fallback=stored,
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
    lessons = [tuple(BY_ID[qid] for qid in asked) for script, asked in PAGE_QUESTIONS.items() if script != PAGE]
    done = sum(1 for asked in lessons if score(asked).answered == len(asked))
    st.caption(_("Pages whose questions you have all answered: {done} of {total} (lessons 1 to 5 and Train it "
                 "yourself; lesson 6 asks none). In the sidebar such a page wears a seal when every answer was right "
                 "on the first try, a filled circle otherwise. Your answers are kept in this browser, so they are "
                 "here tomorrow too.", done=done, total=len(lessons)))


RESET_MENU_KEY = "quiz.reset.menu"
RESET_ROUND_KEY = "quiz.reset.round"  # counts the clears: each one draws the menu anew, closed


def _clear(chosen: tuple = QUESTIONS) -> None:
    """Clear, then close the menu: its work is done, and the Undo it leaves is beside it. Closed by drawing it under
    a new key: setting its state to closed was lost when the browser skipped the run that sent it (a full test run
    once found the menu still open), while a new menu always starts closed."""
    reset(chosen)
    st.session_state[RESET_ROUND_KEY] = st.session_state.get(RESET_ROUND_KEY, 0) + 1


def reset_controls(section: Section) -> None:
    menu_key = f"{RESET_MENU_KEY}.{st.session_state.get(RESET_ROUND_KEY, 0)}"
    with st.popover(_("Start again"), icon=":material/restart_alt:", key=menu_key, on_change="rerun"):
        st.markdown(_("Clear the answers, skips and scores of this section or of all, here and in this browser's "
                      "saved progress (the lessons ask some of these questions too). Changed your mind? Undo, or the "
                      "browser's Back button, brings them back."))
        st.button(_("Clear “{section}”", section=_(section.title)), key="quiz.reset.section", on_click=_clear,
                  args=(in_section(section.id),))
        st.button(_("Clear every section"), key="quiz.reset.all", on_click=_clear, type="primary")
    if questions.can_undo_reset():
        st.button(_("Undo: bring back the answers just cleared"), key="quiz.reset.undo", icon=":material/undo:",
                  on_click=questions.undo_reset)


def render_section(section: Section) -> None:
    questions = in_section(section.id)
    part = score(questions)
    st.subheader(_(section.title))
    st.caption(_("{blurb} · {right} of {total} right on the first try · {answered} answered", blurb=_(section.blurb),
                 right=part.right, total=part.total, answered=part.answered))
    for number, question in enumerate(questions, start=1):
        render_question(question, f"{number}.", _("Your answer to question {number}", number=number))
