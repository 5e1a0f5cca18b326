"""The worked example deck (docs/decks/masks-week-3.json) run live in headless Chromium: the lecturer opens it from its
link in projector mode at 1280x720 and goes live; two phones at 390x844 (one in Spanish) join by the QR's address,
answer scene 1 (a count) and scene 2 (a choice among the sentence's words), each in its own language, see the
reveal with the answer the core computed; the discussion scene asks the phones nothing; every screen fits."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import harness
import pytest
from live_steps import fits, press, wait_text

from attn_core.deck import read_json, to_link
from attn_poll import Poll, open_store

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
FOLLOW_S = 6.0
EXAMPLE = read_json((Path(__file__).resolve().parents[2] / "docs/decks/masks-week-3.json").read_bytes())


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    with harness.server_with_database(tmp_path_factory.mktemp("deck-live"), "app.py") as (running, url):
        yield running, Poll(open_store(url))


def test_the_example_deck_runs_live_with_two_phones_each_in_its_language(browser, live_server):
    server, poll = live_server
    lecturer_context = harness.new_context(browser, 1280, 720)
    lecturer = lecturer_context.new_page()
    errors = harness.collect_page_errors(lecturer)
    lecturer.goto(f"{server.url}Your_lecture?deck={to_link(EXAMPLE)}&scene=1&mode=projector", timeout=SLOW_MS)
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS, initial_wait_ms=0)
    fits(lecturer, "scene 1's question")
    press(lecturer, "live-go")
    code = parse_qs(urlsplit(lecturer.url).query)["room"][0]
    wait_text(lecturer, "Join the lecture on your phone", 10)
    lecturer.keyboard.press("j")
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS)
    wait_text(lecturer, "How many cells of this 6 × 6 map are blocked", 10)

    english = harness.new_context(browser, 390, 844, touch=True).new_page()
    spanish = harness.new_context(browser, 390, 844, touch=True).new_page()
    for phone, lang in ((english, "en"), (spanish, "es")):
        errors += harness.collect_page_errors(phone)
        phone.goto(f"{server.url}j/{code}?lang={lang}", timeout=SLOW_MS)
    wait_text(english, "How many cells of this 6 × 6 map are blocked", 10)
    wait_text(spanish, "¿Cuántas celdas de este mapa de 6 × 6 están bloqueadas", 10)
    fits(english, "a phone's count question")

    # scene 1, a count: the true answer is the core's 15 (the causal mask on six words)
    for phone, value in ((english, "15"), (spanish, "21")):
        phone.locator("#typed").fill(value)
        with phone.expect_response(lambda response: urlsplit(response.url).path.endswith("/vote")):
            phone.locator("#typed").press("Enter")
    wait_text(lecturer, "2 of 2 answered", FOLLOW_S)
    press(lecturer, "scenes-next")
    wait_text(lecturer, "1 of 2 right (50%)", FOLLOW_S)
    wait_text(english, "That counts as right.", FOLLOW_S)
    fits(lecturer, "scene 1 revealed with the spread")

    # scene 2, a choice among the sentence's words: the first row looks only at itself
    press(lecturer, "scenes-next")
    wait_text(english, "Which word does row 1, The, look at most?", FOLLOW_S)
    wait_text(spanish, "¿Qué palabra mira más la fila 1, The?", FOLLOW_S)
    english.locator("button.option").filter(has_text="The").first.click()
    spanish.locator("button.option").filter(has_text="cat").first.click()
    wait_text(lecturer, "2 of 2 answered", FOLLOW_S)
    press(lecturer, "scenes-next")
    wait_text(lecturer, "1 of 2 right (50%)", FOLLOW_S)
    fits(lecturer, "scene 2 revealed with its bars")

    # the discussion, scene 10: the phones have nothing to answer
    assert EXAMPLE.scenes[9].ask == "discuss"
    lecturer.goto(f"{server.url}Your_lecture?deck={to_link(EXAMPLE)}&scene=10&mode=projector&room={code}",
                  timeout=SLOW_MS)
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS, initial_wait_ms=0)
    lecturer.locator(".st-key-live-badge button").first.click()
    lecturer.get_by_role("button", name="Move the lecture to scene 10, as the link asked").click()
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS)
    wait_text(english, "Nothing to answer on your phone for this scene", FOLLOW_S)
    assert english.locator("#typed").count() == 0 and english.locator("button.option").count() == 0
    fits(lecturer, "the discussion scene, live")
    for page in (lecturer, english, spanish):
        harness.assert_no_exception(page)
    assert not errors, errors


def test_every_scene_of_the_example_deck_fits_the_projector_asked_and_answered(browser, server):
    context = harness.new_context(browser, 1280, 720)
    try:
        page = context.new_page()
        for number in range(1, len(EXAMPLE.scenes) + 1):
            for reveal in ("", "&reveal=1"):
                page.goto(f"{server.url}Your_lecture?deck={to_link(EXAMPLE)}&scene={number}{reveal}&mode=projector",
                          timeout=SLOW_MS)
                harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
                harness.assert_no_exception(page)
                fits(page, f"scene {number}{' revealed' if reveal else ''}")
    finally:
        context.close()
