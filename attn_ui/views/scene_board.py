"""What a lecture scene's board draws, by the scene's `kind`: the Lab's map, or one lesson figure.

Each drawing uses the lesson's own builders (attn_ui/figures) on the lesson's own numbers (attn_core.lessons), so a
scene shows exactly what its lesson page shows. A new kind needs an entry here and its facts in
attn_ui/words/scenes.py (FACTS).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType

import streamlit as st

from attn_core import Result
from attn_core.lessons import masks as mask_lessons
from attn_lang import _, number
from attn_ui.figures import head_charts, layout, maps, mask_charts, plotly_fast
from attn_ui.figures.maps import attention_map
from attn_ui.views import train_view
from attn_ui.widgets import lang, panels, projector, theme
from attn_ui.widgets.lab_link import lab_button
from attn_ui.words import live, mask_words
from attn_ui.words.scenes import LATER_WORD, MEMORY, VALUE_COLUMN, Scene, value_givens


def _board_height(room: bool) -> int:
    """The px a scene's figure may take on the projector: less in a live lecture's reveal, whose links go under it."""
    return layout.SCENE_BOARD_HEIGHT - (ROOM_MAP_SHRINK if room else 0)


def _row(scene: Scene) -> int | None:
    return None if scene.row is None else scene.row - 1


def _map(scene: Scene, result: Result, room: bool = False, style: layout.MapStyle | None = None) -> None:
    big = projector.is_on()
    style = style if big and style else projector.map_style(big, scene=True)
    if big and room:  # a live lecture's reveal: the Lab link and the projector switch go under the map (a map drawn
        # under text is short already: it keeps its size, and so its words their 18 px)
        shorter = min(style.height, layout.SCENE_PROJECTOR.height - ROOM_MAP_SHRINK)
        scale = shorter / style.height  # the cells shrink: so do their numbers, or "future" overruns its cell
        style = dataclasses.replace(style, height=shorter, show_titles=style.show_titles and shorter >= TITLED_MAP,
                                    cell_font=max(layout.PROJECTOR_MIN_FONT, round(style.cell_font * scale)))
    panels.empty_rows_notice(result)  # a row with nothing to look at: the warning its answer speaks of
    panels.attention_panel(result, _row(scene), style=style, sentence=not big)
    panels.legend(result)


def _cheat(scene: Scene, result: Result, room: bool = False) -> None:
    head = mask_lessons.cheating_head(scene.settings.sentence, scene.settings.causal)
    style = layout.SCENE_PROJECTOR if projector.is_on() else layout.LESSON
    panels.chart(attention_map(head, style=style), key="scene.cheat", config=layout.still_config(),
                 max_height=_board_height(room))


def _later_word(scene: Scene, result: Result, room: bool = False) -> None:
    position, new_word = LATER_WORD
    change = mask_lessons.change_later_word(scene.settings, position, new_word)
    panels.chart(mask_charts.later_change_table(change), key="scene.later", config=layout.still_config(),
                 max_height=_board_height(room))


def _routes(scene: Scene, result: Result, room: bool = False) -> None:
    rows = mask_lessons.route_rows(scene.settings, _row(scene))
    panels.chart(mask_charts.routes_table(rows), key="scene.routes", config=layout.still_config(),
                 max_height=_board_height(room))


def _trap(scene: Scene, result: Result, room: bool = False) -> None:
    st.markdown(mask_words.worked_example_text(mask_lessons.worked_example()))
    if room and projector.is_on():  # a live reveal's links go under the board too: the worked example is the board
        return  # (the map under it would have to draw its words under 18 px)
    _map(scene, result, room, style=layout.SCENE_UNDER_TEXT)


def _rolls(scene: Scene, result: Result, room: bool = False) -> None:
    panels.chart(mask_charts.row_sum_rolls(mask_lessons.dropout_rolls(scene.settings)), key="scene.rolls",
                 config=layout.still_config(),
                 max_height=_board_height(room))


def _concat(scene: Scene, result: Result, room: bool = False) -> None:
    panels.chart(head_charts.concat_figure(result), key="scene.concat", config=layout.still_config(),
                 max_height=_board_height(room))


def _mixing(scene: Scene, result: Result, room: bool = False) -> None:
    panels.chart(head_charts.mixing_figure(result), key="scene.mixing", config=layout.still_config(),
                 max_height=_board_height(room))


def _memory(scene: Scene, result: Result, room: bool = False) -> None:
    batch, heads, length = MEMORY
    panels.chart(head_charts.memory_figure(batch, heads, length), key="scene.memory", config=layout.still_config(),
                 max_height=_board_height(room))


def _values(scene: Scene, result: Result, room: bool = False) -> None:
    terms = mask_lessons.row_times_values(result, _row(scene))
    panels.chart(mask_charts.row_times_values(terms), key="scene.values", config=layout.still_config(),
                 max_height=_board_height(room))


def _training(scene: Scene, result: Result, room: bool = False) -> None:
    train_view.scene_board(scene.training, projector.is_on(), links_under=room)


# kind -> its drawing (scene, its Result, whether a live lecture's answers share the board); read-only
BOARDS: Mapping[str, Callable[[Scene, Result, bool], None]] = MappingProxyType({
    "map": _map, "cheat": _cheat, "later-word": _later_word, "routes": _routes, "trap": _trap, "rolls": _rolls,
    "concat": _concat, "mixing": _mixing, "memory": _memory, "values": _values, "training": _training,
})


def draw(scene: Scene, result: Result, room: bool = False) -> None:
    """The revealed board; `room`: a live lecture's answers are drawn beside it (a training scene's curves make room
    for them)."""
    BOARDS[scene.kind](scene, result, room)


def options(asked: live.Live, revealed: bool) -> None:
    """A choice's options under its question, lettered as on the phones; revealed, the right one alone, marked."""
    shown = [(i, option) for i, option in enumerate(asked.options) if not revealed or asked.right(i)]
    st.markdown("  \n".join(_("**{letter}.** {option}", letter=live.letter(i), option=option)
                            + (" ✓" if revealed else "") for i, option in shown))


CHEAT_LESSON = "pages/1_Peeking_and_the_causal_mask.py"  # where the position-copying head of the "cheat" scenes is


def links(scene: Scene, number: int, big: bool, live: bool = False) -> None:
    """"Open in the Lab" (the scene's state, with a way back to it) and the page's projector switch, in one row that
    covers nothing (`live`: the switch inside the page menu, so the row stays one line beside a room's answers). A
    "cheat" scene's head copies positions and is no Lab head: its link opens lesson 1, which shows that very head, its
    mask switched as in the scene."""
    with st.container(horizontal=True, key="scene-links", vertical_alignment="center", gap="medium"):
        if scene.kind == "cheat":
            query = {**({"causal": "1"} if scene.settings.causal else {}), "scene": str(number),
                     **({"mode": projector.PROJECTOR} if big else {}), **lang.url_view(), **theme.url_view()}
            st.page_link(CHEAT_LESSON, label=_("See this head in lesson 1"), icon=":material/school:",
                         query_params=query)
        else:
            view = {**projector.view_keys(_row(scene), big), "scene": str(number), **lang.url_view(),
                    **theme.url_view()}
            lab_button(scene.settings, _("Open in the Lab"), **view)
        projector.page_switch(in_menu=live)  # a live lecture's board leaves the row less room


# --- what a question step shows: the givens a student needs, never the answer -------------------------------------

SHADES_HEIGHT = (540, 330)  # px of the map in shades at a question step, on the projector and off it
SHADES_BESIDE_SPREAD = 300  # px of it on the projector when a live lecture's spread shares the board
ROOM_MAP_SHRINK = 110  # px a revealed board's map gives up on the projector for the links under it, in a live lecture
TITLED_MAP = 380  # px a projected map needs to hold its rotated axis title ("query: the word looking")


def shades_spec(result: Result, row: int | None, style: layout.MapStyle, row_numbers: bool = False,
                scale: bool = True) -> dict:
    """The map of the head in view as colours, with a colour bar to read them by (unless `scale` is False: a pattern
    to recognise, not weights to read): no number in any cell or hover, or (row_numbers) only the outlined row's
    weights written in its cells."""
    spec = maps.attention_map_spec(result, selected_row=row, style=dataclasses.replace(
        style, cell_text=row_numbers, show_scale=scale))
    for trace in spec["data"]:
        if trace.get("name") == "cells":
            kept = [text if row_numbers and y == row else "" for text, y in zip(trace["text"], trace["y"],
                                                                                   strict=True)]
            trace.update(text=kept, hovertext=None, hoverinfo="skip", hovertemplate=None)
    return spec


def _shades(scene: Scene, result: Result, room: bool = False) -> None:
    row_numbers = scene.givens == "row"
    big = projector.is_on()
    height = (SHADES_BESIDE_SPREAD if room else SHADES_HEIGHT[0]) if big else SHADES_HEIGHT[1]
    # no axis titles: the question names the row, which is outlined, and a rotated title outgrows a short map
    style = dataclasses.replace(projector.map_style(big, scene=True), height=height, show_titles=False)
    st.caption(_("The map in shades of colour, read by its colour bar; the outlined row's weights are written in its "
                 "cells.") if row_numbers else
               _("The row's weights in shades of colour: the colour bar reads them from 0 to 1."))
    panels.chart(plotly_fast.ReadyFigure(shades_spec(result, _row(scene), style, row_numbers)), key="scene.shades",
                 config=layout.still_config(), max_height=height)


def _values_given(scene: Scene, result: Result, room: bool = False) -> None:
    rows = [{_("word"): word, _("weight"): number(weight, ".2f"),
             _("value's number {column}", column=VALUE_COLUMN): number(value, ".2f")}
            for word, weight, value in value_givens(scene, result)]
    panels.table(rows, hide_index=True)


# the scene's `givens` -> what its question step draws (words.scenes.GIVENS names them); read-only
GIVEN_BOARDS: Mapping[str, Callable[[Scene, Result, bool], None]] = MappingProxyType({
    "": lambda scene, result, room: None, "shades": _shades, "row": _shades, "values": _values_given,
})


def givens(scene: Scene, result: Result, room: bool = False) -> None:
    """At a scene's question: what a student needs to answer it, without the answer. `room`: a live lecture's spread
    shares the board."""
    GIVEN_BOARDS[scene.givens](scene, result, room)
