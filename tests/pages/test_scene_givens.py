"""Every question answerable from what it shows: each lecture scene declares its givens (attn_ui/words/scenes.py,
GIVENS), and its question step, run through AppTest, shows them, and shows neither its answer nor its scored value.

- "shades": the scene's map as colours with a colour bar, and no number in any cell, hover or label of it;
- "row": the same map with the outlined row's weights written in its cells, and no other number;
- "values": a table of the weights of the words the row may see and each value vector's number, all the sum needs,
  and not the sum itself;
- "": nothing besides the question (its own words carry the numbers it needs).
"""

from __future__ import annotations

import json
import re

import pytest

from attn_core import compute
from attn_ui.words import live
from attn_ui.words.scenes import GIVENS, SCENES, VALUE_COLUMN, scene_words, value_givens
from tests.apptest_helpers import open_page, texts

NUMBER = re.compile(r"\d+(?:\.\d+)?")


def question_step(number: int):
    at = open_page("pages/9_Lecture_scenes.py", scene=str(number))
    assert not at.exception, [e.message for e in at.exception]
    return at


def drawn_numbers(spec: dict) -> list[str]:
    """Every number a chart writes: cell texts, hover templates and texts, axis tick labels and annotations."""
    found = []
    for trace in spec["data"]:
        for field in ("text", "hovertext", "texttemplate", "hovertemplate"):
            value = trace.get(field)
            values = value if isinstance(value, list) else [value]
            found += [n for v in values if isinstance(v, str) for n in NUMBER.findall(re.sub(r"<[^>]*>", "", v))]
    return found


def test_every_scene_declares_givens_the_app_knows():
    assert {scene.givens for scene in SCENES} <= set(GIVENS)
    assert (SCENES[2].givens, SCENES[19].givens, SCENES[24].givens) == ("row", "shades", "values")


@pytest.mark.parametrize("number", range(1, len(SCENES) + 1))
def test_the_question_step_shows_its_givens_and_not_its_answer(number):
    scene = SCENES[number - 1]
    words = scene_words(scene)
    question = live.live_question(number)
    at = question_step(number)
    shown = texts(at)
    assert words.question in shown and words.answer not in shown
    charts = {chart.key: json.loads(chart.proto.spec) for chart in at.get("plotly_chart")}
    tables = [*at.get("table"), *at.dataframe]
    if scene.givens in ("shades", "row"):
        assert list(charts) == ["scene.shades"] and not tables
        spec = charts["scene.shades"]
        if scene.givens == "shades":
            assert drawn_numbers(spec) == [], "the map in shades writes no number"
        else:  # the outlined row's weights, each to two decimals, and nothing else
            result = compute(scene.settings)
            weights = result.weights[result.view_index, scene.row - 1]  # (T,)
            assert sorted(drawn_numbers(spec)) == sorted(f"{w:.2f}" for w in weights), "the row's numbers alone"
        assert any(trace.get("showscale") for trace in spec["data"]), "a colour bar reads the shades"
        rows = [shape for shape in spec["layout"].get("shapes", []) if shape.get("type") == "rect"]
        assert [shape["y0"] + 0.5 for shape in rows] == [scene.row - 1], "the asked row is outlined"
    elif scene.givens == "values":
        assert not charts and len(tables) == 1
        table = tables[0].value
        shown_cells = table.astype(str).to_numpy().ravel().tolist()
        for word, weight, value in value_givens(scene, compute(scene.settings)):
            assert word in shown_cells and f"{weight:.2f}" in shown_cells and f"{value:.2f}" in shown_cells
        assert f"{question.truth:.2f}" not in shown_cells, "the sum is the answer"
        assert any(str(VALUE_COLUMN) in str(column) for column in table.columns)
    else:
        assert not charts and not tables, "the question's own words are its givens"
    if question.kind == "number":  # the scored value appears nowhere but, as a given, in the question's own words
        scored = live.format_number(question.truth, question.decimals)
        beside = [text for text in shown.split("\n") if text and text != words.question]
        assert not any(re.search(rf"(?<![\d.]){re.escape(scored)}(?![\d.])", text) for text in beside
                       if "Scene" not in text), (number, scored, beside)
    else:  # a choice lists its options, none marked
        assert all(f"**{live.letter(i)}.** {option}" in shown for i, option in enumerate(question.options))
        assert "right answer" not in shown and "✓" not in shown
