"""A lecturer's deck as a file and as a link (attn_core.deck): what is written reads back the same, and every hostile
deck gets a sentence naming what is wrong, never a traceback, never a half-read deck."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import Settings
from attn_core.deck import (
    FORMAT,
    MAX_FILE_BYTES,
    MAX_LINK_CHARS,
    MAX_SCENES,
    VERSION,
    Deck,
    DeckError,
    DeckScene,
    fits_link,
    read_json,
    read_link,
    to_json,
    to_link,
)

EXAMPLE = Deck("Week 3: masks", (
    DeckScene(Settings(causal=True), "blocked", title="How much goes dark?"),
    DeckScene(Settings(causal=True, padded=(5, 6), heads=2, view=2), "weight", row=3, key=2,
              narration="Head 2 reads *journey* a lot.\nAsk why."),
    DeckScene(Settings(sentence="The cat sat on the mat"), "which"),
    DeckScene(Settings(dropout=0.5, roll=4), "row_sum", row=4),
    DeckScene(Settings(), "discuss", prompt="Why block with −∞ and not 0?"),
))


def _file(*scenes: dict, **deck: object) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, **deck, "scenes": list(scenes)})


def _problems(raw: str | bytes) -> tuple[str, ...]:
    with pytest.raises(DeckError) as caught:
        read_json(raw)
    problems = caught.value.problems
    assert problems and all(isinstance(p, str) and p.strip() for p in problems)
    assert not any("Traceback" in p or "Error" in p.split()[0] for p in problems)
    return problems


def test_a_deck_reads_back_from_its_file_and_its_link():
    assert read_json(to_json(EXAMPLE)) == EXAMPLE
    assert read_link(to_link(EXAMPLE)) == EXAMPLE
    assert fits_link(EXAMPLE) and len(to_link(EXAMPLE)) < 600


def test_the_example_deck_in_the_docs_reads():
    from pathlib import Path

    deck = read_json((Path(__file__).resolve().parents[2] / "docs/decks/masks-week-3.json").read_bytes())
    assert len(deck.scenes) >= 6 and fits_link(deck)


WORDS = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), max_size=60)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["blocked", "padding", "d_head", "scores", "discuss"]), WORDS, WORDS),
                min_size=1, max_size=8), WORDS)
def test_any_deck_of_plain_text_reads_back(items, title):
    scenes = tuple(DeckScene(Settings(causal=True), kind, title=text.strip()[:80], narration=more.strip(),
                             prompt=(more.strip() or "Talk.") if kind == "discuss" else "")
                   for kind, text, more in items)
    import unicodedata

    deck = Deck(unicodedata.normalize("NFC", title.strip()), tuple(
        DeckScene(s.settings, s.ask, title=unicodedata.normalize("NFC", s.title).strip(),
                  narration=unicodedata.normalize("NFC", s.narration).strip(),
                  prompt=unicodedata.normalize("NFC", s.prompt).strip()) for s in scenes))
    assert read_json(to_json(deck)) == deck
    assert read_link(to_link(deck)) == deck


@pytest.mark.parametrize(("raw", "says"), [
    ("", "not valid JSON"),
    ("[1, 2]", "not a deck"),
    ('{"format": "other", "version": 1, "scenes": []}', "not a deck of this app"),
    (_file(version=2), "newer version"),
    ('{"format": "attn-lab-deck", "version": "1", "scenes": []}', "must be 1"),
    ('{"format": "attn-lab-deck", "scenes": []}', "must be 1"),
    (_file(), "no scenes"),
    ('{"format": "attn-lab-deck", "version": 1, "scenes": {}}', "no scenes"),
    ('{"format": "attn-lab-deck", "version": 1, "version": 1, "scenes": []}', "twice"),
    ('{"format": "attn-lab-deck", "version": 1, "scenes": [{"row": NaN}]}', "NaN"),
    ("[" * 50_000 + "]" * 50_000, "nests too deeply"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_a_file_that_is_no_deck_says_why(raw, says):
    assert says in _problems(raw)[0]


def test_an_oversized_file_and_too_many_scenes_are_refused_before_they_are_read():
    assert "at most 100,000" in _problems(b" " * (MAX_FILE_BYTES + 1))[0]
    scenes = [{"state": "causal=1", "ask": "blocked"}] * (MAX_SCENES + 1)
    assert f"at most {MAX_SCENES}" in _problems(_file(*scenes))[0]


@pytest.mark.parametrize(("scene", "says"), [
    ({"ask": "blocked"}, "`state` must be the Lab's address keys"),
    ({"state": 5, "ask": "blocked"}, "`state` must be"),
    ({"state": "heads=5", "ask": "blocked"}, "cannot split"),
    ({"state": "p=2", "ask": "blocked"}, "must be between"),
    ({"state": "s=" + "w+" * 40, "ask": "blocked"}, "words"),
    ({"state": "evil=1", "ask": "blocked"}, "not one of the Lab's settings"),
    ({"state": "causal=1&causal=0", "ask": "blocked"}, "twice"),
    ({"state": "causal=1", "ask": "nope"}, "`ask` must be one of"),
    ({"state": "causal=1", "ask": ["blocked"]}, "`ask` must be one of"),
    ({"state": "causal=1", "ask": "weight", "row": "3", "key": 1}, "`row` must be a whole number"),
    ({"state": "causal=1", "ask": "weight", "row": True, "key": 1}, "`row` must be a whole number"),
    ({"state": "causal=1", "ask": "weight", "row": 2.5, "key": 1}, "`row` must be a whole number"),
    ({"state": "causal=1", "ask": "weight", "row": 99, "key": 1}, "rows and keys 1 to 6"),
    ({"state": "causal=1", "ask": "weight", "row": 2}, "Pick a key"),
    ({"state": "causal=1", "ask": "largest"}, "Pick a row"),
    ({"state": "", "ask": "row_sum", "row": 2}, "dropout on"),
    ({"state": "s=same+same", "ask": "most", "row": 2}, "equal to two decimals"),
    ({"state": "s=alone", "ask": "which"}, "looks the same"),
    ({"state": "causal=1", "ask": "discuss"}, "needs its `prompt`"),
    ({"state": "causal=1", "ask": "blocked", "title": 7}, "`title` must be text"),
    ({"state": "causal=1", "ask": "blocked", "title": "x" * 81}, "at most 80"),
    ({"state": "causal=1", "ask": "blocked", "narration": "x" * 601}, "at most 600"),
    ({"state": "causal=1", "ask": "blocked", "title": "right\u202eleft"}, "U+202E"),
    ({"state": "causal=1", "ask": "blocked", "title": "zero\u200bwidth"}, "U+200B"),
    ({"state": "causal=1", "ask": "blocked", "title": "bell\u0007"}, "U+0007"),
    ({"state": "causal=1", "ask": "blocked", "title": "two\nlines"}, "U+000A"),
    ({"state": "causal=1", "ask": "blocked", "narration": "nul\u0000"}, "U+0000"),
    ({"state": "causal=1", "ask": "blocked", "title": "lone \ud800"}, "U+D800"),
    ({"state": "causal=1", "ask": "blocked", "script": "alert(1)"}, "does not know: `script`"),
])
def test_a_bad_scene_names_its_scene_and_its_field(scene, says):
    problems = _problems(_file({"state": "causal=1", "ask": "blocked"}, scene))
    assert any(says in p and p.startswith("Scene 2") for p in problems), problems


def test_every_problem_is_listed_at_once_up_to_a_limit():
    scenes = [{"state": "causal=1", "ask": "nope"}] * 12
    problems = _problems(_file(*scenes))
    assert len(problems) == 9 and "and 4 more" in problems[-1]


def test_markup_and_lookalikes_are_kept_as_text():
    scene = {"state": "causal=1", "ask": "blocked", "title": "<script>alert(1)</script>",
             "narration": "**bold** [link](javascript:alert(1)) $x$ :red[red]"}
    deck = read_json(_file(scene))
    assert deck.scenes[0].title == "<script>alert(1)</script>"  # the page escapes it (tests/ui/test_deck_page.py)
    composed = read_json(_file({"state": "causal=1", "ask": "blocked", "title": "cafe\u0301"}))
    assert composed.scenes[0].title == "café"  # NFC: the same title however it was typed


def test_a_damaged_or_hostile_link_says_why():
    link = to_link(EXAMPLE)
    for value in ("", "   ", link[:-10], link[:20], "!!!!", link.replace("e", "E")):
        with pytest.raises(DeckError):
            read_link(value)
    with pytest.raises(DeckError, match="at most 1,800"):
        read_link("A" * (2 * MAX_LINK_CHARS + 1))
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * 1_000_000, 9)).decode().rstrip("=")
    assert len(bomb) < 2 * MAX_LINK_CHARS
    with pytest.raises(DeckError, match="unpacks to more than"):
        read_link(bomb)


def test_a_long_deck_does_not_fit_a_link_but_fits_its_file():
    import hashlib

    def words(i: int) -> str:  # text that does not compress away
        return " ".join(hashlib.sha256(f"{i}.{j}".encode()).hexdigest()[:8] for j in range(60))

    long = Deck("", tuple(DeckScene(Settings(causal=True), "blocked", narration=words(i)) for i in range(MAX_SCENES)))
    assert not fits_link(long)
    assert read_json(to_json(long)) == long
