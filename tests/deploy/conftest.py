"""Skip-or-fail policy for the deployment tests.

Without haproxy or PostgreSQL (the Debian packages deploy/local.sh runs) the proxy tests skip, except under
REQUIRE_PROXY=1 (CI sets it), where they fail. Browser tests follow tests/browser's rule: without Chromium or
Playwright they skip, except under REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import os

import pytest

from tests.browser import harness
from tests.deploy import local_deploy


def unavailable(variable: str, reason: str) -> None:
    if os.environ.get(variable) == "1":
        pytest.fail(f"{variable}=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def require_proxy() -> None:
    missing = local_deploy.missing_tools()
    if missing:
        names = " ".join(missing)
        unavailable("REQUIRE_PROXY", f"deploy/local.sh needs {names} (apt-get install {names})")


def require_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        unavailable("REQUIRE_BROWSER", f"Playwright is not importable ({error}); pip install -r requirements-dev.txt")
    if harness.chromium_executable() is None:
        unavailable("REQUIRE_BROWSER", f"no Chromium at {harness.CHROMIUM}; apt-get install -y chromium")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Attach local.sh's output and logs to a failed test that used a deployment."""
    report = yield
    if report.failed:
        for name, value in getattr(item, "funcargs", {}).items():
            if isinstance(value, local_deploy.Deployment):
                report.sections.append((f"deploy/local.sh ({name})", value.log_tail(40)))
    return report
