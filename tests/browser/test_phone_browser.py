"""The phone's page (attn_phone, `/j/CODE`) in headless Chromium, against `streamlit run app.py` on SQLite and on
PostgreSQL, with the pseudo-language offered.

- Every state a phone shows (the join form, the lobby, a number question, sent, closed, the revote, the reveal, the
  recap at the end, a class poll's choice with code versions, a room that is not there), in English, Spanish and
  the pseudo-language, light and dark as the device is: axe-core finds nothing (WCAG 2.1 A/AA, contrast included),
  every target is at least 44x44 px, nothing scrolls sideways at 320 px; screenshots in tests/browser/shots/phone/.
- The first visit is small: everything the page needs, as sent on the wire, under 60 KB in at most 10 requests.
- A move reaches the phone with its answer box in one piece; the new question is announced (a live region) and takes
  the focus unless the student is typing.
- A reload keeps the student's answer; JavaScript off: the forms still join and answer, and the page says to reload.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import harness
import pytest

from attn_poll import Poll, open_store
from attn_ui.quiz.poll_questions import POLL_BY_ID
from attn_ui.words import live

pytestmark = pytest.mark.browser

SLOW_MS = 60_000
SHOTS = Path(__file__).parent / "shots" / "phone"
AXE_DEFAULT = Path.home() / ".cache" / "attn-lab-axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
LANGS = ["en", "es", "en-XA"]


def axe_source() -> str:
    path = Path(os.environ.get("AXE_PATH") or AXE_DEFAULT)
    if not path.is_file():
        reason = f"axe-core not found at {path}; run `npm install --no-save --prefix ~/.cache/attn-lab-axe axe-core@4`"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return path.read_text()


@pytest.fixture(scope="module", params=("sqlite", "postgresql"))
def phone_server(request, tmp_path_factory):
    """(server, Poll on its database), the pseudo-language offered."""
    with harness.pseudo_offered(), harness.server_on(request.param, tmp_path_factory.mktemp("phone"), "phone") as (
            running, url, schema):
        yield running, Poll(open_store(url, schema=schema))


def phone_page(browser, width: int = 390, height: int = 844, scheme: str = "light", script: bool = True):
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  color_scheme=scheme, java_script_enabled=script, bypass_csp=True)  # axe is injected
    return context.new_page()


def wait_text(page, text: str, seconds: float = 10) -> float:
    start = time.monotonic()
    while text not in (body := page.locator("body").inner_text()):
        if time.monotonic() - start > seconds:
            raise AssertionError(f"{text!r} did not show within {seconds} s; the page shows: {body[:600]!r}")
        page.wait_for_timeout(50)
    return time.monotonic() - start


def check(page, axe: str, what: str) -> None:
    """axe-core finds nothing; every target at least 44x44 px; nothing sideways at this width."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    found = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
                          ".then((r) => r.violations.map((v) => [v.id, v.nodes.length, v.nodes[0].html]))", WCAG)
    assert found == [], f"{what}: {found}"
    small = page.evaluate("""() => [...document.querySelectorAll('a, button, input:not([type=hidden])')]
        .filter((node) => node.offsetParent !== null)
        .map((node) => [node.outerHTML.slice(0, 80), node.getBoundingClientRect()])
        .filter(([, box]) => box.width < 44 || box.height < 44).map(([html, box]) => [html, box.width, box.height])""")
    assert small == [], f"{what}: targets under 44 px: {small}"
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{what}: {wide} px sideways"


def test_every_phone_state_passes_axe_in_every_language_and_scheme_with_thumb_sized_targets(browser, phone_server):
    server, poll = phone_server
    axe = axe_source()
    SHOTS.mkdir(parents=True, exist_ok=True)
    versions = next(q for q in POLL_BY_ID.values() if q.versions)
    quiz = poll.create_room([(versions.id, versions.option_count)])
    poll.next_question(quiz.code, quiz.host_secret)
    lobby = poll.create_room([("causal-why", 3)])
    for scheme in ("light", "dark"):
        for lang in LANGS:
            lecture = poll.create_room(live.lecture_questions())
            page = phone_page(browser, 320, 700, scheme)

            def state(name: str, path: str = "", wait: str = "main#phone", page=page, lang=lang,
                      scheme=scheme) -> None:
                if path:
                    page.goto(f"{server.url}{path}?lang={lang}", timeout=SLOW_MS)
                page.wait_for_selector(wait, timeout=10_000)
                page.wait_for_timeout(100)
                check(page, axe, f"{name} ({lang}, {scheme})")
                if lang != "en-XA":
                    page.screenshot(path=str(SHOTS / f"{name}-{lang}-{scheme}-320.png"), full_page=True)

            state("join", "j")
            state("missing", "j/ZZZZZZZ")
            state("lobby", f"j/{lobby.code}")
            state("code-versions", f"j/{quiz.code}")
            poll.show_scene(lecture.code, lecture.host_secret, 2, False)
            state("number", f"j/{lecture.code}", "#typed")
            page.locator("#typed").fill("0,7")
            page.locator("#typed").press("Enter")
            state("sent", wait='.said[data-when="mine"]:not([hidden])')
            poll.close_round(lecture.code, lecture.host_secret)
            state("closed", wait='main#phone[data-phase="closed"]')
            poll.open_revote(lecture.code, lecture.host_secret)
            state("revote", wait='.said[data-when="carried"]:not([hidden])')
            poll.close_round(lecture.code, lecture.host_secret)
            poll.reveal(lecture.code, lecture.host_secret)
            state("revealed", wait='main#phone[data-phase="revealed"]')
            poll.show_scene(lecture.code, lecture.host_secret, 5, False)
            state("choice", wait="button.option")
            page.locator("button.option").first.click()
            state("chosen", wait='button.option[aria-pressed="true"]')
            poll.end_room(lecture.code, lecture.host_secret)
            state("recap", wait='main#phone[data-phase="ended"] table.recap')
            assert "2 scenes you answered" in page.locator("main#phone").inner_text() or lang != "en"
            page.context.close()


def test_the_first_visit_is_small_and_the_question_comes_with_its_box(browser, phone_server):
    server, poll = phone_server
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, 0, False)
    page = phone_page(browser)
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    sizes: dict[str, int] = {}
    session.on("Network.loadingFinished", lambda event: sizes.__setitem__(event["requestId"],
                                                                           event["encodedDataLength"]))
    page.goto(f"{server.url}j/{room.code}", timeout=SLOW_MS)
    page.wait_for_selector("#typed", timeout=10_000)
    page.wait_for_timeout(500)  # the held wait is open, not finished: it is not counted
    total = sum(sizes.values())
    assert total <= 60_000 and len(sizes) <= 10, (total, len(sizes))
    print(f"first visit on the wire: {total} bytes in {len(sizes)} requests")

    page.evaluate("""() => { window.__seen = [];
        new MutationObserver(() => {
          const main = document.getElementById("phone");
          window.__seen.push([main.dataset.q, !!main.querySelector("#typed, button.option"),
                              document.activeElement && document.activeElement.id]);
        }).observe(document.body, {childList: true}); }""")
    moved = time.monotonic()
    poll.show_scene(room.code, room.host_secret, 2, False)
    page.wait_for_selector('main#phone[data-q="2"] #typed', timeout=10_000)
    arrived = time.monotonic() - moved
    assert page.evaluate("window.__seen")[0][:2] == ["2", True], "the question and its box came in one piece"
    assert page.evaluate("document.activeElement.id") == "question-heading", "the new question takes the focus"
    assert "Scene 3 of 27" in page.locator("#announce").inner_text(), "and is announced"
    print(f"move -> question with its box on the phone: {arrived:.2f} s")

    page.locator("#typed").fill("0,4")  # typing when the room moves on: the focus stays in the box
    page.locator("#typed").focus()
    poll.show_scene(room.code, room.host_secret, 3, False)
    page.wait_for_selector('main#phone[data-q="3"]', timeout=10_000)
    assert page.evaluate("document.activeElement.id") != "question-heading"

    page.locator("#typed").fill("15")
    page.locator("#typed").press("Enter")
    wait_text(page, "Sent: 15 cells")
    page.reload()
    wait_text(page, "Sent: 15 cells")  # a reload keeps the answer: the same voter
    page.context.close()


def test_the_page_follows_the_room_on_one_stream_and_on_held_waits_where_a_stream_is_refused(browser, phone_server):
    """One response a phone (server-sent events) for the whole lecture; where the stream is refused (a proxy that
    will not keep it, a process at its limit), the page holds /wait instead and still hears every move."""
    server, poll = phone_server
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, 0, False)
    follows = {"stream": [], "refused": []}
    for how, asked in follows.items():
        page = phone_page(browser)
        if how == "refused":
            page.route("**/events*", lambda route: route.fulfill(status=503, body='{"error": "busy"}',
                                                                  content_type="application/json"))
        page.on("request", lambda request, asked=asked: asked.append(request.url.split("?")[0].rsplit("/", 1)[-1]))
        page.goto(f"{server.url}j/{room.code}", timeout=SLOW_MS)
        page.wait_for_selector("#typed", timeout=10_000)
        for scene in (2, 3, 2):  # back to a scene seen before: a move is a move
            poll.show_scene(room.code, room.host_secret, scene - 1, False)
            page.wait_for_selector(f'main#phone[data-q="{scene - 1}"] #typed', timeout=10_000)
        page.context.close()
    assert follows["stream"].count("events") == 1 and "wait" not in follows["stream"], follows["stream"]
    assert follows["refused"].count("wait") >= 3, follows["refused"]


def test_without_javascript_a_student_still_joins_and_answers(browser, phone_server):
    server, poll = phone_server
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, 0, False)
    page = phone_page(browser, script=False)
    page.goto(f"{server.url}j", timeout=SLOW_MS)
    page.get_by_label("Room code").fill(room.code.lower())
    page.get_by_role("button", name="Join").click()
    wait_text(page, "reload the page for the next question")
    page.locator("#typed").fill("5")
    page.get_by_role("button", name="Send").click()
    wait_text(page, "Sent: 5 right guesses")
    assert poll.counts(room.code).total(1) == 1
    poll.show_scene(room.code, room.host_secret, 1, False)
    page.reload()
    wait_text(page, "Scene 2 of 27")
    page.context.close()
