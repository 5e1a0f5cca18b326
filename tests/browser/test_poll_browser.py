"""The class poll in headless Chromium: one host page and three students' phones run a full question, vote,
revote and reveal, on a server of its own with a temp SQLite file.

Checked: the projector's counts follow the phones within 2 s of a tap (plus the page's settling), a second tab
of a browser is the same voter (its vote shows, and a vote there replaces it), both rounds stand side by side
after the revote, no right or wrong mark before the reveal, and the reveal reaches every phone without a
reload. The phones are the phone's page (attn_phone, `/j/CODE`). Then axe checks the host's projector board.
"""

from __future__ import annotations

import os
import re
import time

import harness
import pytest
from test_a11y_browser import Audit, axe_path

from attn_poll import Poll, open_store
from attn_ui.words import poll_words

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
ARRIVE_S = 2.0 + 1.5  # the projector polls every second; the page then settles (150 ms quiet) before we read it


@pytest.fixture(scope="module")
def poll_server(tmp_path_factory):
    with harness.server_with_database(tmp_path_factory.mktemp("poll"), "app.py") as (running, url):
        yield running, Poll(open_store(url))


def open_page(context, server, query: str):
    page = context.new_page()
    errors = harness.collect_page_errors(page)
    page.goto(f"{server.url}Class_poll?{query}", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)
    return page, errors


def bars(page) -> list[str]:
    return [text.strip() for text in page.locator('[data-testid="stProgress"]').all_inner_texts()]


def wait_until(page, check, seconds: float, what: str):
    """Poll the page until check(page) is truthy; fail with what was last seen."""
    deadline = time.monotonic() + seconds
    while True:
        seen = check(page)
        if seen:
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds} s; last seen: {bars(page)}")
        page.wait_for_timeout(100)


def counted(page, expected: list[int]) -> bool:
    numbers = [int(re.search(r"· (\d+) votes?", text).group(1)) for text in bars(page)]
    return numbers == expected


def open_phone(context, server, code: str):
    """A student's phone: the phone's page (attn_phone), as the QR code opens it."""
    page = context.new_page()
    page.goto(f"{server.url}j/{code}", timeout=SLOW_MS)
    page.wait_for_selector("main#phone", timeout=10_000)
    return page


def vote(page, letter: str) -> None:
    option = page.locator("button.option").filter(has_text=re.compile(rf"^{letter}\."))
    option.click()
    option.and_(page.locator('[aria-pressed="true"]')).wait_for(timeout=10_000)


def test_a_full_round_with_one_host_and_three_phones(browser, poll_server):
    server, poll = poll_server
    room = poll.create_room([("causal-why", 3)])
    host_context = harness.new_context(browser, 1280, 720)
    host, host_errors = open_page(host_context, server, f"room={room.code}&host={room.host_secret}")
    assert host.get_by_text(room.code, exact=True).count() >= 1 and host.locator(".st-key-poll-join img").count() == 1

    contexts = [harness.new_context(browser, 390, 844) for _ in range(3)]
    phones = [open_phone(context, server, room.code) for context in contexts]
    for phone in phones:
        assert phone.get_by_text("You are in.").count() == 1
    wait_until(host, lambda p: p.get_by_text("3 students in the room").count(), 4, "three joins on the projector")

    host.get_by_role("button", name="Start the first question").click()
    harness.wait_for_app(host)
    for phone in phones:  # the question reaches the phones by their own polling
        wait_until(phone, lambda p: p.locator("button.option").count() == 3, 5, "the question")

    for phone, letter in zip(phones, "ACC", strict=True):
        vote(phone, letter)
    started = time.monotonic()
    wait_until(host, lambda p: counted(p, [1, 0, 2]), ARRIVE_S, "the first three votes on the projector")
    assert time.monotonic() - started <= ARRIVE_S
    assert not any("right" in text for text in bars(host)), "no mark before the reveal"

    second_tab = open_phone(contexts[0], server, room.code)  # the same browser: same cookie
    checked = second_tab.locator('button.option[aria-pressed="true"]')
    wait_until(second_tab, lambda p: checked.count() == 1, 4, "the first tab's vote in the second tab")
    assert checked.inner_text().startswith("A."), "a second tab shows this browser's vote"
    vote(second_tab, "B")
    wait_until(host, lambda p: counted(p, [0, 1, 2]), ARRIVE_S, "a changed vote, not a second one")
    second_tab.close()

    host.get_by_role("button", name="Close voting").click()
    harness.wait_for_app(host)
    host.get_by_role("button", name="Vote again").click()
    harness.wait_for_app(host)
    for phone in phones:  # a phone shows round two on its next poll; until then its screen is round one's
        wait_until(phone, lambda p: p.get_by_text(poll_words.round_name(2), exact=False).count() >= 1
                   and p.locator("button.option:not(:disabled)").count() == 3, 5,
                   "round two on the phone")
    for phone in phones:
        vote(phone, "C")
    wait_until(host, lambda p: counted(p, [0, 1, 2, 0, 0, 3]), ARRIVE_S, "both rounds side by side")
    assert host.locator('[class*="st-key-poll-round-"]').count() == 2

    host.get_by_role("button", name="Close voting").click()
    harness.wait_for_app(host)
    host.get_by_role("button", name="Reveal the answer").click()
    harness.wait_for_app(host)
    assert [text.endswith("· right") for text in bars(host)] == [False, False, True] * 2
    for phone in phones:  # no reload: the phone's own polling brings the answer
        wait_until(phone, lambda p: p.get_by_text("The answer is C.").count() == 1, 5, "the reveal on a phone")
        harness.assert_no_exception(phone)
    assert poll.counts(room.code).rounds == ((0, 1, 2), (0, 0, 3)), "the database agrees with the projector"
    assert host_errors == []
    for context in (host_context, *contexts):
        context.close()


def test_host_board_has_no_axe_violations(browser, poll_server):
    """The phone's page has its own audit, every state (tests/browser/test_phone_browser.py)."""
    axe_path()
    server, poll = poll_server
    room = poll.create_room([("causal-why", 3), ("code-order", 4)])
    poll.next_question(room.code, room.host_secret)
    poll.vote(room.code, "someone", 0, 1, 2)
    found = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=scheme)
        host, errors = open_page(context, server, f"room={room.code}&host={room.host_secret}&mode=projector")
        audit = Audit(host, errors)
        audit.check(f"host board, projector mode, {scheme}")
        found.update(audit.found)
        context.close()
    combined = Audit(None, [])
    combined.found = found
    combined.assert_clean()


OVERFLOW_JS = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const scroller = document.scrollingElement;
    return Math.max(main.scrollHeight - main.clientHeight, scroller.scrollHeight - scroller.clientHeight);
}"""
FONT_PX_JS = "(selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)"
CODE_P = '.st-key-poll-code p'
SHOTS = os.environ.get("ATTN_POLL_SHOTS", "")  # a folder: save a screenshot of every phase there to look at


def test_every_phase_of_the_board_fits_1280x720_and_the_code_is_big(browser, poll_server):
    """Lobby, voting, two rounds side by side, revealed: nothing below the fold at 1280x720 in projector mode
    (no scrolling); the room code at least as large on the projector as off it; the join form's label
    ordinary; one student count, the board's."""
    server, poll = poll_server
    room = poll.create_room([("causal-why", 3), ("code-order", 4)])
    host_query = f"room={room.code}&host={room.host_secret}"
    context = harness.new_context(browser, 1280, 720)
    plain, _ = open_page(context, server, host_query)
    code_px = plain.evaluate(FONT_PX_JS, CODE_P)
    plain.close()
    host, _ = open_page(context, server, host_query + "&mode=projector")
    projector_px = host.evaluate(FONT_PX_JS, CODE_P)
    assert projector_px >= code_px >= 30, (code_px, projector_px)
    poll.join(room.code, "first student")
    wait_until(host, lambda p: p.get_by_text("1 student in the room").count(), ARRIVE_S, "the join on the board")
    assert host.get_by_text(re.compile(r"\d+ students? in")).count() == 1, "one student count on the page"

    def phase(name: str, check_text: str) -> None:
        wait_until(host, lambda p: p.get_by_text(check_text).count(), ARRIVE_S + 2, f"the {name} phase")
        harness.wait_for_app(host)
        if SHOTS:
            host.screenshot(path=f"{SHOTS}/poll-{name}-1280x720.png")
        overflow = host.evaluate(OVERFLOW_JS)
        assert overflow <= 1, f"{name}: {overflow} px below the fold at 1280x720"

    phase("lobby", "Waiting to start")
    poll.next_question(room.code, room.host_secret)
    for n in range(5):
        poll.vote(room.code, f"student {n}", 0, 1, n % 3)
    phase("voting", f"{poll_words.round_name(1)} · open")
    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    for n in range(5):
        poll.vote(room.code, f"student {n}", 0, 2, 1)
    phase("two-rounds", f"{poll_words.round_name(2)} · open")
    assert host.locator('[class*="st-key-poll-round-"]').count() == 2
    poll.close_round(room.code, room.host_secret)
    poll.reveal(room.code, room.host_secret)
    phase("revealed", "· The answer ·")  # the status line ("The answer" alone also matches "Reveal the answer")
    context.close()

    phone_context = harness.new_context(browser, 390, 844)
    form, _ = open_page(phone_context, server, "")
    label_px = form.evaluate(FONT_PX_JS, '.st-key-poll-typed label p')
    assert label_px <= 18, f"the join form's label is ordinary text, not the room code's style: {label_px} px"
    if SHOTS:
        form.screenshot(path=f"{SHOTS}/poll-open-390x844.png")
        phone = open_phone(phone_context, server, room.code)
        phone.screenshot(path=f"{SHOTS}/poll-phone-revealed-390x844.png", full_page=True)
    phone_context.close()
