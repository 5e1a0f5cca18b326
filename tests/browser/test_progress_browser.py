"""A course that remembers, in a real browser: answers given on five pages survive a reload on each page, and a
browser closed and opened again with its storage (the next day); the sidebar marks the pages answered; the Lab
comes back as it was left; a shared link's answers never replace the saved ones unasked; Start again clears the
saved progress too and its undo brings it back; storage that is not ours reads as nothing saved."""

from __future__ import annotations

import json
import re

import harness
import pytest

from attn_ui.quiz.bank import BY_ID, QUESTIONS

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
STORED = "attn-lab.progress.v1"
# (page path, question id, option index): five pages, five answers (two of them wrong, one skipped first)
ANSWERS = (("Peeking_and_the_causal_mask", "pad-zero-trap", BY_ID["pad-zero-trap"].answer),
           ("Padding_mask", "pad-one-open-cell", BY_ID["pad-one-open-cell"].answer),
           ("Dropout", "dropout-rescale", (BY_ID["dropout-rescale"].answer + 1) % 4),
           ("Many_heads", "heads-start-column", BY_ID["heads-start-column"].answer),
           ("Shapes_and_memory", "shapes-double-context", BY_ID["shapes-double-context"].answer))


def go(page, server, path: str = "", query: str = "") -> None:
    page.goto(server.url + path + (f"?{query}" if query else ""), timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    page.wait_for_timeout(600)  # a browser holding saved progress sends it once the page is drawn: one more run
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    harness.assert_no_exception(page)


def pick(page, question_id: str, option: int) -> None:
    box = page.locator(f".st-key-quiz-{question_id}")
    box.get_by_role("radio").nth(option).check(force=True)
    harness.wait_for_app(page, timeout_ms=SLOW_MS)


def picked(page, question_id: str) -> int | None:
    radios = page.locator(f".st-key-quiz-{question_id}").get_by_role("radio")
    checked = [index for index in range(radios.count()) if radios.nth(index).is_checked()]
    return checked[0] if checked else None


def saved(page) -> dict[str, str]:
    raw = page.evaluate(f"localStorage.getItem('{STORED}')")
    return json.loads(raw)["answers"] if raw else {}


def progress_line(page) -> str:
    text = page.locator('[data-testid="stMain"]').inner_text()
    return re.search(r"\d+ of \d+ answered · \d+ right on the first try", text).group(0)


def marked(page) -> dict[str, str]:
    """The sidebar's pages and their icons (the mark of a page whose questions are all answered)."""
    links = page.locator('[data-testid="stSidebar"] [data-testid="stSidebarNavLink"], '
                         '[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]')
    return {links.nth(i).inner_text().split("\n")[-1].strip(): links.nth(i).inner_text().split("\n")[0].strip()
            for i in range(links.count())}


def test_answers_on_five_pages_survive_reloads_and_a_browser_closed_and_opened_again(browser, server):
    context = harness.new_context(browser)
    page = context.new_page()
    for path, question_id, option in ANSWERS:
        go(page, server, path)
        pick(page, question_id, option)
    page.wait_for_timeout(500)
    assert set(saved(page)) == {question_id for __, question_id, __ in ANSWERS}

    for path, question_id, option in ANSWERS:  # a reload on each page: a new session, the answers still there
        go(page, server, path)
        page.reload()
        harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
        page.wait_for_timeout(600)
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        assert picked(page, question_id) == option, (path, question_id)
    go(page, server, "Check_yourself")
    right = sum(1 for __, question_id, option in ANSWERS if option == BY_ID[question_id].answer)
    assert progress_line(page) == f"5 of {len(QUESTIONS)} answered · {right} right on the first try"
    marks = marked(page)
    assert marks["1 · Peeking and the causal mask"] == "verified", marks
    # answered, not all right the first time: a filled circle, not a tick (which reads as right)
    assert marks["3 · Dropout on the weights"] == "radio_button_checked", marks
    assert marks["6 · One row by hand"] == "calculate", marks  # asks nothing: its own icon
    kept = context.storage_state()
    context.close()

    tomorrow = browser.new_context(viewport={"width": 1366, "height": 768}, storage_state=kept)
    try:
        page = tomorrow.new_page()
        go(page, server, "Check_yourself")
        assert progress_line(page) == f"5 of {len(QUESTIONS)} answered · {right} right on the first try"
        go(page, server, "Many_heads")
        assert picked(page, "heads-start-column") == BY_ID["heads-start-column"].answer
    finally:
        tomorrow.close()


def test_the_lab_comes_back_as_it_was_left_and_a_shared_link_asks_before_it_replaces_an_answer(browser, server):
    context = harness.new_context(browser)
    try:
        page = context.new_page()
        go(page, server, "", "heads=3")
        harness.toggle(page, "Causal mask").first.click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        go(page, server)  # a bare address, a new session: the Lab as it was left
        assert page.get_by_text("The Lab is as you left it last time in this browser.").is_visible()
        assert harness.metrics(page)["Masked cells"] == "15" and "heads=3" in page.url
        page.get_by_role("button", name="Start from the default").click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        assert "heads" not in page.url and harness.metrics(page)["Masked cells"] == "0"

        question = BY_ID["pad-one-open-cell"]
        go(page, server, "Padding_mask")
        pick(page, question.id, question.answer)
        other = (question.answer + 1) % len(question.options)
        go(page, server, "Padding_mask", f"answer={'abcd'[other]}")  # a classmate's link with their answer
        assert picked(page, question.id) == question.answer, "the saved answer stays"
        note = page.locator(".st-key-progress-offered")
        assert "differs from the one saved in this browser" in note.inner_text()
        note.get_by_role("button", name="Show the link's answer").click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        page.wait_for_timeout(400)
        assert picked(page, question.id) == other  # shown; the saved first answer stays the one the score counts
        assert saved(page)[question.id] == f"{'abcd'[question.answer]}~{'abcd'[other]}"
    finally:
        context.close()


def test_start_again_clears_the_saved_progress_and_undo_brings_it_back_and_garbage_in_storage_is_ignored(
        browser, server):
    context = harness.new_context(browser)
    try:
        page = context.new_page()
        go(page, server, "Dropout")
        page.evaluate(f"localStorage.setItem('{STORED}', '{{\"v\": 1, \"answers\": [1, 2]}}');"
                      "localStorage.setItem('attn-lab.lab.v1', 'heads=<script>&p=NaN')")
        go(page, server, "Check_yourself")  # storage that is not ours: nothing saved, nothing broken
        assert progress_line(page) == f"0 of {len(QUESTIONS)} answered · 0 right on the first try"
        first = QUESTIONS[0]
        pick(page, first.id, first.answer)
        page.wait_for_timeout(400)
        assert saved(page) == {first.id: "abcd"[first.answer]}, "the garbage is replaced by real progress"
        page.get_by_role("button", name="Start again").click()
        page.get_by_role("button", name="Clear every section").click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        page.wait_for_timeout(400)
        assert saved(page) == {}
        # its work done, the menu closes: the Undo it leaves is in view, not under it
        assert not page.get_by_role("button", name="Clear every section").is_visible()
        page.get_by_role("button", name="Undo: bring back the answers just cleared").click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        page.wait_for_timeout(400)
        assert saved(page) == {first.id: "abcd"[first.answer]}
        go(page, server, "Check_yourself")
        assert progress_line(page) == f"1 of {len(QUESTIONS)} answered · 1 right on the first try"
    finally:
        context.close()
