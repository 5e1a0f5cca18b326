"""The Lab's map holds any sentence the box accepts, measured in Chromium (issue 40, item 2): the default sentence, five
words of 20 to 24 letters, 16 words of 24 letters, 16 ordinary words and a sentence of emoji and wide graphemes, on a
390x844 phone (the Lab and projector mode, light and dark) and at 1366x768 and 1280x720 (projector mode).

On every screen: no text of the map overlaps another, none leaves the map's visible box or falls below 11 px, and a
number stays inside its cell. On a phone the plot is a square of 250 px or more under the header, the chart is cut to
it (no more than a margin of room under the cells), and where the cells are too small for numbers they show none and
a tap puts the row's numbers in the sentence under the map. The head in view is named on the map."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import fit
import harness
import pytest

from attn_ui.figures.layout import MIN_TEXT

WAIT_MS = 90_000
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
SENTENCES = {
    "default": "",
    "five long words": "Electroencephalographers Counterrevolutionaries Incomprehensibilities Internationalizations "
                       "Uncharacteristically",
    "16 words of 24 letters": " ".join("m" * 23 + chr(97 + i) for i in range(16)),
    "16 ordinary words": "the quick brown fox jumps over the lazy dog while seven small birds sing loud songs",
    "emoji and wide graphemes": f"My {FAMILY} family \U0001f1ea\U0001f1f8 loves \U0001f469\U0001f3fd\u200d\U0001f4bb "
                                "東京 ﷺ code",
}
PHONE, LAPTOP, PROJECTOR = (390, 844), (1366, 768), (1280, 720)
NUMBER = re.compile(r"^\d[.,]\d\d$")

# Every text of the Lab's map: its words, size and box, the plot's box, a cell's size, the box the page lets the map
# show (a phone cuts the chart to its map), and which of them overlap or leave that box
MAP = r"""
() => {
  const gd = document.querySelector('.st-key-lab-panel .js-plotly-plot');
  const shown = gd.closest('[data-testid="stElementContainer"]').getBoundingClientRect();
  const plot = gd.querySelector('.nsewdrag').getBoundingClientRect();
  const length = gd.data.find((t) => t.name === 'weights').x.length;
  const texts = [...gd.querySelectorAll('svg text')].filter((t) => t.textContent.trim())
    .map((t) => ({text: t.textContent.trim(), size: parseFloat(getComputedStyle(t).fontSize),
                  cell: !!t.closest('.textpoint'), box: t.getBoundingClientRect()}))
    .filter((t) => t.box.width >= 1 && t.box.height >= 1);
  const overlaps = [];
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i].box, b = texts[j].box;
    const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (wide > 1 && high > 1) overlaps.push(`${texts[i].text} × ${texts[j].text}`);
  }
  const outside = texts.filter((t) => t.box.left < shown.left - 0.5 || t.box.right > shown.right + 0.5
    || t.box.top < shown.top - 0.5 || t.box.bottom > shown.bottom + 0.5).map((t) => t.text);
  const cell = plot.width / length;
  return {
    plot: {width: plot.width, height: plot.height, top: plot.top, bottom: plot.bottom}, cell,
    shown: {top: shown.top, bottom: shown.bottom, height: shown.height}, overlaps, outside,
    small: texts.filter((t) => t.size < MIN_TEXT).map((t) => `${t.text} ${t.size}px`),
    cells: texts.filter((t) => t.cell).map((t) => [t.text, t.size, t.box.width, t.box.height]),
    titles: [...gd.querySelectorAll('.annotation text')].map((t) => t.textContent.trim()),
    top: Math.min(...texts.map((t) => t.box.top)) - shown.top,
  };
}
""".replace("MIN_TEXT", str(MIN_TEXT))


def open_lab(browser, server, size, query: dict, dark: bool = False):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=size == PHONE,
                                  has_touch=size == PHONE, color_scheme="dark" if dark else "light")
    page = context.new_page()
    page.goto(server.url + "?" + urlencode(query), timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)
    return context, page


def query_for(sentence: str, **keys: str) -> dict:
    return {**({"s": SENTENCES[sentence]} if SENTENCES[sentence] else {}), **keys}


def check_map(found: dict, where: str) -> None:
    assert found["overlaps"] == [], f"{where}: texts overlap: {found['overlaps'][:6]}"
    assert found["outside"] == [], f"{where}: texts cut by the map's box: {found['outside'][:6]}"
    assert found["small"] == [], f"{where}: texts below {MIN_TEXT} px: {found['small'][:6]}"
    for text, size, width, height in found["cells"]:  # a number or a mark inside its cell
        assert width <= found["cell"] - 2 and height <= found["cell"], f"{where}: {text!r} at {size} px in a " \
                                                                       f"{found['cell']:.0f} px cell"


PHONE_CASES = [(sentence, mode, dark) for sentence in SENTENCES for mode in ("lab", "projector")
               for dark in (False,)] + [("five long words", "lab", True), ("default", "projector", True)]


@pytest.mark.parametrize(("sentence", "mode", "dark"), PHONE_CASES,
                         ids=[f"{s}-{m}{'-dark' if d else ''}" for s, m, d in PHONE_CASES])
def test_a_phone_shows_any_sentence_in_a_map_of_250_px_with_nothing_overlapping(browser, server, sentence, mode,
                                                                                dark):
    keys = {"heads": "4", "view": "2"} | ({"mode": "projector"} if mode == "projector" else {})
    context, page = open_lab(browser, server, PHONE, query_for(sentence, **keys), dark)
    try:
        found = page.evaluate(MAP)
        check_map(found, f"{sentence}, {mode}")
        plot = found["plot"]
        assert plot["height"] >= 250 and abs(plot["width"] - plot["height"]) < 1, plot
        # the chart is cut to its map: its titles at the top, a bottom margin under the cells
        assert found["top"] <= 12 and found["shown"]["bottom"] - plot["bottom"] <= 14, (found["top"], found["shown"])
        assert "Head 2 of 4" in found["titles"], found["titles"]  # the head in view, named on the map
        if mode == "lab":  # the map pinned over the controls leaves them half the screen or more
            assert found["shown"]["height"] <= 420, found["shown"]
    finally:
        context.close()


@pytest.mark.parametrize("sentence", ["16 ordinary words", "16 words of 24 letters"])
def test_cells_too_small_for_numbers_leave_them_to_the_tapped_rows_sentence(browser, server, sentence):
    context, page = open_lab(browser, server, PHONE, query_for(sentence))
    try:
        found = page.evaluate(MAP)
        assert [text for text, *_ in found["cells"] if NUMBER.match(text)] == []  # no number squeezed into a cell
        box = page.locator(".st-key-lab-panel .nsewdrag").first.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.22)  # row 4 of 16
        harness.wait_for_app(page, timeout_ms=WAIT_MS)
        sentence_line = page.locator(".st-key-map-row").inner_text()
        assert "(query 4)" in sentence_line and re.search(r"\d\.\d\d", sentence_line), sentence_line
    finally:
        context.close()


def test_the_default_sentence_keeps_numbers_and_words_whole_on_a_phone(browser, server):
    context, page = open_lab(browser, server, PHONE, {"causal": "1"})
    try:
        found = page.evaluate(MAP)
        numbers = [size for text, size, *_ in found["cells"] if NUMBER.match(text)]
        assert len(numbers) == 21 and min(numbers) == 15  # 6 * 7 / 2 legal cells, at the Lab's size
        assert sum(text == "future" for text, *_ in found["cells"]) == 15
        ticks = page.locator(".st-key-lab-panel .xtick text").all_text_contents()
        assert ticks == ["Your", "journey", "starts", "with", "one", "step"]  # flat and whole
        assert found["shown"]["height"] <= 360  # was 440 px, a third of it empty
    finally:
        context.close()


def test_long_words_are_cut_on_the_map_and_named_whole_under_it(browser, server):
    context, page = open_lab(browser, server, LAPTOP, query_for("five long words"))
    try:
        rows = page.locator(".st-key-lab-panel .ytick text").all_text_contents()
        assert [row.split(" ")[0] for row in rows] == ["1", "2", "3", "4", "5"] and all(r.endswith("…") for r in rows)
        line = page.locator(".st-key-lab-panel [data-testid='stCaptionContainer']", has_text="Cut short on the map")
        assert "1 Electroencephalographers" in line.inner_text() and "5 Uncharacteristically" in line.inner_text()
    finally:
        context.close()


WIDE_CASES = [(sentence, size) for sentence in SENTENCES for size in (LAPTOP, PROJECTOR)]


@pytest.mark.parametrize(("sentence", "size"), WIDE_CASES,
                         ids=[f"{s}-{'projector' if z == PROJECTOR else 'lab'}" for s, z in WIDE_CASES])
def test_a_wide_screen_shows_any_sentence_with_nothing_overlapping(browser, server, sentence, size):
    keys = {"heads": "4", "view": "2", "causal": "1"} | ({"mode": "projector"} if size == PROJECTOR else {})
    context, page = open_lab(browser, server, size, query_for(sentence, **keys))
    try:
        found = page.evaluate(MAP)
        check_map(found, f"{sentence}, {size}")
        assert "Head 2 of 4" in found["titles"]
        if size == PROJECTOR:  # the map's column still fits the projector's screen, its chart text read from the back
            bottom = page.evaluate("document.querySelector('.st-key-lab-panel').getBoundingClientRect().bottom")
            measured = fit.measure(page)
            assert bottom <= PROJECTOR[1] and measured["clipped"] == measured["faint"] == [], (bottom, measured)
            assert found["plot"]["height"] >= 330  # 430 px for six short words; words on end take the rest
            sizes = [size for _, size, *_ in found["cells"]]
            assert not sizes or min(sizes) >= 18, sizes
    finally:
        context.close()
