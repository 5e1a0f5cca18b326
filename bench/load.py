"""A class at once: N concurrent sessions open the Lab, then click its causal toggle (or change page) every few seconds.

    python3 bench/load.py                              # N = 1, 10, 50, 150 (about 4 minutes)
    python3 bench/load.py --sessions 150 --window 30
    python3 bench/load.py --server-arg=--server.fileWatcherType=none   # try a server setting
    python3 bench/load.py --nice -10     # on a shared machine: bench, server and browsers ahead of other work
    python3 bench/load.py --proxy local --sessions 450 --nice -10   # through deploy/local.sh: HAProxy, 3 replicas
    python3 bench/load.py --proxy http://127.0.0.1:8500/ --sessions 300 --replica-pid 123 --replica-pid 124
    python3 bench/load.py --server-cpus 1 --browsers 0 --sessions 200,300,400   # capacity of one core
    python3 bench/load.py --action pages --server-cpus 1 --browsers 0 --sessions 40,80   # page changes on one core
    python3 bench/load.py --page Many_heads --server-cpus 1 --browsers 0 --sessions 150   # a lesson page's toggle

How the sessions are made (what is real, what is simulated):
- Light clients speak Streamlit's own protocol, as its frontend does: a WebSocket to `/_stcore/stream`
  (sub-protocol "streamlit"), protobuf `BackMsg`s up and `ForwardMsg`s down. A client opens the app with its
  own query string (`?seed=<n>`: every session has its own settings and its own cache entries) and waits for
  the first run to finish. Then, every few seconds, it flips `lab.causal`: a `rerun_script` BackMsg with the
  toggle's `WidgetState` (the id read from the checkbox delta), the Lab fragment's id, the page hash and the
  query string the server last wrote. That is the message the browser sends for that click, minus the other
  widgets' unchanged values (the server keeps those for the session). The server runs its real rerun path:
  session state, the fragment, `cached_compute`, the Plotly figure, the deltas, the socket.
  Latency = BackMsg sent -> the `plotly_chart` delta received. The chart is decoded and must show the new
  state (the future cells blank exactly when the toggle is on); a stale or wrong map is an error.
- `--page NAME` (a lesson page's address, e.g. Many_heads or Peeking_and_the_causal_mask): the light clients open
  that page instead (no query string: a class meets a lesson in its default state) and flip its "Causal mask"
  toggle, a full run of the page. Latency = BackMsg sent -> the run finished (the whole page, not only its first
  map, which must show the new state as on the Lab). Browser pages are refused in this mode (--browsers 0).
- A few real Chromium pages (default 2 for N > 1) are sessions too: they click the toggle in the page and
  time click -> heatmap data changed, inside the page (bench/latency.py's in-page timing). Each page runs in
  its own thread with its own Playwright.
- `--action pages`: instead of the toggle, each light client goes from page to page, as a student following the
  lessons does: a `rerun_script` BackMsg with the next page's hash (from the `navigation` message's app_pages) and
  an empty query string, which is what the sidebar link sends. Its tour is TOUR (every page, the Lab last; each
  client starts at its own place in it). Latency = BackMsg sent -> the run finished; the run must have drawn no
  exception and no error box. Browser pages are refused in this mode (--browsers 0).
- Errors: an exception or error box in a run, a compile error, a run that ends early, a stale or wrong map,
  no answer within --timeout (--open-timeout for opening), a dropped connection, a failed page. Any error at any
  level makes the bench exit with status 1 after its table; a missed latency target does not (a capacity sweep is
  meant to find the level that misses it).

Each N gets a fresh server (tests/browser/harness.py's start_server: loopback, the app's
.streamlit/config.toml, plus any --server-arg). By default the server runs a snapshot of the last commit
(`git archive HEAD` into a temp folder): files edited in the working tree while the bench runs would make
Streamlit's file watcher unload and re-import the app's modules mid-run. --tree live uses the working tree.
Phases: the browser pages load; the light clients open the app over --ramp seconds (server CPU per opened
session is reported); once every session is open, all click for --warmup seconds unmeasured, then the
clicks sent during --window seconds are measured. The single-session row pauses 0.5 to 1.5 s between
clicks to gather samples (nothing competes with it, so the pause does not change a click's cost); the
others pause uniformly --think seconds (default 3 to 7 s).
Through a proxy (--proxy): every session first loads the page over HTTP as a browser does, keeps the sticky cookie
the proxy set (deploy/haproxy.cfg's ATTN_REPLICA) and sends it with its websocket, so it stays on one replica;
the table then says how many sessions each replica held. `--proxy local` starts deploy/local.sh (of the same
tree) for each level and reads the replicas' pids from it; with a URL, pass --replica-pid for the server columns.
"server" columns then sum the replicas; the proxy's own CPU is printed on the level's line.
--server-cpus pins the server (direct mode) to those CPUs and this script and its browsers to the others: the
sessions held at p95 <= 1 s with one pinned CPU are the capacity per core.
Columns: server CPU per click = utime + stime from /proc/<pid>/stat over the window / clicks in the window
(idle sessions included). RSS = peak VmRSS from /proc/<pid>/status during the level. "machine busy" = share
of all cores in use during the window, by every process on the machine. "server waiting for a CPU" = seconds
per second that the server's threads were ready to run but had no core (/proc/<pid>/task/*/schedstat): well
above 0.1, the machine, not the app, sets the latency. "bench client / its browsers CPU" = this script's own
CPU (light clients, Playwright's Python side), then the Playwright drivers and Chromium it started, as shares
of one core. On a machine shared with other work, --nice -10 (as root) runs this script and everything it
starts ahead of that work, closer to a machine of our own; the header line says which was used.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402  (lives with the browser tests)
import latency  # noqa: E402  (the in-page click timing scripts)

from tests.deploy import local_deploy  # noqa: E402  (starts deploy/local.sh)

TOGGLE_LABEL = "Causal mask"
TOGGLE_KEY = re.compile(r"-[a-z]+\.causal$")  # a causal toggle's widget key (controls.widget_key), in any language
# --action pages: the pages a session walks through, by their address (the Lab's is ""): the lessons, Train it
# yourself (the shipped preset drawn), Check yourself, Lecture scenes, the Class poll's opening form, then the Lab.
TOUR = ("Peeking_and_the_causal_mask", "Padding_mask", "Dropout", "Many_heads", "Shapes_and_memory",
        "One_row_by_hand", "Train_it_yourself", "Check_yourself", "Lecture_scenes", "Class_poll", "")
SUCCESS = frozenset({ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY})
ERROR_ALERT = 1  # Alert.Format.ERROR
TARGET_P95_MS = 1000
TARGET_RSS_MB = 600


# ---------------------------------------------------------------- what one level collects


@dataclass
class Level:
    sessions: int
    browsers: int
    window_start: float = float("inf")  # set once every session is open
    window_end: float = float("inf")
    light_ms: list[float] = field(default_factory=list)  # click -> new chart delta, clicks sent in the window
    browser_ms: list[float] = field(default_factory=list)  # click -> heatmap changed, in the page
    errors: list[str] = field(default_factory=list)
    open_cpu_ms: float = float("nan")  # server CPU per light session opened
    open_seconds: float = float("nan")  # wall time until every light session had its first run
    cpu_seconds: float = 0.0
    machine_busy: float = float("nan")
    server_wait: float = float("nan")  # seconds the server's threads sat runnable but without a CPU, per second
    bench_cpu: float = float("nan")  # this script's own CPU, in cores
    browsers_cpu: float = float("nan")  # Playwright drivers + Chromium started by this script, in cores
    rss_peak_mb: float = 0.0
    wall_seconds: float = 0.0
    per_replica: Counter[str] = field(default_factory=Counter)  # sessions held by each replica (through a proxy)
    proxy_cpu: float = float("nan")  # the proxy's CPU during the window, in cores
    per_page_ms: dict[str, list[float]] = field(default_factory=dict)  # --action pages: the window's, by page

    def in_window(self, moment: float) -> bool:
        return self.window_start <= moment < self.window_end

    def over(self) -> bool:
        return time.perf_counter() >= self.window_end

    @property
    def clicks(self) -> int:
        return len(self.light_ms) + len(self.browser_ms)

    @property
    def cpu_ms_per_click(self) -> float:
        return self.cpu_seconds * 1000 / self.clicks if self.clicks else float("nan")


def percentile(values: list[float], q: float) -> float:
    return latency.percentile(values, q) if values else float("nan")  # one definition for both benches


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all CPUs from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def runqueue_wait_seconds(pid: int) -> float:
    """Seconds all threads of pid have spent runnable but waiting for a CPU (/proc/<pid>/task/*/schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def descendants_cpu_seconds(root: int, exclude: int) -> dict[int, float]:
    """CPU seconds of every live descendant process of root, except the subtree of exclude."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found: dict[int, float] = {}
    for pid in parents:
        node = pid
        while node in parents and node not in (root, exclude, 0, 1):
            node = parents[node]
        if node == root and pid != root:
            with contextlib.suppress(OSError, ValueError):
                found[pid] = harness.process_cpu_seconds(pid)
    return found


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# ---------------------------------------------------------------- what the sessions talk to


@dataclass
class ProxyTarget:
    """A proxy in front of replicas; quacks like harness.Server for this bench (url, cpu, pids, alive)."""

    url: str
    pids: list[int]
    proxy_pid: int | None = None
    owner_pid: int | None = None  # local.sh: its subtree is not "the bench's browsers"

    @property
    def pid(self) -> int:
        return self.owner_pid or (self.pids[0] if self.pids else os.getpid())

    def alive(self) -> bool:
        return all(Path(f"/proc/{pid}").exists() for pid in self.pids)

    def cpu_seconds(self) -> float:
        return sum(harness.process_cpu_seconds(pid) for pid in self.pids)


def server_pids(server) -> list[int]:
    return server.pids if isinstance(server, ProxyTarget) else [server.pid]


def ws_url(server) -> str:
    base = server.url if isinstance(server, ProxyTarget) else f"http://127.0.0.1:{server.port}/"
    return base.replace("http://", "ws://", 1).rstrip("/") + "/_stcore/stream"


def sticky_cookie(url: str, timeout: float) -> str:
    """GET the page as a browser's first request does; the replica cookie the proxy set ("" if none)."""
    with urllib.request.urlopen(url, timeout=timeout) as response:
        response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == local_deploy.COOKIE:
                return rest.split(";")[0]
    return ""


# ---------------------------------------------------------------- a light client


def chart_is_causal(spec: str) -> bool | None:
    """Read the map's first trace: True when every cell above the diagonal is blank (blocked), False when
    none is, None otherwise."""
    z = json.loads(spec)["data"][0]["z"]
    if isinstance(z, dict):  # plotly >= 6: {"dtype", "bdata", "shape"}
        flat = np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"]))
        z = flat.reshape([int(n) for n in str(z["shape"]).split(",")])
    z = np.array([[np.nan if v is None else v for v in row] for row in z], dtype=float)  # (T, T)
    if z.shape[0] < 2:
        return None
    above = np.isnan(z[np.triu_indices(z.shape[0], k=1)])
    return True if above.all() else (False if not above.any() else None)


@dataclass
class Run:
    """What one script run sent back."""

    chart_ms: float | None = None
    causal: bool | None = None
    done_ms: float | None = None  # BackMsg sent -> script_finished
    problems: list[str] = field(default_factory=list)


class LightClient:
    def __init__(self, number: int, server: harness.Server, level: Level, think, args) -> None:
        self.number = number
        self.url = ws_url(server)
        self.page_url = server.url if isinstance(server, ProxyTarget) else None
        self.level, self.think, self.args = level, think, args
        self.rng = random.Random(number)
        self.page_name = getattr(args, "page", "")  # other benches pass their own args: the Lab
        self.query = "" if self.page_name else f"seed={number}"
        self.page_hash = ""
        self.fragment_id = ""
        self.toggle_id = ""
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash, from the navigation message

    async def run(self, start_at: float, opened: asyncio.Queue, go: asyncio.Event) -> None:
        await asyncio.sleep(max(0.0, start_at - time.perf_counter()))
        reported = False
        try:
            headers = {}
            if self.page_url:  # through a proxy: the page first, then the websocket with the cookie it set
                cookie = await asyncio.to_thread(sticky_cookie, self.page_url, self.args.open_timeout)
                if not cookie:
                    self.level.errors.append(f"client {self.number}: the proxy set no {local_deploy.COOKIE} cookie")
                    return
                headers["Cookie"] = f"{local_deploy.COOKIE}={cookie}"
                self.level.per_replica[local_deploy.REPLICAS.get(cookie, cookie)] += 1
            async with websockets.connect(self.url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                          open_timeout=self.args.open_timeout,
                                          additional_headers=headers) as socket:  # fmt: skip
                first = await self.rerun(socket, None, self.args.open_timeout)
                reported = True
                await opened.put(not first.problems)
                # the Lab opens with the mask off; a lesson page in its own default state, which its map must show
                shown = first.causal is not None if self.page_name else first.causal is False
                if first.problems or not shown or not self.toggle_id:
                    self.level.errors.append(f"client {self.number}: first run {first.problems or 'unexpected'}")
                    return
                await go.wait()
                if getattr(self.args, "action", "lab") == "pages":  # other benches pass their own args
                    await self.change_pages_until_over(socket)
                else:
                    await self.click_until_over(socket, first.causal)
        except (OSError, websockets.WebSocketException, TimeoutError) as error:
            self.level.errors.append(f"client {self.number}: connection {type(error).__name__}: {error}")
        finally:
            if not reported:
                await opened.put(False)

    async def click_until_over(self, socket, causal: bool = False) -> None:
        while True:
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.level.over():
                return
            causal = not causal
            sent = time.perf_counter()
            run = await self.rerun(socket, causal, self.args.timeout)
            if run.problems:
                self.level.errors.extend(f"client {self.number}: {p}" for p in run.problems)
                return
            if self.level.in_window(sent):
                self.level.light_ms.append(run.done_ms if self.page_name else run.chart_ms)

    async def change_pages_until_over(self, socket) -> None:
        missing = [name for name in TOUR if name not in self.pages]
        if missing:
            self.level.errors.append(f"client {self.number}: no page {missing[0]!r} in the navigation message")
            return
        step = self.number % len(TOUR)
        while True:
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.level.over():
                return
            name = TOUR[step]
            step = (step + 1) % len(TOUR)
            sent = time.perf_counter()
            problems = await self.visit(socket, self.pages[name], self.args.timeout)
            if problems:
                self.level.errors.extend(f"client {self.number} on {name or 'the Lab'}: {p}" for p in problems)
                return
            if self.level.in_window(sent):
                self.level.light_ms.append((time.perf_counter() - sent) * 1000)
                self.level.per_page_ms.setdefault(name or "Lab", []).append(self.level.light_ms[-1])

    async def visit(self, socket, page_hash: str, timeout: float) -> list[str]:
        """Change to a page as its sidebar link does; read until its run has finished. The problems seen."""
        back = BackMsg()
        back.rerun_script.query_string = ""
        back.rerun_script.page_script_hash = page_hash
        await socket.send(back.SerializeToString())
        run, end = Run(), time.perf_counter() + timeout
        while True:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, end - time.perf_counter()))
            except TimeoutError:
                return [*run.problems, f"no answer within {timeout:.0f} s"]
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "navigation":
                self.learn_pages(message)
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                run.problems.extend(element_problems(message.delta.new_element))
            elif kind == "script_finished":
                status = message.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a page's own st.rerun: its next run follows
                return run.problems if status in SUCCESS else [*run.problems, f"run ended with status {status}"]

    def learn_pages(self, message: ForwardMsg) -> None:
        """The app's pages by address, from a navigation message (--action pages walks them)."""
        self.pages.update({page.url_pathname: page.page_script_hash for page in message.navigation.app_pages})

    async def rerun(self, socket, causal: bool | None, timeout: float) -> Run:
        """Send one rerun (the first run when causal is None) and read until the run has finished."""
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        if causal is None and self.page_name:  # the first run: the page's address, as a browser opening it sends
            state.page_name = self.page_name
        if causal is not None:
            state.fragment_id = self.fragment_id
            state.widget_states.widgets.append(WidgetState(id=self.toggle_id, bool_value=causal))
        run = Run()
        sent = time.perf_counter()
        await socket.send(back.SerializeToString())
        while True:
            left = sent + timeout - time.perf_counter()
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, left))
            except TimeoutError:
                run.problems.append(f"no answer within {timeout:.0f} s")
                return run
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = message.new_session.page_script_hash
            elif kind == "navigation":
                self.learn_pages(message)
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "delta":
                self.read_delta(message, run, sent)
            elif kind == "script_finished":
                run.done_ms = (time.perf_counter() - sent) * 1000
                status = message.script_finished
                if status not in SUCCESS:
                    run.problems.append(f"run ended with status {status}")
                elif run.chart_ms is None:
                    run.problems.append("the run sent no chart")
                elif causal is not None and run.causal is not causal:
                    run.problems.append(f"stale or wrong map: causal={causal}, map shows {run.causal}")
                return run

    def read_delta(self, message: ForwardMsg, run: Run, sent: float) -> None:
        delta = message.delta
        if delta.fragment_id:
            self.fragment_id = delta.fragment_id
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "checkbox" and (element.checkbox.label == TOGGLE_LABEL or TOGGLE_KEY.search(element.checkbox.id)):
            self.toggle_id = element.checkbox.id  # by its label, or in any language by its key (lab.causal, ...)
        elif kind == "plotly_chart" and run.chart_ms is None:
            run.chart_ms = (time.perf_counter() - sent) * 1000
            run.causal = chart_is_causal(element.plotly_chart.spec)
        else:
            run.problems.extend(element_problems(element))


def element_problems(element) -> list[str]:
    """An exception or an error box drawn by a run, as a line each."""
    kind = element.WhichOneof("type")
    if kind == "exception":
        where = " | ".join(line.strip() for line in element.exception.stack_trace[-3:])
        return [f"exception: {element.exception.type}: {element.exception.message[:160]} at {where}"]
    if kind == "alert" and element.alert.format == ERROR_ALERT:
        return [f"error box: {element.alert.body[:200]}"]
    return []


# ---------------------------------------------------------------- a real browser page


class BrowserSession(threading.Thread):
    """One Chromium page in its own thread (sync Playwright is per thread): open, then click every few s."""

    def __init__(self, number: int, server: harness.Server, level: Level, think, args) -> None:
        super().__init__(daemon=True)
        self.number, self.server, self.level, self.think, self.args = number, server, level, think, args
        self.ready = threading.Event()
        self.go = threading.Event()
        self.rng = random.Random(10_000 + number)
        self.step = "launch"

    def run(self) -> None:
        from playwright.sync_api import Error, sync_playwright

        try:
            with sync_playwright() as playwright:
                browser = harness.launch_browser(playwright)
                try:
                    self.session(browser)
                finally:
                    browser.close()
        except (Error, AssertionError) as error:
            self.level.errors.append(f"browser {self.number} ({self.step}): {str(error).splitlines()[0][:160]}")
        finally:
            self.ready.set()

    def session(self, browser) -> None:
        page = harness.new_context(browser).new_page()
        self.step = "open"
        open_ms = int(self.args.open_timeout * 1000)
        harness.open_app(page, self.server, query=f"seed={self.number + 1}", timeout_ms=open_ms)
        for cookie in page.context.cookies():  # through a proxy: the replica this page's session lives on
            if cookie["name"] == local_deploy.COOKIE:
                self.level.per_replica[local_deploy.REPLICAS.get(cookie["value"], cookie["value"])] += 1
        target = harness.toggle(page, TOGGLE_LABEL)
        self.step = "first click"
        self.click(page, target, self.args.open_timeout)  # the first click loads lazy chunks
        self.ready.set()
        self.go.wait()
        while True:
            time.sleep(self.rng.uniform(*self.think))
            if self.level.over():
                break
            self.step = "click"
            sent = time.perf_counter()
            elapsed = self.click(page, target, self.args.timeout)
            if self.level.in_window(sent):
                self.level.browser_ms.append(elapsed)
        harness.assert_no_exception(page)

    @staticmethod
    def click(page, target, timeout: float) -> float:
        """bench/latency.py's in-page timing (click -> first heatmap z changed), with our own timeout."""
        before = page.evaluate(latency._FIRST_HEATMAP_Z)
        page.evaluate(latency._ARM, [before])
        target.click(timeout=timeout * 1000)
        elapsed_ms = page.wait_for_function(latency._CHANGED, timeout=timeout * 1000, polling="raf").json_value()
        harness.wait_for_app(page, timeout_ms=int(timeout * 1000), initial_wait_ms=0)
        return float(elapsed_ms)


# ---------------------------------------------------------------- one level


@contextlib.contextmanager
def tree_at(rev: str | None) -> Iterator[Path]:
    """The working tree (rev None), or a snapshot of `rev` (git archive) in a temporary folder: what every bench
    that compares commits serves from."""
    if rev is None:
        yield REPO_ROOT
        return
    with tempfile.TemporaryDirectory(prefix="attn-bench-tree-") as folder:
        archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", rev], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        yield Path(folder)


@contextlib.contextmanager
def app_tree(which: str, rev: str = "HEAD") -> Iterator[Path]:
    """The folder the server runs in: a snapshot of `rev` (default HEAD) or the live working tree."""
    with tree_at(None if which == "live" else rev) as folder:
        yield folder


@contextlib.contextmanager
def serve(args) -> Iterator:
    """What the sessions talk to for one level: a fresh server, a fresh deploy/local.sh, or a given proxy."""
    if args.proxy == "local":
        local_sh = Path(args.tree_path) / "deploy" / "local.sh"
        with local_deploy.start_local(local_sh=local_sh) as deployment:
            pids = [deployment.replica_pid(n) for n in (1, 2, 3)]
            haproxy_pid = int((deployment.run_dir / "haproxy.pid").read_text())
            yield ProxyTarget(deployment.url, pids, haproxy_pid, deployment.process.pid)
    elif args.proxy:
        yield ProxyTarget(args.proxy.rstrip("/") + "/", list(args.replica_pid))
    else:
        with harness.start_server("app.py", cwd=args.tree_path, extra_args=args.server_arg) as server:
            if args.server_cpus:
                pin_to(server.pid, args.server_cpus)
            yield server


def pin_to(pid: int, cpus: set[int]) -> None:
    """Keep a server on these CPUs: every thread it has so far (the threads and processes it starts later inherit
    it). A thread that ended meanwhile is skipped."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task.name), cpus)


def run_level(sessions: int, args) -> Level:
    browsers = 0 if sessions == 1 else min(args.browsers, sessions)
    level = Level(sessions, browsers)
    think = (0.5, 1.5) if sessions == 1 else tuple(args.think)
    started = time.perf_counter()
    with serve(args) as server:
        pages = [BrowserSession(n, server, level, think, args) for n in range(browsers)]
        for page in pages:
            page.start()
        for page in pages:
            page.ready.wait(timeout=args.open_timeout * 3)
        clients = [LightClient(browsers + n + 1, server, level, think, args) for n in range(sessions - browsers)]
        asyncio.run(drive(clients, pages, server, level, args))
        for page in pages:
            page.join(timeout=args.timeout + think[1] + 10)
        if not server.alive():
            level.errors.append("the server died")
    level.wall_seconds = time.perf_counter() - started
    return level


async def drive(clients: list[LightClient], pages: list[BrowserSession], server, level: Level, args) -> None:
    """Open the light sessions, start every session clicking, measure the window; sample RSS throughout."""
    opened: asyncio.Queue[bool] = asyncio.Queue()
    go = asyncio.Event()
    t0, cpu_open = time.perf_counter(), server.cpu_seconds()
    ramp = min(args.ramp, len(clients) * 0.1)
    tasks = [asyncio.create_task(c.run(t0 + ramp * i / max(1, len(clients)), opened, go))
             for i, c in enumerate(clients)]  # fmt: skip
    sampler = asyncio.create_task(sample_rss(server, level))
    for _ in clients:
        await opened.get()
    level.open_seconds = time.perf_counter() - t0
    if clients:
        level.open_cpu_ms = (server.cpu_seconds() - cpu_open) * 1000 / len(clients)
    level.window_start = time.perf_counter() + args.warmup
    level.window_end = level.window_start + args.window
    go.set()
    for page in pages:
        page.go.set()
    await asyncio.sleep(max(0.0, level.window_start - time.perf_counter()))
    cpu_start, ticks_start, own_start = server.cpu_seconds(), machine_ticks(), harness.process_cpu_seconds(os.getpid())
    wait_start = sum(runqueue_wait_seconds(pid) for pid in server_pids(server))
    browsers_start = descendants_cpu_seconds(os.getpid(), server.pid)
    proxy_pid = getattr(server, "proxy_pid", None)
    proxy_start = harness.process_cpu_seconds(proxy_pid) if proxy_pid else 0.0
    await asyncio.sleep(max(0.0, level.window_end - time.perf_counter()))
    level.cpu_seconds = server.cpu_seconds() - cpu_start
    level.server_wait = (sum(runqueue_wait_seconds(pid) for pid in server_pids(server)) - wait_start) / args.window
    if proxy_pid:
        level.proxy_cpu = (harness.process_cpu_seconds(proxy_pid) - proxy_start) / args.window
    browsers_end = descendants_cpu_seconds(os.getpid(), server.pid)
    spent = sum(browsers_end[p] - browsers_start[p] for p in browsers_end if p in browsers_start)
    level.browsers_cpu = spent / args.window
    level.bench_cpu = (harness.process_cpu_seconds(os.getpid()) - own_start) / args.window
    busy, total = (end - start for end, start in zip(machine_ticks(), ticks_start, strict=True))
    level.machine_busy = busy / total if total else float("nan")
    await asyncio.gather(*tasks)
    sampler.cancel()


async def sample_rss(server, level: Level) -> None:
    while server.alive():
        level.rss_peak_mb = max(level.rss_peak_mb, sum(rss_mb(pid) for pid in server_pids(server)))
        await asyncio.sleep(0.2)


# ---------------------------------------------------------------- report


def fmt(value: float) -> str:
    return "–" if value != value else f"{value:.0f}"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(levels: list[Level], args) -> str:
    rows = [
        "| sessions (browsers) | clicks measured | clicks/s | click → new data, median ms | p95 ms "
        "| in Chromium, median / p95 ms | server CPU per click ms | server CPU per opened session ms "
        "| server RSS peak MB | errors | machine busy | server waiting for a CPU | bench client / its browsers CPU |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for lv in levels:
        browser = f"{fmt(median(lv.browser_ms))} / {fmt(percentile(lv.browser_ms, 95))}" if lv.browser_ms else "–"
        rows.append(
            f"| {lv.sessions} ({lv.browsers}) | {lv.clicks} | {lv.clicks / args.window:.1f} "
            f"| {fmt(median(lv.light_ms))} | {fmt(percentile(lv.light_ms, 95))} | {browser} "
            f"| {fmt(lv.cpu_ms_per_click)} | {fmt(lv.open_cpu_ms)} | {fmt(lv.rss_peak_mb)} | {len(lv.errors)} "
            f"| {fmt(lv.machine_busy * 100)} % | {lv.server_wait:.2f} s/s "
            f"| {fmt(lv.bench_cpu * 100)} % / {fmt(lv.browsers_cpu * 100)} % |"
        )
    return "\n".join(rows)


def verdicts(levels: list[Level]) -> list[str]:
    lines = []
    top = max(levels, key=lambda lv: lv.sessions)
    p95 = percentile(top.light_ms + top.browser_ms, 95)
    lines.append(
        f"- {top.sessions} sessions: p95 {fmt(p95)} ms (target < {TARGET_P95_MS}): "
        f"{'met' if p95 < TARGET_P95_MS else 'MISSED'}; RSS {fmt(top.rss_peak_mb)} MB (target < {TARGET_RSS_MB}): "
        f"{'met' if top.rss_peak_mb < TARGET_RSS_MB else 'MISSED'}; errors {len(top.errors)}: "
        f"{'met' if not top.errors else 'MISSED'}"
    )
    by_n = {lv.sessions: lv for lv in levels}
    if 1 in by_n and 10 in by_n and by_n[1].light_ms and by_n[10].light_ms:
        one, ten = median(by_n[1].light_ms), median(by_n[10].light_ms)
        verdict = "met" if ten <= one * 1.1 + 5 else "MISSED"
        lines.append(f"- 10 sessions against 1: median {ten:.0f} ms vs {one:.0f} ms: {verdict} (10 % + 5 ms allowed)")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="1,10,50,150", help="comma-separated session counts")
    parser.add_argument("--browsers", type=int, default=2, help="real Chromium pages among the sessions (N > 1)")
    parser.add_argument("--window", type=float, default=20.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=6.0, help="unmeasured clicking seconds before the window")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which light clients open the app")
    parser.add_argument("--think", type=float, nargs=2, default=(3.0, 7.0), help="pause between clicks, s")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a click may take before it is an error")
    parser.add_argument("--open-timeout", type=float, default=90.0, help="seconds opening a session may take")
    parser.add_argument("--server-arg", action="append", default=[], help="extra `streamlit run` flag (repeatable)")
    parser.add_argument("--tree", choices=("head", "live"), default="head", help="run the last commit or the work tree")
    parser.add_argument("--nice", type=int, default=0, help="niceness for this script and all it starts (root: < 0)")
    parser.add_argument("--proxy", default="", help="'local' (start deploy/local.sh per level) or a proxy's URL")
    parser.add_argument("--replica-pid", type=int, action="append", default=[], help="with --proxy URL (repeatable)")
    parser.add_argument("--server-cpus", default="", help="pin the server to these CPUs, e.g. 1 (direct mode)")
    parser.add_argument("--action", choices=("lab", "pages"), default="lab",
                        help="what a session does every few seconds: click the Lab's toggle, or change page")
    parser.add_argument("--page", default="", help="with --action lab: flip this lesson page's Causal mask instead")
    args = parser.parse_args(argv)
    args.levels = [int(n) for n in args.sessions.split(",")]
    args.server_cpus = {int(c) for c in args.server_cpus.split(",") if c}
    most = 1000 if args.proxy else 400
    if any(not 1 <= n <= most for n in args.levels) or args.window <= 0 or args.browsers < 0:
        parser.error(f"sessions must be 1..{most} each ({most} through a proxy), --window > 0, --browsers >= 0")
    if (args.action == "pages" or args.page) and args.browsers:
        parser.error("--action pages and --page drive light clients only: add --browsers 0")
    if args.page and args.action != "lab":
        parser.error("--page goes with --action lab")
    if args.server_cpus and (args.proxy or not args.server_cpus < os.sched_getaffinity(0)):
        parser.error("--server-cpus needs direct mode and must leave a CPU for this script")
    return args


def where(args) -> str:
    if args.proxy:
        return f"through the proxy {'deploy/local.sh (3 replicas)' if args.proxy == 'local' else args.proxy}"
    pinned = f", server pinned to CPUs {sorted(args.server_cpus)}" if args.server_cpus else ""
    return f"one server, directly{pinned}"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.browsers and harness.chromium_executable() is None:
        raise SystemExit(f"no Chromium at {harness.CHROMIUM}; use --browsers 0 or apt-get install -y chromium")
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # inherited by the server, Playwright and Chromium
    if args.server_cpus:  # the server gets its CPUs (set when it starts); this script and its browsers the rest
        os.sched_setaffinity(0, os.sched_getaffinity(0) - args.server_cpus)
    flags = " ".join(args.server_arg) or "none"
    pause = f"{args.think[0]:g}-{args.think[1]:g} s"
    commit = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()  # fmt: skip
    tree = f"commit {commit}" if args.tree == "head" else "working tree"
    action = f"{args.action} on {args.page}" if args.page else args.action
    print(f"bench/load.py: {tree}; action {action}; levels {args.levels}; window {args.window:g} s; "
          f"pause {pause}; "
          f"extra server flags: {flags}; niceness {os.getpriority(os.PRIO_PROCESS, 0)}; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f}; {where(args)}", flush=True)  # fmt: skip
    levels = []
    with app_tree(args.tree) as args.tree_path:
        for sessions in args.levels:
            levels.append(run_level(sessions, args))
            level = levels[-1]
            print(f"  N={sessions}: {level.clicks} clicks measured, {len(level.errors)} errors, all open after "
                  f"{level.open_seconds:.1f} s, level took {level.wall_seconds:.0f} s", flush=True)
            if level.per_replica:
                held = ", ".join(f"{name} {count}" for name, count in sorted(level.per_replica.items()))
                print(f"    sessions per replica: {held}; proxy CPU {level.proxy_cpu * 100:.0f} % of a core")
            for error in level.errors[:5]:
                print(f"    error: {error}")
            if level.per_page_ms:
                print("    by page, median / p95 ms: " + "; ".join(
                    f"{name} {fmt(median(ms))} / {fmt(percentile(ms, 95))} ({len(ms)})"
                    for name, ms in level.per_page_ms.items()))
    print()
    print(table(levels, args))
    print()
    print("\n".join(verdicts(levels)))
    print(f"(load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    failed = [level.sessions for level in levels if level.errors]
    if failed:  # a level may miss its latency target (that is what a capacity sweep looks for), never a click
        raise SystemExit(f"errors at {failed} sessions: every click must be answered with the right map")


if __name__ == "__main__":
    main()
