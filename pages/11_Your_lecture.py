"""Your lecture: the lecturer's own scenes, built from Lab states, each asking a question the core answers.

The Lab's "Add this view to my lecture" opens this page with the view to add (`add`, `row`); the deck lives in the
address (`deck`), its file and this tab. With `scene` in the address the page presents the deck, as the Lecture
scenes page presents the built-in one (`reveal`, `mode=projector`), and Go live adds `room`, as there.
"""

import streamlit as st

from attn_core.query import read_flag, read_number_in_range
from attn_lang import N_
from attn_ui.views import deck_editor, deck_present, live_view
from attn_ui.widgets import deck_keep, deck_state, panels, projector
from attn_ui.widgets.page import lesson_page

lesson_page(N_("Your lecture"), N_("Your own scenes from the Lab, asked of the room, answered by the app"), 10,
            switch=False)
deck_state.read_address()
deck_keep.keep()  # the deck in this browser: asked for once, kept after each change
deck = deck_state.deck()
raw_scene = projector.url_value("scene")
number, scene_note = (None, None) if raw_scene is None else read_number_in_range(raw_scene, "scene", 1,
                                                                                  max(len(deck.scenes), 1))
revealed, reveal_note = read_flag(projector.url_value("reveal"), "reveal")
panels.show_notes([scene_note, reveal_note], projector.is_on())
deck_editor.notes()
if number is not None and deck.scenes:
    # None unless this browser runs the deck's live lecture the address names (`room`); then the step is the room's
    lecture, number, revealed = live_view.host(number, revealed, deck)
    deck_present.present(deck, number, revealed, back=deck_editor.edit_button, lecture=lecture)
    st.stop()
deck_editor.deck_tools()
deck_editor.scene_list()
projector.page_switch()
