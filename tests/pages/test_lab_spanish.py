"""The Lab and the mask lessons in Spanish: the numbers take the decimal comma, and a map cached for one language is
never served in another. Only the numbers are checked here, so these tests hold whether or not the Spanish catalog
has the messages yet (tests/lang checks the catalog itself)."""

from __future__ import annotations

import re

from attn_core import Settings, compute
from attn_core.lessons import heads as head_lessons
from attn_core.lessons import masks as mask_lessons
from attn_lang import using
from attn_ui.figures.maps import drawn_labels
from attn_ui.words import mask_words
from attn_ui.words.explain import kpi_values
from tests.apptest_helpers import run_lab, specs

SETTINGS = Settings(causal=True, dropout=0.5)
TWO_DECIMALS = {"en": re.compile(r"\d\.\d\d"), "es": re.compile(r"\d,\d\d")}


def test_the_lab_in_spanish_writes_decimal_commas_and_keeps_the_english_map_apart():
    english = run_lab(causal="1", p="0.5")
    spanish = run_lab(lang="es", causal="1", p="0.5")  # the same Settings: the shared caches are warm in English
    result = compute(SETTINGS)
    sums = {code: [m.value for m in at.metric][list(kpi_values(result)).index("Row sums")]
            for code, at in (("en", english), ("es", spanish))}
    assert sums["en"] == kpi_values(result)["Row sums"]
    with using("es"):
        assert sums["es"] == kpi_values(result)["Row sums"]
    assert TWO_DECIMALS["es"].search(sums["es"]) and "." not in sums["es"]
    for code, at in (("en", english), ("es", spanish)):
        spec = specs(at)[0]
        assert spec["layout"]["separators"] == {"en": ".,", "es": ",."}[code]
        numbers = [cell for cell in drawn_labels(spec["data"]).ravel() if cell[:1].isdigit()]
        assert numbers and all(TWO_DECIMALS[code].fullmatch(cell) for cell in numbers), numbers


def test_lesson_numbers_in_spanish():
    with using("es"):
        worked = mask_words.worked_example_text(mask_lessons.worked_example())
        tiles = mask_words.dropout_tiles(compute(Settings(dropout=0.5)), 10)
        assert "0,34" in worked and "$e^{0{,}34}" in worked  # a comma inside a formula is braced
        assert tiles[mask_words.SURVIVORS_TILE] == "2,00"
        assert head_lessons.human_bytes(1_610_612_736) == "1,61 GB"
    assert head_lessons.human_bytes(1_610_612_736) == "1.61 GB"
