"""What the class poll's faces share: the note a callback leaves for the next run, a poll call from a callback, and
a question drawn with its options and its reveal.

Session state used here:
    poll.note   a message from a button or a vote (a callback) to show in the next run
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attn_lang import _
from attn_ui.quiz.poll_questions import POLL_BY_ID, PollQuestion
from attn_ui.views import poll_service
from attn_ui.widgets.lab_link import lab_button

NOTE_KEY = "poll.note"

show_problem = poll_service.show_problem


def show_note(key: str = NOTE_KEY) -> None:
    """The message a callback left for this run (a refused vote, a host action the phase does not allow)."""
    note = st.session_state.pop(key, None)
    if isinstance(note, str) and note:
        st.warning(note, icon=":material/info:")


def call(work: Callable[[], object], key: str = NOTE_KEY) -> None:
    """Run a poll call from a callback; its error waits in the session for the next run to show."""
    __, error = poll_service.attempt(work)
    st.session_state[key] = str(error) if error else None


def question_or_none(question_id: str | None) -> PollQuestion | None:
    return POLL_BY_ID.get(question_id or "")


def show_question(question: PollQuestion) -> None:
    st.markdown(_(question.prompt))
    if question.code:
        st.code(question.code, language="python", wrap_lines=True)
    for start in range(0, len(question.versions), 2):
        pair = range(start, min(start + 2, len(question.versions)))
        for column, index in zip(st.columns(2), pair, strict=False):
            with column:
                st.markdown(f"**{_(question.options[index])}**")
                st.code(question.versions[index], language="python", wrap_lines=True)


def show_reveal(question: PollQuestion, folded: bool = False) -> None:
    """The right option, why it is right, why each wrong one fails, and the Lab link. folded (the projector):
    the reasons wait in an expander under the answer, so the board stays inside one 1280x720 screen."""
    name = question.option_name(question.answer)
    if question.versions:
        said = _("**The answer is {name}.**", name=name)
    else:
        said = _("**The answer is {name}.** {option}", name=name, option=_(question.options[question.answer]))
    st.success(said, icon=":material/check_circle:")
    whys = [(index, why) for index, why in enumerate(question.whys) if why]
    if folded:  # the lecturer opens the reasons when the room is ready for them
        label = _("Why {name}, and why not the others?", name=name) if whys else _("Why {name}?", name=name)
        with st.expander(label):
            _reasons(question, whys)
    else:
        _reasons(question, whys)
    if question.lab is not None:
        settings, __ = question.lab.settings()
        lab_button(settings, _(question.lab.label), **question.lab.view)


def _reasons(question: PollQuestion, whys: list[tuple[int, str]]) -> None:
    st.markdown(_(question.explanation))
    for index, why in whys:
        st.markdown(_("**Why not {name}?** {why}", name=question.option_name(index), why=_(why)))
