"""Real-browser harness for Streamlit apps: start a server, drive headless Chromium, read the page.

Importable without pytest (bench/latency.py uses it too); the skip-or-fail policy lives in conftest.py.

    server = start_server("app.py")          # waits for /_stcore/health
    with sync_playwright() as p:
        browser = launch_browser(p)
        page = new_context(browser).new_page()
        open_app(page, server)               # goto + wait_for_app
        toggle(page, "Causal mask").click()
        wait_for_app(page)
        z = plotly_data(page)[0]["z"]
    server.stop()

Streamlit 1.67 facts this relies on (checked in Chromium 156):
- `[data-testid="stApp"]` carries `data-test-connection-state` (CONNECTED) and `data-test-script-state`
  (initial -> running -> notRunning). A fast rerun can skip "running" in the DOM altogether (React
  batches it away), so "notRunning" right after a click does not prove the rerun is over.
- `[data-testid="stStatusWidget"]` is shown while running, but also for "File change. Rerun";
  `[data-testid="stStatusWidgetRunningIcon"]` is the running indicator proper.
- The first Plotly chart appears well after the first run ends (the Plotly chunk loads lazily), and a
  chart whose figure changed is unmounted and mounted again about 50-100 ms after the run ends.
- `st.toggle` is `[data-testid="stCheckbox"]` holding a visually hidden `<input role="switch">`: find it
  with get_by_role("switch", name=...), but click its `<label>` (the input itself is covered).
So wait_for_app() also counts the page's WebSocket traffic (an init script added by new_context()),
requires every chart to be drawn, and then a short quiet spell with no DOM or socket activity.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Playwright is only needed by the browser helpers, not by start_server().
    from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-software-rasterizer",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1366, "height": 768}
STARTUP_TIMEOUT_S = 60.0
APP_TIMEOUT_MS = 30_000


# ---------------------------------------------------------------- server


class ServerError(RuntimeError):
    """The Streamlit server did not come up; the message ends with its log."""


@dataclass
class Server:
    """A `streamlit run` child process on 127.0.0.1; stop() it (also done at interpreter exit)."""

    process: subprocess.Popen
    port: int
    script: Path
    log_path: Path
    args: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (all its threads), from /proc."""
        return process_cpu_seconds(self.pid)

    def stop(self) -> None:
        """Terminate by PID, kill after 5 s; idempotent. The log file is removed."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        with contextlib.suppress(ValueError):
            _live_servers.remove(self)
        with contextlib.suppress(OSError):
            self.log_path.unlink()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


_live_servers: list[Server] = []


@atexit.register
def _stop_leftover_servers() -> None:
    for server in list(_live_servers):
        server.stop()


def process_cpu_seconds(pid: int, children: bool = False) -> float:
    """utime + stime of one process from /proc/<pid>/stat, in seconds; with `children`, instead the CPU of its
    children that have ended and been waited for (cutime + cstime)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # fields from 3 (state) on; comm may hold spaces
    first = 13 if children else 11  # fields 16 and 17 of proc(5), or 14 and 15, in clock ticks
    return (int(fields[first]) + int(fields[first + 1])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def healthy(port: int) -> bool:
    """Does the Streamlit server on this port answer its health check?"""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as response:
            return response.read().strip() == b"ok"
    except (OSError, urllib.error.URLError):
        return False


def start_server(
    script: str | os.PathLike[str] = "app.py",
    cwd: str | os.PathLike[str] = REPO_ROOT,
    extra_args: Sequence[str] = (),
    timeout: float = STARTUP_TIMEOUT_S,
) -> Server:
    """Run `streamlit run script` headless on a free port and wait until /_stcore/health says "ok".

    `script` is resolved against `cwd`; `cwd` decides which `.streamlit/config.toml` applies.
    Output goes to a temp file (a pipe nobody reads can fill and stall the server). A start that
    loses the race for its port is retried on another one.
    """
    cwd = Path(cwd).resolve()
    script_path = (cwd / script).resolve()
    if not script_path.is_file():
        raise ServerError(f"no Streamlit script at {script_path}")
    last_error = ""
    for _attempt in range(3):
        server = _launch(script_path, cwd, list(extra_args))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if healthy(server.port):
                return server
            if not server.alive():
                break
            time.sleep(0.1)
        log = server.log_tail()
        timed_out = server.alive()
        server.stop()
        last_error = (
            f"{'timed out after ' + str(timeout) + ' s' if timed_out else 'exited'} "
            f"starting {script_path.name} on port {server.port}"
        )
        if timed_out or "already in use" not in log:
            raise ServerError(f"Streamlit server {last_error}; log tail:\n{log}")
    raise ServerError(f"Streamlit server {last_error} (port races, 3 tries)")


@contextlib.contextmanager
def server_with_database(folder: Path, script: str = "app.py") -> Iterator[tuple[Server, str]]:
    """A server of its own on a temp SQLite file in `folder` (ATTN_LAB_DATABASE_URL, which the server inherits),
    with that URL; the variable is put back afterwards."""
    url = f"sqlite:///{Path(folder) / 'poll.sqlite3'}"
    before = os.environ.get("ATTN_LAB_DATABASE_URL")
    os.environ["ATTN_LAB_DATABASE_URL"] = url
    try:
        with start_server(script, cwd=REPO_ROOT) as running:
            yield running, url
    finally:
        if before is None:
            os.environ.pop("ATTN_LAB_DATABASE_URL", None)
        else:
            os.environ["ATTN_LAB_DATABASE_URL"] = before


SCHEMA_ENV = "ATTN_LAB_DATABASE_SCHEMA"
PSEUDO_ENV = "ATTN_LAB_PSEUDO"


@contextlib.contextmanager
def pseudo_offered() -> Iterator[None]:
    """Servers started inside offer the pseudo-language (they inherit ATTN_LAB_PSEUDO=1); put back afterwards."""
    before = os.environ.get(PSEUDO_ENV)
    os.environ[PSEUDO_ENV] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(PSEUDO_ENV, None)
        else:
            os.environ[PSEUDO_ENV] = before


def postgres_url() -> str:
    """The test PostgreSQL's URL (ATTN_TEST_DATABASE_URL); a skip without one, a failure under REQUIRE_POSTGRES=1."""
    import pytest

    url = os.environ.get("ATTN_TEST_DATABASE_URL", "").strip()
    if not url:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("REQUIRE_POSTGRES=1 but ATTN_TEST_DATABASE_URL is not set", pytrace=False)
        pytest.skip("ATTN_TEST_DATABASE_URL is not set (`bash scripts/test_postgres.sh` prints one)")
    return url


@contextlib.contextmanager
def server_on(backend: str, folder: Path, prefix: str = "browser") -> Iterator[tuple[Server, str, str | None]]:
    """A server of its own on "sqlite" (a temp file in `folder`) or "postgresql" (a fresh schema of the test
    database, dropped afterwards): (server, database URL, schema). The variables are put back afterwards."""
    if backend == "sqlite":
        with server_with_database(folder) as (running, url):
            yield running, url, None
        return
    from sqlalchemy import create_engine, text

    url = postgres_url()
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    before = {key: os.environ.get(key) for key in ("ATTN_LAB_DATABASE_URL", SCHEMA_ENV)}
    os.environ.update({"ATTN_LAB_DATABASE_URL": url, SCHEMA_ENV: schema})
    try:
        with start_server("app.py", cwd=REPO_ROOT) as running:
            yield running, url, schema
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))  # our own generated name
        engine.dispose()


def _launch(script_path: Path, cwd: Path, extra_args: list[str]) -> Server:
    port = free_port()
    args = [
        sys.executable, "-m", "streamlit", "run", str(script_path),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        *extra_args,
    ]  # fmt: skip
    fd, log_name = tempfile.mkstemp(prefix=f"streamlit-{script_path.stem}-", suffix=".log")
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(args, cwd=cwd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    server = Server(process=process, port=port, script=script_path, log_path=Path(log_name), args=args)
    _live_servers.append(server)
    return server


# ---------------------------------------------------------------- browser


def chromium_executable() -> Path | None:
    return CHROMIUM if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK) else None


def launch_browser(playwright: Playwright, executable: str | os.PathLike[str] = CHROMIUM) -> Browser:
    return playwright.chromium.launch(executable_path=str(executable), headless=True, args=CHROMIUM_ARGS)


# Counts the page's WebSocket messages so wait_for_app() can tell that a rerun asked for is answered.
_TRACK_SOCKETS = """
(() => {
  if (window.__attnWs) return;
  const stats = window.__attnWs = {sent: 0, received: 0, lastSent: 0, lastReceived: 0};
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => { stats.received++; stats.lastReceived = performance.now(); });
    }
    send(data) { stats.sent++; stats.lastSent = performance.now(); return super.send(data); }
  };
})();
"""


def new_context(browser: Browser, width: int = VIEWPORT["width"], height: int = VIEWPORT["height"],
                touch: bool = False) -> BrowserContext:
    """A fresh context (own cookies, own Streamlit session) with the socket counter installed; `touch` makes it a
    phone (touch events, no hover, a mobile viewport)."""
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch)
    context.add_init_script(_TRACK_SOCKETS)
    return context


def open_app(page: Page, server: Server, query: str = "", timeout_ms: int = APP_TIMEOUT_MS) -> None:
    """Load the app (optionally with `?query`) and wait until its first run is drawn."""
    page.goto(server.url + (f"?{query.lstrip('?')}" if query else ""), timeout=timeout_ms)
    wait_for_app(page, timeout_ms=timeout_ms, initial_wait_ms=0)


_APP_SETTLED = """
([settleMs]) => {
  const now = performance.now();
  const not = (why) => { window.__attnWhy = why; return false; };  // read back if the wait times out
  if (!window.__attnQuiet) {
    window.__attnQuiet = {last: now, what: ""};
    new MutationObserver((records) => {
      window.__attnQuiet.last = performance.now();
      const target = records[records.length - 1].target;
      const element = target.nodeType === 1 ? target : target.parentElement;
      window.__attnQuiet.what = element ? `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""}` +
        `[${element.getAttribute("data-testid") || element.className || ""}] ${records[records.length - 1].type}` +
        ` ${records[records.length - 1].attributeName || ""}` : "";
    }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
    return not("just started watching");
  }
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app) return not("no app");
  if (app.getAttribute("data-test-connection-state") !== "CONNECTED")
    return not(`connection ${app.getAttribute("data-test-connection-state")}`);
  if (app.getAttribute("data-test-script-state") !== "notRunning")
    return not(`script ${app.getAttribute("data-test-script-state")}`);
  const busy = '[data-testid="stStatusWidgetRunningIcon"], [data-testid="stSkeleton"]';
  if (document.querySelector(busy)) return not("a running icon or a skeleton");
  if (document.fonts && document.fonts.status !== "loaded") return not("fonts loading");  // Plotly redraws then
  for (const chart of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    const plot = chart.querySelector(".js-plotly-plot");
    if (!plot || !plot.data || !plot._fullLayout) return not("a chart not drawn");
    if (plot._fontLoadToken) return not("a chart waiting for a font");  // a redraw is still to come
  }
  let last = window.__attnQuiet.last;
  const ws = window.__attnWs;
  if (ws) {
    if (ws.received === 0) return not("no message received yet");
    if (ws.lastSent > ws.lastReceived)  // a request is unanswered
      return not(`a message sent ${Math.round(now - ws.lastSent)} ms ago is unanswered`);
    last = Math.max(last, ws.lastReceived, ws.lastSent);
  }
  if (now - last < settleMs) return not(`moving: last DOM change on ${window.__attnQuiet.what}`);
  return true;
}
"""


def wait_for_app(page: Page, timeout_ms: int = APP_TIMEOUT_MS, initial_wait_ms: int = 50, settle_ms: int = 150) -> None:
    """Wait until Streamlit is connected, no run is pending or running, every chart is drawn, and
    neither the DOM nor the socket has moved for `settle_ms`.

    Call it after page.goto() and after every interaction that may rerun the script. `initial_wait_ms`
    gives a widget's change handler time to send its rerun request before the first check.
    """
    if initial_wait_ms:
        page.wait_for_timeout(initial_wait_ms)
    from playwright.sync_api import Error as PlaywrightError  # noqa: PLC0415 (Playwright only where a browser runs)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: PLC0415

    try:
        page.wait_for_function(_APP_SETTLED, arg=[settle_ms], timeout=timeout_ms, polling=25)
    except PlaywrightTimeout as error:  # say what it was still waiting for, and where the page is
        try:
            why = page.evaluate("() => window.__attnWhy || ''")
        except PlaywrightError:
            why = "(the page could not be asked)"
        raise PlaywrightTimeout(f"{error}\nthe app had not settled: {why}; at {page.url}") from None


def toggle(page: Page, label: str) -> Locator:
    """The clickable part of `st.toggle(label)` (its <label>); `switch(page, label).is_checked()` reads it."""
    return switch(page, label).locator("xpath=ancestor::label[1]")


def switch(page: Page, label: str) -> Locator:
    return page.get_by_role("switch", name=label, exact=True)


# ---------------------------------------------------------------- reading the page

# Plotly >= 6 sends arrays as {dtype, bdata: base64, shape}; gd.data keeps them in that form.
_PLOTLY_DATA = """
([index]) => {
  const plot = document.querySelectorAll(".js-plotly-plot")[index];
  if (!plot || !plot.data) return null;
  const TYPES = {f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array, i2: Int16Array,
                 u2: Uint16Array, i1: Int8Array, u1: Uint8Array, u1c: Uint8ClampedArray};
  const reshape = (flat, shape) => {
    if (shape.length <= 1) return flat;
    const step = flat.length / shape[0];
    const rows = Array.from({length: shape[0]}, (_, i) => flat.slice(i * step, (i + 1) * step));
    return rows.map((row) => reshape(row, shape.slice(1)));
  };
  const decode = (spec) => {
    const bytes = typeof spec.bdata === "string"
      ? Uint8Array.from(atob(spec.bdata), (c) => c.charCodeAt(0)).buffer
      : spec.bdata;
    const flat = Array.from(new TYPES[spec.dtype](bytes));
    const shape = spec.shape === undefined ? [flat.length] : String(spec.shape).split(",").map(Number);
    return reshape(flat, shape);
  };
  const clean = (value) => {
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (value === null || value === undefined || typeof value !== "object") return value ?? null;
    if (ArrayBuffer.isView(value)) return Array.from(value, clean);
    if (Array.isArray(value)) return value.map(clean);
    if (TYPES[value.dtype] && value.bdata !== undefined) return clean(decode(value));
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner !== "function") out[key] = clean(inner);
    }
    return out;
  };
  return plot.data.map(clean);
}
"""


def plotly_data(page: Page, index: int = 0) -> list[dict[str, Any]]:
    """The traces (`gd.data`) of the index-th Plotly chart on the page, as plain JSON.

    Binary arrays come back as (nested) lists, NaN and +-Infinity as None.
    """
    data = page.evaluate(_PLOTLY_DATA, [index])
    if data is None:
        count = page.locator(".js-plotly-plot").count()
        raise AssertionError(f"no drawn Plotly chart number {index}; the page has {count}")
    return data


def metrics(page: Page) -> dict[str, str]:
    """{label: value} of every st.metric on screen (a tile inside a closed fold is not), as the text shown."""
    pairs = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMetric"]')].filter((m) => m.checkVisibility())
           .map((m) => [
             (m.querySelector('[data-testid="stMetricLabel"]')?.innerText ?? "").trim(),
             (m.querySelector('[data-testid="stMetricValue"]')?.innerText ?? "").trim()])"""
    )
    labels = [label for label, _ in pairs]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    assert not duplicates, f"metric labels must be unique to be read by label; repeated: {duplicates}"
    return dict(pairs)


def assert_no_exception(page: Page) -> None:
    """Fail with the exception text if the app shows any st.exception / uncaught error box."""
    boxes = page.locator('[data-testid="stException"]')
    count = boxes.count()
    if count:
        texts = "\n---\n".join(text[:1500] for text in boxes.all_inner_texts())
        raise AssertionError(f"the app shows {count} exception(s):\n{texts}")


def collect_page_errors(page: Page) -> list[str]:
    """Start recording uncaught JavaScript errors of `page`; returns the (growing) list."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def tick_problems(shown: list[str], labels: list[str], padded) -> list[str]:
    """What is wrong with a map's drawn tick labels (their text as the browser has it) against the words they stand
    for, literally: each word itself, or cut ("3 Electro…", its position first, the start of the word as typed); a
    padded word followed by its PAD mark (" · PAD" on one line, or "PAD" on a line under it, which reads as "wordPAD"
    in the text). Markup typed in a word must show as its characters, never as markup (which would drop them)."""
    if len(shown) != len(labels):
        return [f"{len(shown)} labels drawn for {len(labels)} words"]
    problems = []
    for position, (text, label) in enumerate(zip(shown, labels, strict=True), start=1):
        said = text
        if position in set(padded):
            if not said.endswith("PAD"):
                problems.append(f"{position}: {text!r} has no PAD mark")
                continue
            said = said[:-3].removesuffix(" · ")
        if said.endswith("…"):
            start = said[:-1].removeprefix(f"{position} ")
            if not (start and label.startswith(start)):
                problems.append(f"{position}: {text!r} is not the start of {label!r}")
        elif said != label:
            problems.append(f"{position}: {text!r} is not {label!r}")
    return problems
