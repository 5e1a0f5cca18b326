"""The live lecture in headless Chromium: a lecturer projecting Lecture scenes at 1280x720 goes live, two phones at
390x844 scan once and then follow three scenes with no tap, answer a number and a choice, see the reveal, and
one explores a scene in the Lab and comes back with one tap. On a server of its own with a temp SQLite file, started
as Community Cloud and a course deployment start it (`streamlit run app.py`): the phones are the phone's page
(attn_phone, `/j/CODE`), which holds a request on the room and swaps the new question in when it moves.

Checked on the way: the question reaches the phones within 2 s of the scene change (plus the page's settling), the
projector's count follows an answer, no spread before the lecturer shows it, the true value marked after the
reveal, the browser's Back on the projector moves the phones back too, and every projector and phone screen fits
its viewport with nothing to scroll (tests/browser/fit.py).
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import harness
import pytest
from live_steps import fits, press, wait_text

from attn_poll import Phase, Poll, open_store

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
FOLLOW_S = 4.0  # a move reaches a phone within 0.1 s (the room's check); the rest is room for a busy machine


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    with harness.server_with_database(tmp_path_factory.mktemp("live"), "app.py") as (running, url):
        yield running, Poll(open_store(url))


def answer_number(phone, value: str) -> None:
    """Type a number in the phone's box and press Enter, as a student does; wait for the page's reply."""
    phone.locator("#typed").fill(value)
    with phone.expect_response(lambda response: response.url.endswith("/vote")):
        phone.locator("#typed").press("Enter")


def host_secret(context, code: str) -> str:
    """The host secret the lecturer's browser holds (its cookie): never in the address or on the screen."""
    return next(c["value"] for c in context.cookies() if c["name"] == f"attn_host_{code}")


def test_a_lecturer_and_two_phones_run_three_scenes(browser, live_server):
    server, poll = live_server
    lecturer_context = harness.new_context(browser, 1280, 720)
    lecturer = lecturer_context.new_page()
    errors = harness.collect_page_errors(lecturer)
    lecturer.goto(f"{server.url}Lecture_scenes?mode=projector", timeout=SLOW_MS)
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS, initial_wait_ms=0)
    press(lecturer, "live-go")
    query = parse_qs(urlsplit(lecturer.url).query)
    code = query["room"][0]
    assert "host" not in query
    secret = host_secret(lecturer_context, code)
    wait_text(lecturer, "Join the lecture on your phone", 10)
    fits(lecturer, "the join screen after Go live")
    lecturer.keyboard.press("j")
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS)
    wait_text(lecturer, "How many of the 5 next words", 10)

    phones = []
    for _ in range(2):
        context = harness.new_context(browser, 390, 844, touch=True)
        phone = context.new_page()
        errors += harness.collect_page_errors(phone)
        phone.goto(f"{server.url}j/{code}", timeout=SLOW_MS)  # the QR code's link
        wait_text(phone, "How many of the 5 next words", 10)
        phones.append(phone)
    fits(phones[0], "a phone's numeric question")

    # scene 1, a number: both answer; the count follows; no spread until the lecturer shows it
    answer_number(phones[0], "5")
    answer_number(phones[1], "3")
    wait_text(phones[0], "Sent: 5 right guesses", 5)
    wait_text(lecturer, "2 of 2 answered", FOLLOW_S)
    assert lecturer.locator('[data-testid="stPlotlyChart"]').count() == 0  # before the reveal, no board and no spread
    press(lecturer, "live-close")
    wait_text(lecturer, "median 4 right guesses", FOLLOW_S)
    assert lecturer.locator('.st-key-live-spread [data-testid="stPlotlyChart"]').count() == 1
    wait_text(phones[0], "Answers are closed", FOLLOW_S)

    # Next reveals: the spread marks the true value, on the projector and on the phones
    press(lecturer, "scenes-next")
    wait_text(lecturer, "1 of 2 right (50%)", FOLLOW_S)
    assert "5true" in lecturer.locator('.st-key-live-spread [data-testid="stPlotlyChart"]').inner_text()  # its tick
    fits(lecturer, "scene 1 revealed with the spread")
    wait_text(phones[0], "That counts as right.", FOLLOW_S)
    wait_text(phones[1], "That is off.", FOLLOW_S)
    fits(phones[1], "a phone after the reveal")

    # Next again: scene 2 reaches the phones with no tap
    started = time.monotonic()
    press(lecturer, "scenes-next")
    for phone in phones:
        wait_text(phone, "Now the causal mask is on. For how many of the 5 words", FOLLOW_S + 2)
    follow_s = time.monotonic() - started
    assert poll.state(code).question_index == 1
    answer_number(phones[0], "0")  # none of them sees the next word

    # the browser's Back on the projector: the phones go back to scene 1, revealed
    lecturer.go_back()
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS)
    wait_text(phones[1], "That is off.", FOLLOW_S + 2)
    assert (poll.state(code).question_index, poll.state(code).phase) == (0, Phase.REVEALED)

    # a slide's link to scene 6, a choice: opening a page moves nothing; the badge's menu offers the link's scene
    lecturer.goto(f"{server.url}Lecture_scenes?mode=projector&scene=6&room={code}", timeout=SLOW_MS)
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS, initial_wait_ms=0)
    wait_text(lecturer, "Scene 1 of 27", 10)
    assert (poll.state(code).question_index, poll.state(code).phase) == (0, Phase.REVEALED)
    lecturer.locator(".st-key-live-badge button").first.click()
    lecturer.get_by_role("button", name="Move the lecture to scene 6, as the link asked").click()
    harness.wait_for_app(lecturer, timeout_ms=SLOW_MS)
    for phone in phones:
        wait_text(phone, "What does the causal mask change", FOLLOW_S + 2)
    fits(phones[0], "a phone's choice question")
    fits(lecturer, "a choice scene with its options")
    phones[0].locator("button.option").filter(has_text="A. Nothing").click()
    wait_text(phones[0], "Sent: Nothing", 5)
    phones[1].locator("button.option").filter(has_text="B. Its later").click()
    wait_text(phones[1], "Sent: Its later", 5)
    wait_text(lecturer, "2 of 2 answered", FOLLOW_S)
    press(lecturer, "scenes-next")
    wait_text(lecturer, "1 of 2 right (50%)", FOLLOW_S)
    fits(lecturer, "a choice scene revealed with its bars")

    # a student explores the scene in the Lab and comes back with one tap
    explorer = phones[0]
    wait_text(explorer, "Explore this scene in the Lab", FOLLOW_S)
    explorer.get_by_text("Explore this scene in the Lab").click()
    harness.wait_for_app(explorer, timeout_ms=SLOW_MS)
    wait_text(explorer, "Back to the lecture", 10)
    assert "room=" + code in explorer.url
    explorer.get_by_text("Back to the lecture").click()
    wait_text(explorer, "That counts as right.", 10)
    assert urlsplit(explorer.url).path == f"/j/{code}"  # the same scene, revealed, with their own answer

    # the end: the lecturer ends it, each phone shows its recap
    poll.end_room(code, secret)
    wait_text(phones[0], "Your predictions: 3 right of the 3 scenes you answered.", FOLLOW_S + 2)
    wait_text(phones[1], "Your predictions: 0 right of the 2 scenes you answered.", FOLLOW_S + 2)
    for page in (lecturer, *phones):
        harness.assert_no_exception(page)
    assert not errors, errors
    print(f"scene change -> question on both phones: {follow_s:.2f} s")
