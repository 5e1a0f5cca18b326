"""A presenter's keys step the lecture scenes in Chromium: Page Up/Down on the visible Back and Next, the arrows and
Space on visually hidden buttons (Streamlit 1.67 gives a button one shortcut). Each press is one build step: the
first reveals, the next advances. Also: the hidden buttons take no room, and the room sees "Scene n of N" large."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from attn_ui.words.scenes import SCENES
from tests.browser import harness

WAIT_MS = 60_000


def address(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlsplit(page.evaluate("location.href")).query).items()}


def press(page, key: str) -> None:
    page.keyboard.press(key)
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    harness.assert_no_exception(page)


@pytest.mark.parametrize(("forward", "back"), [("PageDown", "PageUp"), ("ArrowRight", "ArrowLeft"),
                                               ("ArrowDown", "ArrowUp"), ("Space", "ArrowLeft")])
def test_each_clicker_key_reveals_then_advances_and_back_undoes(server, new_page, forward, back):
    page = new_page(1280, 720)
    page.goto(server.url + "Lecture_scenes?scene=3&mode=projector", timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    page.locator('[data-testid="stMain"]').click(position={"x": 640, "y": 650})  # focus the page, not a control
    press(page, forward)
    assert address(page) == {"scene": "3", "reveal": "1", "mode": "projector"}
    press(page, forward)
    assert address(page) == {"scene": "4", "mode": "projector"}
    press(page, back)
    assert address(page) == {"scene": "3", "reveal": "1", "mode": "projector"}


def test_hidden_key_buttons_take_no_room_and_the_count_reads_large(server, new_page):
    page = new_page(1280, 720)
    page.goto(server.url + "Lecture_scenes?scene=2&reveal=1&mode=projector", timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    keys = page.locator(".st-key-scenes-keys")
    box = keys.bounding_box()
    assert keys.evaluate("e => getComputedStyle(e).position") == "absolute"  # out of the flow: takes no room
    assert box["height"] <= 1, box  # and clipped to nothing on screen
    assert keys.evaluate("e => getComputedStyle(e).clipPath") == "inset(50%)"
    where = page.get_by_text(f"Scene 2 of {len(SCENES)}", exact=True)
    assert float(where.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 22


def test_an_out_of_range_scene_shows_the_nearest_with_a_note(server, new_page):
    page = new_page(1280, 720)
    page.goto(server.url + f"Lecture_scenes?scene={len(SCENES) + 7}", timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    assert page.get_by_text(f"Scene {len(SCENES)} of {len(SCENES)}", exact=True).is_visible()
    assert page.get_by_text(f"showing {len(SCENES)} instead of {len(SCENES) + 7}", exact=False).is_visible()
