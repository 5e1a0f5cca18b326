"""Words that promise only what the screen shows (issue 40, item 5), driven through AppTest: a warning an answer
speaks of is drawn, a scene's link opens the head the scene showed, and the way back from it is there."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attn_core import settings_from_query
from attn_core.lessons import masks as mask_lessons
from attn_core.training import PRESETS
from attn_ui.views import train_view
from attn_ui.widgets import controls
from attn_ui.words import training_results, training_words
from attn_ui.words.scenes import SCENES, scene_words
from tests.apptest_helpers import APP, array, open_page, specs
from tests.apptest_helpers import checked as ok

SCENES_PAGE = "pages/9_Lecture_scenes.py"
LESSON_ONE = "pages/1_Peeking_and_the_causal_mask.py"
WARNS = re.compile(r"\bwarning\b", re.IGNORECASE)


def open_scene(number: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    ok(at.run())
    at.query_params["scene"] = str(number)
    at.query_params["reveal"] = "1"
    return ok(at.switch_page(SCENES_PAGE).run())


def links(at: AppTest) -> dict[str, dict[str, list[str]]]:
    return {link.proto.label: parse_qs(link.proto.query_string) for link in at.get("page_link")}


PROMISING = [number for number, scene in enumerate(SCENES, start=1) if WARNS.search(scene_words(scene).answer)]


def test_some_scene_promises_a_warning():
    assert PROMISING, "no answer speaks of a warning: the test below would check nothing"


@pytest.mark.parametrize("number", PROMISING)
def test_a_warning_an_answer_promises_is_on_the_board(number: int):
    at = open_scene(number)
    warnings = [element.value for element in at.warning]
    assert any("nothing to look at" in text for text in warnings), warnings


@pytest.mark.parametrize("number", [n for n, scene in enumerate(SCENES, start=1) if scene.kind == "cheat"])
def test_a_cheat_scene_links_to_lesson_one_where_its_own_head_is_shown(number: int):
    scene = SCENES[number - 1]
    at = open_scene(number)
    found = links(at)
    assert "Open in the Lab" not in found, "the Lab has no head that copies the next word's position"
    query = found["See this head in lesson 1"]
    assert query.get("scene") == [str(number)] and query.get("causal", ["0"]) == ["1" if scene.settings.causal else "0"]

    lesson = AppTest.from_file(APP, default_timeout=30)
    ok(lesson.run())
    for key, values in query.items():
        lesson.query_params[key] = values[-1]
    ok(lesson.switch_page(LESSON_ONE).run())
    assert lesson.toggle(key="peek.causal").value is scene.settings.causal
    cheat = mask_lessons.cheating_head(scene.settings.sentence, scene.settings.causal)
    shown = array(specs(lesson)[0]["data"][0]["z"])  # the lesson's first map: the scene's head, weights as drawn
    np.testing.assert_allclose(np.nan_to_num(shown.astype(float)), cheat.head_map().weights, atol=0.005)
    back = links(lesson)[f"Back to scene {number}"]
    assert back == {"scene": [str(number)], "reveal": ["1"]}
    assert lesson.query_params["scene"] in (str(number), [str(number)])  # kept in the lesson's address


@pytest.mark.parametrize("number", [n for n, scene in enumerate(SCENES, start=1)
                                    if scene.kind not in ("cheat", "training")])
def test_every_other_scene_opens_the_lab_on_its_own_settings_and_head(number: int):
    scene = SCENES[number - 1]
    query = links(open_scene(number))["Open in the Lab"]
    assert query.pop("scene") == [str(number)]
    query.pop("row", None)
    assert settings_from_query(query) == (scene.settings, [])


def test_the_lab_opened_from_a_scene_puts_the_way_back_first():
    lab = AppTest.from_file(APP, default_timeout=30)
    lab.query_params["scene"] = "12"
    lab.query_params["causal"] = "1"
    ok(lab.run())
    labels = [element.proto.label for element in lab.main.get("page_link")]
    assert labels[0] == "Back to scene 12", labels  # above every other link of the page
    assert not [label for label in labels if label.startswith("Start here")]  # no newcomer line either
    assert lab.main.get("page_link")[0].proto.query_string == "scene=12&reveal=1"


def test_lesson_one_without_a_scene_offers_no_way_back():
    lesson = open_page(LESSON_ONE)
    assert not [label for label in links(lesson) if label.startswith("Back to scene")]
    bad = open_page(LESSON_ONE, scene="99")
    assert not [label for label in links(bad) if label.startswith("Back to scene")]


# --- no silent failures (issue 40, item 6) -----------------------------------------------------------------------


def test_a_paste_longer_than_the_box_takes_is_said_and_the_map_keeps_its_sentence():
    lab = AppTest.from_file(APP, default_timeout=30)
    ok(lab.run())
    lab.session_state[controls.MORE_KEY] = True
    ok(lab.run())
    pasted = "word " * 199 + "ends"  # 999 characters
    ok(lab.text_input(key=controls.widget_key("lab", "sentence")).set_value(pasted).run())
    notes = [element.value for element in lab.warning]
    assert any(f"at most {controls.SENTENCE_CHARS:,} characters; this text has 999" in note for note in notes), notes
    assert lab.text_input(key=controls.widget_key("lab", "sentence")).value == pasted  # left to be edited, not dropped
    assert "s" not in {key: lab.query_params[key] for key in lab.query_params}  # the map keeps the lesson's sentence


def test_the_learned_map_row_is_chosen_in_a_box_or_by_a_click_on_the_map():
    at = AppTest.from_file(APP, default_timeout=60)
    ok(at.run())
    at.query_params["exp"] = "heads"
    at.query_params["answer"] = ".-"  # heads (the second experiment) skipped on purpose: the fold shows its run
    ok(at.switch_page("pages/7_Train_it_yourself.py").run())
    chooser = at.selectbox(key=train_view.MAP_ROW_KEY)
    shipped = PRESETS["heads"].shipped()
    assert chooser.value is None and list(chooser.options)[:2] == [
        f"1 {training_words.example_tokens(shipped)[0]}", f"2 {training_words.example_tokens(shipped)[1]}"]
    ok(chooser.set_value(5).run())
    strongest = max(shipped.heads, key=lambda score: score.induction)
    said = training_results.map_row_sentence(shipped, strongest.layer, strongest.head, 5)
    assert said in [element.value for element in at.markdown]
    learned = specs(at)[1]  # the curves, then the learned map
    outline = learned["layout"]["shapes"][0]
    assert outline["y0"] == 4.5 and outline["y1"] == 5.5  # the chosen row outlined on the map


def test_the_newcomer_link_names_lesson_one_once():
    """The Lab's first-visit link: "Start here: 1 · Peeking…", not "Start with lesson 1: 1 · Peeking…"."""
    lab = AppTest.from_file(APP, default_timeout=30)
    ok(lab.run())
    start = [label for label in links(lab) if label.startswith("Start here")]
    assert len(start) == 1, list(links(lab))
    assert re.findall(r"\d+", start[0]) == ["1"], start
