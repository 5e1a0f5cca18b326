"""Pages 1-3 in a real Chromium: the numbers drawn match the core, the controls rerun, inference stays put on
re-roll, the Try-it links open the Lab in the state the page talks about, and a phone needs no sideways scroll."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import harness
import numpy as np
import pytest

from attn_core import Settings, compute
from attn_core.lessons import masks as lessons
from attn_core.query import LETTERS
from attn_ui.quiz.bank import BY_ID
from attn_ui.quiz.pages import PAGE_QUESTIONS

UPPER = np.triu(np.ones((6, 6), dtype=bool), k=1)
PATIENCE_MS = 90_000  # a shared machine under load once took 14 s for a 40 ms run: wait long, fail clearly


def open_page(page, server, path: str) -> None:
    page.goto(server.url + path, timeout=PATIENCE_MS)
    settle(page)


def answered(path: str) -> str:
    """The page's address with its question answered (right): what waits for the prediction is drawn."""
    asked = PAGE_QUESTIONS[f"pages/{next(p for p in PAGE_FILES if p.endswith(path + '.py'))}"]
    return path + "?answer=" + ".".join(LETTERS[BY_ID[question_id].answer] for question_id in asked)


PAGE_FILES = ("1_Peeking_and_the_causal_mask.py", "2_Padding_mask.py", "3_Dropout.py")


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=PATIENCE_MS)
    harness.assert_no_exception(page)


def grid(trace: dict) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in trace["z"]], dtype=float)


def map_weights(page, index: int = 0) -> np.ndarray:
    return grid(harness.plotly_data(page, index)[0])


def query(page) -> dict[str, str]:
    """The address bar's query (page.url lags behind Streamlit's writes)."""
    return {key: values[-1] for key, values in parse_qs(urlsplit(page.evaluate("location.href")).query).items()}


def follow_try_it(page) -> None:
    page.get_by_role("link", name="Open the Lab in this state").click()
    page.wait_for_function("() => location.pathname === '/' || location.pathname.endsWith('/')", timeout=PATIENCE_MS)
    settle(page)


def test_peek_cheating_head_loses_its_answer_when_the_mask_goes_on(server, page):
    errors = harness.collect_page_errors(page)
    open_page(page, server, answered("Peeking_and_the_causal_mask"))
    assert page.locator(".js-plotly-plot").count() == 4
    cheat = lessons.cheating_head(Settings().sentence, causal=False)
    np.testing.assert_allclose(map_weights(page), cheat.weights, atol=5e-7)
    assert harness.metrics(page) == {"Next word guessed right": "5 of 5"}

    harness.toggle(page, "Causal mask").click()
    settle(page)
    assert harness.metrics(page) == {"Next word guessed right": "1 of 5"}
    weights = map_weights(page)
    np.testing.assert_array_equal(np.isnan(weights), UPPER)
    masked = lessons.cheating_head(Settings().sentence, causal=True).weights
    np.testing.assert_allclose(weights[~UPPER], masked[~UPPER], atol=5e-7)
    assert errors == []


def test_peek_try_it_opens_the_lab_with_zero_after_softmax(server, page):
    open_page(page, server, "Peeking_and_the_causal_mask")
    follow_try_it(page)
    assert query(page) == {"causal": "1", "d": "4", "route": "zero_after", "lesson": "1"}
    result = compute(Settings(causal=True, d_model=4, route="zero_after"))
    sums = result.row_sums[0]
    assert harness.metrics(page)["Row sums"] == f"{sums.min():.2f} to {sums.max():.2f}"
    assert harness.metrics(page)["Sees future?"] == "Yes"  # zero_after: the future gets in through the sum


def test_pad_first_word_padded_with_the_mask_on_leaves_an_empty_row(server, page):
    errors = harness.collect_page_errors(page)
    open_page(page, server, answered("Padding_mask"))
    result = compute(Settings(causal=True, padded=(5, 6)))
    np.testing.assert_allclose(map_weights(page), np.where(result.blocked[0], np.nan, result.weights[0]), atol=5e-7)
    assert page.get_by_text("Causal: 15 blocked cells. Padding: 12. Combined: 18").is_visible()

    pills = page.get_by_label("Tap a word to make it PAD")
    for word in ("one", "step", "Your"):  # unpad the last two, then pad the first word
        pills.get_by_role("button", name=word, exact=True).click()
        settle(page)
    empty = compute(Settings(causal=True, padded=(1,)))
    assert empty.empty_row_numbers == (1,)
    weights = map_weights(page)
    assert np.isnan(weights[0]).all()
    np.testing.assert_allclose(weights[1:], np.where(empty.blocked[0], np.nan, empty.weights[0])[1:], atol=5e-7)
    assert page.get_by_text("a plain softmax gives [NaN, NaN, NaN, NaN, NaN, NaN]; the app gives [0, 0, 0, 0, 0, 0]",
                            exact=False).is_visible()
    assert errors == []


def test_drop_reroll_moves_training_and_leaves_inference_alone(server, page):
    errors = harness.collect_page_errors(page)
    open_page(page, server, "Dropout?answer=a")  # answered: the re-rolls' chart in its fold is drawn
    training = compute(Settings(dropout=0.5))
    np.testing.assert_allclose(map_weights(page), training.weights[0], atol=5e-7)
    assert harness.metrics(page)["Survivors ×"] == "2.00"
    reroll = page.get_by_role("button", name="Re-roll", exact=True)
    reroll.click()
    settle(page)
    np.testing.assert_allclose(map_weights(page), compute(Settings(dropout=0.5, roll=1)).weights[0], atol=5e-7)

    harness.toggle(page, "Training").click()
    settle(page)
    inference = map_weights(page)
    assert reroll.is_disabled()  # inference draws no pattern, so there is nothing to re-roll
    np.testing.assert_allclose(inference, compute(Settings()).weights[0], atol=5e-7)
    assert harness.metrics(page) == {"Survivors ×": "1.00", "Dropped cells": "0", "Mean row sum": "1.00",
                                     "Different maps in 10 re-rolls": "1"}  # fmt: skip
    rolls = harness.plotly_data(page, 1)
    np.testing.assert_allclose(rolls[1]["y"], 1.0, atol=1e-12)  # with rescale: every roll sums to 1
    assert errors == []


def test_drop_try_it_opens_the_lab_with_the_rescale_forgotten(server, page):
    open_page(page, server, "Dropout")
    follow_try_it(page)
    assert query(page) == {"p": "0.5", "rescale": "0", "lesson": "3"}
    result = compute(Settings(dropout=0.5, rescale=False))
    assert harness.metrics(page)["Dropped cells"] == str(result.dropped_cells)


@pytest.mark.parametrize("path", ["Peeking_and_the_causal_mask", "Padding_mask", "Dropout"])
def test_pages_fit_a_phone_without_sideways_scrolling(server, new_page, path):
    phone = new_page(390, 844)
    open_page(phone, server, answered(path))  # answered: the charts that wait for it are drawn and measured too
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert phone.locator('[data-testid="stHeading"]').first.is_visible()
    charts = phone.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
             .map((c) => c.getBoundingClientRect().right)"""
    )
    assert charts and max(charts) <= 390
