"""Lecture scenes: the Lab in a fixed order of states, a sentence or two each, stepped with Back and Next.

The scenes are data (attn_ui/words/scenes.py); this page only shows one. `?scene=3` opens scene 3 directly, and
`&mode=projector` opens it large enough for a lecture hall.
"""

import streamlit as st

from attn_ui.widgets import look, panels, projector, scene_nav, state, train_view
from attn_ui.widgets.page import lab_button, lesson_page
from attn_ui.words.scenes import SCENES, scene_number

PROJECTOR_KEY = "scenes.projector"
lesson_page("Lecture scenes", "The causal mask, heads, dropout and padding, one Lab state at a time", 10)
big = projector.projector_on(False, key=PROJECTOR_KEY)
if big:
    look.apply_projector_look()
number, note = scene_number(projector.url_value("scene"))
scene = SCENES[number - 1]
result = state.cached_compute(scene.settings)
row = panels.selected_row(len(result.tokens), None if scene.row is None else scene.row - 1)

panels.show_notes([note], big)
scene_nav.scene_nav(number, len(SCENES))
story, board = st.columns([1, 1.5], gap="medium")
with story.container(key="scene-story"):
    st.subheader(scene.title, anchor=False)
    st.markdown(scene.narration)
    if scene.training:
        train_view.scene_story(scene.training)
    else:
        panels.kpi_tiles(result, columns=2, score_tensor=False)
    view = projector.view_keys(row, big)
    lab_button(scene.settings, "Open in the Lab", **view)
    projector.projector_switch(PROJECTOR_KEY, write_url=True)
with board.container(key="scene-panel"):
    if scene.training:
        train_view.scene_board(scene.training, big)
    else:
        panels.attention_panel(result, row, style=projector.map_style(big, scene=True))
        panels.legend(result)
