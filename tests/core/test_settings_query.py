"""Settings validation and the URL contract: exact round trips, and no value that can break it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_core import QUERY_KEYS, Settings, SettingsError, coerce_settings, settings_from_query, tokenize
from attn_core.tokens import word_embedding


def test_defaults_give_an_empty_query():
    assert Settings().to_query() == {}
    assert settings_from_query({}) == (Settings(), [])


def test_a_full_query_round_trips_exactly():
    s = Settings(
        sentence="the cat sat", causal=True, padded=(2, 3), heads=2, view=2, d_model=8, dropout=0.35,
        training=False, route="zero_after", seed=42, roll=7, rescale=False,
    )
    query = s.to_query()
    assert set(query) == set(QUERY_KEYS)
    assert query["pad"] == "2,3" and query["p"] == "0.35" and query["s"] == "the cat sat"
    back, notes = settings_from_query(query)
    assert back == s and notes == []


@settings(max_examples=80, deadline=None)
@given(
    st.booleans(), st.sampled_from([1, 2, 3, 4, 6, 12]), st.integers(0, 18), st.booleans(),
    st.sets(st.integers(1, 6)), st.sampled_from(["neg_inf", "zero_after", "renormalize", "zero_score"]),
    st.integers(0, 999_999), st.integers(0, 999_999), st.booleans(), st.data(),
)
def test_every_valid_settings_round_trips(causal, heads, p_steps, train, pad, route, seed, roll, rescale, data):
    view = data.draw(st.integers(1, heads))
    s = Settings(causal=causal, heads=heads, view=view, dropout=round(p_steps * 0.05, 2), training=train,
                 padded=tuple(sorted(pad)), route=route, seed=seed, roll=roll, rescale=rescale)
    assert settings_from_query(s.to_query()) == (s, [])


@pytest.mark.parametrize(
    ("query", "expected", "needle"),
    [
        ({"heads": "5"}, {"heads": 4}, "valid head counts for 12 are 1, 2, 3, 4, 6, 12"),
        ({"heads": "5", "d": "8"}, {"heads": 4, "d_model": 8}, "d_model = 8"),
        ({"heads": "0"}, {"heads": 1}, "whole number"),
        ({"heads": "four"}, {"heads": 1}, "whole number"),
        ({"p": "1.5"}, {"dropout": 0.9}, "between 0 and 0.9"),
        ({"p": "-1"}, {"dropout": 0.0}, "between 0 and 0.9"),
        ({"p": "nan"}, {"dropout": 0.0}, "number"),
        ({"p": "0.33"}, {"dropout": 0.35}, "steps"),
        ({"pad": "99"}, {"padded": ()}, "'99'"),
        ({"pad": "6,x,2,2"}, {"padded": (2, 6)}, "'x'"),
        ({"view": "7", "heads": "4"}, {"view": 4, "heads": 4}, "no head 7"),
        ({"view": "2"}, {"view": 1}, "no head 2"),
        ({"causal": "maybe"}, {"causal": False}, "0 or 1"),
        ({"route": "<script>"}, {"route": "neg_inf"}, "route"),
        ({"d": "7"}, {"d_model": 12}, "d_model can be"),
        ({"seed": "-3"}, {"seed": 0}, "between 0"),
        ({"seed": "1e99"}, {"seed": 999_999}, "between 0"),
        ({"seed": "2.5"}, {"seed": 0}, "whole number"),
        ({"s": " ".join(["word"] * 500)}, {"sentence": "Your journey starts with one step"}, "500 words"),
        ({"s": "   "}, {"sentence": "Your journey starts with one step"}, "empty"),
        ({"s": "x" * 10_000}, {"sentence": "Your journey starts with one step"}, "10,000 characters"),
        ({"causal": ["0", "1"]}, {"causal": True}, "2 times"),
    ],
)
def test_bad_values_give_valid_settings_and_one_plain_note(query, expected, needle):
    s, notes = settings_from_query(query)
    for field, value in expected.items():
        assert getattr(s, field) == value
    assert len(notes) == 1, notes
    assert needle in notes[0]


def test_a_padded_position_beyond_a_new_sentence_is_dropped():
    s, notes = settings_from_query({"s": "one two three", "pad": "3,5"})
    assert s.padded == (3,) and len(notes) == 1


def test_unknown_keys_are_left_to_other_features():
    assert settings_from_query({"mode": "projector", "scene": "3"}) == (Settings(), [])


def test_construction_refuses_impossible_settings_with_our_error():
    with pytest.raises(SettingsError, match="valid head counts for 12 are 1, 2, 3, 4, 6, 12"):
        Settings(heads=5)
    with pytest.raises(SettingsError, match="empty"):
        Settings(sentence="   ")
    with pytest.raises(SettingsError, match="17 words"):
        Settings(sentence=" ".join(["w"] * 17))
    with pytest.raises(SettingsError):
        Settings(view=2)
    with pytest.raises(SettingsError):
        Settings(padded=(7,))
    with pytest.raises(SettingsError):
        Settings(dropout=0.95)
    assert issubclass(SettingsError, ValueError)


def test_coerce_fixes_widget_values_the_same_way():
    s, notes = coerce_settings(heads=3, view=4, d_model=8, padded=(1, 9))
    assert s.heads == 2 and s.view == 2 and s.padded == (1,)
    assert len(notes) == 3


def test_markup_is_kept_as_literal_words():
    assert tokenize("<b>hi</b> **bold** $x$") == ("<b>hi</b>", "**bold**", "$x$")


def test_control_characters_are_refused():
    with pytest.raises(SettingsError, match="control"):
        tokenize("a\u200bb")


def test_word_embeddings_are_stable_and_case_blind():
    assert word_embedding("Step").tolist() == [0.05, 0.80, 0.55]
    assert word_embedding("cat").tolist() == word_embedding("CAT").tolist()
    assert ((word_embedding("cat") >= 0) & (word_embedding("cat") <= 1)).all()


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(
    st.sampled_from([*QUERY_KEYS, "mode", "zz"]),
    st.one_of(st.text(max_size=60), st.lists(st.text(max_size=8), max_size=3)),
))
def test_from_query_never_raises_and_always_gives_valid_settings(params):
    s, notes = settings_from_query(params)
    assert isinstance(s, Settings)
    assert settings_from_query(s.to_query()) == (s, [])
    assert all(isinstance(n, str) and n for n in notes)
