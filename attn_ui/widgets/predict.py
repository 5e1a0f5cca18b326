"""Predict first, then read: the part of a lesson that answers its question stays folded until it is answered.

A lesson asks its question (questions.inline_question) before the text or chart that gives the answer away;
that part goes in `answer_fold`, an expander that opens by itself once the question has a complete answer, and
that the student may still open at any time.
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


def answer_fold(question_id: str, label: str) -> DeltaGenerator:
    """An expander for what answers the question: closed until the question is answered, then open. `label` is a
    message marked with N_ where it is written, drawn here as _(label)."""
    done = answered(question_id)
    title = _(label)
    # Translators: the title of a fold whose question is not answered yet; {title} is the fold's own title
    return st.expander(title if done else _("{title} (answer the question above first)", title=title), expanded=done,
                       icon=":material/lightbulb:")
