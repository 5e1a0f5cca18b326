"""The images of deploy/Dockerfile, without a container engine: the app stage's files (read from its COPY lines
and Dockerfile.dockerignore by tests/deploy/image_files.py, nothing else) in a temp folder, requirements.txt alone
in a fresh venv (no system site-packages), the image's own command started there, and the proxy stage's files
(haproxy.cfg, static_gz.lua, the precompressed bundles) run in front of it with the image's environment. Every
page is opened through that proxy in headless Chromium: no exception box, no page error, the training presets
drawn from their shipped runs, a poll room opened with a click. A file the app needs and the image lacks fails
here. The same venv is what Streamlit Community Cloud installs, so this also proves nothing hides in
requirements-dev.txt or this machine's site-packages, and that the app writes nothing next to itself.

Slow: pip from the registry took 23 s here without byte-compiling (2026-12-02), the pages about a minute.
It skips without Chromium, Playwright, haproxy or a package index, except under REQUIRE_BROWSER=1 /
REQUIRE_PROXY=1 (CI), where any of those missing is a failure.
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from attn_core.training import PRESETS
from tests.browser import harness
from tests.deploy import image_files
from tests.deploy.conftest import require_browser, require_proxy
from tests.deploy.local_deploy import in_own_thread

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"), key=lambda path: int(path.name.split("_", 1)[0]))
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
    # --no-compile: byte-compiling every installed module took most of the install (23 s without it here, 58 to
    # 85 s with it); Python compiles what the app imports when it imports it, as a fresh container would anyway.
    installed = run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-compile", "-r",
                    ROOT / "requirements.txt", timeout=INSTALL_TIMEOUT_S)
    if installed.returncode:
        unavailable(f"pip install -r requirements.txt failed (offline?):\n{installed.stderr[-1500:]}")
    return python


@dataclass
class Image:
    root: Path  # stands for the image's /
    stage: image_files.Stage
    files: list[str]  # image paths the Dockerfile's COPY lines wrote

    @property
    def workdir(self) -> Path:
        return self.root / self.stage.workdir.lstrip("/")

    def inside(self, value: str) -> str:
        """An absolute image path as it sits under root (other values unchanged)."""
        return str(self.root / value.lstrip("/")) if value.startswith("/") else value


@pytest.fixture(scope="module")
def stages() -> dict[str, image_files.Stage]:
    return image_files.parse()


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build context as a fresh clone has it, plus a developer's secrets file, which must not travel."""
    folder = image_files.clone(tmp_path_factory.mktemp("context"))
    (folder / ".streamlit" / "secrets.toml").write_text('poll_database_url = "postgresql://me:hunter2@db/x"\n')
    return folder


@pytest.fixture(scope="module")
def app_image(stages, context, tmp_path_factory) -> Image:
    root = tmp_path_factory.mktemp("app-image")
    return Image(root, stages["app"], image_files.layout(stages, "app", context, root))


@pytest.fixture(scope="module")
def proxy_image(stages, context, venv_python: Path, tmp_path_factory) -> Image:
    """The proxy stage's files; its --from=static-gz bundles made by running that stage's script with the venv."""
    built = tmp_path_factory.mktemp("static-gz-stage")
    image_files.layout(stages, "static-gz", context, built)
    (script,) = [c.dest for c in stages["static-gz"].copies if c.dest.endswith(".py")]
    out = built / "static-gz"
    made = run(venv_python, built / script.lstrip("/"), out, timeout=600)  # no brotli in the venv: gzip copies only
    assert made.returncode == 0, made.stdout + made.stderr
    root = tmp_path_factory.mktemp("proxy-image")
    (root / "tmp").mkdir()  # every Debian image has /tmp (HAPROXY_SOCKET lives there)
    return Image(root, stages["proxy"], image_files.layout(stages, "proxy", context, root, built={"static-gz": built}))


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def start(command: list[str], cwd: Path, env: dict[str, str], port: int, name: str) -> harness.Server:
    fd, log_name = tempfile.mkstemp(prefix=f"attn-image-{name}-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT)  # fmt: skip
    server = harness.Server(process=process, port=port, script=cwd, log_path=Path(log_name))
    deadline = time.monotonic() + START_TIMEOUT_S
    while not harness.healthy(port):
        if not server.alive() or time.monotonic() > deadline:
            tail = server.log_tail()
            server.stop()
            raise AssertionError(f"{name} did not answer /_stcore/health:\n{tail}")
        time.sleep(0.2)
    return server


@pytest.fixture(scope="module")
def app_server(venv_python: Path, app_image: Image, tmp_path_factory) -> Iterator[harness.Server]:
    """The app image's CMD in its WORKDIR with the venv's Python, on loopback instead of 0.0.0.0."""
    port = harness.free_port()
    stage = app_image.stage
    command = [str(venv_python) if word == "python" else app_image.inside(word) if word.startswith("/usr/") else word
               for word in [*stage.entrypoint, *stage.cmd]]  # fmt: skip
    assert command[:2] == [str(venv_python), app_image.inside("/usr/local/bin/attn-entrypoint.py")]
    command[command.index("--server.address") + 1] = "127.0.0.1"
    command[command.index("--server.port") + 1] = str(port)
    database = tmp_path_factory.mktemp("poll-db") / "poll.sqlite3"  # outside the image: it writes nothing there
    env = {**os.environ, **app_image.stage.env, "PYTHONDONTWRITEBYTECODE": "1",
           "ATTN_LAB_DATABASE_URL": f"sqlite:///{database}"}  # fmt: skip
    env.pop("PYTHONPATH", None)
    server = start(command, app_image.workdir, env, port, "app")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def proxy_server(proxy_image: Image, app_server: harness.Server) -> Iterator[harness.Server]:
    """The proxy image's CMD and ENV (paths under its folder), its three replicas all pointed at the app above."""
    require_proxy()
    port = harness.free_port()
    env = {**os.environ, **{key: proxy_image.inside(value) for key, value in proxy_image.stage.env.items()}}
    replica = f"127.0.0.1:{app_server.port}"
    env.update(PROXY_BIND=f"127.0.0.1:{port}", APP1=replica, APP2=replica, APP3=replica)
    command = [proxy_image.inside(word) for word in proxy_image.stage.cmd]
    server = start(command, proxy_image.root, env, port, "proxy")
    try:
        yield server
    finally:
        server.stop()


def test_the_venv_holds_requirements_txt_and_nothing_from_the_dev_tools(venv_python: Path):
    pinned = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    version = run(venv_python, "-c", "import streamlit, numpy, plotly; print(streamlit.__version__)")
    assert version.returncode == 0, version.stderr
    assert pinned and version.stdout.strip() == pinned.group(1)
    assert run(venv_python, "-c", f"import {DEV_ONLY}").returncode != 0  # a clean venv, not this machine's
    assert run(venv_python, "-c", "import sys; sys.exit(sys.prefix == sys.base_prefix)").returncode == 0
    no_system = run(venv_python, "-c", "import site, sys; sys.exit(any('dist-packages' in p or p.startswith("
                    "sys.base_prefix) and 'site-packages' in p for p in site.getsitepackages() + sys.path))")
    assert no_system.returncode == 0, "the venv sees the system's site-packages"
    check = run(venv_python, "-m", "pip", "check")
    assert check.returncode == 0, check.stdout + check.stderr


def test_every_page_served_from_the_image_files_through_the_proxy_image_works(app_image, app_server, proxy_server):
    require_browser()
    from playwright.sync_api import sync_playwright

    assert "/app/.streamlit/secrets.toml" not in app_image.files  # planted in the context, left out
    before = snapshot(app_image.root)
    opened: list[str] = []

    def visit_everything() -> None:
        with sync_playwright() as playwright:
            browser = harness.launch_browser(playwright)
            try:
                page = harness.new_context(browser).new_page()
                errors = harness.collect_page_errors(page)
                harness.open_app(page, proxy_server, timeout_ms=WAIT_MS)
                harness.assert_no_exception(page)
                assert harness.metrics(page)["Masked cells"] == "0"
                assert len(harness.plotly_data(page)[0]["z"]) == 6
                opened.append("app.py")
                for script in PAGES:
                    path = script.stem.split("_", 1)[1]
                    page.goto(proxy_server.url + path, timeout=WAIT_MS)
                    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
                    harness.assert_no_exception(page)
                    assert page.locator('[data-testid="stMain"] h1').count() >= 1, f"{path}: no page title"
                    opened.append(script.name)
                check_presets(page, proxy_server.url)
                open_a_room(page, proxy_server.url)
                assert errors == []
            finally:
                browser.close()

    in_own_thread(visit_everything)
    assert len(opened) == len(PAGES) + 1
    assert snapshot(app_image.root) == before  # no cache files, no uploads, no logs next to the app
    log = app_server.log_tail(400)
    assert "Traceback" not in log and "Error" not in log, log


def check_presets(page, base: str) -> None:
    """Train it yourself shows each preset's shipped curves at once (they come from assets/training/)."""
    for name, preset in PRESETS.items():
        page.goto(f"{base}Train_it_yourself?exp={name}&answer=-.-.-", timeout=WAIT_MS)  # predictions skipped
        harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
        harness.assert_no_exception(page)
        drawn = [list(trace["y"]) for trace in harness.plotly_data(page) if trace.get("y")]
        shipped = preset.shipped()
        runs = getattr(shipped, "runs", None) or (shipped,)
        losses = [list(curve.losses) for result in runs for curve in result.curves]
        assert any(y in losses for y in drawn), f"preset {name}: no shipped curve among the {len(drawn)} drawn"


def open_a_room(page, base: str) -> None:
    """The lecturer's path: tick a question, open a room; the host face shows its code and the join QR code."""
    page.goto(f"{base}Class_poll", timeout=WAIT_MS)
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    page.locator('[data-testid="stExpander"] summary').first.click()
    page.locator('[data-testid="stExpander"] [data-testid="stCheckbox"]').first.click()
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    page.get_by_role("button", name="Open a room with 1 question").click()
    page.wait_for_url(re.compile(r"room=[A-Z0-9]+"), timeout=WAIT_MS)  # (the address drops the host secret)
    harness.wait_for_app(page, timeout_ms=WAIT_MS)
    assert "host=" not in page.url
    assert page.locator(".st-key-poll-controls button").count() >= 1, "the host's controls, kept by the browser"
    harness.assert_no_exception(page)
    code = re.search(r"room=([A-Z0-9]+)", page.url).group(1)
    assert page.get_by_text(code, exact=True).count() >= 1
    assert page.locator(".st-key-poll-join img").count() == 1


def test_the_proxy_image_sends_its_precompressed_bundles(proxy_image, proxy_server):
    index = (proxy_image.root / proxy_image.stage.env["STATIC_GZ_DIR"].lstrip("/") / "index.txt").read_text()
    name = next(line for line in index.split() if "/js/" in line and line.endswith(".js"))
    request = urllib.request.Request(f"{proxy_server.url}{name.lstrip('/')}", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
        assert response.headers.get("content-encoding") == "gzip"
    assert gzip.decompress(body)[:1]  # a real gzip stream, from the image's static-gz folder
