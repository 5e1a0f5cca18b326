"""Back and Forward over a scripted sequence of Lab changes: one change is one history entry, each Back shows
exactly the state before, and only Back from the first state leaves the app."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import harness
import pytest

from attn_ui.quiz.bank import QUESTIONS


def shown(page) -> dict[str, str]:
    query = urlsplit(page.evaluate("location.href")).query
    heads = page.get_by_role("radiogroup", name="Heads").locator('[role="radio"][aria-checked="true"]').inner_text()
    return {"url": {k: v[-1] for k, v in parse_qs(query).items()},
            "causal": harness.switch(page, "Causal mask").is_checked(), "heads": heads.strip(),
            "masked": harness.metrics(page)["Masked cells"]}


def test_back_and_forward_walk_the_changes_one_by_one(server, page):
    page.goto("about:blank")
    harness.open_app(page, server)
    states = [shown(page)]
    harness.toggle(page, "Causal mask").click()
    harness.wait_for_app(page)
    states.append(shown(page))
    page.get_by_role("radiogroup", name="Heads").get_by_role("radio", name="4", exact=True).click()
    harness.wait_for_app(page)
    states.append(shown(page))
    page.get_by_role("button", name="step", exact=True).click()
    harness.wait_for_app(page)
    states.append(shown(page))
    assert [s["url"] for s in states] == [{}, {"causal": "1"}, {"causal": "1", "heads": "4"},
                                         {"causal": "1", "heads": "4", "pad": "6"}]
    assert page.evaluate("history.length") == 2 + 3, "one history entry per change"
    for expected in reversed(states[:-1]):
        page.go_back()
        harness.wait_for_app(page)
        assert shown(page) == expected
    page.go_forward()
    harness.wait_for_app(page)
    assert shown(page) == states[1]
    page.go_back()
    harness.wait_for_app(page)
    page.go_back()  # from the first state: out of the app
    assert page.evaluate("location.href") == "about:blank"


def scene_shown(page) -> tuple[str, bool, dict[str, str]]:
    """The lecture scene on screen: its "Scene n of N", whether its answer is showing, and the address."""
    where = page.locator(".st-key-scene-where").inner_text().strip()
    revealed = page.get_by_text("Ask the room first.").count() == 0  # (the question step shows its givens too)
    query = urlsplit(page.evaluate("location.href")).query
    return where, revealed, {k: v[-1] for k, v in parse_qs(query).items()}


def test_back_on_the_scenes_retraces_exactly_the_steps_shown(server, page):
    page.goto(server.url + "Lecture_scenes?scene=2")
    harness.wait_for_app(page, timeout_ms=60_000, initial_wait_ms=0)
    states = [scene_shown(page)]
    for _ in range(4):
        page.locator(".st-key-scenes-next button").first.click()
        harness.wait_for_app(page)
        states.append(scene_shown(page))
    page.locator(".st-key-scenes-back button").first.click()
    harness.wait_for_app(page)
    states.append(scene_shown(page))
    assert [(where.split(" of ")[0], revealed) for where, revealed, _ in states] == [
        ("Scene 2", False), ("Scene 2", True), ("Scene 3", False), ("Scene 3", True), ("Scene 4", False),
        ("Scene 3", True)]
    for expected in reversed(states[:-1]):  # the browser's Back: each step shown, in reverse, and nothing else
        page.go_back()
        harness.wait_for_app(page)
        assert scene_shown(page) == expected


# --- one Back leaves a page: what a page writes on arriving replaces its entry ---------------------------------

SIZES = pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["390x844", "1366x768"])
SLOW_MS = 90_000


def location(page) -> tuple[str, dict[str, str]]:
    where = urlsplit(page.evaluate("location.href"))
    return where.path, {k: v[-1] for k, v in parse_qs(where.query, keep_blank_values=True).items()}


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    harness.assert_no_exception(page)


def sidebar_link(page, name: str) -> None:
    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    if expand.count() and expand.is_visible():  # a phone starts with the sidebar closed
        expand.click()
    page.locator('[data-testid="stSidebar"] a').filter(has_text=name).first.click()
    settle(page)


def progress(page) -> str:
    return page.locator('[data-testid="stProgress"]').inner_text().strip()


@SIZES
@pytest.mark.parametrize("link", ["Train_it_yourself", "Train_it_yourself?exp=mask", "Check_yourself",
                                  "Check_yourself?section=causal"])
def test_one_back_leaves_a_page_opened_at_its_defaults(server, new_page, size, link):
    """The tester's case: `?exp=mask` and `?section=causal` were pushed as a second entry, so Back took two presses."""
    page = new_page(*size)
    page.goto("about:blank")
    page.goto(server.url + link, timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    assert location(page)[1] == {}, "keys at their default are left out of the address"
    assert page.evaluate("history.length") == 2
    page.go_back()
    page.wait_for_function("() => location.href === 'about:blank'", timeout=10_000)


@SIZES
def test_a_lesson_opened_from_the_sidebar_writes_the_sessions_answer_in_place(server, new_page, size):
    """Answered on Check yourself, then the lesson from the sidebar: its address shows the answer at once (a reload
    keeps it), in the entry the browser made for the page, so one Back returns to Check yourself."""
    page = new_page(*size)
    page.goto(server.url + "Check_yourself?section=padding", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    page.locator('.st-key-quiz-pad-one-open-cell [data-testid="stRadioOption"]').first.click()
    settle(page)
    entries = page.evaluate("history.length")
    sidebar_link(page, "2 · The padding mask")
    page.wait_for_function("() => location.search.includes('answer=a')", timeout=10_000)
    assert location(page) == ("/Padding_mask", {"answer": "a"})
    assert page.evaluate("history.length") == entries + 1, "the page's own entry, rewritten: no second one"
    assert page.locator(".st-key-quiz-pad-one-open-cell input:checked").count() == 1
    page.go_back()
    settle(page)
    assert location(page)[0] == "/Check_yourself"


@SIZES
def test_start_again_is_undone_by_back_and_redone_by_forward(server, new_page, size):
    page = new_page(*size)
    page.goto(server.url + "Check_yourself", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    total = len(QUESTIONS)
    page.locator(".st-key-quiz-causal-masked-count [data-testid='stRadioOption']").filter(has_text="15").click()
    settle(page)
    answered = location(page)
    assert progress(page) == f"1 of {total} answered · 1 right on the first try" and "answers" in answered[1]
    page.get_by_role("button", name="Start again").click()
    popover = page.locator('[data-testid="stPopoverBody"]')
    assert "Undo, or the browser's Back button, brings them back." in popover.inner_text()
    assert "cannot be undone" not in popover.inner_text()
    page.get_by_role("button", name="Clear every section").click()
    settle(page)
    assert progress(page) == f"0 of {total} answered · 0 right on the first try"
    assert location(page) == ("/Check_yourself", {})
    page.go_back()
    settle(page)
    assert location(page) == answered and progress(page) == f"1 of {total} answered · 1 right on the first try"
    assert page.locator(".st-key-quiz-causal-masked-count input:checked").count() == 1
    page.go_forward()
    settle(page)
    assert location(page) == ("/Check_yourself", {}) and progress(page) == f"0 of {total} answered · 0 right on the "\
        "first try"
    assert page.locator(".st-key-quiz-causal-masked-count input:checked").count() == 0
