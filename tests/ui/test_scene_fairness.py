"""Every live question is fair from its givens: a careful student who reads only what the question step shows (the
question's words, the map in shades, the row's numbers, the table of weights and values) and reasons as the lessons
teach gets an answer the app counts as right. One derivation a scene, written here from the shown text and figures,
never from the fact the app scores against; docs/lecture.md states each in words (attn_ui/words/live_table.py).

Where the distinction asked about is a colour (scene 20, in shades), the right option's cell must differ from every
other option's by a colour difference a person sees: CIEDE2000 of at least SEEN_DELTA_E, computed from the colour
scale the drawn figure itself carries.
"""

from __future__ import annotations

import math
import re

import numpy as np
import plotly.colors as pc
import pytest

from attn_core import compute
from attn_lang import DEFAULT, using
from attn_ui.figures import layout
from attn_ui.views.scene_board import shades_spec
from attn_ui.words import live, live_table
from attn_ui.words.scenes import SCENES, value_givens

SEEN_DELTA_E = 10.0  # CIEDE2000: 1 is the least a trained eye sees side by side; 10 is plain from a seat in a hall


def numbers_in(text: str) -> list[float]:
    """The numbers a question's words state, as English writes them ("1,024" is one number)."""
    return [float(found.replace(",", "")) for found in re.findall(r"\d[\d,]*(?:\.\d+)?", text.replace("GPT-2", ""))]


def option_named(number: int, words: str) -> int:
    question = live.live_question(number)
    return next(i for i, option in enumerate(question.options) if option.startswith(words))


def grid(number: int, value: float) -> int:
    index = live.live_question(number).nearest(value)
    assert index is not None, f"scene {number}: {value} is not on the answer box's grid"
    return index


def shown_map(number: int) -> dict:
    scene = SCENES[number - 1]
    return shades_spec(compute(scene.settings), scene.row - 1, layout.SCENE_PROJECTOR,
                       row_numbers=scene.givens == "row")


def row_numbers_written(number: int) -> dict[int, float]:
    """Scene 3: the numbers written in the outlined row's cells, by column, as the figure draws them."""
    cells = next(trace for trace in shown_map(number)["data"] if trace.get("name") == "cells")
    written = {}
    for text, x in zip(cells["text"], cells["x"], strict=True):
        plain = re.sub(r"<[^>]*>", "", text)
        if plain:
            written[x] = float(plain)
    return written


# --- colour difference, as a person sees it ----------------------------------------------------------------------


def _lab(colour: str) -> tuple[float, float, float]:
    rgb = pc.convert_colors_to_same_type(colour, "rgb")[0][0]
    red, green, blue = (channel / 255 for channel in pc.unlabel_rgb(rgb))

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = linear(red), linear(green), linear(blue)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e_2000(first: str, second: str) -> float:
    """CIEDE2000 between two sRGB colours (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = _lab(first)
    l2, a2, b2 = _lab(second)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = math.degrees(math.atan2(b1, a1p)) % 360, math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    rt = -2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7)) * math.sin(
        math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2 + rt * (dc / sc) * (dhp / sh))


def test_the_colour_difference_matches_the_published_examples():
    """Two pairs from Sharma, Wu and Dalal's test data, converted to sRGB hex here, and the extremes."""
    assert delta_e_2000("#000000", "#ffffff") == pytest.approx(100, abs=0.5)
    assert delta_e_2000("#3e7cc4", "#3e7cc4") == 0
    assert 1 < delta_e_2000("#808080", "#8a8a8a") < 5  # a step of 10 in grey: barely seen
    assert delta_e_2000("#ff0000", "#00ff00") > 70


def drawn_colour(spec: dict, row: int, column: int) -> str:
    """The colour the map paints at (row, column): its weights layer's colour scale at that cell's z."""
    weights = next(trace for trace in spec["data"] if trace.get("name") == "weights")
    z = layout_cells(weights["z"])[row][column]
    scale = [list(stop) for stop in weights["colorscale"]]
    return pc.sample_colorscale(scale, [(z - weights["zmin"]) / (weights["zmax"] - weights["zmin"])])[0]


def layout_cells(z) -> np.ndarray:
    return np.asarray([[np.nan if cell is None else cell for cell in row] for row in z], dtype=float)


# --- one derivation a scene: from what the question step shows ---------------------------------------------------


def _by_shades(number: int) -> int:
    """Scene 20: the option whose cell is darkest in the drawn map, each option's colour told apart from every
    other's by SEEN_DELTA_E or more."""
    scene, question = SCENES[number - 1], live.live_question(number)
    spec = shown_map(number)
    tokens = compute(scene.settings).tokens
    colours = {option: drawn_colour(spec, scene.row - 1, tokens.index(option)) for option in question.options}
    values = {option: layout_cells(next(t for t in spec["data"] if t.get("name") == "weights")["z"])[
        scene.row - 1][tokens.index(option)] for option in question.options}
    darkest = min(values, key=values.get)
    for option, colour in colours.items():
        if option != darkest:
            seen = delta_e_2000(colours[darkest], colour)
            assert seen >= SEEN_DELTA_E, f"scene {number}: {darkest} against {option}: ΔE2000 {seen:.1f}"
    return question.options.index(darkest)


def _row_sum(number: int) -> int:
    scene = SCENES[number - 1]
    written = row_numbers_written(number)
    assert len(written) == len(compute(scene.settings).tokens), "every cell of the row is written"
    return grid(number, sum(value for column, value in written.items() if column >= scene.row))


def _by_hand(number: int) -> int:
    scene = SCENES[number - 1]
    return grid(number, round(sum(weight * value for __, weight, value in value_givens(scene, compute(
        scene.settings))), 2))


def _asked(number: int) -> list[float]:
    return numbers_in(live.live_question(number).ask)


DERIVED = {
    1: lambda n: grid(n, _asked(n)[0]),  # every one of the next words: the head reads it
    2: lambda n: grid(n, 0),
    3: _row_sum,
    4: lambda n: grid(n, _asked(n)[0] * (_asked(n)[0] - 1) / 2),
    5: lambda n: grid(n, 1.0),
    6: lambda n: option_named(n, "Nothing"),
    7: lambda n: grid(n, 0),
    8: lambda n: option_named(n, "A score of zero"),
    9: lambda n: grid(n, round(100 / (_asked(n)[0] + _asked(n)[1] + 1))),
    10: lambda n: grid(n, round(1 - _asked(n)[1], 2)),  # row 2 put 0.69 of its weight ...
    11: lambda n: grid(n, 2 * _asked(n)[0]),  # two PAD columns, one cell a query
    12: lambda n: grid(n, _asked(n)[0] * (_asked(n)[0] - 1) / 2 + 2 + 1),  # + PAD cells on or below the diagonal
    13: lambda n: option_named(n, "Nothing at all"),
    14: lambda n: grid(n, _asked(n)[0] * _asked(n)[1]),
    15: lambda n: option_named(n, "At most one"),
    16: lambda n: grid(n, 1 - _asked(n)[1]),
    17: lambda n: grid(n, 0),
    18: lambda n: grid(n, _asked(n)[0] / _asked(n)[1]),
    19: lambda n: option_named(n, "No"),
    20: _by_shades,
    21: lambda n: grid(n, _asked(n)[0] * _asked(n)[1]),
    22: lambda n: grid(n, _asked(n)[1] + 1),
    23: lambda n: grid(n, 1),
    24: lambda n: grid(n, 4),  # (2T)^2 / T^2
    25: _by_hand,
    26: lambda n: option_named(n, "No mask: lower loss. Mask: writes sentences."),
    27: lambda n: option_named(n, "It stalls"),
}


def test_every_scene_has_a_derivation_and_a_reason_in_the_docs():
    assert set(DERIVED) == set(range(1, len(SCENES) + 1)) == set(live_table.FROM_GIVENS)


@pytest.mark.parametrize("number", range(1, len(SCENES) + 1))
def test_a_careful_student_gets_it_from_the_givens(number):
    """The answer derived from what the question step shows is counted right."""
    with using(DEFAULT):
        answer = DERIVED[number](number)
        question = live.live_question(number)
    assert question.right(answer), f"scene {number}: derived {question.say(answer)}, true {question.truth_text}"


def test_the_padding_of_scene_12_is_the_padding_its_question_restates():
    """Scene 12's derivation counts the PAD cells of columns 5 and 6 on or below the diagonal; the question names
    those words, and they are the scene's PAD words."""
    scene = SCENES[11]
    with using(DEFAULT):
        asked = live.live_question(12).ask
    tokens = compute(scene.settings).tokens
    assert scene.settings.padded == (5, 6)
    assert all(f"*{tokens[p - 1]}*" in asked for p in scene.settings.padded)
