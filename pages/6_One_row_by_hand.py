"""Lesson 6: one query row of one head, every number from q · k to the weighted sum of the values."""

import streamlit as st

from attn_core import QUERY_KEYS, Settings
from attn_core.lessons import heads as lessons
from attn_core.query import read_word
from attn_core.tokens import unique_labels
from attn_lang import N_, _
from attn_ui.widgets import controls, held, panels, state, tables
from attn_ui.widgets.address import Extra, PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import head_words

OWN = ("causal", "padded", "dropout", "training", "roll", "view")  # the fields this page has controls for
ADDRESS = PageAddress(
    "hand", Settings(causal=True, heads=2, dropout=0.1), tuple(QUERY_KEYS),
    {name: controls.widget_key("hand", name) for name in OWN}, carry_lab=True,
    extras=(Extra("word", "hand.word", lambda s: min(2, len(s.tokens) - 1),
                  lambda raw, s: read_word(raw, len(s.tokens)), write=lambda index: str(index + 1)),),
)  # the Lab's Settings it was opened from are this page's state too: the row is theirs
lesson_page(N_("One row by hand"), N_("Where does every number in one row of the attention map come from?"), 5)
start = ADDRESS.start()
panels.show_notes(start.notes)
base = start.base
words = head_words.word_options(state.cached_compute(base))
st.markdown(_("Pick a query word and a head; the tables below redo that one row of the map step by step, with the "
              "same numbers the Lab computed. The settings start from the Lab's; change the masks and dropout here."))
word_col, head_col = st.columns([3, 1])
query = held.one_of(_("Query word"), list(words), format_func=words.get, key="hand.word", place=word_col, wrap=True)
head = held.one_of(_("Head"), list(range(1, base.heads + 1)), key="hand.view", place=head_col) - 1
causal_col, dropout_col = st.columns([1, 3], vertical_alignment="center")
with causal_col:
    causal = controls.causal_toggle("hand")
with dropout_col:
    choice = controls.dropout_controls("hand")
padded = controls.pad_chips("hand", unique_labels(base.tokens))
settings = base.replace(causal=causal, training=choice.training, dropout=choice.dropout, roll=choice.roll,
                        view=head + 1, padded=padded)
ADDRESS.remember(settings, word=query)
row = lessons.row_by_hand(state.cached_compute(settings), query, head)

st.markdown(head_words.row_heading(row))
panels.metric_tiles(head_words.row_metrics(row), columns=5)
for number, step in enumerate(head_words.row_steps(row)):
    st.markdown(f"**{step.title}** · {step.note}")
    tables.fitted_table(step.columns, f"hand-step-{number}", number=head_words.digits,
                        column_config={"key": st.column_config.TextColumn(pinned=True), **{
                            name: st.column_config.NumberColumn(format=f"%.{head_words.DIGITS}f")
                            for name in step.numbers}})

st.subheader(_("Checklist for the whole set"))
st.markdown(_("""
- The causal mask blocks every key to the right of the query: those scores become −∞ *before* the softmax.
- Before dropout, every row with something left to look at adds up to 1, over the keys it may see and no others.
- Dropout works on the weights after the softmax, only in training, and survivors are multiplied by 1 / (1 − p).
- The number of heads divides d_model; each head works on d_head = d_model / h columns.
- The heads' outputs sit side by side in concat (width d_model) and W_o mixes them.
- The score tensor is (B, h, T, T): its memory grows with the square of the context length.
"""))
try_it(N_("Open this row in the Lab: the same cells, the same weights, with the row outlined on the map."),
       settings, __file__, row=str(query + 1))
lesson_end(__file__)
