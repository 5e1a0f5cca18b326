"""A first-year student on a 390x844 touch phone, lesson by lesson: questions before their answers, the Lab's map in
view while a control changes it, one tap per cell, a sidebar that gets out of the way, Next and Back links, nothing
to scroll sideways and no chart text below 11 px, and notes next to the control that caused them."""

from __future__ import annotations

import harness
import pytest

from attn_core import Settings, compute
from attn_ui.figures.layout import MIN_TEXT

PATIENCE_MS = 90_000
WIDTH, HEIGHT = 390, 844
LESSONS = ["Peeking_and_the_causal_mask", "Padding_mask", "Dropout", "Many_heads", "Shapes_and_memory",
           "One_row_by_hand"]
MAP = '.st-key-lab-panel [data-testid="stPlotlyChart"]'
SMALL_TEXT = f"""() => [...document.querySelectorAll('.js-plotly-plot text')]
  .filter(t => t.textContent.trim() && t.getBoundingClientRect().width > 0)
  .map(t => [parseFloat(getComputedStyle(t).fontSize), t.textContent]).filter(([size]) => size < {MIN_TEXT})"""


@pytest.fixture
def phone(browser):
    context = harness.new_context(browser, WIDTH, HEIGHT, touch=True)
    yield context.new_page()
    context.close()


def go(page, server, path: str = "") -> None:
    page.goto(server.url + path, timeout=PATIENCE_MS)
    settle(page)


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=PATIENCE_MS)
    harness.assert_no_exception(page)


def in_viewport(box: dict | None) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT and box["width"] > 0


@pytest.mark.parametrize(("path", "question", "fold"), [
    ("Peeking_and_the_causal_mask", "pad-zero-trap", "The question's example, worked out"),
    ("Dropout", "dropout-rescale", "Why the rescale matters"),
    ("Shapes_and_memory", "shapes-double-context", "The memory against T"),
])  # fmt: skip
def test_the_question_comes_before_its_answer_which_opens_once_answered(server, phone, path, question, fold):
    go(phone, server, path)
    box = phone.locator(f".st-key-quiz-{question}")
    details = phone.locator('[data-testid="stExpander"] details', has_text=fold)
    assert box.bounding_box()["y"] < details.bounding_box()["y"]
    assert details.get_attribute("open") is None  # folded until the student answers
    if path == "Peeking_and_the_causal_mask":
        assert "PAD" not in box.inner_text() and "cat" not in box.inner_text()  # page 1 never meets either
    if path == "Shapes_and_memory":  # the statement that answers it is inside the fold, not above the question
        above = phone.locator('[data-testid="stMain"]').inner_text().split(box.inner_text()[:40])[0]
        assert "four times" not in above and "factor of 4" not in above and "Doubling T" not in above
    box.locator('[role="radiogroup"] label').first.tap()
    settle(phone)
    assert details.get_attribute("open") is not None
    if path == "Shapes_and_memory":
        assert "Doubling T multiplies it by" in details.inner_text()  # the tile is part of the folded answer


def test_the_labs_map_stays_in_view_while_the_controls_change_it(server, phone):
    go(phone, server)
    for tap in (lambda: harness.toggle(phone, "Causal mask"),
                lambda: phone.get_by_role("button", name="journey", exact=True)):
        control = tap()
        control.scroll_into_view_if_needed()
        control.tap()
        settle(phone)
        assert in_viewport(control.bounding_box()) and in_viewport(phone.locator(MAP).bounding_box())
    padded = compute(Settings(causal=True, padded=(2,)))
    assert harness.metrics(phone)["Padding-blocked cells"] == str(padded.padding_cells)


def test_one_tap_selects_a_cell_and_shows_no_tooltip(server, phone):
    go(phone, server)
    cells = phone.locator(".st-key-lab-panel .nsewdrag").first.bounding_box()
    phone.touchscreen.tap(cells["x"] + cells["width"] / 2, cells["y"] + cells["height"] * 0.42)  # row 3 of 6
    settle(phone)
    assert phone.get_by_text("Tap or click a cell to explain its row.").count() == 0
    assert "starts" in phone.locator(".st-key-lab-panel").inner_text()
    assert phone.locator(".hoverlayer .hovertext").count() == 0 or not phone.locator(".hoverlayer").first.is_visible()


def test_the_sidebar_closes_after_a_link_and_lessons_lead_on_and_back(server, phone):
    go(phone, server)
    phone.locator('[data-testid="stExpandSidebarButton"]').tap()
    phone.locator('[data-testid="stSidebar"] a', has_text="3 · Dropout").tap()
    settle(phone)
    phone.wait_for_timeout(400)  # the sidebar's closing transition
    assert phone.locator('[data-testid="stSidebar"]').bounding_box()["x"] < 0
    assert phone.locator('[data-testid="stPageLink"] a', has_text="Next: 4 · Many heads").count() == 1
    phone.locator('[data-testid="stPageLink"] a', has_text="Open the Lab in this state").tap()
    settle(phone)
    back = phone.locator('[data-testid="stPageLink"] a', has_text="Back to the lesson: 3 · Dropout on the weights")
    assert in_viewport(back.bounding_box())  # the Lab opens at its top, where the link is
    back.tap()
    settle(phone)
    assert phone.evaluate("location.pathname").endswith("/Dropout")
    phone.locator('[data-testid="stExpandSidebarButton"]').tap()  # the Lab from the sidebar: no lesson to go back to
    phone.locator('[data-testid="stSidebar"] a', has_text="Lab").first.tap()
    settle(phone)
    assert phone.locator('[data-testid="stPageLink"] a', has_text="Back to the lesson").count() == 0


TABLES = """() => [...document.querySelectorAll('[data-testid="stTable"], [data-testid="stDataFrame"]')]
  .filter(e => e.getBoundingClientRect().width > 0)
  .map(e => [e.dataset.testid, e.getBoundingClientRect().right, e.scrollWidth - e.clientWidth, e.innerText])"""


@pytest.mark.parametrize(("path", "cells"), [
    ("Many_heads?answer=b", ["4 full-width copies", "19,008", "col 4 · head 2"]),  # answered: its concat table
    ("Shapes_and_memory", ["here, now", "(1, 4, 6, 6)", "(8, 12, 1024, 1024)"]),
    ("One_row_by_hand", ["v6", "weight × v6", "final weight"]),
])  # fmt: skip
def test_every_table_fits_390_px_without_scrolling_inside_its_box(server, phone, path, cells):
    go(phone, server, path)
    tables = phone.evaluate(TABLES)
    assert tables and {kind for kind, *_ in tables} == {"stTable"}  # the canvas dataframes wait for a wide screen
    assert all(right <= WIDTH and overflow <= 0 for _, right, overflow, _ in tables)
    shown = "\n".join(text for *_, text in tables)
    assert all(cell in shown for cell in cells)


def test_the_labs_rescale_switch_sits_with_the_dropout_controls(server, phone):
    go(phone, server)
    rescale = phone.get_by_role("switch", name="Rescale survivors by 1 / (1 − p)")
    assert rescale.count() == 1 and rescale.is_checked()  # drawn without opening "More"
    assert phone.locator('[data-testid="stExpander"]', has_text="More").get_by_role("switch").count() == 0


@pytest.mark.parametrize("path", ["", *LESSONS])
def test_no_sideways_scroll_and_no_chart_text_below_11_px(server, phone, path):
    go(phone, server, path)
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= WIDTH
    assert phone.evaluate(SMALL_TEXT) == []


def test_a_16_word_map_keeps_readable_words_that_do_not_overlap(server, phone):
    go(phone, server, "?s=" + "+".join(f"w{n}" for n in range(1, 17)))
    assert phone.evaluate(SMALL_TEXT) == []
    boxes = phone.locator(".st-key-lab-panel .ytick text").evaluate_all(
        "ticks => ticks.map(t => t.getBoundingClientRect()).map(b => [b.top, b.bottom])")
    assert len(boxes) == 16
    assert all(below[0] >= above[1] - 0.5 for above, below in zip(boxes, boxes[1:], strict=False))


def test_a_refused_sentence_says_why_next_to_the_sentence_box(server, phone):
    go(phone, server)
    phone.get_by_text("More: sentence, d_model, masking route, seed").tap()
    settle(phone)
    box = phone.get_by_label("Sentence (1 to 16 words)")
    box.fill(" ".join(["word"] * 17))
    box.press("Enter")
    settle(phone)
    note = phone.locator("[data-testid='stExpander'] [data-testid='stAlert']", has_text="17 words")
    note.first.scroll_into_view_if_needed()
    gap = note.first.bounding_box()["y"] - (box.bounding_box()["y"] + box.bounding_box()["height"])
    assert 0 <= gap < 80 and in_viewport(note.first.bounding_box())


def test_the_pinned_map_lets_go_while_the_sentence_box_is_typed_in(server, phone):
    """A phone's keyboard takes half the screen: under a pinned map the box being typed in would be hidden."""
    go(phone, server)
    pinned = "() => getComputedStyle(document.querySelector('.st-key-lab-panel > [data-testid=\"stElementContainer\"]"\
        ":has([data-testid=\"stPlotlyChart\"])')).position"
    assert phone.evaluate(pinned) == "sticky"
    phone.get_by_text("More: sentence, d_model, masking route, seed").tap()
    settle(phone)
    box = phone.get_by_label("Sentence (1 to 16 words)")
    box.focus()
    assert phone.evaluate(pinned) == "static"
    box.blur()
    assert phone.evaluate(pinned) == "sticky"


def test_row_sums_read_as_words(server, phone):
    go(phone, server)
    assert harness.metrics(phone)["Row sums"] == "all 1.00"
