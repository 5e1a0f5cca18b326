"""Every number a screen quotes is the core's in every language: a scene's facts, the Lab's tiles and a live
question's grid, drawn in Spanish, read back as numbers, equal the English ones. (tests/lang/catalog_checks.py checks
the other half: no translation drops or changes a placeholder or a number of its message.)"""

from __future__ import annotations

import re

import pytest

from attn_core import Settings, compute
from attn_lang import using
from attn_ui.words import live
from attn_ui.words.explain import kpi_values
from attn_ui.words.scenes import SCENES, scene_facts

NUMBER = re.compile(r"-?\d[\d.,]*")


def numbers_of(text: str, decimal: str, group: str) -> list[float]:
    """The numbers of a text written with these signs, as floats."""
    found = []
    for raw in NUMBER.findall(text):
        cleaned = raw.rstrip(".,").replace(group, "\0").replace(decimal, ".").replace("\0", "")
        found.append(float(cleaned))
    return found


@pytest.mark.parametrize("number", range(1, len(SCENES) + 1))
def test_a_scene_quotes_the_same_numbers_in_spanish(number):
    scene = SCENES[number - 1]
    english = scene_facts(scene)
    with using("es"):
        spanish = scene_facts(scene)
    assert set(spanish) == set(english)
    for name in english:
        assert numbers_of(spanish[name], ",", ".") == numbers_of(english[name], ".", ","), (name, spanish[name])


@pytest.mark.parametrize("settings", [Settings(), Settings(causal=True, dropout=0.5, heads=4),
                                      Settings(padded=(1,), causal=True)], ids=repr)
def test_the_tiles_show_the_same_numbers_in_spanish(settings):
    result = compute(settings)
    english = kpi_values(result)
    with using("es"):
        spanish = kpi_values(result)
    assert list(spanish) == list(english), "the tiles stay keyed by their English labels"
    for label in english:
        assert numbers_of(spanish[label], ",", ".") == numbers_of(english[label], ".", ","), (label, spanish[label])
    assert "," in spanish["Row sums"] and "." not in spanish["Row sums"]


def test_a_live_question_offers_the_same_grid_in_spanish():
    for number in range(1, len(SCENES) + 1):
        english = live.live_question(number)
        with using("es"):
            spanish = live.live_question(number)
        if english.kind == "number":
            assert [numbers_of(o, ",", ".") for o in spanish.options] == [[v] for v in english.values]
