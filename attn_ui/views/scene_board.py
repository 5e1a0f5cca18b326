"""What a lecture scene's board draws, by the scene's `kind`: the Lab's map, or one lesson figure.

Each drawing uses the lesson's own builders (attn_ui/figures) on the lesson's own numbers (attn_core.lessons), so a
scene shows exactly what its lesson page shows. A new kind needs an entry here and its facts in
attn_ui/words/scenes.py (FACTS).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

import streamlit as st

from attn_core import Result
from attn_core.lessons import masks as mask_lessons
from attn_ui.figures import head_charts, layout, mask_charts
from attn_ui.figures.maps import attention_map
from attn_ui.views import train_view
from attn_ui.widgets import panels, projector
from attn_ui.words import mask_words
from attn_ui.words.scenes import LATER_WORD, MEMORY, Scene


def _row(scene: Scene) -> int | None:
    return None if scene.row is None else scene.row - 1


def _map(scene: Scene, result: Result, style: layout.MapStyle | None = None) -> None:
    big = projector.is_on()
    style = style if big and style else projector.map_style(big, scene=True)
    panels.attention_panel(result, _row(scene), style=style, sentence=not big)
    panels.legend(result)


def _cheat(scene: Scene, result: Result) -> None:
    head = mask_lessons.cheating_head(scene.settings.sentence, scene.settings.causal)
    style = layout.SCENE_PROJECTOR if projector.is_on() else layout.LESSON
    panels.chart(attention_map(head, style=style), key="scene.cheat", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _later_word(scene: Scene, result: Result) -> None:
    position, new_word = LATER_WORD
    change = mask_lessons.change_later_word(scene.settings, position, new_word)
    panels.chart(mask_charts.later_change_table(change), key="scene.later", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _routes(scene: Scene, result: Result) -> None:
    rows = mask_lessons.route_rows(scene.settings, _row(scene))
    panels.chart(mask_charts.routes_table(rows), key="scene.routes", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _trap(scene: Scene, result: Result) -> None:
    st.markdown(mask_words.worked_example_text(mask_lessons.worked_example()))
    _map(scene, result, layout.SCENE_UNDER_TEXT)


def _rolls(scene: Scene, result: Result) -> None:
    panels.chart(mask_charts.row_sum_rolls(mask_lessons.dropout_rolls(scene.settings)), key="scene.rolls",
                 config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _concat(scene: Scene, result: Result) -> None:
    panels.chart(head_charts.concat_figure(result), key="scene.concat", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _mixing(scene: Scene, result: Result) -> None:
    panels.chart(head_charts.mixing_figure(result), key="scene.mixing", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _memory(scene: Scene, result: Result) -> None:
    batch, heads, length = MEMORY
    panels.chart(head_charts.memory_figure(batch, heads, length), key="scene.memory", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _values(scene: Scene, result: Result) -> None:
    terms = mask_lessons.row_times_values(result, _row(scene))
    panels.chart(mask_charts.row_times_values(terms), key="scene.values", config=layout.still_config(),
                 max_height=layout.SCENE_BOARD_HEIGHT)


def _training(scene: Scene, result: Result) -> None:
    train_view.scene_board(scene.training, projector.is_on())


# kind -> its drawing; read-only
BOARDS: Mapping[str, Callable[[Scene, Result], None]] = MappingProxyType({
    "map": _map, "cheat": _cheat, "later-word": _later_word, "routes": _routes, "trap": _trap, "rolls": _rolls,
    "concat": _concat, "mixing": _mixing, "memory": _memory, "values": _values, "training": _training,
})


def draw(scene: Scene, result: Result) -> None:
    BOARDS[scene.kind](scene, result)
