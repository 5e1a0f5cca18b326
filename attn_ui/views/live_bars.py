"""The room's spread as bars on a live lecture's board, at the sizes the projector needs: a choice's options as bars
that name them, with each round's count (choice_bars), and the sizes of a number's spread chart. The spread's lines
and its CSS are attn_ui/views/live_view.py's (spread_block).
"""

from __future__ import annotations

import streamlit as st

from attn_lang import _
from attn_ui.widgets import panels
from attn_ui.words import live, poll_words
from attn_ui.words.escape import md_escape

SPREAD_HEIGHT = ((150, 230), (200, 260))  # px of a number's spread chart, (one round, two rounds): on the projector
# beside a revealed board (the story's column at 1280x720), and off it
SPREAD_FONT = (20, 14)  # px of the spread's words, on the projector and off it
SPREAD_WIDTH = (700, 440, 560)  # px a spread may count on at 1280x720: the board's column, the story's, and the story's
# at a live reveal (live_view.REVEALED_COLUMNS)


def choice_bars(question: live.Live, rounds, revealed: bool) -> None:
    """A choice's spread: a bar per option with its letter, its words and its count in each round (first → second,
    as a line above the bars says), the bar as long as its share of the last round. After the reveal, beside the
    answer's own words, the right option first, green, in full and named "right answer", then the others side by side
    under their letters, grey (their words were on screen at the question)."""
    last = rounds[-1]
    if len(rounds) > 1 and not revealed:  # revealed, the lines above name the rounds in this order
        st.markdown(_("Counts: {first} → {second}", first=poll_words.round_name(1), second=poll_words.round_name(2)))

    def bar(index: int, state: str, words: bool) -> None:
        counts = " → ".join(str(tally[index]) for tally in rounds)
        option = md_escape(question.options[index])  # a lecturer's words (a deck's sentence) show as typed
        label = _("**{letter}.** {option} · {counts}", letter=live.letter(index), option=option,
                  counts=counts) if words else _("**{letter}.** · {counts}", letter=live.letter(index), counts=counts)
        if state == "right":
            label = _("{label} · **right answer**", label=label)
        panels.share_bar(poll_words.share(last[index], sum(last)), label, state, key=f"live-{index}")

    if not revealed:
        for index in range(question.option_count):
            bar(index, "open", words=True)
        return
    bar(question.answer, "right", words=True)
    others = [index for index in range(question.option_count) if index != question.answer]
    for place, index in zip(st.columns(len(others), gap="medium"), others, strict=True):
        with place:
            bar(index, "off", words=False)
