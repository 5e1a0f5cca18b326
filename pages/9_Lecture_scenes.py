"""Lecture scenes: a 50-minute lecture as a sequence of questions, each answered on the board when the lecturer
presses Next.

The scenes are data (attn_ui/words/scenes.py) and the board draws each scene's kind (attn_ui/views/scene_board.py);
this page only wires them. `?scene=3` opens scene 3 at its question, `&reveal=1` with its answer showing, and
`&mode=projector` large enough for a lecture hall. Go live (attn_ui/views/live_view.py) adds `room`: the room follows
the scenes on their phones and predicts each one.
"""

import streamlit as st

from attn_core.query import read_flag
from attn_lang import N_, _
from attn_ui.views import live_view, scene_board, scene_nav, train_view
from attn_ui.widgets import panels, projector, state
from attn_ui.widgets.page import lesson_page
from attn_ui.words.scenes import SCENES, scene_number, scene_words

lesson_page(N_("Lecture scenes"), N_("The two lessons as questions for the room, one step at a time"), 50,
            switch=False)
big = projector.is_on()
number, note = scene_number(projector.url_value("scene"))
revealed, reveal_note = read_flag(projector.url_value("reveal"), "reveal")
panels.show_notes([note, reveal_note], big)
# None unless this browser runs the live lecture the address names; then the step is the room's unless this page moved
lecture, number, revealed = live_view.host(number, revealed)
scene = SCENES[number - 1]
words = scene_words(scene)
asked = live_view.question(number)
result = state.cached_compute(scene.settings)

live_view.show_note()
scene_nav.scene_nav(number, len(SCENES), revealed, beside=lambda: live_view.live_button(lecture, number, revealed))
live_view.join_key(lecture, number, revealed)
if live_view.join_showing(lecture, number, revealed):
    live_view.join_screen(lecture, number)  # covers the scene; J or the badge takes it away
    st.stop()
# A live lecture's question step with givens: the givens keep the board, with the room's spread under them once shown,
# and the room's count goes under the question. Without givens the board holds the count and the spread.
count_in_story = lecture is not None and not revealed and bool(scene.givens)
story, board = st.columns(live_view.columns(lecture, revealed), gap="medium")
with story.container(key="scene-story"):
    st.subheader(words.title, anchor=False)
    st.markdown(words.question)
    if asked.kind == "choice" and not live_view.spread_shown(lecture):  # part of the question, as on the phones
        scene_board.options(asked, revealed)  # (a live lecture's spread names them in its bars)
    if revealed:
        st.markdown(words.answer)
        if scene.training and lecture is None and not big:  # projected, the curves and the answer say it
            train_view.scene_story(scene.training)
        elif scene.kind == "map" and not big and lecture is None:  # projected, the answer says it
            panels.kpi_tiles(result, columns=2, score_tensor=False)
        if lecture is not None:  # the room's spread; once the lecture has ended, that it has
            live_view.spread_or_end(lecture, revealed)
    elif count_in_story:
        live_view.count_board(lecture, revealed)
        live_view.spread(lecture, revealed, wide=False, chart=False)  # its bars go under the givens
    else:
        st.caption(_("Ask the room first. Next (or Page Down, an arrow, Space) shows the answer."))
        if lecture is None and not big:
            st.caption(_(live_view.WHAT_GO_LIVE_DOES))
    links_under_board = revealed and live_view.running(lecture)  # the room's answers fill the story
    if not links_under_board:
        scene_board.links(scene, number, big, live=lecture is not None)
with board.container(key="scene-panel"):
    if revealed:
        scene_board.draw(scene, result, room=lecture is not None)
        if live_view.running(lecture):
            live_view.count_board(lecture, revealed)  # nothing to see: the page follows a move made elsewhere
        if links_under_board:
            scene_board.links(scene, number, big, live=lecture is not None)
    else:
        scene_board.givens(scene, result, room=live_view.spread_shown(lecture))
        if lecture is not None and not count_in_story:
            live_view.count_board(lecture, revealed)
        if lecture is not None:
            live_view.spread(lecture, revealed, wide=True, lines=not count_in_story)
