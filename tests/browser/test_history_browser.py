"""Back and Forward over a scripted sequence of Lab changes: one change is one history entry, each Back shows
exactly the state before, and only Back from the first state leaves the app."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import harness


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
