"""The classroom in a real Chromium: projector mode at 1280x720, scene links, a phone, both downloads, the link."""

from __future__ import annotations

import csv
import io
import re
import struct
from urllib.parse import parse_qs, urlsplit

import pytest

from attn_core import Settings, compute
from attn_ui.words import export
from attn_ui.words.explain import kpi_values
from attn_ui.words.export import map_file_name
from attn_ui.words.scenes import SCENES, scene_words
from tests.browser import harness

WAIT_MS = 60_000  # a loaded CI machine can take a while to draw the first map
NUMBER = re.compile(r"^\d\.\d\d$")

# Font sizes of the map's SVG text as the browser computed them, by kind.
MAP_TEXT = """
() => {
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  const read = (selector) => [...gd.querySelectorAll(selector)]
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
    .map((t) => [t.textContent.trim(), parseFloat(getComputedStyle(t).fontSize)]);
  return {cells: read(".textpoint text"), ticks: read(".xtick text, .ytick text"),
          titles: read(".g-xtitle text, .g-ytitle text, .annotation text"), height: gd.getBoundingClientRect().height};
}
"""

# Does anything scroll, in the document or in Streamlit's own scroller (stMain)?
OVERFLOW = """
() => [document.documentElement, document.querySelector('[data-testid="stMain"]')].map((e) => ({
  scrollHeight: e.scrollHeight, clientHeight: e.clientHeight, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth}))
"""


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    harness.assert_no_exception(page)


def open_path(page, server, path: str) -> None:
    page.goto(server.url.rstrip("/") + path, timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def address(page) -> dict[str, str]:
    """The query string as the address bar holds it (page.url lags behind Streamlit's writes)."""
    return {key: values[-1] for key, values in parse_qs(urlsplit(page.evaluate("location.href")).query).items()}


def assert_nothing_scrolls(page, vertical: bool = True) -> None:
    for box in page.evaluate(OVERFLOW):
        assert box["scrollWidth"] <= box["clientWidth"], box
        if vertical:
            assert box["scrollHeight"] <= box["clientHeight"], box


def visible(page, text: str) -> bool:
    return page.get_by_text(text, exact=True).first.is_visible()


def scene_title(page) -> str:
    return page.locator('[data-testid="stHeading"] h3').first.inner_text().strip()


# --- projector mode ---------------------------------------------------------------------------------------


def test_projector_mode_at_1280x720_reads_from_the_back_and_nothing_scrolls(server, new_page):
    page = new_page(1280, 720)
    open_path(page, server, "/?causal=1&heads=4&row=3&mode=projector")
    text = page.evaluate(MAP_TEXT)
    numbers = [size for word, size in text["cells"] if NUMBER.match(word)]
    words = [size for word, size in text["cells"] if word == "future"]
    assert (len(numbers), len(words)) == (21, 15)  # 6 * 7 / 2 legal cells, 15 future cells
    assert min(numbers + words) >= 18 and min(size for _, size in text["ticks"]) >= 18
    assert len(text["ticks"]) == 12 and min(size for _, size in text["titles"]) >= 18
    assert text["height"] >= 500
    assert_nothing_scrolls(page)

    tiles = page.locator('[data-testid="stMetricValue"]')
    assert tiles.count() == len(kpi_values(compute(Settings(causal=True, heads=4)))) == 7
    for index in range(7):
        box = tiles.nth(index).bounding_box()
        assert box["y"] + box["height"] <= 720
        assert float(tiles.nth(index).evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 32
    assert harness.metrics(page) == kpi_values(compute(Settings(causal=True, heads=4)))

    for main in ("Projector mode", "Causal mask", "Training"):
        assert harness.switch(page, main).is_visible()
    assert visible(page, "Heads") and visible(page, "Viewing head") and visible(page, "Tap a word to make it PAD")
    for live in ("Re-roll", "journey"):  # the lecturer re-rolls and pads live
        box = page.get_by_role("button", name=live, exact=True).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, live
    hidden = ["Weights as CSV", "Link to this view"]
    assert not any(visible(page, label) for label in hidden)
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    assert not page.locator('[data-testid="stExpander"]').first.is_visible()
    assert not page.get_by_text("d_head = 12 / 4", exact=False).first.is_visible()

    harness.toggle(page, "Projector mode").click()  # off again: the fragment takes its CSS away
    settle(page)
    assert "mode" not in address(page) and address(page)["row"] == "3"
    assert visible(page, "Weights as CSV") and visible(page, "Tap a word to make it PAD")
    assert page.locator('[data-testid="stSidebar"]').is_visible()
    assert page.evaluate(MAP_TEXT)["height"] < 500


def test_the_busiest_projector_lab_still_fits_with_its_sentence_and_legend(server, new_page):
    """PAD chips chosen, dropout with Re-roll, a selected row's two-line sentence and the four-mark legend."""
    page = new_page(1280, 720)
    open_path(page, server, "/?causal=1&pad=5,6&p=0.2&row=3&mode=projector&scene=12")
    assert_nothing_scrolls(page)
    assert page.get_by_role("link", name="Back to scene 12").is_visible()
    marks = page.locator('[data-testid="stMarkdownContainer"] strong').filter(has_text=re.compile(r"^drop$"))
    assert marks.first.is_visible()  # the legend names dropout's mark while dropout acts
    legend = page.get_by_text("colour", exact=True).first
    assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= 720
    assert float(legend.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 22


def test_switching_projector_on_writes_the_mode_to_the_address(server, new_page):
    page = new_page(1280, 720)
    open_path(page, server, "/?causal=1")
    harness.toggle(page, "Projector mode").click()
    settle(page)
    assert address(page) == {"causal": "1", "mode": "projector"}
    assert_nothing_scrolls(page)
    assert min(size for _, size in page.evaluate(MAP_TEXT)["ticks"]) >= 18


# --- lecture scenes ---------------------------------------------------------------------------------------


def test_a_scene_link_opened_directly_on_a_fresh_server_then_next_back_and_the_clicker_keys(browser):
    """A slide's link is often the first request a sleeping Community Cloud app gets."""
    with harness.start_server() as fresh:
        context = harness.new_context(browser)
        try:
            page = context.new_page()
            open_path(page, fresh, "/Lecture_scenes?scene=5")
            assert scene_title(page) == scene_words(SCENES[4]).title
            assert page.get_by_text(f"Scene 5 of {len(SCENES)}", exact=True).is_visible()
            assert page.locator(".js-plotly-plot").count() == 0 and not harness.metrics(page)  # the question first

            page.get_by_role("button", name="Next").click()  # reveals
            settle(page)
            assert address(page) == {"scene": "5", "reveal": "1"}
            assert harness.metrics(page) == kpi_values(compute(SCENES[4].settings), score_tensor=False)
            layout = page.evaluate("document.querySelector('.js-plotly-plot').layout")
            assert layout["shapes"][0]["y0"] == -0.5  # the top row is outlined
            page.keyboard.press("PageDown")  # what a presenter's clicker sends: the next scene, its question
            settle(page)
            assert address(page) == {"scene": "6"} and scene_title(page) == scene_words(SCENES[5]).title
            page.keyboard.press("PageUp")
            settle(page)
            assert address(page) == {"scene": "5", "reveal": "1"}

            page.get_by_role("link", name="Open in the Lab").click()
            settle(page)
            scene = SCENES[4]
            assert address(page) == {**scene.settings.to_query(), "row": str(scene.row), "scene": "5"}
            assert harness.metrics(page) == kpi_values(compute(scene.settings))  # the Lab: all seven tiles
            page.get_by_role("link", name="Back to scene 5").click()
            settle(page)
            assert address(page) == {"scene": "5", "reveal": "1"}
        finally:
            context.close()


def test_a_scene_in_projector_mode_fits_1280x720(server, new_page):
    page = new_page(1280, 720)
    open_path(page, server, "/Lecture_scenes?scene=14&reveal=1&mode=projector")
    assert scene_title(page) == scene_words(SCENES[13]).title
    text = page.evaluate(MAP_TEXT)
    assert min(size for _, size in text["cells"] + text["ticks"]) >= 18
    assert_nothing_scrolls(page)
    assert page.get_by_role("button", name="Next").is_visible()


# --- phones -----------------------------------------------------------------------------------------------


def test_phone_has_no_sideways_scrolling_and_tappable_chips(server, new_page):
    page = new_page(390, 844)
    open_path(page, server, "/?causal=1&heads=4")
    assert_nothing_scrolls(page, vertical=False)
    chart = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= 390
    cell = page.evaluate("(() => { const xa = document.querySelector('.js-plotly-plot')._fullLayout.xaxis;"
                         " return xa.l2p(1) - xa.l2p(0); })()")
    assert cell >= 36  # wide enough for "0.12" and "future"

    heights = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stButtonGroup"] [role] button')]
             .filter((b) => b.innerText.trim()).map((b) => b.getBoundingClientRect().height)"""
    )
    assert len(heights) == 6 + 4 + 6, heights  # heads, viewing head, PAD words (d_model waits in the expander; the
    # sidebar's theme is not the Lab's)
    assert min(heights) >= 32, heights

    page.get_by_role("button", name="step", exact=True).click()
    settle(page)
    assert harness.metrics(page)["Padding-blocked cells"] == "6"
    assert_nothing_scrolls(page, vertical=False)


def test_phone_scene_page_has_no_sideways_scrolling(server, new_page):
    page = new_page(390, 844)
    open_path(page, server, "/Lecture_scenes?scene=12&reveal=1")
    assert scene_title(page) == scene_words(SCENES[11]).title
    assert_nothing_scrolls(page, vertical=False)
    for name in ("Back", "Next"):
        assert page.get_by_role("button", name=name).bounding_box()["height"] >= 32


# --- downloads and the link -------------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_csv_and_png_downloads_have_meaningful_names_and_the_right_content(server, new_page, tmp_path):
    settings = Settings(causal=True, heads=4, view=2, padded=(5, 6), dropout=0.5)
    page = new_page(1366, 768)
    open_path(page, server, "/?" + "&".join(f"{k}={v}" for k, v in settings.to_query().items()))

    with page.expect_download(timeout=WAIT_MS) as info:
        page.get_by_role("button", name="Weights as CSV").click()
    download = info.value
    assert download.suggested_filename == "attention-head2of4_causal_pad5-6_drop50.csv"
    download.save_as(tmp_path / "weights.csv")
    text = (tmp_path / "weights.csv").read_text()
    assert text == export.weights_csv(compute(settings))
    assert len(list(csv.reader(io.StringIO(text)))) == 7

    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.hover()
    with page.expect_download(timeout=WAIT_MS) as info:
        chart.locator('.modebar-btn[data-title="Download plot as a PNG"]').click()
    download = info.value
    assert download.suggested_filename == map_file_name(settings) + ".png"
    download.save_as(tmp_path / "map.png")
    width, height = png_size((tmp_path / "map.png").read_bytes())
    plot = page.evaluate("(() => { const l = document.querySelector('.js-plotly-plot')._fullLayout;"
                         " return [l.width, l.height]; })()")
    assert abs(width - 3 * plot[0]) <= 1 and abs(height - 3 * plot[1]) <= 1  # slide scale: 3 x the screen


@pytest.mark.parametrize("query", ["causal=1&heads=2&view=2&row=4", "causal=1&pad=6&mode=projector"])
def test_the_link_to_this_view_opens_the_same_view_in_a_new_session(server, new_page, query):
    page = new_page(1366, 768)
    open_path(page, server, "/?" + query)
    if "mode=projector" in query:
        harness.toggle(page, "Projector mode").click()  # the link lives outside projector mode
        settle(page)
    page.get_by_role("button", name="Link to this view").click()
    link = page.locator('[data-testid="stPopoverBody"] code, [data-testid="stPopover"] code').first
    link.wait_for(timeout=WAIT_MS)
    url = link.inner_text().strip()
    assert url.startswith(server.url)
    expected = {key: values[-1] for key, values in parse_qs(query).items() if key != "mode"}
    assert {key: values[-1] for key, values in parse_qs(urlsplit(url).query).items()} == expected

    other = new_page(1366, 768)
    other.goto(url, timeout=WAIT_MS)
    settle(other)
    assert address(other) == expected
    assert harness.metrics(other) == harness.metrics(page)
