"""Check yourself: every question the two lessons ask, answered here with instant feedback.

This page only wires: the bank (attn_ui/quiz/) -> the page view (attn_ui/views/quiz_view.py; each question is
drawn by attn_ui/widgets/questions.py). Answers live in session state under quiz.*, so they survive reruns and
trips to other pages.
"""

import streamlit as st

from attn_lang import N_, _
from attn_ui.views import quiz_view
from attn_ui.widgets import panels
from attn_ui.widgets.page import lesson_page

lesson_page(N_("Check yourself"), N_("Can you predict what attention does before you look?"), 15)
st.markdown(_(
    "Pick an answer: the page says at once whether it is right, and why. Your **first** pick is the one "
    "that counts; then try the others to see why they fail. Most answers link to the Lab, set up to show it."
))
notes = quiz_view.restore_from_address()  # before anything reads the answers: a reload brings them back
panels.show_notes(notes)
quiz_view.overall_score()
section = quiz_view.section_picker()
quiz_view.render_section(section)
quiz_view.reset_controls(section)
quiz_view.remember_in_address(section)
