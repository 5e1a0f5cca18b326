"""Lesson 2: PAD tokens, the padding mask, and how it joins the causal mask."""

import streamlit as st

from attn_core import Settings, coerce_settings
from attn_core.lessons import masks as lessons
from attn_core.tokens import unique_labels
from attn_lang import N_, _
from attn_ui.figures import layout, mask_charts
from attn_ui.figures.maps import attention_map
from attn_ui.widgets import controls, held, panels, predict, questions, state
from attn_ui.widgets.address import PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import mask_words

QUESTION = "pad-one-open-cell"
ADDRESS = PageAddress("pad", Settings(causal=True, padded=(5, 6)), ("causal", "pad"),
                      {"causal": "pad.causal", "padded": "pad.pad"}, questions=(QUESTION,))
lesson_page(N_("The padding mask"), N_("How does one batch hold sentences of different lengths?"), 5)
st.markdown(_(mask_words.PAD_INTRO))
start = ADDRESS.start()  # before the question: a reload's address brings its answer back
questions.inline_question(QUESTION)  # asked before any mask is drawn: each one shows row 1's one open cell

labels = unique_labels(start.base.tokens)
left, __ = st.columns([1, 1.3], gap="medium")  # the switches answer nothing: set them, predict, then look
with left:
    causal = controls.causal_toggle("pad")
    padded = controls.pad_chips("pad", labels)
settings, notes = coerce_settings(causal=causal, padded=padded)
ADDRESS.remember(settings)
result = state.cached_compute(settings)
panels.show_notes(start.notes + notes)
fold = predict.answer_fold(QUESTION, N_("The padding mask on the sentence, cell by cell"))
if fold is not None:  # answered or skipped: the map and the masks, which show the answer
    with fold:
        left, right = st.columns([1, 1.3], gap="medium")
        left.markdown(mask_words.mask_counts_caption(result))
        left.markdown(_(mask_words.PAD_ROWS))
        left.markdown(mask_words.pad_rows_caption(result, lessons.pad_rows(result)))
        panels.chart(attention_map(result, style=layout.LESSON), key="pad.map",
                     config=layout.download_config("padding-map"), place=right)
        tables = zip(st.columns(3), mask_charts.mask_tables(result), ("causal", "padding", "both"), strict=True)
        for column, figure, name in tables:
            panels.chart(figure, key=f"pad.table_{name}",
                         config=layout.download_config(f"padding-{name}"), place=column)

# its masks draw row 1 too, and its text names it
if predict.later_part(QUESTION, N_("One mask for the whole batch, and the row with nothing to look at")):
    st.markdown(_(mask_words.BATCH_HOW))
    left, right = st.columns(2, gap="medium")
    short = left.slider(_("Words in sentence 2"), 1, 5, key="pad.short",
                        **held.start("pad.short", fallback=3, low=1, high=5, of=int))
    batch = lessons.two_sentence_batch(settings.sentence, short, causal)
    left.markdown(mask_words.batch_caption(batch))
    right.code(mask_words.batch_code(batch), language="python")
    for number, (column, figure) in enumerate(zip(st.columns(2), mask_charts.batch_masks(batch), strict=True)):
        panels.chart(figure, key=f"pad.batch_{number + 1}",
                     config=layout.download_config(f"batch-sentence-{number + 1}"), place=column)

    st.markdown(_(mask_words.EMPTY_ROW_HOW))
    empty = result.empty_rows[0] if result.empty_rows else None
    naive = None if empty is None else lessons.naive_empty_row(result, empty)
    st.markdown(mask_words.empty_row_caption(result, naive))
st.markdown(_(mask_words.PAD_FAILURES))
try_it(mask_words.PAD_TASK, Settings(padded=(5, 6)), __file__)
lesson_end(__file__)
