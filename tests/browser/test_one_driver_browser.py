"""One device drives the room: two host pages of one live lecture (the projector and a tablet that opened the copied
host link) and a phone, in headless Chromium on a server of its own. Keys are pressed on each page, each page is
reloaded, and the phone sees exactly the moves pressed, in order: opening or reloading a host page moves nothing, the
other page follows, and no round closes by itself.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import harness
import pytest
from test_live_hall_browser import go_live

from attn_poll import Phase, Poll, open_store

pytestmark = pytest.mark.browser

SLOW_MS = 90_000

# On the phone: every step it shows, as (scene, answer shown), in the order it shows them.
PHONE_LOG = """
() => {
  window.__steps = [];
  const read = () => {  // what the phone's page shows now (innerText leaves the hidden sentences out)
    const text = document.body.innerText;
    const scene = text.match(/Scene (\\d+) of 27/);
    if (!scene) return;
    const step = scene[1] + (text.includes("The answer:") ? "R" : "Q");
    if (window.__steps[window.__steps.length - 1] !== step) window.__steps.push(step);
  };
  new MutationObserver(read).observe(document.body, {subtree: true, childList: true, characterData: true});
  read();
}
"""


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    with harness.server_with_database(tmp_path_factory.mktemp("driver"), "app.py") as (running, url):
        yield running, Poll(open_store(url))


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)


def shows(page, number: int, revealed: bool, seconds: float = 10) -> None:
    """Wait until a host page shows this step, in its address and on screen."""
    start = time.monotonic()
    while True:
        query = parse_qs(urlsplit(page.url).query)
        if query.get("scene") == [str(number)] and ("reveal" in query) == revealed and \
                f"Scene {number} of 27" in page.locator('[data-testid="stMain"]').inner_text():
            return
        if time.monotonic() - start > seconds:
            raise AssertionError(f"the host page shows {page.url}, not scene {number} (revealed: {revealed})")
        page.wait_for_timeout(100)


def press(page, key: str) -> None:
    page.keyboard.press(key)
    settle(page)


def test_two_host_pages_and_a_phone_see_exactly_the_moves_pressed(browser, hall):
    server, poll = hall
    __, projector, code, secret = go_live(browser, server)
    press(projector, "j")  # the join screen away

    phone = harness.new_context(browser, 390, 844, touch=True).new_page()
    phone.goto(f"{server.url}j/{code}", timeout=SLOW_MS)  # the phone's page (attn_phone)
    phone.wait_for_function("document.body.innerText.includes('Scene 1 of 27')", timeout=30_000)
    phone.evaluate(PHONE_LOG)
    started = poll.state(code)

    press(projector, "PageDown")  # scene 1, revealed
    press(projector, "PageDown")  # scene 2
    shows(projector, 2, False)

    tablet = harness.new_context(browser, 1024, 768).new_page()
    tablet.goto(f"{server.url}Lecture_scenes?room={code}&host={secret}", timeout=SLOW_MS)  # the link has no scene
    harness.wait_for_app(tablet, timeout_ms=SLOW_MS, initial_wait_ms=0)
    shows(tablet, 2, False)  # it shows the room where it is
    assert poll.state(code).question_index == 1 and poll.state(code).phase is Phase.VOTING

    press(tablet, "PageDown")  # the tablet reveals scene 2
    shows(projector, 2, True)  # and the projector follows
    press(projector, "PageDown")  # the projector moves on: scene 3
    shows(tablet, 3, False)

    for page in (tablet, projector):  # a reload moves nothing
        page.reload()
        harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
        shows(page, 3, False)
    phone.wait_for_timeout(4000)  # every move would have reached the phone by now

    state = poll.state(code)
    assert (state.question_index, state.phase) == (2, Phase.VOTING), "no round closed by itself"
    assert state.version - started.version == 4, "one write a press, none for an opened or reloaded page"
    assert phone.evaluate("window.__steps") == ["1Q", "1R", "2Q", "2R", "3Q"]


def test_the_badge_menu_closes_on_its_own_action_and_end_asks_first(browser, hall):
    server, poll = hall
    __, page, code, __ = go_live(browser, server, "&scene=4")
    press(page, "j")  # the join screen away
    menu = page.locator('[data-testid="stPopoverBody"]')
    page.locator(".st-key-live-badge button").first.click()
    menu.wait_for(state="visible", timeout=10_000)
    # opening the menu is a run of its own (on_change="rerun"); a press before that run has ended leaves the menu open
    settle(page)
    page.get_by_role("button", name="Show the join screen (J)").click()
    settle(page)
    assert "Join the lecture on your phone" in page.locator('[data-testid="stMain"]').inner_text()
    assert menu.count() == 0 or not menu.first.is_visible(), "the menu stayed open over the join screen"

    page.locator(".st-key-live-badge button").first.click()
    menu.wait_for(state="visible", timeout=10_000)
    page.get_by_role("button", name="End the lecture…").click()
    settle(page)
    assert "End the lecture for everyone?" in menu.first.inner_text()
    assert poll.state(code).phase is not Phase.ENDED, "one click ends nothing"
    page.get_by_role("button", name="End it now").click()
    settle(page)
    assert poll.state(code).phase is Phase.ENDED
