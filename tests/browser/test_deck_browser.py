"""Your lecture in a real browser, as a lecturer builds it: two views added from the Lab, a question chosen, the deck
presented (question, then Next: the answer), downloaded, opened again from its file (the same deck), its figures
downloaded as SVG, and the Lab's map as SVG; the example deck in docs/decks opens from its link."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import harness
import pytest

from attn_core.deck import read_json, read_link, to_link

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
ROOT = Path(__file__).resolve().parents[2]


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    harness.assert_no_exception(page)


def deck_in(url: str):
    from urllib.parse import parse_qs, urlparse

    return read_link(parse_qs(urlparse(url).query)["deck"][-1])


def add_from_lab(page, server, query: str) -> None:
    page.goto(f"{server.url}?{query}", timeout=SLOW_MS)
    settle(page)
    page.get_by_role("link", name="Add this view to my lecture").click()
    page.wait_for_url("**/Your_lecture**", timeout=SLOW_MS)
    settle(page)
    page.wait_for_function("() => location.search.includes('deck=') && !location.search.includes('add=')",
                           timeout=SLOW_MS)


def test_a_lecturer_builds_presents_downloads_and_reopens_a_deck(browser, server, tmp_path):
    context = harness.new_context(browser)
    context.set_default_timeout(SLOW_MS)
    try:
        page = context.new_page()
        add_from_lab(page, server, "causal=1&row=3")
        assert "What is the largest weight in row 3" in page.locator('[data-testid="stMain"]').inner_text()
        first = deck_in(page.url)
        assert len(first.scenes) == 1 and first.scenes[0].settings.causal

        # the second view: the Lab again, a new state; the deck comes along in the session
        page.goto(f"{server.url}?heads=2&view=2&pad=5,6&row=2", timeout=SLOW_MS)
        settle(page)
        page.get_by_role("link", name="Add this view to my lecture").click()
        page.wait_for_url("**/Your_lecture**", timeout=SLOW_MS)
        settle(page)
        page.wait_for_function("() => location.search.includes('deck=') && !location.search.includes('add=')")
        deck = deck_in(page.url)
        assert len(deck.scenes) == 2 and deck.scenes[1].settings.padded == (5, 6)

        # scene 2 asks how many cells the padding blocks
        picker = page.locator(".st-key-deck-1-ask").get_by_role("combobox")
        picker.scroll_into_view_if_needed()  # (clicked while still scrolling, the list did not open)
        page.wait_for_timeout(300)
        picker.click()
        page.get_by_role("option", name="How many cells the padding blocks").click()
        settle(page)
        page.wait_for_function("() => !location.search.includes('add=')")
        deck = deck_in(page.url)
        assert deck.scenes[1].ask == "padding"
        assert "**12**" not in page.content()  # (bold is drawn as <strong>, never as asterisks)
        assert "12" in page.locator(".st-key-deck-scene-1").inner_text()  # the lecturer sees the computed answer

        # present: the question, then Next shows the answer
        page.get_by_role("button", name="Present").click()
        settle(page)
        main = page.locator('[data-testid="stMain"]')
        page.get_by_role("button", name="Next").click()
        settle(page)
        page.get_by_role("button", name="Next").click()  # scene 2's question
        settle(page)
        assert "How many cells of this 6 × 6 map does the padding block?" in main.inner_text()
        assert "12 of the 36 cells" not in main.inner_text()
        page.get_by_role("button", name="Next").click()
        settle(page)
        assert "12 of the 36 cells" in main.inner_text()
        page.get_by_role("button", name="Edit").click()
        settle(page)

        # the file down and up again: the same deck
        with page.expect_download(timeout=SLOW_MS) as info:
            page.get_by_role("button", name="Download the deck").click()
        saved = tmp_path / "lecture.json"
        info.value.save_as(saved)
        assert read_json(saved.read_bytes()) == deck
        page.get_by_role("button", name="Start a new deck").click()
        settle(page)
        assert "deck=" not in page.url
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(saved))
        settle(page)
        page.wait_for_function("() => location.search.includes('deck=')")
        assert deck_in(page.url) == deck

        # the figures for slides
        with page.expect_download(timeout=SLOW_MS) as info:
            page.get_by_role("button", name="Figures for slides (SVG)").click()
        archive = zipfile.ZipFile(io.BytesIO(Path(info.value.path()).read_bytes()))
        names = set(archive.namelist())
        assert {"scene-01-answer.svg", "scene-02-answer.svg", "lecture.md", "lecture.json"} <= names
        for name in names:
            if name.endswith(".svg"):
                ElementTree.fromstring(archive.read(name))
        assert json.loads(archive.read("lecture.json"))["scenes"][1]["ask"] == "padding"
    finally:
        context.close()


def test_the_labs_map_downloads_as_svg_and_the_example_deck_opens_from_its_link(page, server, tmp_path):
    page.goto(f"{server.url}?causal=1", timeout=SLOW_MS)
    settle(page)
    with page.expect_download(timeout=SLOW_MS) as info:
        page.get_by_role("button", name="Map as SVG").click()
    svg = ElementTree.fromstring(Path(info.value.path()).read_bytes())
    assert svg.tag.endswith("svg")
    example = read_json((ROOT / "docs/decks/masks-week-3.json").read_bytes())
    page.goto(f"{server.url}Your_lecture?deck={to_link(example)}&scene=1", timeout=SLOW_MS)
    settle(page)
    assert "Scene 1 of 10" in page.locator('[data-testid="stMain"]').inner_text()
