"""The answers in an address (`answers` on Check yourself, `answer` on a lesson page): written and read back exactly,
a prediction skipped on purpose included, and anything forged refused with a note, never an error."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from attn_core.query import PAGE_ANSWERS_KEY, SKIPPED, read_answers, write_answers

SHAPES = (("choice", 3), ("order", 4), ("choice", 4), ("code", 4))  # (kind, number of options), in bank order


def test_a_skip_is_written_as_a_dash_and_read_back():
    assert write_answers(SHAPES, {}, {}, skipped={0}) == SKIPPED == "-"
    read = read_answers("-", SHAPES)
    assert (read.first, read.current, read.skipped, read.notes) == ({}, {}, frozenset({0}), [])


def test_an_answer_after_a_skip_is_current_and_never_first():
    written = write_answers(SHAPES, {}, {2: 3}, skipped={2})
    assert written == "..-~d"
    read = read_answers(written, SHAPES)
    assert (read.first, read.current, read.skipped) == ({}, {2: 3}, frozenset({2}))


def test_first_current_and_skips_together_make_a_round_trip():
    first, current, skipped = {0: 1, 3: 0}, {0: 2, 1: (3, 1), 3: 0}, {2}
    written = write_answers(SHAPES, first, current, skipped)
    assert written == "b~c.~db.-.a"
    read = read_answers(written, SHAPES)
    assert (read.first, read.current, read.skipped, read.notes) == (first, current, frozenset(skipped), [])


def test_a_lesson_page_writes_one_item_for_its_one_question():
    assert write_answers(SHAPES[:1], {0: 1}, {0: 1}) == "b"
    read = read_answers("b", SHAPES[:1], PAGE_ANSWERS_KEY)
    assert read.first == read.current == {0: 1} and not read.notes


def test_a_forged_item_is_refused_with_a_note_that_names_the_key():
    read = read_answers("-x.zz", SHAPES[:2], PAGE_ANSWERS_KEY)
    assert (read.first, read.current, read.skipped) == ({}, {}, frozenset())
    assert read.notes == ["`answer` could not be read for question 1, 2; those start unanswered."]
    too_many = read_answers("a.b.c.d.e", SHAPES, PAGE_ANSWERS_KEY)
    assert too_many.notes[0].startswith("`answer` holds 5 items but there are 4 questions")


def test_a_skip_with_a_garbled_current_answer_is_refused():
    read = read_answers("-~q", SHAPES[:1])
    assert read.skipped == frozenset() and read.notes


@given(st.text(alphabet=string.ascii_lowercase + ".~-" + "%&= x", max_size=60))
def test_any_value_reads_without_an_error_and_what_it_holds_writes_back_the_same(raw):
    read = read_answers(raw, SHAPES)
    again = read_answers(write_answers(SHAPES, read.first, read.current, read.skipped), SHAPES)
    assert (again.first, again.current, again.skipped, again.notes) == (read.first, read.current, read.skipped, [])
