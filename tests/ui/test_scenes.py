"""The lecture scenes: every number a narration quotes is what the core computes for that scene's settings."""

from __future__ import annotations

import re
from itertools import combinations

import numpy as np
import pytest

from attn_core import compute, settings_from_query
from attn_ui.words.explain import kpi_values
from attn_ui.words.scenes import SCENES, TRAINING_SCENES, Scene, scene_number

BY_TITLE = {scene.title: scene for scene in SCENES}
LAB_SCENES = [scene for scene in SCENES if scene.training is None]  # the training scenes are tested below
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def result_of(number: int):
    """The Result of scene `number` (1-based, as in the URL)."""
    return compute(SCENES[number - 1].settings)


def view_weights(number: int) -> np.ndarray:
    result = result_of(number)
    return result.weights[result.view_index]  # (T, T)


def test_twelve_scenes_with_distinct_titles_in_the_order_of_the_lesson():
    assert len(LAB_SCENES) == 12
    assert len(BY_TITLE) == len(SCENES)
    causal = [scene.settings.causal for scene in LAB_SCENES]
    assert causal == [False] + [True] * 11  # the mask goes on in scene 2 and stays on


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_each_scene_is_one_or_two_sentences_and_a_valid_row(scene: Scene):
    sentences = re.findall(r"[.!?](?=\s|$)", scene.narration)
    assert 1 <= len(sentences) <= 2, scene.narration
    assert scene.row is None or 1 <= scene.row <= len(scene.settings.tokens)


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_every_bold_number_in_a_narration_is_on_screen_in_that_scene(scene: Scene):
    """A bold number must be a KPI tile's number or a weight of the outlined row, as the map prints it."""
    result = compute(scene.settings)
    shown = {number for value in kpi_values(result).values() for number in NUMBER.findall(value)}
    if scene.row is not None:
        shown |= {f"{w:.2f}" for w in result.weights[result.view_index, scene.row - 1]}
    bold = re.findall(r"\*\*([^*]+)\*\*", scene.narration)
    numbers = [text for text in bold if NUMBER.fullmatch(text)]
    assert set(numbers) <= shown, (numbers, sorted(shown))


@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.title)
def test_a_scene_survives_the_round_trip_through_its_lab_link(scene: Scene):
    settings, notes = settings_from_query(scene.settings.to_query())
    assert settings == scene.settings and notes == []


def test_mask_off_then_on_sees_future_and_masked_cells():
    off, on = result_of(1), result_of(2)
    assert (off.sees_future, off.masked_cells) == (True, 0)
    assert (on.sees_future, on.masked_cells) == (False, 15)
    assert view_weights(1)[1, 2:].min() > 0  # row 2 looks at the four later words ...
    np.testing.assert_allclose(view_weights(2)[1, :2].sum(), 1.0)  # ... and, masked, only at words 1 and 2
    assert kpi_values(on)["Sees future?"] == "No" and kpi_values(off)["Sees future?"] == "Yes"


def test_top_row_is_one_and_bottom_row_is_the_unmasked_row():
    assert view_weights(3)[0, 0] == 1.0
    assert SCENES[2].row == 1 and SCENES[3].row == 6
    np.testing.assert_allclose(view_weights(4)[5], view_weights(1)[5])


def test_four_heads_step_through_views_one_to_four_with_d_head_three():
    heads = SCENES[4:8]
    assert [scene.settings.view for scene in heads] == [1, 2, 3, 4]
    for scene in heads:
        result = compute(scene.settings)
        assert (result.d_head, result.masked_cells, kpi_values(result)["d_head"]) == (3, 15, "12 / 4 = 3")
    maps = [view_weights(number) for number in range(5, 9)]
    for first, second in combinations(maps, 2):
        assert np.abs(first - second).max() > 0.05  # every head looks differently


def test_dropout_scenes_double_the_survivors_then_forget_to():
    rescaled, plain = result_of(9), result_of(10)
    for result in (rescaled, plain):
        assert result.settings.dropout == 0.5 and result.settings.training and result.dropped_cells > 0
    np.testing.assert_array_equal(rescaled.dropped, plain.dropped)  # the same cells dropped in both
    kept = ~rescaled.dropped[0] & ~rescaled.blocked[0]
    np.testing.assert_allclose(rescaled.weights[0][kept], 2 * rescaled.weights_before_dropout[0][kept])
    np.testing.assert_allclose(plain.weights[0][kept], plain.weights_before_dropout[0][kept])
    assert kpi_values(rescaled)["Row sums"] == "0.00 to 2.00"
    assert plain.row_sums[0].max() <= 1.0 + 1e-12


def test_two_padded_words_and_a_pad_row_that_still_looks_at_real_words():
    result = result_of(11)
    assert (result.padding_cells, result.masked_cells) == (12, 18)
    pad_row = view_weights(11)[5]
    np.testing.assert_allclose(pad_row[:4].sum(), 1.0)
    assert pad_row[4:].sum() == 0


def test_last_scene_has_an_empty_row_and_outlines_it():
    result = result_of(12)
    assert result.empty_row_numbers == (1,) and SCENES[11].row == 1
    assert view_weights(12)[0].sum() == 0 and np.isfinite(result.weights).all()


@pytest.mark.parametrize(("raw", "expected"), [(None, 1), ("", 1), ("3", 3), (" 12 ", 12), ("1", 1)])
def test_scene_number_reads_good_values(raw, expected):
    assert scene_number(raw) == (expected, None)


@pytest.mark.parametrize("raw", ["0", str(len(SCENES) + 1), "-1", "3.0", "abc", "٣", "1e1", "`3`", "9" * 40])
def test_scene_number_falls_back_to_scene_one_with_a_note(raw):
    number, note = scene_number(raw)
    assert number == 1
    assert note is not None and f"1 to {len(SCENES)}" in note
    assert note.count("`") == 2  # the bad value sits in one code span; its own backticks cannot break out


# --- the training scenes: their numbers come from the shipped runs, and those runs show what they narrate ------


def test_training_scenes_come_last_and_name_a_preset():
    from attn_core.training import PRESETS

    assert SCENES[-len(TRAINING_SCENES):] == TRAINING_SCENES
    assert [scene.training for scene in TRAINING_SCENES] == ["mask", "heads"]
    assert all(scene.training in PRESETS and scene.settings.causal for scene in TRAINING_SCENES)


def test_the_mask_scene_narrates_its_shipped_run():
    from attn_core.training import PRESETS

    result = PRESETS["mask"].shipped()
    off, on = result.unmasked, result.masked
    assert off.train_loss < 0.01 and off.generating_loss > result.chance_loss  # "dives towards zero", useless
    assert abs(on.train_loss - result.entropy) < 0.05 and on.grammatical_sentences > off.grammatical_sentences
    assert on.grammatical_sentences > 0.9 and off.grammatical_sentences == 0  # "only this model writes sentences"


def test_the_heads_scene_narrates_its_shipped_run():
    from attn_core.training import PRESETS

    result = PRESETS["heads"].shipped()
    repeat = next(curve for curve in result.curves if curve.name == "repeat")
    assert repeat.losses[0] > 0.95 * result.chance_loss  # stalls near chance ...
    start = next(i for i, loss in enumerate(repeat.losses) if loss < 0.5 * result.chance_loss)
    stall = next(i for i, loss in enumerate(repeat.losses) if loss < 0.9 * result.chance_loss)
    assert repeat.steps[start] - repeat.steps[stall] <= 300  # ... then drops within a few hundred steps
    assert max(score.induction for score in result.heads) > 0.9  # a head reads what came after the earlier copy
