"""The guard: every number and comparison word a student reads in the static text banks has a recomputing check.

text_banks.py collects the banks; text_claims.py registers, per source, the numbers and comparison words it
holds and the check that recomputes them with the core. A new or changed number or comparison fails here
until it is registered with a check; a registered one that has gone fails too; and every check must hold.
"""

from __future__ import annotations

import pytest

from tests.ui.text_banks import claims_in, sources
from tests.ui.text_claims import CHECKS, REGISTRY

SOURCES = sources()


def test_every_source_with_a_number_or_comparison_is_registered():
    assert sorted(set(SOURCES) - set(REGISTRY)) == []


def test_no_registered_source_has_gone():
    assert sorted(set(REGISTRY) - set(SOURCES)) == []


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_registered_claims_are_exactly_the_ones_on_screen(source: str):
    registered, check = REGISTRY[source]
    assert claims_in(SOURCES[source]) == registered, SOURCES[source]
    assert check in CHECKS


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_check_recomputes_its_claims_with_the_core(name: str):
    assert CHECKS[name]() is True


def test_every_check_backs_some_text():
    assert sorted(set(CHECKS) - {check for _, check in REGISTRY.values()}) == []


def test_the_guard_sees_numbers_and_comparison_words():
    assert claims_in("It gets 0.29, more than half, and never 1 / 3.45 or 29%.") == (
        "0.29", "more than", "half", "never", "1", "3.45", "29%")


COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def test_a_section_blurb_counts_only_the_questions_its_section_has():
    """Check yourself's section blurbs: "The two code questions" over three questions said a count no one can find."""
    from attn_ui.quiz import bank

    for section in bank.SECTIONS:
        asked = sum(1 for question in bank.QUESTIONS if question.section == section.id)
        said = [COUNT_WORDS.get(word, word) for word in section.blurb.lower().replace(",", " ").split()
                if word in COUNT_WORDS or word.isdigit()]
        assert all(int(count) == asked for count in said), (section.id, section.blurb, asked)
