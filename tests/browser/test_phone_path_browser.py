"""The phone path at 390x844 (touch), measured in Chromium: a tapped cell's explanation is in view without scrolling,
no toolbar stands over a chart's title or the tile above a table, page 4's W_o panels keep their labels apart,
a 16-word sentence keeps every column label, and the Lab tells a newcomer where to start."""

from __future__ import annotations

import harness
import pytest

from attn_core.query import LETTERS
from attn_ui.quiz.bank import BY_ID

WAIT_MS = 90_000
WIDTH, HEIGHT = 390, 844
SIXTEEN = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"

# Chart texts (of the charts holding `marker`) that overlap another unrotated text of the same chart, or leave the
# chart's box
COLLISIONS = """
([marker]) => {
  const found = [];
  for (const plot of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
    if (!plot.textContent.includes(marker)) continue;
    const svg = plot.querySelector(".main-svg").getBoundingClientRect();
    const texts = [...plot.querySelectorAll("svg text")]
      .filter((t) => t.textContent.trim())
      .map((t) => [t.textContent.trim(), t.getBoundingClientRect()]).filter(([, r]) => r.width > 0);
    for (const [label, r] of texts) {
      if (r.left < svg.left - 1 || r.right > svg.right + 1) found.push(`outside: ${label}`);
    }
    if (marker === "key:") continue;  // the map's leaning labels: their boxes overlap where their letters do not
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const [a, p] = texts[i], [b, q] = texts[j];
      const overlap = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const high = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (overlap > 1 && high > 1) found.push(`${a} × ${b}`);
    }
  }
  return found;
}
"""


@pytest.fixture
def phone(browser):
    context = harness.new_context(browser, WIDTH, HEIGHT, touch=True)
    yield context.new_page()
    context.close()


def go(page, server, path: str = "") -> None:
    page.goto(server.url + path, timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def test_a_tapped_cells_explanation_is_in_view_without_scrolling(server, phone):
    go(phone, server, "?causal=1")
    cells = phone.locator(".st-key-lab-panel .nsewdrag").first.bounding_box()
    phone.touchscreen.tap(cells["x"] + cells["width"] / 2, cells["y"] + cells["height"] * 0.42)  # row 3 of 6
    harness.wait_for_app(phone, timeout_ms=WAIT_MS)
    sentence = phone.locator(".st-key-map-row")
    assert "starts" in sentence.inner_text()
    box, chart = sentence.bounding_box(), phone.locator(".st-key-lab-panel .js-plotly-plot").bounding_box()
    assert box["y"] >= chart["y"] + chart["height"] - 1 and box["y"] + box["height"] <= HEIGHT + 0.5, (box, chart)


@pytest.mark.parametrize("path", ["", "Many_heads", "Shapes_and_memory?ctx=1024"])
def test_no_toolbar_covers_a_chart_title_on_touch(server, phone, path):
    go(phone, server, path)
    for chart in phone.locator('[data-testid="stPlotlyChart"]').all()[:3]:
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        phone.touchscreen.tap(box["x"] + box["width"] - 20, box["y"] + 10)  # a touch near its top right corner
        phone.wait_for_timeout(300)
        assert phone.locator(".modebar-container").evaluate_all(
            "bars => bars.filter(b => getComputedStyle(b).display !== 'none' && b.getBoundingClientRect().height > 0)"
            ".length") == 0


def test_no_table_toolbar_covers_page_ones_tile(server, phone):
    go(phone, server, "Peeking_and_the_causal_mask")
    table = phone.locator('[data-testid="stDataFrame"]').first
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.wait_for_timeout(400)
    tile = phone.locator('[data-testid="stMetric"]', has_text="Next word guessed right").bounding_box()
    toolbars = phone.locator('[data-testid="stElementToolbar"]').evaluate_all(
        "bars => bars.filter(b => getComputedStyle(b).display !== 'none').map(b => b.getBoundingClientRect())"
        ".filter(r => r.height > 0).map(r => [r.left, r.top, r.right, r.bottom])")
    for left, top, right, bottom in toolbars:
        covers = left < tile["x"] + tile["width"] and right > tile["x"] and top < tile["y"] + tile["height"] \
            and bottom > tile["y"]
        assert not covers, (tile, (left, top, right, bottom))


# lesson 4's W_o chart waits for its question's answer: the address gives it (answer=)
@pytest.mark.parametrize(("path", "marker"), [(f"Many_heads?answer={LETTERS[BY_ID['heads-start-column'].answer]}",
                                              "without W_o"),
                                             (f"?s={SIXTEEN.replace(' ', '+')}", "key:")])
def test_chart_labels_stay_apart_and_inside_their_chart(server, phone, path, marker):
    go(phone, server, path)
    phone.locator(".js-plotly-plot", has_text=marker).first.scroll_into_view_if_needed()
    assert phone.evaluate(COLLISIONS, [marker]) == []
    if path.startswith("?s="):
        ticks = phone.locator(".st-key-lab-panel .xtick text").all_text_contents()  # SVG text has no innerText
        assert any("sixteen" in t for t in ticks), ticks


def test_the_lab_tells_a_newcomer_where_to_start(server, phone):
    go(phone, server)
    line = phone.locator(".st-key-lab-newcomer")
    assert "New here?" in line.inner_text()
    link = line.locator('[data-testid="stPageLink"] a')
    assert link.get_attribute("href").endswith("Peeking_and_the_causal_mask")
    assert line.bounding_box()["y"] < HEIGHT  # on the first screen
    go(phone, server, "?lesson=2")  # a lesson's Try-it opened it: the way back instead
    assert phone.locator(".st-key-lab-newcomer").count() == 0
