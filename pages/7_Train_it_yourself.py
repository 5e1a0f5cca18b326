"""Train it yourself: a tiny NumPy model learns with the Lab's switches, live, and shows what they do.

Wiring only: the URL or the widgets -> a TrainChoice -> the shipped, cached or live result -> figures and words
(attn_ui/views/train_view.py). `?exp=heads&layers=1` opens an experiment with its switches; `&mode=projector`
opens it large for a lecture hall.
"""

import streamlit as st

from attn_lang import _
from attn_ui.views import train_view
from attn_ui.widgets import panels, projector
from attn_ui.widgets.page import lesson_end, lesson_page
from attn_ui.words import training_words as words

lesson_page(words.TITLE, words.QUESTION, 6)
choice, notes, from_link = train_view.incoming_choice()
big = projector.is_on()  # lesson_page decided it, drew the page's one switch and applied its look
panels.show_notes(notes, big)
if not big:
    st.markdown(_(words.INTRO))
choice = train_view.controls(choice, folded=big)
if not big:
    st.markdown(_(words.EXPERIMENT_HOW[choice.experiment]))
show_masked = train_view.show_masked_switch(choice, from_link)
train_view.remember(choice, show_masked)
train_view.ask_first(choice)  # every run answers the experiment's question: Train opens once it is answered
train_view.buttons(choice)
train_view.training_panel(choice, show_masked, big)  # and, under the result, the "Your turn" task about it
lesson_end(__file__)
