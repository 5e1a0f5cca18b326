"""The catalogs are in step with the code, and every translation keeps its message's placeholders and numbers
(tests/lang/catalog_checks.py says what each check means)."""

from __future__ import annotations

import pytest

from attn_lang.languages import DEFAULT, LANGUAGES
from tests.lang import catalog_checks

TRANSLATED = [code for code in LANGUAGES if code != DEFAULT]


def test_the_template_holds_every_message_of_the_code():
    assert catalog_checks.pot_problems() == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders_and_numbers(code):
    assert catalog_checks.translation_problems(code) == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_is_the_one_the_app_reads(code):
    assert catalog_checks.compiled_problems(code) == []


def test_the_checks_catch_a_dropped_number_or_placeholder():
    assert catalog_checks.fields("Row {row} sums to {total:.2f}") == catalog_checks.fields("{total:.2f} en {row}")
    assert catalog_checks.fields("Row {row}") != catalog_checks.fields("Fila")
    assert catalog_checks.fields("{total:.2f}") != catalog_checks.fields("{total:.1f}")
    assert catalog_checks.numbers("at 1280x720 and 0.5") == catalog_checks.numbers("a 1280x720 y 0,5")
    assert catalog_checks.numbers("30 minutes") != catalog_checks.numbers("treinta minutos")
