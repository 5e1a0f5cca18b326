"""Projector mode on every page at 1280x720, measured in Chromium: body text >= 22 px, chart text >= 18 px, no
sideways scroll, and one switch for the whole app that survives moving between pages."""

from __future__ import annotations

import pytest

from tests.browser import harness

WAIT_MS = 60_000
BODY_PX = 22
CHART_PX = 18

# Every visible text of the main area, by the font size its element computes: body text outside charts (the
# shortcut badges and icon ligatures left out: a badge is a hint on a button, an icon is drawn, not read), and
# every text of every Plotly chart (a formula's hidden MathML copy, read by screen readers, left out too).
# Also whether anything scrolls sideways.
MEASURE = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    for (let a = e; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.display === "none" || style.visibility === "hidden" || style.clipPath === "inset(50%)") return false;
    }
    return true;
  };
  const body = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    const skip = ".js-plotly-plot, kbd, style, [data-testid='stIconMaterial'], .katex-mathml";
    if (!node.textContent.trim() || !element || element.closest(skip)) continue;
    if (!shown(element) || getComputedStyle(element).fontFamily.includes("Material")) continue;
    body.push([node.textContent.trim().slice(0, 40), parseFloat(getComputedStyle(element).fontSize)]);
  }
  const chart = [];
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (!text.textContent.trim() || !shown(text)) continue;
    chart.push([text.textContent.trim().slice(0, 40), parseFloat(getComputedStyle(text).fontSize)]);
  }
  const sideways = [document.documentElement, main].some((e) => e.scrollWidth > e.clientWidth);
  const smallest = (rows) => rows.reduce((low, row) => (row[1] < low[1] ? row : low), ["", Infinity]);
  return {body: smallest(body), chart: smallest(chart), charts: main.querySelectorAll(".js-plotly-plot").length,
          texts: body.length, sideways};
}
"""

PAGES = ("/", "/Peeking_and_the_causal_mask", "/Padding_mask", "/Dropout", "/Many_heads", "/Shapes_and_memory",
         "/One_row_by_hand", "/Check_yourself", "/Lecture_scenes?scene=4&reveal=1", "/Lecture_scenes?scene=24&reveal=1",
         "/Class_poll")


def open_path(page, server, path: str) -> None:
    page.goto(server.url.rstrip("/") + path, timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def measure(page) -> dict:
    return page.evaluate(MEASURE)


@pytest.mark.parametrize("path", PAGES)
def test_projector_mode_reads_from_the_back_on_every_page(server, new_page, path):
    page = new_page(1280, 720)
    open_path(page, server, path + ("&" if "?" in path else "?") + "mode=projector")
    found = measure(page)
    assert found["texts"] > 0
    assert found["body"][1] >= BODY_PX, found
    if found["charts"]:
        assert found["chart"][1] >= CHART_PX, found
    assert not found["sideways"], found
    assert harness.switch(page, "Projector mode").is_checked()


def test_one_switch_for_the_whole_app_kept_across_pages(server, new_page):
    page = new_page(1280, 720)
    open_path(page, server, "/Dropout")
    assert measure(page)["body"][1] < BODY_PX  # off by default
    harness.toggle(page, "Projector mode").click()
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    assert "mode=projector" in page.evaluate("location.search")
    assert measure(page)["body"][1] >= BODY_PX

    # a page link drops the URL's keys; the session keeps the mode and writes it back
    page.get_by_role("link", name="Open the Lab in this state").click()
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    assert harness.switch(page, "Projector mode").is_checked()
    assert "mode=projector" in page.evaluate("location.search")
    assert not page.locator('[data-testid="stSidebar"]').is_visible()

    harness.toggle(page, "Projector mode").click()  # off in the Lab: off everywhere
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    open_path(page, server, "/Lecture_scenes")  # a new page load, same session? no: a fresh one, the link wins
    assert not harness.switch(page, "Projector mode").is_checked()
