"""Predict first, then read: the part of a lesson that answers its question stays folded until it is answered.

A lesson asks its question (questions.inline_question) before the text or chart that gives the answer away;
that part goes in `answer_fold`, an expander that opens by itself once the question has a complete answer. Before
that, the fold holds no answer at all (an expander's content is in the page even while it is closed): opened, it
asks for the prediction first, and offers to show the answer without one, on purpose. That skip is recorded
(questions.skip): the question counts as unanswered on Check yourself, and the question's box says so.

    fold = predict.answer_fold("dropout-rescale", N_("Why the rescale matters"))
    if fold is not None:  # answered or skipped: draw what answers it
        with fold:
            ...

A later section of the page that tells the answer too waits behind the same question: drawn only once
`later_part` allows it, which until then says it is there and why it waits. A control whose result answers the
question (Train, on Train it yourself) is offered once `revealed`, with `skip_button` beside it until then.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attn_lang import _
from attn_ui.quiz.bank import BY_ID
from attn_ui.quiz.model import is_complete
from attn_ui.widgets import questions


def answered(question_id: str) -> bool:
    """Has the student answered this question (on this page or on Check yourself)?"""
    return is_complete(BY_ID[question_id], questions.answers().get(question_id))


def revealed(question_id: str) -> bool:
    """May the answer be shown: the question is answered, or its prediction was skipped on purpose?"""
    return answered(question_id) or question_id in questions.skipped()


def answer_fold(question_id: str, label: str) -> DeltaGenerator | None:
    """The fold for what answers the question: open, to draw into, once the question is answered or skipped; before
    that a closed fold that asks for the prediction and offers the skip, and None (draw nothing of the answer).
    `label` is a message marked with N_ where it is written, drawn here as _(label)."""
    title = _(label)
    if revealed(question_id):
        return st.expander(title, expanded=True, icon=":material/lightbulb:")
    # Translators: the title of a fold whose question is not answered yet; {title} is the fold's own title
    with st.expander(_("{title} (answer the question above first)", title=title), icon=":material/lightbulb:"):
        st.markdown(_("Pick your prediction in the question above: this part shows the answer, and it opens by itself "
                      "once you have picked."))
        skip_button(question_id)
    return None


def skip_button(question_id: str) -> None:
    """The one way to see the answer without a prediction, on purpose (recorded by questions.skip), and its cost.
    Drawn once a page for a question: in its answer fold, or beside a control that waits for the prediction (Train).
    Its key is `quiz.skip.<question_id>`."""
    st.button(_("Show it without answering"), key=f"quiz.skip.{question_id}", icon=":material/visibility:",
              on_click=questions.skip, args=(question_id,))
    st.caption(_("A skipped prediction counts as unanswered on Check yourself."))


def later_part(question_id: str, label: str) -> bool:
    """May a later part of the page that tells the answer too (a section below the answer fold) be drawn? Once the
    question is answered or skipped, yes: the caller draws it (`if predict.later_part(...):`). Before that, its title
    and that it opens with the answer are drawn in its place. `label` is a message marked with N_, drawn as _(label)."""
    if revealed(question_id):
        return True
    # Translators: {title} is the title of a later part of a lesson that gives the answer of the question above away
    st.caption(_("**{title}** tells the answer to the question above too, so it waits here until you have picked "
                 "your prediction (or shown the answer without answering).", title=_(label)))
    return False
