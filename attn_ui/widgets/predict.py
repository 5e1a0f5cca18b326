"""Predict first, then read: the part of a lesson that answers its question stays folded until it is answered.

A lesson asks its question (questions.inline_question) before the text or chart that gives the answer away;
that part goes in `answer_fold`, an expander that opens by itself once the question has a complete answer, and
that the student may still open at any time.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attn_ui.quiz.bank import BY_ID
from attn_ui.quiz.model import is_complete
from attn_ui.widgets import questions


def answered(question_id: str) -> bool:
    """Has the student answered this question (on this page or on Check yourself)?"""
    return is_complete(BY_ID[question_id], questions.answers().get(question_id))


def answer_fold(question_id: str, label: str) -> DeltaGenerator:
    """An expander for what answers the question: closed until the question is answered, then open."""
    done = answered(question_id)
    return st.expander(label if done else f"{label} (answer the question above first)", expanded=done,
                       icon=":material/lightbulb:")
