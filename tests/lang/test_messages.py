"""attn_lang's messages: looked up in the run's language, formatted with the language's numbers, plural forms from
the catalog, the pseudo-language's marks, and a browser's or a link's language read leniently."""

from __future__ import annotations

import pytest
from babel.numbers import format_decimal

from attn_lang import (
    DEFAULT,
    LANGUAGES,
    N_,
    PSEUDO,
    _,
    _n,
    current_language,
    language_for,
    number,
    plotly_separators,
    using,
)
from attn_lang.pseudo import CLOSE, OPEN, pseudo


def test_english_is_python_s_own_formatting():
    assert _("Row {row} sums to {total:.2f}", row=3, total=1.346) == "Row 3 sums to 1.35"
    assert _("A {brace} stays when there are no values") == "A {brace} stays when there are no values"
    assert number(1024, ",") == "1,024" and number(0.5, ".0%") == "50%"


def test_spanish_numbers_take_the_decimal_comma_and_the_grouping_point():
    with using("es"):
        assert current_language() == "es"
        assert number(0.6931, ".2f") == "0,69" and number(1024, ",") == "1.024"
        assert number(-1.5, ".1f") == "-1,5" and number(3, "") == "3"
        assert _("Language") == "Idioma"
        assert _("") == "" and _(N_("")) == "", "not the catalog's header"
    assert current_language() == DEFAULT


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_signs_are_babel_s(code):
    assert number(12345.678, ",.2f", code) == format_decimal(12345.678, format="#,##0.00", locale=code)
    assert plotly_separators(code) == format_decimal(1.5, locale=code)[1] + format_decimal(1000, locale=code)[1]


def test_plural_forms_follow_the_count():
    assert _n("{count} cell", "{count} cells", 1) == "1 cell" and _n("{count} cell", "{count} cells", 21) == "21 cells"


def test_the_pseudo_language_brackets_accents_and_keeps_what_a_page_needs():
    text = pseudo("**Row {row}** sums to `x`: see [the Lab](/?causal=1) :material/check: & more")
    assert text.startswith(OPEN) and text.endswith(CLOSE)
    assert "{row}" in text and "`x`" in text and "](/?causal=1)" in text and ":material/check:" in text
    assert "Row" not in text and "sums" not in text
    assert len(text) >= 1.3 * len("**Row {row}** sums to `x`: see [the Lab](/?causal=1) :material/check: & more") - 40
    assert pseudo("- an item").startswith("- " + OPEN)
    with using(PSEUDO):
        assert _("Row {row}", row=3).startswith(OPEN) and "3" in _("Row {row}", row=3)


@pytest.mark.parametrize(("raw", "code"), [("es", "es"), ("es-ES", "es"), ("es_419", "es"), ("ES", "es"),
                                          ("en-GB", "en"), ("fr", None), ("", None), (None, None), ("x" * 500, None)])
def test_a_browser_s_or_a_link_s_language_is_read_leniently(raw, code):
    assert language_for(raw) == code


def test_the_pseudo_language_is_offered_only_where_the_tests_ask(monkeypatch):
    monkeypatch.delenv("ATTN_LAB_PSEUDO", raising=False)
    assert language_for(PSEUDO) == "en"  # read as English, its base language
    monkeypatch.setenv("ATTN_LAB_PSEUDO", "1")
    assert language_for(PSEUDO) == PSEUDO
