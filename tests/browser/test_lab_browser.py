"""The Lab in a real Chromium: flip the mask, tap words, change heads, click a cell, follow links."""

from __future__ import annotations

from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from attn_core import Settings, compute
from attn_ui.figures.maps import drawn_labels
from tests.browser import harness


def heatmap(page, index: int = 0) -> tuple[np.ndarray, list[list[str]]]:
    """The weights layer of the map (NaN where grey) and the text drawn in each cell."""
    traces = harness.plotly_data(page, index)
    weights = np.array([[np.nan if v is None else v for v in row] for row in traces[0]["z"]], dtype=float)
    return weights, drawn_labels(traces).tolist()


def address(page) -> dict[str, str]:
    """The query string as the address bar holds it (page.url lags behind Streamlit's writes)."""
    query = urlsplit(page.evaluate("location.href")).query
    return {key: values[-1] for key, values in parse_qs(query).items()}


def settle(page) -> None:
    harness.wait_for_app(page)
    harness.assert_no_exception(page)


def click_cell(page, row: int, col: int) -> None:
    x, y = page.evaluate(
        """([row, col]) => {
          const gd = document.querySelector('.js-plotly-plot');
          const box = gd.getBoundingClientRect(), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
          return [box.left + xa._offset + xa.l2p(col), box.top + ya._offset + ya.l2p(row)];
        }""",
        [row, col],
    )
    page.mouse.click(x, y)


def test_flip_the_mask_tap_words_and_change_heads(server, page):
    harness.open_app(page, server)
    settle(page)
    off, _ = heatmap(page)
    np.testing.assert_allclose(off, compute(Settings()).weights[0], atol=5e-7)
    assert harness.metrics(page)["Sees future?"] == "Yes"

    harness.toggle(page, "Causal mask").click()
    settle(page)
    on, text = heatmap(page)
    np.testing.assert_array_equal(np.isnan(on), np.triu(np.ones((6, 6), bool), k=1))
    assert text[0] == ["1.00", "future", "future", "future", "future", "future"]
    np.testing.assert_allclose(on[-1], off[-1], atol=5e-7)
    values = harness.metrics(page)
    assert values["Sees future?"] == "No" and values["Masked cells"] == "15"
    assert address(page) == {"causal": "1"}

    page.get_by_role("button", name="one", exact=True).click()
    settle(page)
    page.get_by_role("button", name="step", exact=True).click()
    settle(page)
    padded, _ = heatmap(page)
    assert np.isnan(padded[:, 4:]).all()
    values = harness.metrics(page)
    assert values["Masked cells"] == "18" and values["Padding-blocked cells"] == "12"
    assert address(page) == {"causal": "1", "pad": "5,6"}

    page.get_by_role("radiogroup", name="Heads").get_by_role("radio", name="4", exact=True).click()
    settle(page)
    assert harness.metrics(page)["d_head"] == "12 / 4 = 3"
    assert address(page)["heads"] == "4"


def test_clicking_a_cell_selects_and_explains_its_row(server, page):
    harness.open_app(page, server, "causal=1")
    settle(page)
    click_cell(page, 2, 1)
    settle(page)
    assert address(page).get("row") == "3"
    texts = " ".join(page.locator('[data-testid="stMarkdownContainer"]').all_inner_texts())
    assert "starts (query 3) looks most at" in texts
    layout_shapes = page.evaluate("document.querySelector('.js-plotly-plot').layout.shapes")
    assert layout_shapes and layout_shapes[0]["y0"] == pytest.approx(1.5)


IN_VIEW = """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
  return [box.top, box.bottom, window.innerHeight]; }"""


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720), (390, 844)], ids=["1366x768", "1280x720", "390x844"])
def test_a_clicked_rows_sentence_is_in_view_and_so_is_the_row(server, new_page, size):
    """A laptop put the sentence under the map below the fold (y 829 at 1366x768): after the click it is scrolled
    just into view, with the clicked row still on screen; a phone keeps it pinned to the bottom."""
    page = new_page(*size)
    harness.open_app(page, server, "causal=1")
    settle(page)
    sentence = ".st-key-lab-panel .st-key-map-row"
    top, bottom, height = page.evaluate(IN_VIEW, sentence)
    if size[0] > 640:
        assert bottom > height, f"the test needs the sentence below the fold before the click ({bottom} <= {height})"
    click_cell(page, 2, 1)
    settle(page)
    page.wait_for_function("(s) => document.querySelector(s).innerText.includes('starts (query 3)')", arg=sentence)
    page.wait_for_function("""(s) => { const box = document.querySelector(s).getBoundingClientRect();
                                       return box.top >= 0 && box.bottom <= window.innerHeight + 1; }""", arg=sentence,
                           timeout=5_000)
    row_top, row_bottom = page.evaluate("""() => {
      const gd = document.querySelector('.st-key-lab-panel .js-plotly-plot');
      const box = gd.getBoundingClientRect(), ya = gd._fullLayout.yaxis;
      return [box.top + ya._offset + ya.l2p(2.5), box.top + ya._offset + ya.l2p(1.5)].sort((a, b) => a - b); }""")
    assert row_top >= 0 and row_bottom <= size[1], "the clicked row stays on screen"
    assert address(page).get("row") == "3"


def test_a_copied_address_shows_the_identical_state_in_a_new_session(server, new_page):
    first = new_page()
    harness.open_app(first, server, "causal=1&heads=4&view=2&p=0.5&pad=6&roll=3")
    settle(first)
    copied = first.evaluate("location.href")
    before = (heatmap(first), harness.metrics(first))
    second = new_page()
    second.goto(copied)
    settle(second)
    after = (heatmap(second), harness.metrics(second))
    np.testing.assert_array_equal(before[0][0], after[0][0])
    assert before[0][1] == after[0][1] and before[1] == after[1]


def test_a_bad_address_shows_one_friendly_note_and_a_valid_map(server, page):
    harness.open_app(page, server, "heads=5&p=abc&pad=1,99&view=9&causal=2")
    settle(page)
    notes = page.locator('[data-testid="stAlert"]')
    assert notes.count() == 1
    assert "valid head counts" in notes.inner_text()
    assert harness.metrics(page)["d_head"] == "12 / 4 = 3"
    assert not np.isnan(heatmap(page)[0][:, 1:]).any()


def test_moving_to_a_lesson_page_and_back_keeps_the_state(server, page):
    harness.open_app(page, server, "causal=1&heads=2&pad=6")
    settle(page)
    before = harness.metrics(page)
    page.locator('[data-testid="stSidebar"] a').nth(1).click()
    settle(page)
    page.locator('[data-testid="stSidebar"] a').first.click()
    settle(page)
    assert harness.metrics(page) == before
    assert address(page) == {"causal": "1", "heads": "2", "pad": "6"}


COLD_START_MS = 120_000


@contextmanager
def first_request(browser, path: str):
    """A fresh server whose very first page request is `path` (as after a Community Cloud wake-up)."""
    with harness.start_server() as fresh:
        context = harness.new_context(browser)
        try:
            page = context.new_page()
            page.goto(fresh.url.rstrip("/") + path, timeout=COLD_START_MS)
            # A cold server's first run imports the app and serves the whole static bundle to a browser with an
            # empty cache: on a slow CI machine under two pytest workers it took over 30 s, the warm default.
            harness.wait_for_app(page, timeout_ms=COLD_START_MS)
            harness.assert_no_exception(page)
            yield page
        finally:
            context.close()


def test_a_deep_link_as_the_first_request_to_a_fresh_server_opens_that_page_and_state(browser):
    """Community Cloud starts a fresh server on every wake-up; a lecturer's link is its first request."""
    with first_request(browser, "/Many_heads?x=1") as page:
        assert page.locator("h1").first.inner_text().strip() != "Attention Lab"
    with first_request(browser, "/?causal=1&heads=4&view=3&pad=5,6") as page:
        values = harness.metrics(page)
        assert values["Masked cells"] == "18" and values["d_head"] == "12 / 4 = 3"
        weights, _ = heatmap(page)
        np.testing.assert_allclose(np.nan_to_num(weights), compute(
            Settings(causal=True, heads=4, view=3, padded=(5, 6))).weights[2], atol=5e-7)
