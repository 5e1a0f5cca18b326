"""The lecture scenes: enough of them for a 50-minute lecture, in the order of the lessons, each asking before it
shows, and every number its text quotes recomputed here from the core for that scene."""

from __future__ import annotations

import re
import string

import numpy as np
import pytest

from attn_core import compute, settings_from_query
from attn_core.lessons import heads as head_lessons
from attn_core.lessons import masks as mask_lessons
from attn_ui.views.scene_board import BOARDS
from attn_ui.words.explain import kpi_values
from attn_ui.words.scenes import FACTS, SCENES, Scene, scene_facts, scene_number, scene_words

BY_TITLE = {scene.title: scene for scene in SCENES}
DIGIT = re.compile(r"\d")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_enough_scenes_for_fifty_minutes_covering_every_topic_of_the_brief():
    assert len(SCENES) >= 24
    kinds = [scene.kind for scene in SCENES]
    for kind in ("cheat", "later-word", "routes", "trap", "rolls", "concat", "mixing", "memory", "values"):
        assert kind in kinds, kind
    settings = [scene.settings for scene in SCENES]
    assert any(s.padded for s in settings) and any(s.dropout and not s.rescale for s in settings)
    assert any(compute(s).empty_rows for s in settings)  # the empty row
    assert [s.view for s in settings if s.heads == 4 and s.causal][:4] == [1, 2, 3, 4]


def test_every_kind_has_its_facts_and_its_drawing():
    assert set(FACTS) == set(BOARDS) >= {scene.kind for scene in SCENES}


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_each_scene_asks_a_question_and_answers_in_one_or_two_sentences(scene: Scene):
    words = scene_words(scene)
    assert words.question.rstrip().endswith("?"), words.question
    assert 1 <= len(re.findall(r"[.!?](?=\s|$)", words.answer)) <= 2, words.answer
    assert scene.row is None or 1 <= scene.row <= len(scene.settings.tokens)


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_static_scene_text_holds_no_number_but_gpt_2s_name(scene: Scene):
    """Numbers come from the core at run time; the templates only name them."""
    for text in (scene.title, scene.question, scene.narration):
        assert not DIGIT.search(text.replace("GPT-2", "GPT")), text
        assert fields(text) <= set(scene_facts(scene)), text


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_the_title_does_not_give_the_answer_away(scene: Scene):
    words = scene_words(scene)
    bold = re.findall(r"\*\*([^*]+)\*\*", words.answer)
    assert not any(b in words.title for b in bold if b != "Sees future?")


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_a_scene_survives_the_round_trip_through_its_lab_link(scene: Scene):
    settings, notes = settings_from_query(scene.settings.to_query())
    assert settings == scene.settings and notes == []


def facts_of(title: str) -> dict[str, str]:
    return scene_facts(BY_TITLE[title])


def test_the_cheating_head_copies_without_the_mask_and_fails_with_it():
    open_, masked = facts_of("A head that may peek"), facts_of("A masked head")
    assert open_["hits"] == open_["positions"] == "5"
    assert int(masked["hits"]) < int(open_["hits"])


def test_the_causal_mask_facts_are_the_core_numbers():
    result = compute(BY_TITLE["The causal mask"].settings)
    facts = facts_of("The causal mask")
    assert facts["masked"] == str(result.masked_cells) == "15" and facts["row_sum"] == "1.00"
    assert facts_of("The first row")["self_weight"] == "1.00"
    last = compute(BY_TITLE["The last row"].settings).weights[0, 5]
    np.testing.assert_allclose(last, compute(BY_TITLE["Where does a word look?"].settings).weights[0, 5])


def test_changing_a_later_word_moves_earlier_rows_only_without_the_mask():
    facts = facts_of("Change a later word")
    assert (facts["nomask_changed"], facts["mask_changed"], facts["earlier"]) == ("3", "0", "3")


def test_routes_and_the_trap():
    routes = facts_of("Four routes to block a cell")
    assert routes["neg_inf_future"] == "0.00" and float(routes["zero_after_sum"]) < 1
    assert float(routes["zero_score_future"]) > 0
    example = mask_lessons.worked_example()
    assert facts_of("The zero-score trap")["pad_percent"] == f"{100 * example.pad_share:.0f}%" == "29%"
    zero_after = facts_of("Zero after the softmax")
    assert float(zero_after["row_sum"]) < 1 and zero_after["sees"] == "Yes"


def test_padding_and_the_empty_row():
    assert facts_of("Padding")["padding"] == "12"
    assert facts_of("Padding and the causal mask")["masked"] == "18"
    empty = compute(BY_TITLE["A row with nothing to look at"].settings)
    assert empty.empty_row_numbers == (1,) and facts_of("A row with nothing to look at")["row_sum"] == "0.00"


def test_dropout_scenes_rescale_then_forget_to_then_average_then_switch_off():
    rescaled = compute(BY_TITLE["Dropout while training"].settings)
    plain = compute(BY_TITLE["Dropout without the rescale"].settings)
    np.testing.assert_array_equal(rescaled.dropped, plain.dropped)
    assert kpi_values(rescaled)["Row sums"] == facts_of("Dropout while training")["row_sums"]
    assert plain.row_sums.max() <= 1 + 1e-12
    rolls = facts_of("Many re-rolls")
    assert abs(float(rolls["mean_with"]) - 1) < 0.05 and abs(float(rolls["mean_without"]) - 0.5) < 0.05
    assert facts_of("Inference")["dropped"] == "0"


def test_heads_scenes_step_views_and_differ():
    heads = [scene for scene in SCENES if scene.title == "Head {view} of {heads}"]
    assert [scene_words(s).title for s in heads] == [f"Head {v} of 4" for v in range(1, 5)]
    second = scene_facts(heads[1])
    assert second["self_weight"] != second["previous_self_weight"]
    assert facts_of("Where each head's output goes")[("second_first")] == "4"
    assert facts_of("Where each head's output goes")["second_last"] == "6"
    assert facts_of("Where each head's output goes")["first"] == "1"  # the question says columns count from 1


def test_the_quadratic_wall_is_four_times_for_twice_the_context():
    facts = facts_of("The quadratic wall")
    assert facts["ratio"] == "4"
    assert facts["memory_heads"] == str(head_lessons.GPT2.heads)


@pytest.mark.parametrize(("raw", "expected"), [(None, 1), ("", 1), ("3", 3), (" 12 ", 12), ("1", 1)])
def test_scene_number_reads_good_values(raw, expected):
    assert scene_number(raw) == (expected, None)


@pytest.mark.parametrize(("raw", "nearest"), [("0", 1), ("-1", 1), (str(len(SCENES) + 1), len(SCENES)),
                                               ("9" * 40, len(SCENES))])
def test_scene_number_out_of_range_gives_the_nearest_with_a_note(raw, nearest):
    number, note = scene_number(raw)
    assert number == nearest and note is not None and f"1 to {len(SCENES)}" in note


@pytest.mark.parametrize("raw", ["abc", "3.5", "`3`", "1x"])
def test_scene_number_that_is_no_number_falls_back_to_scene_one_with_a_note(raw):
    number, note = scene_number(raw)
    assert number == 1 and note is not None and "Showing scene 1" in note
    assert note.count("`") == 4  # the key and the bad value each in one code span; the value's own backticks swapped
