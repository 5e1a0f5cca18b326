"""Fixtures for real-browser tests: `server` (the repo's app.py), `browser`, `page`, `new_page`.

Without Chromium or Playwright these tests skip, except under REQUIRE_BROWSER=1 (CI sets it),
where they fail: a browser test must never skip silently in CI. Server and browser logic: harness.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import harness
import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

HERE = Path(__file__).resolve().parent


def _unavailable(reason: str) -> None:
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str:
    """/usr/bin/chromium, once Playwright imports; otherwise skip (or fail under REQUIRE_BROWSER=1)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        _unavailable(f"Playwright is not importable ({error}); pip install -r requirements-dev.txt")
    executable = harness.chromium_executable()
    if executable is None:
        _unavailable(f"no Chromium at {harness.CHROMIUM}; apt-get install -y chromium")
    return str(executable)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[pytest.TestReport]:
    """Attach the server log to a failed test that used a Streamlit server fixture."""
    report = yield
    if report.failed:
        funcargs = getattr(item, "funcargs", {})
        for name, value in funcargs.items():
            if isinstance(value, harness.Server):
                report.sections.append((f"streamlit log ({name})", value.log_tail(60)))
    return report


@pytest.fixture(scope="session")
def server() -> Iterator[harness.Server]:
    """The repo's app.py, served once per test session (per xdist worker)."""
    with harness.start_server("app.py", cwd=harness.REPO_ROOT) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = harness.launch_browser(playwright, executable)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Factory: new_page(width=1366, height=768) -> a page in its own fresh context."""
    contexts = []

    def make(width: int = harness.VIEWPORT["width"], height: int = harness.VIEWPORT["height"]) -> Page:
        context = harness.new_context(browser, width, height)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    """A 1366x768 page in a fresh context, closed after the test."""
    return new_page()
