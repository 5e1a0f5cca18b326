"""Streamlit Community Cloud in miniature: a fresh venv from requirements.txt alone, the app started from a
clean copy of its files, loaded in headless Chromium. Proves that nothing the app needs hides in
requirements-dev.txt or in this machine's site-packages, and that the app writes nothing next to itself.

Slow (pip; about a minute with a warm pip cache). It skips without Chromium, Playwright or a package index,
except under REQUIRE_BROWSER=1 (CI), where any of those missing is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import harness
from tests.deploy.local_deploy import in_own_thread

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
# What Cloud runs.
APP_FILES = ("app.py", "requirements.txt", ".streamlit", "attn_core", "attn_ui", "attn_poll", "pages")
DEV_ONLY = "hypothesis"  # in requirements-dev.txt, not in requirements.txt
INSTALL_TIMEOUT_S = 1_200
START_TIMEOUT_S = 120
WAIT_MS = 90_000


def unavailable(reason: str) -> None:
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def run(*args: str | Path, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout, **kwargs)


@pytest.fixture(scope="module")
def venv_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv (no system site-packages) with `pip install -r requirements.txt` and nothing else."""
    venv = tmp_path_factory.mktemp("cloud") / "venv"
    made = run(sys.executable, "-m", "venv", venv)
    if made.returncode:
        unavailable(f"python -m venv failed: {made.stderr[-500:]}")
    python = venv / "bin" / "python"
    installed = run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r",
                    ROOT / "requirements.txt", timeout=INSTALL_TIMEOUT_S)
    if installed.returncode:
        unavailable(f"pip install -r requirements.txt failed (offline?):\n{installed.stderr[-1500:]}")
    return python


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's files as a fresh clone has them (no caches, no tests, no dev tools)."""
    copy = tmp_path_factory.mktemp("clone")
    for name in APP_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, copy / name)
    return copy


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def cloud_server(venv_python: Path, clean_copy: Path) -> Iterator[harness.Server]:
    """`streamlit run app.py` from the copy's root with the venv's Python, as Community Cloud starts it."""
    port = harness.free_port()
    fd, log_name = tempfile.mkstemp(prefix="streamlit-cloud-", suffix=".log")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # .pyc files would be the only writes; keep them out
    env.pop("PYTHONPATH", None)
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(
            [str(venv_python), "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=clean_copy, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )
    server = harness.Server(process=process, port=port, script=clean_copy / "app.py", log_path=Path(log_name))
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not harness.healthy(port):
            assert server.alive(), f"the app exited at start:\n{server.log_tail()}"
            assert time.monotonic() < deadline, f"no health answer after {START_TIMEOUT_S} s:\n{server.log_tail()}"
            time.sleep(0.2)
        yield server
    finally:
        server.stop()


def test_the_venv_holds_requirements_txt_and_nothing_from_the_dev_tools(venv_python: Path):
    pinned = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    version = run(venv_python, "-c", "import streamlit, numpy, plotly; print(streamlit.__version__)")
    assert version.returncode == 0, version.stderr
    assert pinned and version.stdout.strip() == pinned.group(1)
    assert run(venv_python, "-c", f"import {DEV_ONLY}").returncode != 0  # a clean venv, not this machine's
    check = run(venv_python, "-m", "pip", "check")
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_app_from_the_fresh_venv_loads_in_chromium_and_writes_nothing(cloud_server, clean_copy: Path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        unavailable(f"Playwright is not importable ({error})")
    if harness.chromium_executable() is None:
        unavailable(f"no Chromium at {harness.CHROMIUM}")
    before = snapshot(clean_copy)

    def load_two_pages() -> None:
        with sync_playwright() as playwright:
            browser = harness.launch_browser(playwright)
            try:
                page = harness.new_context(browser).new_page()
                errors = harness.collect_page_errors(page)
                harness.open_app(page, cloud_server, timeout_ms=WAIT_MS)
                harness.assert_no_exception(page)
                assert harness.metrics(page)["Masked cells"] == "0"
                assert len(harness.plotly_data(page)[0]["z"]) == 6

                page.goto(cloud_server.url + "Lecture_scenes?scene=4&reveal=1", timeout=WAIT_MS)  # a slide's link
                harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
                harness.assert_no_exception(page)
                assert harness.metrics(page)["Masked cells"] == "15"
                assert errors == []
            finally:
                browser.close()

    in_own_thread(load_two_pages)
    assert snapshot(clean_copy) == before  # no cache files, no uploads, no logs next to the app
    log = cloud_server.log_tail(200)
    assert "Traceback" not in log and "Error" not in log, log
