"""Lesson 3: dropout on the attention weights, the 1 / (1 - p) rescale, and why inference has none."""

import streamlit as st

from attn_core import MAX_DROPOUT, Settings
from attn_core.lessons import masks as lessons
from attn_ui.figures import layout, mask_charts
from attn_ui.figures.maps import attention_map
from attn_ui.widgets import panels, quiz_view, state
from attn_ui.widgets.page import lesson_page, try_it
from attn_ui.words import mask_words

STILL = {"displayModeBar": False}
ROLL_KEY = "drop.roll"  # which dropout pattern is on screen; the Re-roll button moves it on


def reroll() -> None:
    st.session_state[ROLL_KEY] = (st.session_state.get(ROLL_KEY, 0) + 1) % 1_000_000


lesson_page("Dropout on attention weights", "What does dropout do to a row of weights, and why rescale?", 5)
st.markdown(mask_words.DROP_INTRO)

left, right = st.columns([1, 1.3], gap="medium")
p = left.slider("Dropout p", 0.0, MAX_DROPOUT, value=0.5, step=0.05, format="%.2f", key="drop.p")
training = left.toggle("Training", value=True, key="drop.train")
rescale = left.toggle("Rescale survivors by 1 / (1 − p)", value=True, key="drop.rescale")
left.button("Re-roll", icon=":material/casino:", on_click=reroll, key="drop.reroll")
settings, notes = Settings.coerce(dropout=p, training=training, rescale=rescale, roll=st.session_state.get(ROLL_KEY, 0))
result = state.cached_compute(settings)
panels.show_notes(notes)
tiles = left.container(horizontal=True)
tiles.metric("Survivors ×", f"{lessons.survivor_scale(result):.2f}", width=140)
tiles.metric("Dropped cells", str(result.dropped_cells), width=140)
tiles.metric("Mean row sum", f"{lessons.mean_row_sum(result):.2f}", width=140)
tiles.metric(f"Maps in {lessons.PATTERN_ROLLS} re-rolls", str(lessons.different_maps(settings)), width=140)
left.markdown(mask_words.scale_caption(result, lessons.survivor_scale(result)))
right.plotly_chart(attention_map(result, style=layout.LESSON), key="drop.map", config=STILL)
st.markdown(mask_words.INFERENCE_HOW)

st.markdown(mask_words.ROLLS_HOW)
rolls = lessons.dropout_rolls(settings)
st.plotly_chart(mask_charts.row_sum_rolls(rolls), key="drop.rolls", config=STILL)
st.markdown(mask_words.rolls_caption(rolls))
st.markdown(mask_words.DROP_FAILURES)
quiz_view.inline_question("dropout-rescale")
try_it(mask_words.DROP_TASK, Settings(dropout=0.5, rescale=False))
