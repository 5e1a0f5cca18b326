"""The table of URL keys in docs/urls.md is the one the declarations make, and the Lab's view-key readers note what
they drop."""

import re
from pathlib import Path

from attn_core.query import lab_view_notes, read_row
from attn_core.url_keys import url_keys_markdown

KEY_TABLE = Path(__file__).resolve().parents[2] / "docs" / "urls.md"


def test_the_docs_key_table_is_made_from_the_declarations():
    text = KEY_TABLE.read_text()
    found = re.search(r"<!-- url-keys:[^\n]*-->\n(.*?)\n<!-- /url-keys -->", text, re.S)
    assert found, "docs/urls.md lost its url-keys markers"
    assert found[1] == url_keys_markdown(), (
        "the key table in docs/urls.md differs from attn_core.url_keys.url_keys_markdown(); paste its output there"
    )


def test_a_row_outside_the_sentence_is_dropped_with_a_note():
    assert read_row("3", 6) == (2, None)
    row, note = read_row("99", 6)
    assert row is None and "`row` must be a word position from 1 to 6" in note
    assert read_row(None, 6) == (None, None)


def test_every_key_the_lab_does_not_use_gets_a_note():
    notes = lab_view_notes({"causal": ["1"], "row": ["2"], "section": ["foo"], "zzz": ["1"]})
    assert len(notes) == 2 and "'section'" in notes[0] and "'zzz'" in notes[1]


def test_the_labs_lesson_key_names_a_lesson_or_is_ignored_with_a_note():
    from attn_core.query import read_lesson

    assert read_lesson(None, 6) == (None, None) and read_lesson(" 3 ", 6) == (3, None)
    for raw in ("0", "7", "x", "³"):
        number, note = read_lesson(raw, 6)
        assert number is None and "`lesson` must be a lesson's number from 1 to 6" in note
