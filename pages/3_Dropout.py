"""Lesson 3: dropout on the attention weights, the 1 / (1 - p) rescale, and why inference has none."""

import streamlit as st

from attn_core import Settings, coerce_settings
from attn_core.lessons import masks as lessons
from attn_lang import N_, _
from attn_ui.figures import layout, mask_charts
from attn_ui.figures.maps import attention_map
from attn_ui.widgets import controls, panels, predict, questions, state
from attn_ui.widgets.address import PageAddress
from attn_ui.widgets.page import lesson_end, lesson_page, try_it
from attn_ui.words import mask_words

ADDRESS = PageAddress("drop", Settings(dropout=0.5), ("p", "train", "rescale", "roll"),
                      {name: controls.widget_key("drop", name) for name in ("dropout", "training", "rescale", "roll")},
                      questions=("dropout-rescale",))
lesson_page(N_("Dropout on attention weights"), N_("What does dropout do to a row of weights, and why rescale?"), 5)
st.markdown(_(mask_words.DROP_INTRO))
start = ADDRESS.start()  # before the question: a reload's address brings its answer back
questions.inline_question("dropout-rescale")  # asked before the tiles, which show the mean row sum

left, right = st.columns([1, 1.3], gap="medium")
with left:
    choice = controls.dropout_controls("drop", offer_rescale=True)
settings, notes = coerce_settings(dropout=choice.dropout, training=choice.training, rescale=choice.rescale,
                                  roll=choice.roll)
ADDRESS.remember(settings)
result = state.cached_compute(settings)
panels.show_notes(start.notes + notes)
with left:
    panels.metric_tiles(mask_words.dropout_tiles(result, lessons.different_maps(settings)), columns=2,
                        helps=mask_words.DROPOUT_TILE_HELP, fill=mask_words.TILE_FILL)
left.markdown(mask_words.scale_caption(result, lessons.survivor_scale(result)))
panels.chart(attention_map(result, style=layout.LESSON), key="drop.map",
             config=layout.download_config("dropout-map"), place=right)
st.markdown(_(mask_words.INFERENCE_HOW))

fold = predict.answer_fold("dropout-rescale", N_("Why the rescale matters: row sums over many re-rolls"))
if fold is not None:
    with fold:
        st.markdown(_(mask_words.ROLLS_HOW))
        rolls = lessons.dropout_rolls(settings)
        panels.chart(mask_charts.row_sum_rolls(rolls), key="drop.rolls",
                     config=layout.download_config("row-sums-over-rolls"))
        st.markdown(mask_words.rolls_caption(rolls))
# its second mistake is the forgotten rescale, and what it costs
if predict.later_part("dropout-rescale", N_("How it goes wrong")):
    st.markdown(_(mask_words.DROP_FAILURES))
try_it(mask_words.DROP_TASK, Settings(dropout=0.5, rescale=False), __file__)
lesson_end(__file__)
