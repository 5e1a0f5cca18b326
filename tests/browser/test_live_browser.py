"""The live lecture in headless Chromium: a lecturer projecting Lecture scenes at 1280x720 goes live, two phones at
390x844 scan once and then follow three scenes with no tap, answer a number and a choice, see the reveal, and
one explores a scene in the Lab and comes back with one tap. On a server of its own with a temp SQLite file, started
as Community Cloud and a course deployment start it (`streamlit run app.py`): the phones check the room over its
plain HTTP route, with no timed fragment.

Checked on the way: the question reaches the phones within 2 s of the scene change (plus the page's settling), the
projector's count follows an answer, no spread before the lecturer shows it, the true value marked after the
reveal, the browser's Back on the projector moves the phones back too, and every projector and phone screen fits
its viewport with nothing to scroll (tests/browser/fit.py).
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import fit
import harness
import pytest

import attn_lang
from attn_poll import Phase, Poll, open_store
from attn_ui.views import live_phone
from attn_ui.words import live

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
FOLLOW_S = 2.0 + 2.0  # a phone checks every 2 s; then the page is drawn and settles before we read it


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    with harness.server_with_database(tmp_path_factory.mktemp("live"), "app.py") as (running, url):
        yield running, Poll(open_store(url))


def wait_text(page, text: str, seconds: float) -> float:
    """Seconds until `text` shows in the page's main area; fails with what the page showed."""
    start = time.monotonic()
    while text not in (body := page.locator('[data-testid="stMain"]').inner_text()):
        if time.monotonic() - start > seconds:
            raise AssertionError(f"{text!r} did not show within {seconds} s; the page shows: {body[:600]!r}")
        page.wait_for_timeout(100)
    return time.monotonic() - start


def fits(page, what: str) -> None:
    wrong = fit.problems(fit.measure(page))
    assert not wrong, f"{what}: {wrong}"


def press(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)


def answer_number(phone, value: str) -> None:
    box = phone.locator('[data-testid="stTextInput"] input')
    box.fill(value)
    phone.get_by_role("button", name="Send").click()
    harness.wait_for_app(phone, timeout_ms=SLOW_MS)


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
        phone.goto(f"{server.url}Class_poll?room={code}", timeout=SLOW_MS)
        harness.wait_for_app(phone, timeout_ms=SLOW_MS, initial_wait_ms=0)
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
    phones[0].locator('[data-testid="stRadioOption"]').filter(has_text="A. Nothing").click()
    harness.wait_for_app(phones[0], timeout_ms=SLOW_MS)
    phones[1].locator('[data-testid="stRadioOption"]').filter(has_text="B. Its later").click()
    harness.wait_for_app(phones[1], timeout_ms=SLOW_MS)
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
    harness.wait_for_app(explorer, timeout_ms=SLOW_MS)
    wait_text(explorer, "That counts as right.", 10)  # the same scene, revealed, with their own answer

    # the end: the lecturer ends it, each phone shows its recap
    poll.end_room(code, secret)
    wait_text(phones[0], "Your predictions: 3 right of the 3 scenes you answered.", FOLLOW_S + 2)
    wait_text(phones[1], "Your predictions: 0 right of the 2 scenes you answered.", FOLLOW_S + 2)
    for page in (lecturer, *phones):
        harness.assert_no_exception(page)
    assert not errors, errors
    print(f"scene change -> question on both phones: {follow_s:.2f} s")


CARD_TAGS = {"DIV", "P", "STRONG", "EM", "SPAN"}


def test_a_phone_shows_the_next_scene_s_question_before_its_answer_box_is_drawn(browser, live_server):
    """The held route's answer carries the scene's question in the phone's language: the browser shows it at once, as
    text, over the whole page, and takes it away when the fragment has drawn the page again with the answer box. The
    phone's Refresh is held back here, so the card is what shows until it is let go."""
    server, poll = live_server
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, 0, False)
    phone = harness.new_context(browser, 390, 844, touch=True).new_page()
    errors = harness.collect_page_errors(phone)
    phone.goto(f"{server.url}Class_poll?room={room.code}&lang=es", timeout=SLOW_MS)
    harness.wait_for_app(phone, timeout_ms=SLOW_MS, initial_wait_ms=0)
    phone.wait_for_selector(".st-key-poll-stamp code", state="attached", timeout=30_000)
    phone.wait_for_function("document.documentElement.lang === 'es'", timeout=10_000)
    phone.evaluate("""() => {  // the Refresh the check presses does nothing until the test lets it go
        document.querySelector(".st-key-poll-refresh button").click = () => {};
    }""")
    moved = time.monotonic()
    poll.show_scene(room.code, room.host_secret, 2, False)
    phone.wait_for_selector("#attn-ask", timeout=10_000)
    shown_s = time.monotonic() - moved
    told = live_phone.announcement(3, "es")
    card = phone.evaluate("""() => {
        const card = document.querySelector("#attn-ask"), box = card.getBoundingClientRect();
        return {text: card.innerText, tags: [...card.querySelectorAll("*")].map((node) => node.tagName),
                covers: box.top <= 0 && box.left <= 0 && box.right >= innerWidth && box.bottom >= innerHeight,
                italic: [...card.querySelectorAll("em")].map((node) => node.textContent)};
    }""")
    for part in (told["heading"], told["ask"]):
        assert "".join(text for text, _ in part) in card["text"]
    assert told["wait"] in card["text"] and "Escena 3 de 27" in card["text"]
    assert set(card["tags"]) <= CARD_TAGS and card["covers"], card
    assert "journey" in card["italic"]  # the question's *journey*, as the phone writes it
    assert shown_s < 3.0, f"the card came {shown_s:.1f} s after the move"
    phone.evaluate("""() => {  // let the Refresh go, and press it
        const button = document.querySelector(".st-key-poll-refresh button");
        delete button.click;
        button.click();
    }""")
    phone.wait_for_selector("#attn-ask", state="detached", timeout=10_000)
    wait_text(phone, "".join(text for text, _ in told["ask"]), 5)
    assert phone.locator('[data-testid="stTextInput"] input').is_enabled()
    fits(phone, "the phone after the card")

    # the student leaves the phone for the Lab (the reveal's link, in the same tab): the next move shows no card there
    poll.show_scene(room.code, room.host_secret, 2, True)
    with attn_lang.using("es"):
        explore = attn_lang._("Explore this scene in the Lab")
    phone.get_by_role("link", name=explore).click()
    harness.wait_for_app(phone, timeout_ms=SLOW_MS)
    phone.wait_for_selector(".st-key-poll-stamp", state="detached", timeout=10_000)
    poll.show_scene(room.code, room.host_secret, 3, False)
    phone.wait_for_timeout(1500)
    assert phone.locator("#attn-ask").count() == 0, "a card over the Lab"
    assert not errors, errors


def test_a_phone_drawn_again_at_once_shows_no_card(browser, live_server):
    """One phone on a quiet server is drawn again well within ASK_CARD_AFTER_MS: no card flashes over it."""
    server, poll = live_server
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, 0, False)
    phone = harness.new_context(browser, 390, 844, touch=True).new_page()
    phone.goto(f"{server.url}Class_poll?room={room.code}", timeout=SLOW_MS)
    harness.wait_for_app(phone, timeout_ms=SLOW_MS, initial_wait_ms=0)
    phone.wait_for_selector(".st-key-poll-stamp code", state="attached", timeout=30_000)
    phone.evaluate("""() => {  // count every card the page ever shows
        window.__attnCards = 0;
        new MutationObserver(() => { if (document.querySelector("#attn-ask")) window.__attnCards += 1; })
          .observe(document.body, {childList: true});
    }""")
    poll.show_scene(room.code, room.host_secret, 1, False)
    wait_text(phone, live.live_question(2).ask.replace("*", ""), 10)
    phone.wait_for_timeout(500)
    assert phone.evaluate("window.__attnCards") == 0
