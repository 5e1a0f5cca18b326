"""Numbers that add up as they are shown, and no minus before a zero (issue 40, item 5)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

import numpy as np
import pytest

from attn_core import Settings, compute
from attn_core.lessons import heads as lessons
from attn_lang import _, number
from attn_lang.current import using
from attn_ui.words import head_words
from attn_ui.words.explain import row_sentence, shown_sum

SETTINGS = [Settings(causal=causal, dropout=p, roll=roll, heads=heads, route=route)
            for causal, p, roll, heads, route in itertools.product(
                (False, True), (0.0, 0.1, 0.5), range(4), (1, 3), ("neg_inf", "zero_score"))]
SUM = re.compile(r"its row sums to (-?\d+\.\d\d)")
SHOWN = re.compile(r"add up to (\d+\.\d\d)\.$")
NEGATIVE_ZERO = re.compile(r"[-−]0(?:[.,]0+)?(?![0-9.,])")


def test_a_row_sentence_states_the_sum_of_its_cells_as_shown():
    """The map writes each weight with two decimals; a row's sentence names the sum those numbers make, when it
    differs from the true sum's two decimals (a dropout row: 1.34 said, 1.35 shown)."""
    differ = 0
    for settings in SETTINGS:
        result = compute(settings)
        for row in range(len(result.tokens)):
            if row in result.empty_rows:
                continue
            weights = result.weights[result.view_index, row]  # (T,)
            cells = sum(Decimal(f"{w:.2f}") for w in weights)  # what a reader adds up from the map
            sentence = row_sentence(result, row)
            said = Decimal(SUM.search(sentence).group(1))
            if said != cells:
                differ += 1
                assert Decimal(SHOWN.search(sentence).group(1)) == cells, sentence
            else:
                assert "rounded" not in sentence, sentence
    assert differ > 10  # the case is common under dropout: the test saw it


def test_the_shown_sum_is_exact_in_decimal():
    assert shown_sum(np.array([0.335, 0.335, 0.33])) == pytest.approx(float(sum(
        Decimal(f"{w:.2f}") for w in (0.335, 0.335, 0.33))))
    assert f"{shown_sum(np.full(6, 1 / 6)):.2f}" == "1.02"  # six cells of 0.17


def test_the_step_tables_say_when_their_sum_is_not_the_sum_of_the_rounded_rows():
    said = 0
    for settings in SETTINGS[::3]:
        result = compute(settings)
        for query, head in itertools.product(range(len(result.tokens)), range(settings.heads)):
            steps = head_words.row_steps(lessons.row_by_hand(result, query, head))
            weighted = steps[-1]
            columns = list(weighted.columns.values())[1:]
            agree = all(head_words.adds_up_as_shown(column[:-1], column[-1]) for column in columns)
            assert (_(head_words.ROUNDED_SUM) in weighted.note) is not agree, weighted.note
            said += not agree
    assert said > 0


def test_no_number_is_written_as_a_negative_zero():
    assert number(-0.00001, ".4f") == "0.0000" and number(-0.004, ".2f") == "0.00" and number(-0.0) == "0.0"
    assert number(-0.006, ".2f") == "-0.01" and number(-1e-9, "g") == "-1e-09"  # a number shown is kept
    assert _("{value:.2f} and {other:.3f}", value=-0.001, other=-1.5) == "0.00 and -1.500"
    with using("es"):
        assert number(-0.00001, ".4f") == "0,0000" and _("{value:.2f}", value=-0.001) == "0,00"


def test_the_step_tables_hold_no_negative_zero():
    """Page 6's tables: a weight times a value of -0.00001 is written 0.0000, in the wide table and the narrow."""
    seen = 0
    for settings in SETTINGS:
        result = compute(settings)
        for query, head in itertools.product(range(len(result.tokens)), range(settings.heads)):
            for step in head_words.row_steps(lessons.row_by_hand(result, query, head)):
                for values in step.columns.values():
                    for value in values:
                        if isinstance(value, float):
                            seen += 1
                            assert not (value == 0 and np.signbit(value)), step.title
                            assert not NEGATIVE_ZERO.search(head_words.digits(value)), (step.title, value)
                assert not NEGATIVE_ZERO.search(step.note), step.note
    assert seen > 1000
