"""Lesson 4: several heads side by side, where each one lands in concat, what W_o mixes, and what it all costs."""

import streamlit as st

from attn_core import Settings, SettingsError
from attn_core.lessons import heads as lessons
from attn_core.query import read_number_in_range
from attn_lang import N_, _
from attn_ui.figures import head_charts as hf
from attn_ui.figures.layout import download_config
from attn_ui.widgets import held, panels, predict, questions, state, tables
from attn_ui.widgets.address import Extra, PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import head_words

ADDRESS = PageAddress("heads", Settings(causal=True, heads=4), ("causal", "heads"),
                      {"heads": "heads.h", "causal": "heads.causal"}, choices={"heads": (1, 2, 3, 4)},
                      extras=(Extra("try", "heads.try", lambda _s: 5,
                                    lambda raw, _s: read_number_in_range(raw, "try", 1, 24)),),
                      questions=("heads-start-column",))
lesson_page(N_("Many heads"),
            N_("Why cut attention into heads, where does each head's output go, and what does it cost?"), 5)
st.markdown(_("One head has one way of deciding which words matter. Several heads look in several ways at once: "
              "each gets its own slice of the columns of Q, K and V and runs attention on that slice alone. Below, "
              "one sentence goes through h heads; each small map is one head, counted from 1 as in the Lab's "
              "*Viewing head*."))
start = ADDRESS.start()
panels.show_notes(start.notes)
heads = held.one_of(_("Number of heads h"), [1, 2, 3, 4], key="heads.h")
causal = st.toggle(_("Causal mask"), key="heads.causal", **held.start("heads.causal", of=bool))
result = state.cached_compute(Settings(causal=causal, heads=heads))
st.caption(_("d_head = d_model / h = {d_model} / {heads} = {d_head} columns per head.", d_model=result.settings.d_model,
             heads=heads, d_head=result.d_head))
head_maps = panels.drawn(hf.small_multiples, result)
for first in range(0, heads, 2):  # two maps a row, so a phone stacks them in order
    for column, head in zip(st.columns(2), range(first, min(first + 2, heads)), strict=False):
        panels.chart(head_maps[head], config=download_config(f"head-{head + 1}-of-{heads}"), place=column)

questions.inline_question("heads-start-column")  # asked before the section that answers it, which waits in a fold
fold = predict.answer_fold("heads-start-column", N_("Where each head's output goes"))
if fold is not None:
    with fold:
        st.markdown(head_words.concat_sentence(result))
        panels.chart(panels.drawn(hf.concat_figure, result), config=download_config("concat"))
        worked = state.cached_compute(lessons.WORKED)
        st.markdown(head_words.worked_sentence(worked))
        tables.fitted_table(lessons.concat_table(worked), "heads-concat", number=head_words.digits)

# it names the rows of W_o that weigh each head's columns
if predict.later_part("heads-start-column", N_("What W_o does")):
    st.subheader(_("What W_o does"))
    st.markdown(head_words.w_o_sentence(result))
    panels.chart(panels.drawn(hf.mixing_figure, result), config=download_config("w_o-mixing"))

st.subheader(_("Same price as one wide head"))
panels.metric_tiles(head_words.cost_metrics(result), columns=4)
st.markdown(head_words.cost_counts(result))  # what the totals count, d_in named, so a student can recompute them
tables.fitted_table(head_words.cost_table(result), "heads-cost")
st.markdown(head_words.cost_sentence(result))

st.subheader(_("When h does not divide d_model"))
d_model = result.settings.d_model
tried = st.columns([1, 2])[0].number_input(_("Try a head count for d_model = {d_model}", d_model=d_model), 1, 24,
                                               key="heads.try", **held.start("heads.try", low=1, high=24, of=int))
ADDRESS.remember(result.settings, **{"try": tried})
try:
    st.success(_("{d_model} / {tried} = {width}: every head gets whole columns.", d_model=d_model, tried=tried,
                 width=len(lessons.head_columns(d_model, tried)[0])))
except SettingsError as error:
    st.warning(str(error), icon=":material/block:")
    st.caption(_("Q is ({length}, {d_model}): {d_model} columns do not cut into {tried} equal slices. NumPy:",
                 length=len(result.tokens), d_model=d_model, tried=tried))
    st.code(lessons.reshape_attempt(len(result.tokens), d_model, tried), language=None, wrap_lines=True)
st.markdown(head_words.failures_sentence(d_model % tried == 0))
try_it(N_("Set 4 heads with the causal mask on, then step *Viewing head* from 1 to 4: the grey triangle is the same in "
          "every head, the weights in the open cells are not."), Settings(causal=True, heads=4), __file__)
lesson_end(__file__)
