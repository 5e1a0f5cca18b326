"""A live lecture in a real hall, in headless Chromium, on SQLite and on PostgreSQL: the projector at 1280x720 and
phones at 390x844, each against a server of its own (`streamlit run app.py`).

- No secret on any screen: after Go live, with every live menu open in projector mode (the room's badge, the page
  menu, the join screen), the host secret is in neither the page's visible text nor its address; a reload keeps the
  host's rights with no secret in the address; a host link opened again in another browser still gives them, and its
  address drops `host=` in place; "Copy the host link" puts the link on the clipboard without drawing it.
- The join screen for the back row: the room code at 64 px or more, the QR code 300 px or more, and the QR code read
  from a photo of the whole screen scaled to 25%; the address on one line, also for a host name of 40 characters
  (Chromium maps it to loopback); the phones in the room, live; J brings it and takes it away without moving the
  lecture.
- A phone: Enter in the code box joins; the browser's Back returns to a join form that offers the room again; a second
  tab of the same browser follows a vote made in the first.
"""

from __future__ import annotations

import io
from urllib.parse import parse_qs, urlsplit

import harness
import pytest
from live_steps import wait_text

from attn_poll import Phase, Poll, open_store

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
SCHEMA_ENV = "ATTN_LAB_DATABASE_SCHEMA"


@pytest.fixture(scope="module", params=("sqlite", "postgresql"))
def hall(request, tmp_path_factory):
    """(server, Poll on its database) for one backend."""
    with harness.server_on(request.param, tmp_path_factory.mktemp("hall"), "hall") as (running, url, schema):
        yield running, Poll(open_store(url, schema=schema))


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)


def cookie(context, code: str) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == f"attn_host_{code}")


def go_live(browser, server, query: str = ""):
    """Go live from a projector at 1280x720 (Lecture_scenes?mode=projector, plus `query`), on the join screen;
    `server` is the running app or its address."""
    context = harness.new_context(browser, 1280, 720)
    page = context.new_page()
    page.goto(f"{getattr(server, 'url', server)}Lecture_scenes?mode=projector{query}", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    page.locator(".st-key-live-go button").first.click()
    settle(page)
    wait_text(page, "Join the lecture on your phone")
    code = parse_qs(urlsplit(page.url).query)["room"][0]
    return context, page, code, cookie(context, code)


def no_secret_shown(page, secret: str, what: str) -> None:
    assert secret not in page.evaluate("document.body.innerText"), f"{what}: the secret is on the screen"
    assert secret not in page.url, f"{what}: the secret is in the address"


def test_no_secret_on_any_screen_and_the_browser_keeps_the_rights(browser, hall):
    server, poll = hall
    context, page, code, secret = go_live(browser, server)
    no_secret_shown(page, secret, "the join screen after Go live")
    page.locator(".st-key-live-badge button").first.click()  # the room's badge: its menu
    page.wait_for_timeout(400)
    assert page.get_by_role("button", name="Copy the host link").is_visible()
    no_secret_shown(page, secret, "the badge's menu, open")
    page.keyboard.press("Escape")
    page.locator(".st-key-page-menu button").first.click()  # projector mode's page menu
    page.wait_for_timeout(400)
    no_secret_shown(page, secret, "the page menu, open")
    page.keyboard.press("Escape")
    page.keyboard.press("j")
    settle(page)
    page.locator(".st-key-scenes-next button").first.click()  # a step of the lecture
    settle(page)
    no_secret_shown(page, secret, "a revealed scene")
    assert poll.state(code).phase is Phase.REVEALED

    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url.rstrip("/"))
    page.locator(".st-key-live-badge button").first.click()
    page.wait_for_timeout(300)
    page.locator(".st-key-host-copy button").first.click()
    settle(page)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(server.url) and f"room={code}" in copied and f"host={secret}" in copied
    no_secret_shown(page, secret, "after copying the host link")
    page.keyboard.press("Escape")

    page.reload()  # a new session: the browser's cookie keeps the host's rights
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    wait_text(page, code)
    no_secret_shown(page, secret, "after a reload")
    page.locator(".st-key-scenes-next button").first.click()
    settle(page)
    assert poll.state(code).question_index == 1, "still the host after the reload"
    context.close()

    other = harness.new_context(browser, 1280, 720)  # the host link, opened again on another machine
    elsewhere = other.new_page()
    elsewhere.goto(copied, timeout=SLOW_MS)
    harness.wait_for_app(elsewhere, timeout_ms=SLOW_MS, initial_wait_ms=0)
    wait_text(elsewhere, code)
    elsewhere.wait_for_timeout(500)
    no_secret_shown(elsewhere, secret, "a host link opened again")
    elsewhere.go_back()  # the host link's own entry was replaced in place: Back never shows the secret
    elsewhere.wait_for_timeout(500)
    assert secret not in elsewhere.url
    other.close()

    stranger = harness.new_context(browser, 1280, 720).new_page()  # the room's code alone: no control
    stranger.goto(f"{server.url}Lecture_scenes?mode=projector&room={code}&scene=9", timeout=SLOW_MS)
    harness.wait_for_app(stranger, timeout_ms=SLOW_MS, initial_wait_ms=0)
    assert poll.state(code).question_index != 8
    stranger.context.close()


def test_the_join_screen_reads_from_the_back_row(browser, hall):
    import zxingcpp
    from PIL import Image

    server, poll = hall
    context, page, code, __ = go_live(browser, server)
    sizes = page.evaluate("""() => {
      const code = document.querySelector('.st-key-live-join-code p');
      const qr = document.querySelector('.st-key-live-join-screen img');
      const address = document.querySelector('[class*="st-key-live-join-address-"] p');
      const line = parseFloat(getComputedStyle(address).lineHeight);
      return {code: parseFloat(getComputedStyle(code).fontSize), qr: qr.getBoundingClientRect().width,
              qrBottom: qr.getBoundingClientRect().bottom, addressLines: address.getBoundingClientRect().height / line,
              addressFits: address.scrollWidth <= address.clientWidth + 1, text: address.innerText};
    }""")
    assert sizes["code"] >= 64, sizes
    assert sizes["qr"] >= 300 and sizes["qrBottom"] <= 720, sizes
    assert sizes["addressLines"] < 1.5 and sizes["addressFits"], sizes
    assert sizes["text"].endswith(f"/j/{code}")
    photo = Image.open(io.BytesIO(page.screenshot())).convert("L")
    photo = photo.resize((photo.width // 4, photo.height // 4), Image.Resampling.BOX)  # the whole screen at 25%
    read = [found.text for found in zxingcpp.read_barcodes(photo)]
    assert read == [f"{server.url}j/{code}"], read
    wait_text(page, "0 phones in the room")
    phone = harness.new_context(browser, 390, 844, touch=True).new_page()
    phone.goto(f"{server.url}j/{code}", timeout=SLOW_MS)
    wait_text(page, "1 phone in the room", 5)  # live, with no key pressed
    before = poll.state(code)
    page.keyboard.press("j")
    settle(page)
    wait_text(page, "How many of the 5 next words")
    page.keyboard.press("j")
    settle(page)
    wait_text(page, "Join the lecture on your phone")
    after = poll.state(code)
    assert (after.question_index, after.phase) == (before.question_index, before.phase), "the lecture did not move"
    phone.context.close()
    context.close()


LONG_HOST = "attention-lab.lecture-hall-b.example.edu"  # a host name of 40 characters


def test_the_join_address_stays_on_one_line_for_a_host_name_of_40_characters(browser, tmp_path):
    assert len(LONG_HOST) == 40
    with harness.server_with_database(tmp_path, "app.py") as (server, __):
        mapped = browser.browser_type.launch(executable_path=str(harness.CHROMIUM), headless=True,
                                             args=[*harness.CHROMIUM_ARGS, "--host-resolver-rules=MAP * 127.0.0.1"])
        try:
            context, page, code, __ = go_live(mapped, server.url.replace("127.0.0.1", LONG_HOST))
            line = page.evaluate("""() => {
              const address = document.querySelector('[class*="st-key-live-join-address-"] p');
              const style = getComputedStyle(address);
              return {text: address.innerText, font: parseFloat(style.fontSize),
                      lines: address.getBoundingClientRect().height / parseFloat(style.lineHeight),
                      fits: address.scrollWidth <= address.clientWidth + 1};
            }""")
            assert line["text"].startswith(LONG_HOST) and line["text"].endswith(code), line
            assert line["lines"] < 1.5 and line["fits"], line
            assert line["font"] >= 18, line  # the floor of text on the projector
            context.close()
        finally:
            mapped.close()


def test_a_phone_joins_with_enter_returns_after_back_and_a_second_tab_follows(browser, hall):
    server, poll = hall
    room = poll.create_room([("causal-why", 3)])
    poll.next_question(room.code, room.host_secret)
    context = harness.new_context(browser, 390, 844, touch=True)
    phone = context.new_page()
    phone.goto(f"{server.url}j", timeout=SLOW_MS)  # the phone's join form
    phone.get_by_label("Room code").fill(room.code.lower())
    phone.get_by_label("Room code").press("Enter")
    wait_text(phone, "Tap an option to vote")
    assert urlsplit(phone.url).path == f"/j/{room.code}"
    phone.go_back()
    wait_text(phone, f"Return to room {room.code}")
    assert phone.get_by_label("Room code").input_value() == room.code
    phone.get_by_text(f"Return to room {room.code}").click()
    wait_text(phone, "Tap an option to vote")

    second = context.new_page()  # another tab of the same browser: the same voter
    second.goto(f"{server.url}Class_poll?room={room.code}", timeout=SLOW_MS)  # an old link: the phone's page too
    wait_text(second, "Tap an option to vote")
    assert urlsplit(second.url).path == f"/j/{room.code}"
    phone.bring_to_front()
    phone.locator("button.option").nth(1).click()
    wait_text(phone, "Your vote: B")
    second.bring_to_front()
    wait_text(second, "Your vote: B", 6)  # told by the first tab, not by a timer
    assert poll.counts(room.code).rounds[0] == (0, 1, 0)
    context.close()
