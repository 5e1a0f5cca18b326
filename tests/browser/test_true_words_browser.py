"""Words that promise what the screen shows, and no silent failures (issue 40, items 5 and 6), in Chromium at
1366x768 and 390x844, light and dark.

- Scene 13's answer promises a warning: the board draws it. Scenes 1-2 show a head that copies positions, which no
  Lab head does: their link opens lesson 1 on that very head, and the way back to the scene is on the first screen.
  The Lab opened from a scene puts "Back to scene n" above its controls.
- A dropout row's sentence says the sum its cells make as the map writes them; no page writes a negative zero.
- A paste longer than the sentence box is said under it; the link's copy button shows and copies, a phone's too; the
  map as a table neither scrolls sideways nor cuts a cell on a phone.
"""

from __future__ import annotations

import re
from decimal import Decimal

import harness
import numpy as np
import pytest

from attn_core import Settings, compute
from attn_core.lessons import masks as mask_lessons
from attn_ui.words.scenes import SCENES

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
SLOW_MS = 120_000
NEGATIVE_ZERO = re.compile(r"[-−]0(?:[.,]0+)?(?![0-9.,])")


@pytest.fixture(params=[(size, scheme) for size in SIZES for scheme in ("light", "dark")],
                ids=lambda value: f"{value[0]}-{value[1]}")
def page(request, browser):
    size, scheme = request.param
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    context.add_init_script(harness._TRACK_SOCKETS)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context.new_page()
    context.close()


def visit(page, server, path: str) -> None:
    page.goto(server.url.rstrip("/") + path, timeout=SLOW_MS)
    settle(page)


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=50)
    harness.assert_no_exception(page)


def on_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def test_what_the_scenes_promise_is_what_they_show(page, server):
    visit(page, server, "/Lecture_scenes?scene=13&reveal=1")
    warning = page.locator(".st-key-scene-panel [data-testid='stAlert']").filter(has_text="nothing to look at")
    assert warning.count() == 1 and warning.is_visible()

    visit(page, server, "/Lecture_scenes?scene=2&reveal=1")
    assert page.get_by_role("link", name="Open in the Lab").count() == 0
    page.get_by_role("link", name="See this head in lesson 1").click()
    settle(page)
    assert "/Peeking_and_the_causal_mask" in page.url and "scene=2" in page.url
    back = page.get_by_role("link", name="Back to scene 2")
    assert on_first_screen(page, back), "the way back is the first thing on the page"
    cheat = mask_lessons.cheating_head(SCENES[1].settings.sentence, SCENES[1].settings.causal)
    shown = np.array(harness.plotly_data(page, 0)[0]["z"], dtype=float)  # the lesson's first map: the scene's head
    np.testing.assert_allclose(np.nan_to_num(shown), cheat.head_map().weights, atol=0.005)
    back.click()
    settle(page)
    assert "scene=2" in page.url and "reveal=1" in page.url

    visit(page, server, "/?causal=1&scene=12")
    back = page.get_by_role("link", name="Back to scene 12")
    assert on_first_screen(page, back)
    control = harness.toggle(page, "Causal mask").bounding_box()
    assert back.bounding_box()["y"] < control["y"], "Back to scene sits above the controls"


def test_a_dropout_row_says_the_sum_its_cells_show(page, server):
    settings, row = Settings(causal=True, dropout=0.5, roll=2), 5  # cells add up to 1.65, the row to 1.66
    visit(page, server, f"/?{'&'.join(f'{k}={v}' for k, v in settings.to_query().items())}&row={row}")
    cells = next(trace for trace in harness.plotly_data(page, 0) if trace.get("name") == "cells")
    length = len(settings.tokens)
    texts = cells["text"][(row - 1) * length:row * length]  # one text a cell, row by row, each in its colour's <span>
    numbers = [re.search(r">(\d+\.\d\d)<", text or "") for text in texts]
    shown = sum(Decimal(found[1]) for found in numbers if found)
    assert sum(1 for found in numbers if found) >= 3
    sentence = page.locator(".st-key-map-row").inner_text()
    total = compute(settings).weights[0, row - 1].sum()
    assert f"sums to {total:.2f}" in sentence and f"{total:.2f}" != f"{shown:.2f}"
    assert f"each rounded to two decimals, add up to {shown:.2f}." in sentence, sentence


def test_no_page_writes_a_negative_zero(page, server):
    for path in ("/One_row_by_hand", "/Many_heads", "/One_row_by_hand?p=0.5&roll=3&word=5"):
        visit(page, server, path)
        text = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').innerText")
        assert not NEGATIVE_ZERO.findall(text), (path, NEGATIVE_ZERO.findall(text)[:3])
    assert "4b · Weighted sum" in page.evaluate("document.body.innerText")  # the tables were there to be read


def test_a_long_paste_is_said_and_the_link_can_be_copied(page, server):
    visit(page, server, "/?causal=1")
    page.get_by_text("More: sentence, d_model, masking route, seed").click()
    settle(page)
    box = page.get_by_label("Sentence (1 to 16 words)")
    box.fill("word " * 199 + "ends")  # 999 characters, as a paste puts them in
    box.press("Enter")
    settle(page)
    note = page.get_by_text("The box takes at most 400 characters; this text has 999.", exact=False)
    assert note.first.is_visible()
    assert len(box.input_value()) == 999  # left in the box to be shortened, not dropped

    page.get_by_role("button", name="Link to this view").click()
    settle(page)
    code = page.locator('[data-testid="stCode"]').first
    copy = code.get_by_role("button", name="Copy to clipboard")
    assert copy.is_visible() and copy.evaluate("(b) => getComputedStyle(b.parentElement).visibility") == "visible"
    size = copy.bounding_box()
    assert size["width"] >= 24 and size["height"] >= 24
    copy.click()
    page.wait_for_timeout(200)
    assert page.evaluate("navigator.clipboard.readText()") == code.inner_text().strip()


def test_the_map_as_a_table_fits_the_screen(page, server):
    visit(page, server, "/?causal=1&pad=1,6")
    page.get_by_text("The map as a table").first.click()
    settle(page)
    tables = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stTable"]')]
        .filter((t) => t.checkVisibility()).map((t) => {
          const scroller = [t, ...t.querySelectorAll('div')].find((d) => d.scrollWidth > d.clientWidth + 1);
          const cut = [...t.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1);
          return {wide: scroller ? scroller.scrollWidth - scroller.clientWidth : 0, cut: cut.map((c) => c.innerText),
                  right: t.getBoundingClientRect().right, text: t.innerText};
        })""")
    assert tables, "no table shown"
    assert all(table["wide"] == 0 and not table["cut"] for table in tables), tables
    assert all(table["right"] <= page.viewport_size["width"] for table in tables)
    assert sum(table["text"].count("blocked (future and padding)") for table in tables) == 5  # row 1: keys 2 to 6
