"""Lesson 5: the shape of every tensor on the way through attention, and the (B, h, T, T) memory wall."""

import streamlit as st

from attn_core import QUERY_KEYS, Settings
from attn_core.lessons import heads as lessons
from attn_core.query import read_choice, read_number_in_range
from attn_lang import N_, _, number
from attn_ui.figures import head_charts as hf
from attn_ui.figures.layout import download_config
from attn_ui.widgets import held, panels, predict, questions, state, tables
from attn_ui.widgets.address import Extra, PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import head_words

ADDRESS = PageAddress("shapes", Settings(heads=4), tuple(QUERY_KEYS), carry_lab=True, extras=(
    Extra("batch", "shapes.batch", lambda _s: 8, lambda raw, _s: read_number_in_range(raw, "batch", 1, 64)),
    Extra("ctx", "shapes.t", lambda _s: lessons.GPT2.context,
          lambda raw, _s: read_choice(raw, "ctx", lessons.CONTEXT_LENGTHS)),
), questions=("shapes-double-context",))  # the Lab's Settings it was opened from are this page's state too
lesson_page(N_("Shapes and memory"), N_("What shape is every tensor, and why does long context cost so much?"), 5)
start = ADDRESS.start()
panels.show_notes(start.notes)
settings = start.base
result = state.cached_compute(settings)
st.markdown(_("Real code never loops over heads. It projects once to the full width d, cuts that width into h "
              "pieces of d_head with a reshape, and moves the head axis next to the batch axis so one batched matrix "
              "product serves every head. Read the table top to bottom: the letters, this app's live shapes, and "
              "GPT-2's."))
questions.inline_question("shapes-double-context")  # asked before the shapes, whose scores hold T twice
batch = st.slider(_("Batch size B of the GPT-2 column (sentences processed together; *here, now* has one)"), 1, 64,
                  key="shapes.batch", **held.start("shapes.batch", low=1, high=64, of=int))
tables.fitted_table(lessons.shape_table(result, batch), "shapes-path")
st.caption(head_words.here_sentence(result))

st.subheader(_("When the context grows"))  # the lesson's own name for it waits: "quadratic" is the answer
length = st.session_state.get("shapes.t", lessons.GPT2.context)  # the slider's, while its fold waits for an answer
fold = predict.answer_fold("shapes-double-context", N_("The memory against T"))
if fold is not None:
    with fold:
        st.markdown(_("The scores hold one number for every (query, key) pair in every head: B·h·T·T numbers."))
        st.markdown(_("GPT-2 sizes: h = {heads}, one layer, the batch from the slider above. Slide T and read the "
                      "tiles.", heads=lessons.GPT2.heads))
        length = st.select_slider(_("Context length T"), lessons.CONTEXT_LENGTHS, key="shapes.t",
                                  **held.start("shapes.t", options=lessons.CONTEXT_LENGTHS),
                                  format_func=lambda t: number(t, ","))
        panels.metric_tiles(head_words.memory_metrics(batch, lessons.GPT2.heads, length), columns=4)
        st.markdown(_("T appears twice, so twice the context means four times the memory."))
        panels.chart(hf.memory_figure(batch, lessons.GPT2.heads, length), config=download_config("score-memory"))
        st.caption(_("Both axes are logarithmic. Each step right doubles T and the line climbs by a factor of 4 each "
                     "time: the square law as a straight line. bf16 keeps each number in 2 bytes instead of 4, which "
                     "halves the bill but not the slope. 1 MB = 1,000,000 bytes."))
else:
    st.session_state["shapes.t"] = length  # kept (and in the address) until the slider is drawn again
ADDRESS.remember(settings, batch=batch, ctx=length)
FLASH_TITLE = N_("How FlashAttention gets round it")
FLASH_TEXT = N_("FlashAttention computes the same output (up to rounding) without ever holding the whole T×T table. "
                "It takes a block of queries and walks through the keys a tile at a time in the GPU's small, fast "
                "on-chip memory. For each tile it updates a running maximum and a running sum of exps for every "
                "query row, and rescales the partial weighted sum of values whenever the maximum grows. After the "
                "last tile each row is finished, and only the (B, h, T, d_head) output is written out; training "
                "recomputes the tiles it needs instead of storing them. The work is still quadratic in T; the memory "
                "is not.")

if predict.later_part("shapes-double-context", FLASH_TITLE):  # "still quadratic in T" says how the memory grows
    st.subheader(_(FLASH_TITLE))
    st.markdown(_(FLASH_TEXT))
try_it(N_("Open the Lab, type a longer sentence (up to 16 words) under **More** and watch the map grow as T×T; the "
          "**Score tensor** tile shows its shape and bytes."), settings, __file__)
lesson_end(__file__)
