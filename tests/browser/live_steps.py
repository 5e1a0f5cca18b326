"""What a live lecture's browser tests do again and again: wait for words on a projector or a phone, press a keyed
button, check that a screen fits. Shared by test_live_browser.py and test_deck_live_browser.py."""

from __future__ import annotations

import time

import fit
import harness

SLOW_MS = 90_000


def wait_text(page, text: str, seconds: float = 10) -> float:
    """Seconds until `text` shows in the page's main area; fails with what the page showed."""
    start = time.monotonic()
    main = '[data-testid="stMain"], main#phone'  # a Streamlit page's main, or the phone's page
    while text not in (body := page.locator(main).first.inner_text() if page.locator(main).count() else ""):
        if time.monotonic() - start > seconds:
            raise AssertionError(f"{text!r} did not show within {seconds} s; the page shows: {body[:600]!r}")
        page.wait_for_timeout(100)
    return time.monotonic() - start


def fits(page, what: str) -> None:
    """The screen holds everything: a projector page by tests/browser/fit.py, a phone's page nothing sideways."""
    if page.locator("main#phone").count():  # the phone's page: one column, nothing sideways
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert wide <= 0, f"{what}: {wide} px to scroll sideways"
        return
    wrong = fit.problems(fit.measure(page))
    assert not wrong, f"{what}: {wrong}"


def press(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
