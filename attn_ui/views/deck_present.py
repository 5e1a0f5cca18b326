"""Your lecture, presented: each scene of the lecturer's deck asked first, then answered, as the built-in scenes are.

The same steps and keys as the Lecture scenes page (scene_nav: Back, Next, Page Up/Down, arrows, Space; `scene` and
`reveal` in the address beside `deck`). The question step shows the kind's givens (attn_core.asks.ASKS), never the
answer; Next reveals the map and the answer computed by the core, with the lecturer's own words under it.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from attn_core import Result
from attn_core.asks import ASKS, twin, twin_first
from attn_core.deck import Deck, DeckScene
from attn_lang import _, number
from attn_ui.figures import layout, plotly_fast
from attn_ui.views import live_view, scene_board, scene_nav
from attn_ui.widgets import lang, projector, state, theme
from attn_ui.widgets.lab_link import lab_button
from attn_ui.widgets.panels import attention_panel, chart, table
from attn_ui.words import deck_words
from attn_ui.words.escape import md_escape


def _row(scene: DeckScene) -> int | None:
    return None if scene.row is None else scene.row - 1


def _shades(result: Result, row: int | None, key: str, height: int, scale: bool = True) -> None:
    style = dataclasses.replace(projector.map_style(projector.is_on(), scene=True), height=height, show_titles=False)
    chart(plotly_fast.ReadyFigure(scene_board.shades_spec(result, row, style, scale=scale)), key=key,
          config=layout.still_config(), max_height=height)


def _pair(scene: DeckScene, result: Result, revealed: bool) -> None:
    """Maps A and B: the scene's state and its twin with the causal mask switched, in the order the core chose. Both
    steps draw them in shades with no numbers (the question is their pattern; a projected 6-column map has no room
    for numbers beside another); revealed, the causal one is named."""
    other = state.cached_compute(twin(scene.settings))
    pair = (other, result) if twin_first(scene.settings) else (result, other)
    height = 400 if projector.is_on() else 300
    for column, letter, shown in zip(st.columns(2, gap="medium"), ("A", "B"), pair, strict=True):
        with column:
            if revealed and shown.settings.causal:
                st.markdown(_("**Map {letter}** · the causal mask ✓", letter=letter))
            else:
                st.markdown(_("**Map {letter}**", letter=letter))
            _shades(shown, None, f"deck.pair.{letter}", height, scale=False)


def _dropout_row(scene: DeckScene, result: Result) -> None:
    """The row's weights before dropout, and which of them dropout zeroes: enough to add up, not the sum."""
    row = _row(scene) or 0
    view = result.view_index
    rows = [{_("word"): word, _("weight before dropout"): number(float(before), ".2f"),
             _("dropout"): _("blocked") if blocked else _("zeroed") if dropped else _("kept")}
            for word, before, dropped, blocked in zip(result.labels, result.weights_before_dropout[view, row],
                                                      result.dropped[view, row], result.blocked[view, row],
                                                      strict=True)]
    table(rows, hide_index=True)
    st.caption(_("Dropout p = {p}; survivors are rescaled by 1/(1 − p).", p=number(scene.settings.dropout, ".2f"))
               if scene.settings.rescale else
               _("Dropout p = {p}; survivors are not rescaled.", p=number(scene.settings.dropout, ".2f")))


def givens(scene: DeckScene, result: Result) -> None:
    """The question step's board: what a student needs to answer, never the answer."""
    kind = ASKS[scene.ask].givens
    big = projector.is_on()
    if kind == "shades":
        st.caption(_("The row's weights in shades of colour: the colour bar reads them from 0 to 1."))
        _shades(result, _row(scene), "deck.shades", 540 if big else 330)
    elif kind == "pair":
        _pair(scene, result, revealed=False)
    elif kind == "dropout":
        _dropout_row(scene, result)
    elif kind == "map":
        attention_panel(result, _row(scene), style=projector.map_style(big, scene=True), sentence=False)
    else:
        st.markdown("\n".join(f"- {line}" for line in deck_words.state_lines(scene)))


def board(scene: DeckScene, result: Result, room: bool = False) -> None:
    """The revealed board: the map, the row outlined (two maps for a "which" scene), drawn as a built-in scene's map
    (scene_board's: `room`, a live room's answers share the page, makes a projected map shorter)."""
    if scene.ask == "which":
        _pair(scene, result, revealed=True)
        return
    scene_board.BOARDS["map"](scene, result, room)


def present(deck: Deck, number: int, revealed: bool, back: callable, lecture: live_view.Host | None = None) -> None:
    """One step of the deck: the question, or (revealed) the answer beside the board. `lecture`: the live room this
    page runs (live_view.host), whose badge, join screen, count and spread show as on the Lecture scenes page."""
    scene = deck.scenes[number - 1]
    result = state.cached_compute(scene.settings)
    words = deck_words.scene_words(scene, result)
    live_view.show_note()

    def beside() -> None:
        back()
        live_view.live_button(lecture, number, revealed, deck)

    scene_nav.scene_nav(number, len(deck.scenes), revealed, beside=beside)
    live_view.join_key(lecture, number, revealed)
    if live_view.join_showing(lecture, number, revealed):
        live_view.join_screen(lecture, number)  # covers the scene; J or the badge takes it away
        st.stop()
    story, shown = st.columns(live_view.columns(lecture, revealed), gap="medium")
    with story.container(key="scene-story"):
        st.subheader(words.title, anchor=False)
        st.markdown(words.question)
        listed = scene.ask != "which" and len(words.options) <= 6 and not live_view.spread_shown(lecture)
        if words.options and listed:  # a live room's spread names them in its bars
            st.markdown("  \n".join(_("**{letter}.** {option}", letter=chr(ord("A") + i), option=md_escape(option))
                                    for i, option in enumerate(words.options)))
        if revealed:
            if words.answer:
                st.markdown(words.answer)
                st.caption(words.why)
            if words.narration:
                st.markdown(words.narration)
            if lecture is not None:  # the room's spread; once the lecture has ended, that it has
                live_view.spread_or_end(lecture, revealed)
            else:  # the scene's state to explore, as a built-in scene offers (the browser's Back returns here)
                view = {**projector.view_keys(_row(scene), projector.is_on()), **lang.url_view(), **theme.url_view()}
                lab_button(scene.settings, _("Open in the Lab"), **view)
        elif lecture is not None:  # the room's count under the question; its bars go under the givens
            live_view.count_board(lecture, revealed)
            live_view.spread(lecture, revealed, wide=False, chart=False)
        else:
            st.caption(_("Ask the room first. Next (or Page Down, an arrow, Space) shows the answer."))
        projector.page_switch(in_menu=lecture is not None)  # under the story, as a built-in scene's: it covers nothing
    with shown.container(key="scene-panel"):
        if revealed:
            board(scene, result, room=lecture is not None)
            if live_view.running(lecture):
                live_view.count_board(lecture, revealed)  # nothing to see: the page follows a move made elsewhere
        else:
            givens(scene, result)
            if lecture is not None:
                live_view.spread(lecture, revealed, wide=True, lines=False)
