"""Lesson 1: why a word must not see the words after it, and how the causal mask stops it."""

import streamlit as st

from attn_core import Settings
from attn_core.lessons import masks as lessons
from attn_core.query import read_choice, read_text_choice, read_word
from attn_lang import N_, _
from attn_ui.figures import layout, mask_charts
from attn_ui.figures.maps import attention_map
from attn_ui.widgets import controls, held, panels, predict, projector, questions, state
from attn_ui.widgets.address import Extra, PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import mask_words, training_words
from attn_ui.words.scenes import SCENES

LATER_POSITIONS = tuple(range(2, len(Settings().tokens) + 1))  # the later words that can be changed
ADDRESS = PageAddress("peek", Settings(), ("causal",), {"causal": "peek.causal"}, extras=(
    Extra("change", "peek.position", lambda _s: 4, lambda raw, _s: read_choice(raw, "change", LATER_POSITIONS)),
    Extra("swap", "peek.swap", lambda _s: "leap", lambda raw, _s: read_text_choice(raw, "swap", lessons.REPLACEMENTS)),
    Extra("query", "peek.row", lambda _s: 2, lambda raw, s: read_word(raw, len(s.tokens)),
          write=lambda index: str(index + 1)),
    Extra("scene", "peek.scene", lambda _s: "",  # a lecture scene showing this page's head: the way back to it
          lambda raw, _s: (projector.scene_to_return_to(raw, len(SCENES)) or None, None)),
), questions=("pad-zero-trap",))
lesson_page(N_("Peeking and the causal mask"), N_("Why may a word never look at the words after it?"), 5)
start = ADDRESS.start()
scene = projector.back_to_scene(st.session_state.get("peek.scene"), len(SCENES))  # opened from a scene: the way back
st.markdown(_(mask_words.PEEK_INTRO))
panels.show_notes(start.notes)

st.markdown(_(mask_words.CHEAT_HOW))
cheat = lessons.cheating_head(Settings().sentence, controls.causal_toggle("peek"))
left, right = st.columns([1, 1.2], gap="medium")
panels.chart(attention_map(cheat, style=layout.CHEAT), key="peek.cheat_map",
             config=layout.download_config("cheating-head"), place=left)
with right:
    guessed = _("{hits} of {positions}", hits=cheat.hit_count, positions=cheat.positions)
    panels.metric_tiles({N_("Next word guessed right"): guessed}, columns=1)
panels.table(mask_words.guess_rows(cheat), hide_index=True, place=right)
st.markdown(mask_words.cheat_caption(cheat))
st.markdown(_(mask_words.MASK_ON_MEANS))
st.page_link("pages/7_Train_it_yourself.py", label=_(training_words.MASK_LINK_LABEL),
             icon=":material/model_training:", query_params={"exp": "mask"})

settings = Settings(causal=True, d_model=4)  # d_model 4 keeps the value vectors of the last figure readable
labels = state.cached_compute(settings).labels
st.markdown(_(mask_words.PROOF_HOW))
left, right = st.columns([1.2, 1], gap="medium")
position = left.select_slider(_("Word to change"), range(2, len(labels) + 1), key="peek.position",
                              **held.start("peek.position", options=range(2, len(labels) + 1)),
                              format_func=lambda pos: f"{pos}: {labels[pos - 1]}")
swap = held.one_of(_("New word"), lessons.REPLACEMENTS, key="peek.swap", place=left)
change = lessons.change_later_word(settings, position, swap)
left.markdown(mask_words.change_caption(change))
panels.chart(mask_charts.later_change_table(change), key="peek.change",
             config=layout.download_config("later-word-changed"), place=right)

questions.inline_question("pad-zero-trap")
fold = predict.answer_fold("pad-zero-trap", N_("The question's example, worked out"))  # right under it: the routes
if fold is not None:  # below show the trap's leak too, so they come after the fold
    with fold:
        st.markdown(mask_words.worked_example_text(lessons.worked_example()))
        st.markdown(_(mask_words.TRAP_LEAK))
told = predict.later_part("pad-zero-trap", mask_words.ROUTES_TITLE)  # the routes' table shows the trap's leak
if told:
    st.markdown(_(mask_words.ROUTES_HOW))
left, right = st.columns([1.2, 1], gap="medium")
row = left.select_slider(_("Query row"), range(len(labels)), key="peek.row",
                         **held.start("peek.row", options=range(len(labels))),
                         format_func=lambda r: f"{r + 1}: {labels[r]}")
ADDRESS.remember(Settings(causal=cheat.causal), change=position, swap=swap, query=row, scene=scene)
if told:
    routes = lessons.route_rows(settings, row)
    left.markdown(mask_words.routes_caption(routes))
    panels.chart(mask_charts.routes_table(routes), key="peek.routes",
                 config=layout.download_config("masking-routes"), place=right)

st.markdown(_(mask_words.VALUES_HOW))
terms = lessons.row_times_values(state.cached_compute(settings), row)
left, right = st.columns([1, 1.2], gap="medium")
panels.chart(mask_charts.row_times_values(terms), key="peek.values",
             config=layout.download_config("row-times-values"), place=left)
right.markdown(mask_words.values_caption(terms))
if told:  # its last point says what the trap does: it waits for the prediction too
    right.markdown(_(mask_words.PEEK_FAILURES))
try_it(mask_words.PEEK_TASK, settings.replace(route="zero_after"), __file__)
lesson_end(__file__)
