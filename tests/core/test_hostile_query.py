"""Hostile input against the core: whatever a URL or the sentence box holds, the core answers with valid
settings and plain notes, or refuses a sentence with our own error; it never raises anything else.

Notes are shown as Markdown, so any piece of user text a note repeats must sit inside a code span, where
Markdown, Streamlit's `:colour[...]` and `$maths$` are all shown as typed.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_core import (
    DEFAULT_SENTENCE,
    MAX_DROPOUT,
    MAX_TOKENS,
    MAX_WORD_CHARS,
    QUERY_KEYS,
    ROUTES,
    SUPPORTED_D_MODEL,
    Settings,
    SettingsError,
    compute,
    settings_from_query,
    tokenize,
)
from attn_core.tokens import word_embedding

NASTY = [
    "", " ", "   ", "\t", "0", "-0", "-1", "-999999999999", "1e309", "-1e309", "1e-320", "inf", "-inf", "nan",
    "NaN", "0.5", "2.5", "1/2", "0x10", "1_000", "１２", "٤", "½", "Ⅻ", "00000000000000000000000000000000000000001",
    "9" * 400, "true", "yes", "on", "ON", "None", "null", "undefined", "[]", "{}", "[1,2]", "1,2,,3", ",,,", "1,-2",
    "<script>alert(1)</script>", "<b>x</b>", "<img src=x onerror=alert(1)>", "**bold**", "[a](javascript:alert(1))",
    ":red[x]", ":material/home:", "$x^2$", "`code`", "\\", "'; DROP TABLE users; --", "' OR 1=1 --", "${7*7}",
    "{{7*7}}", "%s%s%n", "%00", "\x00", "\u200b", "\u202eevil", "\ufeff1", "\n1", "1\n", "é", "🙂", "שלום", "مرحبا",
    "a" * 10_000, " ".join(["w"] * 40),
]  # fmt: skip

MARKUP_CHARS = set("<>[]$*`|~")
CODE_SPAN = re.compile(r"`[^`\n]*`")

hostile_text = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))
numeric_text = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.fractions().map(str),
    st.decimals(allow_nan=True).map(str),
)
values = st.one_of(hostile_text, numeric_text)
query_values = st.one_of(values, st.lists(values, max_size=4))  # a repeated key arrives as a list
query_keys = st.one_of(st.sampled_from(QUERY_KEYS), st.sampled_from(["mode", "row", "scene", "S", "heads "]),
                       st.text(max_size=12))
queries = st.dictionaries(query_keys, query_values, max_size=8)
HYPOTHESIS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outside_code_spans(note: str) -> str:
    return CODE_SPAN.sub("", note)


def assert_valid(s: Settings) -> None:
    """Everything the pages rely on, checked from the outside."""
    assert 1 <= len(s.tokens) <= MAX_TOKENS
    assert all(1 <= len(word) <= MAX_WORD_CHARS for word in s.tokens)
    assert s.d_model in SUPPORTED_D_MODEL and s.d_model % s.heads == 0 and 1 <= s.view <= s.heads
    assert 0.0 <= s.dropout <= MAX_DROPOUT and math.copysign(1.0, s.dropout) == 1.0  # no "-0" on screen
    assert round(s.dropout / 0.05, 6) == round(s.dropout / 0.05)
    assert s.route in ROUTES
    assert list(s.padded) == sorted(set(s.padded)) and all(1 <= pos <= len(s.tokens) for pos in s.padded)
    assert all(isinstance(flag, bool) for flag in (s.causal, s.training, s.rescale))


def assert_plain_notes(notes: list[str]) -> None:
    assert isinstance(notes, list)
    for note in notes:
        assert isinstance(note, str) and note.strip()
        assert len(note) < 600, f"a note must stay short, got {len(note)} characters"
        bare = outside_code_spans(note)
        assert not MARKUP_CHARS & set(bare), f"markup outside a code span: {note!r}"
        assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in bare), repr(note)


# ------------------------------------------------------------------ Settings.from_query, property-based


@HYPOTHESIS
@given(queries)
def test_any_query_gives_valid_settings_and_plain_notes(params):
    s, notes = settings_from_query(params)
    assert_valid(s)
    assert_plain_notes(notes)


@HYPOTHESIS
@given(queries)
def test_what_a_hostile_query_gives_is_a_fixed_point_of_the_url(params):
    s, _ = settings_from_query(params)
    query = s.to_query()
    assert all(isinstance(v, str) for v in query.values())
    assert settings_from_query(query) == (s, [])
    assert settings_from_query({k: [v] for k, v in query.items()}) == (s, [])
    assert (query == {}) == (s == Settings())


@HYPOTHESIS
@given(queries, st.dictionaries(st.text(max_size=12).filter(lambda k: k not in QUERY_KEYS), query_values))
def test_unknown_keys_change_nothing(params, unknown):
    assert settings_from_query({**unknown, **params}) == settings_from_query(params)


@HYPOTHESIS
@given(st.sampled_from(QUERY_KEYS), st.lists(values, min_size=2, max_size=5))
def test_a_repeated_key_uses_its_last_value_and_says_so(key, repeated):
    s, notes = settings_from_query({key: repeated})
    assert (s, notes[1:]) == settings_from_query({key: repeated[-1]})
    assert notes[0] == f"`{key}` was given {len(repeated)} times; the last one was used."


@HYPOTHESIS
@given(st.sampled_from([k for k in QUERY_KEYS if k != "s"]), values)
def test_a_bad_value_falls_back_with_exactly_one_note(key, value):
    s, notes = settings_from_query({key: value})
    changed = {k for k, v in s.to_query().items()} - {key}
    assert not changed, f"{key}={value!r} changed other keys: {changed}"
    assert len(notes) <= 1


@HYPOTHESIS
@given(hostile_text)
def test_a_sentence_is_used_as_typed_or_refused_with_a_note(text):
    s, notes = settings_from_query({"s": text})
    try:
        tokens = tokenize(text)
    except SettingsError as error:
        assert s.sentence == DEFAULT_SENTENCE and len(notes) == 1
        assert notes[0].startswith(str(error)) and notes[0].endswith("Showing the default sentence instead.")
    else:
        assert s.tokens == tokens and notes == []


# ------------------------------------------------------------------ Settings.from_query, hand-picked


@pytest.mark.parametrize("key", QUERY_KEYS)
@pytest.mark.parametrize("value", NASTY, ids=lambda v: repr(v)[:24])
def test_every_key_with_every_nasty_value(key, value):
    s, notes = settings_from_query({key: [value]})
    assert_valid(s)
    assert_plain_notes(notes)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"heads": "-4"}, {"heads": 1}),
        ({"heads": "1e309"}, {"heads": 1}),
        ({"heads": "99999999999999999999"}, {"heads": 12}),
        ({"heads": "2.0"}, {"heads": 2}),
        ({"heads": "2.5"}, {"heads": 1}),
        ({"view": "-1", "heads": "4"}, {"view": 1}),
        ({"view": "1e9", "heads": "4"}, {"view": 4}),
        ({"p": "-0"}, {"dropout": 0.0}),
        ({"p": "0.0000001"}, {"dropout": 0.0}),
        ({"p": "1e309"}, {"dropout": 0.0}),
        ({"p": "0.9000001"}, {"dropout": 0.9}),
        ({"d": "12.0"}, {"d_model": 12}),
        ({"d": "-12"}, {"d_model": 12}),
        ({"pad": "1,1,1,6,6"}, {"padded": (1, 6)}),
        ({"pad": "0,-1,7,1.5, 2 "}, {"padded": (2,)}),
        ({"pad": "１,٢"}, {"padded": ()}),
        ({"pad": ",".join(map(str, range(1, 5000)))}, {"padded": (1, 2, 3, 4, 5, 6)}),
        ({"route": "NEG_INF"}, {"route": "neg_inf"}),
        ({"route": " zero_after "}, {"route": "zero_after"}),
        ({"causal": "TRUE"}, {"causal": True}),
        ({"causal": "2"}, {"causal": False}),
        ({"seed": "007"}, {"seed": 7}),
        ({"seed": "-0"}, {"seed": 0}),
        ({"roll": "999999.0"}, {"roll": 999_999}),
    ],
)
def test_edge_values_land_on_the_expected_setting(query, expected):
    s, notes = settings_from_query(query)
    assert {field: getattr(s, field) for field in expected} == expected
    assert_plain_notes(notes)


@pytest.mark.parametrize(
    "value",
    ["<b>x</b>", "<script>", "[a](javascript:x)", ":red[x]", "$x^2$", "**b**", "a|b", "~~s~~", "`x`", "``x``"],
)
def test_a_rejected_pad_value_is_quoted_as_code(value):
    _, notes = settings_from_query({"pad": value})
    assert len(notes) == 1
    assert not MARKUP_CHARS & set(outside_code_spans(notes[0])), notes[0]


def test_a_huge_query_is_read_quickly_with_short_notes():
    huge = "x" * 1_000_000
    params = {key: [huge, huge] for key in QUERY_KEYS} | {"pad": ",".join(["x"] * 200_000)}
    started = time.perf_counter()
    s, notes = settings_from_query(params)
    assert time.perf_counter() - started < 1.0
    assert s.sentence == DEFAULT_SENTENCE and s.padded == ()
    assert_plain_notes(notes)
    assert sum(map(len, notes)) < 4_000


def test_only_foreign_keys_give_the_defaults_silently():
    assert settings_from_query({"": "1", "mode": "<b>", "x" * 500: "1", "héads": "4"}) == (Settings(), [])


# ------------------------------------------------------------------ tokenize


@pytest.mark.parametrize("text", ["", " ", "      ", "\t\n \r", "\u3000", "\u00a0 \u2003"])
def test_empty_or_blank_sentences_are_refused(text):
    with pytest.raises(SettingsError, match="empty"):
        tokenize(text)


@pytest.mark.parametrize("count", [17, 18, 100, 5_000])
def test_more_than_sixteen_words_are_refused_with_the_count(count):
    with pytest.raises(SettingsError, match=f"{count:,} words; the app takes 1 to 16"):
        tokenize(" ".join(f"w{i}" for i in range(count)))


def test_sixteen_words_are_fine():
    assert len(tokenize(" ".join(f"w{i}" for i in range(16)))) == 16


@pytest.mark.parametrize("length", [25, 10_000])
def test_a_long_word_is_refused_with_its_length(length):
    with pytest.raises(SettingsError, match=f"{length:,} characters long; each word may have at most 24"):
        tokenize("short " + "x" * length)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("🙂 🚀 héllo", ("🙂", "🚀", "héllo")),
        ("👩‍💻 codes", ("👩‍💻", "codes")),  # an emoji joined with U+200D is one picture, not a trick
        ("👍🏽 ❤️", ("👍🏽", "❤️")),  # skin tone and variation selector
        ("مرحبا بالعالم", ("مرحبا", "بالعالم")),
        ("שלום עולם", ("שלום", "עולם")),
        ("<b>x</b> <script>alert(1)", ("<b>x</b>", "<script>alert(1)")),
        ("**bold** [a](b) :red[x] $x^2$ # > - |", ("**bold**", "[a](b)", ":red[x]", "$x^2$", "#", ">", "-", "|")),
        ("  spaced\tout \n words  ", ("spaced", "out", "words")),
        ("e\u0301 café", ("é", "café")),  # NFC: a letter + combining accent becomes one character
    ],
)
def test_words_are_kept_literally(text, tokens):
    assert tokenize(text) == tokens


@pytest.mark.parametrize(
    "text",
    ["a\u200bb", "a\u200cb", "x\u200dy", "\u200d", "🙂\u200d", "\u202eevil", "rtl\u200fmark", "bom\ufeff", "nul\x00",
     "bell\x07", "esc\x1b[31m", "del\x7f", "soft\u00adhyphen", "private\ue000", "tag\U000e0041"],
)
def test_control_and_invisible_characters_are_refused(text):
    with pytest.raises(SettingsError, match="control or invisible characters"):
        tokenize(text)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_tokenize_keeps_its_contract_on_any_text(text):
    try:
        tokens = tokenize(text)
    except SettingsError as error:
        assert str(error).endswith((".", "word.", "words.")) and "\n" not in str(error)
        return
    assert 1 <= len(tokens) <= MAX_TOKENS
    for word in tokens:
        assert 1 <= len(word) <= MAX_WORD_CHARS and word.split() == [word]
        assert unicodedata.normalize("NFC", word) == word
    assert tokenize(" ".join(tokens)) == tokens  # the sentence the app stores reads back the same
    x = np.stack([word_embedding(word) for word in tokens])  # (T, 3)
    assert np.isfinite(x).all() and (x >= 0).all() and (x <= 1).all()


@pytest.mark.parametrize(
    "sentence",
    ["<b>x</b> <b>x</b> **b**", "👩‍💻 שלום مرحبا 🙂", ":red[x] $x^2$ [a](b) `c`", " ".join(["same"] * 16)],
)
def test_hostile_sentences_compute_finite_maps(sentence):
    s, notes = settings_from_query({"s": sentence, "causal": "1", "pad": "1", "heads": "3", "p": "0.5"})
    assert notes == []
    result = compute(s)
    assert result.tokens == tokenize(sentence)
    assert len(set(result.labels)) == len(result.tokens)
    assert np.isfinite(result.weights).all()
    np.testing.assert_allclose(result.weights_before_dropout.sum(axis=-1)[:, 1:], 1.0)
