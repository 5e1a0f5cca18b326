"""A framed map fits any sentence the box accepts, on the style's own screen and on a 390 px phone: checked on the
sizes figures/map_fit.py chooses, for random sentences of 1 to 16 words of up to 24 characters (Latin, emoji, CJK,
markup), with PAD words, and in both languages. tests/browser/test_map_sentences_browser.py measures the same in
Chromium for the cases a tester found broken."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_core import Settings, compute
from attn_core.tokens import MAX_TOKENS, MAX_WORD_CHARS
from attn_lang import using
from attn_ui.figures import layout, map_fit, maps
from attn_ui.figures.layout import MIN_TEXT
from attn_ui.figures.palette import GREY_TEXT
from attn_ui.figures.plotly_fast import FIRST_LINE, LINE_SPACING
from attn_ui.widgets import look
from attn_ui.words.explain import head_name

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
LETTERS = string.ascii_letters + "<>&*_ñüß東京한글" + "\U0001f642\U0001f1ea\U0001f1f8"
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FRAMED = (layout.LAB, layout.PROJECTOR, layout.PROJECTOR_UNDER_LINK)  # the last: the Lab opened from a scene
CASES = {  # the tester's cases (issue 40, item 2)
    "default": Settings(),
    "five long words": Settings(sentence="Electroencephalographers Counterrevolutionaries Incomprehensibilities "
                                         "Internationalizations Uncharacteristically"),
    "16 words of 24 letters": Settings(sentence=" ".join("m" * 23 + chr(97 + i) for i in range(16))),
    "16 ordinary words": Settings(sentence="the quick brown fox jumps over the lazy dog while seven small birds "
                                           "sing loud songs"),
    "a family emoji": Settings(sentence=f"My {FAMILY} family loves \U0001f469\U0001f3fd\u200d\U0001f4bb 東京 code"),
    "4 heads, PAD, dropout": Settings(heads=4, view=2, causal=True, padded=(2, 6), dropout=0.3),
}

words = st.text(alphabet=LETTERS, min_size=1, max_size=MAX_WORD_CHARS).filter(lambda w: not w.isspace())
sentences = st.lists(words, min_size=1, max_size=MAX_TOKENS).map(" ".join)


def problems(result, style) -> list[str]:
    """What does not fit, on the style's screen or on a phone; empty when all of it does."""
    spec, fit = maps.fitted_map(result, style=style, title=head_name(result))
    margin, length = fit.margin, len(result.tokens)
    wide_side = style.height - margin["t"] - margin["b"]
    narrow_side = map_fit.NARROW_CHART - margin["l"] - margin["r"]
    phone, wrong = fit.phone, []
    if narrow_side < map_fit.MIN_PHONE_PLOT:
        wrong.append(f"the phone's plot is {narrow_side} px")
    for name, size in (("rows", fit.row_font), ("keys", fit.column_font), ("phone rows", phone.row_font),
                       ("phone keys", phone.column_font), ("phone titles", phone.title_font)):
        if size < MIN_TEXT:
            wrong.append(f"{name} at {size} px")
    if max(map_fit.width(row, fit.row_font) for row in fit.rows) > style.word_room:
        wrong.append("a row label wider than its room")
    lines = max(row.count("<br>") + 1 for row in fit.rows)
    tall = FIRST_LINE + LINE_SPACING * (lines - 1)
    for side, font in ((wide_side, fit.row_font), (narrow_side, phone.row_font)):
        if font * tall > side / length + 0.01:
            wrong.append(f"rows of {side / length:.1f} px hold {lines} lines at {font} px")
    if not fit.upright:
        for side, font in ((wide_side, fit.column_font), (narrow_side, phone.column_font)):
            if not map_fit.flat_fits(list(fit.columns), font, side / length, margin["r"]):
                wrong.append(f"flat keys at {font} px overlap in columns of {side / length:.1f} px")
    numbers = [text for text in spec["data"][2]["text"] if maps.label_parts(text)[0] != GREY_TEXT]
    drawn = [maps.label_parts(text)[1] for text in numbers if maps.label_parts(text)[1]]
    for side, font in ((wide_side, fit.cell_font), (narrow_side, phone.cell_font)):
        widest = max((map_fit.width(text, font) for text in drawn), default=0)
        if font and widest > side / length - 2:
            wrong.append(f"a number {widest:.0f} px wide in a cell of {side / length:.0f} px")
    if fit.cell_font and fit.cell_font < style.text_floor:
        wrong.append(f"numbers at {fit.cell_font} px")
    low, high = map_fit.EXTRA_RANGE
    if not low <= phone.extra <= high:
        wrong.append(f"extra {phone.extra} px outside the CSS's range")
    return wrong


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
@pytest.mark.parametrize("style", FRAMED, ids=["lab", "projector", "projector-under-link"])
def test_the_testers_cases_fit_both_screens(case, style):
    assert problems(compute(CASES[case]), style) == []


@FAST
@given(sentence=sentences, data=st.data())
def test_any_accepted_sentence_fits_both_screens(sentence, data):
    tokens = Settings(sentence=sentence).tokens
    padded = tuple(sorted(data.draw(st.sets(st.integers(1, len(tokens)), max_size=len(tokens)))))
    heads = data.draw(st.sampled_from([1, 4, 12]))
    result = compute(Settings(sentence=sentence, padded=padded, heads=heads, view=heads, causal=True))
    for code in ("en", "es"):
        with using(code):
            for style in FRAMED:
                assert problems(result, style) == [], (code, style.height)


def test_the_default_sentence_keeps_its_words_whole_flat_and_large():
    for style, floor in ((layout.LAB, 15), (layout.PROJECTOR, layout.PROJECTOR_MIN_FONT)):
        spec, fit = maps.fitted_map(compute(Settings(causal=True)), style=style)
        assert not fit.upright and fit.cut == () and fit.columns == fit.rows == Settings().tokens
        assert min(fit.row_font, fit.column_font, fit.cell_font) >= floor and fit.future_mark == "future"
        assert fit.phone.cell_font == 15  # a phone draws the numbers as large as the Lab does


def test_long_words_are_cut_with_their_position_and_named_whole_under_the_map():
    result = compute(CASES["five long words"])
    spec, fit = maps.fitted_map(result, style=layout.LAB)
    assert fit.upright and fit.cut == (0, 1, 2, 3, 4)
    assert all(row.startswith(f"{i + 1} ") and row.endswith("…") for i, row in enumerate(fit.rows))
    assert fit.columns == fit.rows


def test_the_head_in_view_is_named_at_the_top_left_only_with_several_heads():
    def notes(settings: Settings) -> list[str]:
        result = compute(settings)
        return [note["text"] for note in maps.attention_map_spec(result, title=head_name(result))["layout"][
            "annotations"]]

    assert notes(Settings()) == ["query ↓", "key: the word being looked at →"]
    assert notes(Settings(heads=4, view=3))[-1] == "<b>Head 3 of 4</b>"


def test_the_phone_css_has_a_rule_for_every_key_a_map_can_carry():
    css = look.PHONE_MAP_CSS
    for case in CASES.values():
        for style in FRAMED:
            key = maps.fitted_map(compute(case), style=style)[1].phone.key
            tokens = re.findall(r"-([a-z]-?\d+)(?=-)", key.removeprefix("mp"))  # "k-8", "h440", "r15", ...
            assert len(tokens) == 7, key
            for token in tokens:
                assert f'[class*="-{token}-"]' in css, (key, token)
