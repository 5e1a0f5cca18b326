"""A class votes through the app: 150 phones vote within 5 s while a real projector page counts and the Lab is used.

    python3 bench/load_poll.py                                  # SQLite (a temp file)
    python3 bench/load_poll.py --url postgresql+psycopg://...   # PostgreSQL (tables in its public schema)
    python3 bench/load_poll.py --url ... --fault restart        # restart the app server mid-round
    python3 bench/load_poll.py --url ... --fault kill-db        # kill the app's database connections mid-round
    python3 bench/load_poll.py --route --lab 0                  # idle phones ask the HTTP stamp route (app.py's)
    python3 bench/load_poll.py --route --server-cpus 1          # a poll round on one core (the bench on the others)

Two modes, both `streamlit run app.py`. The default (timer mode) runs it with ATTN_LAB_STAMP_ROUTE=0 (no route, as
before the app served one): each idle phone reruns its timed watch fragment every 2 s. --route is the app as Community
Cloud and the deployment start it (with the route; a --rev from before runs its serve.py): the phone page has no timed
fragment; a phone's browser keeps one GET /_attn/room/<CODE>/stamp?since=<drawn stamp> open, which the route holds
until the room moves or 20 s pass (attn_ui/views/poll_route.py, a long poll), and presses the phone fragment's
hidden Refresh button only when the answer differs from the stamp it was drawn with.

What is real, what is simulated (loopback only, every count and wait bounded):
- Phones are light clients that speak Streamlit's protocol, as bench/load.py's do (bench/phones.py's Phone): each
  opens `Class_poll?room=CODE&v=<token>` (light clients send no XSRF cookie, so the voter token rides in the URL, as
  for a browser without the cookie), then reruns the phone fragment every 2 s as the frontend's run_every timer does,
  and votes once at its moment (spread evenly over --spread seconds) with the radio's WidgetState. The vote is
  the real callback: poll.vote on the app's engine.
- The projector is one headless Chromium page on the host link, 1280x720, its board fragment polling every
  second. This script reads the page's bars every 50 ms; tap -> projector = the moment the projected total
  first reached k minus the moment of the k-th tap (the vote sent), so the wait for the vote's run counts.
- Route mode (--route): phones are bench/phones.py's RoutePhone, the LecturePhone of bench/load_lecture.py in its route
  mode: the page's hash from the `navigation` message, the drawn stamp and the route's address read from the phone
  fragment's deltas (whatever mark LecturePhone.read parses), one held HTTP/1.1 GET of that address with `?since=` the
  drawn stamp at a time on one kept-alive connection per phone (LecturePhone.route_step, as PHONE_JS loops), and on a
  different stamp the Refresh button's trigger in a run of the phone fragment alone (not again within 6 s for the same
  drawn stamp, as PHONE_JS waits). The vote is the radio's value in a run of the phone fragment, as in timer mode, while
  the phone's GET is held. The idle cost is the server CPU of the idle window per phone per 2 s (what one timer poll
  costs); the same-run baseline is instead (it replaces the empty fragment in route mode) GET /_stcore/health by as many
  clients, each on its own kept-alive connection, every 2 s for --idle seconds: server CPU per request.
  --fault is refused in route mode (the phones' reconnect path is not exercised there); --lab works as in timer mode.
- Phases, in one server run: (1) the baseline: as many sessions on a bench-only page with one empty
  run_every fragment (written into the bench's snapshot of --rev), polling every 2 s for --idle seconds;
  (2) the phones open and join, then poll for --idle seconds while nothing changes in the room; (3) they tap
  their votes over --spread seconds and go on polling for --tail seconds. Printed: server CPU per idle poll
  for (2) and for (1), tap -> "Your vote" confirmation (the tap's run, the phones polling meanwhile), and
  tap -> projector. In route mode (1) is the health baseline and a poll of (2) is a route GET; besides, the route's
  answer times, its failures, and the Refresh runs (none expected: a vote does not move the room's stamp).
  --rev 864e13e runs the app before the cheap phone poll, with its own schema.
- Lab users: --lab light clients from bench/load.py click the Lab's causal toggle every 1 to 2 s meanwhile.
- RSS: peak VmRSS of the server process.
- Votes lost = phones whose run finished without an error minus the votes the database counts.
Faults: `restart` stops the server 1 s into the votes and starts it again on the same port; phones reconnect
and go on (a vote whose socket broke is sent again after reconnecting, as the frontend resends); the projector
page reconnects by itself. `kill-db` ends the server's database connections (pg_terminate_backend) 1 s in; the
pages must show the reconnecting note at most briefly and go on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import websockets
from sqlalchemy import create_engine, text
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phones import (  # noqa: E402  (sets sys.path for the repo, tests/browser and bench)
    PHONE_EVERY_S,
    SERVER_CPUS,
    LectureTally,
    Phone,
    RoutePhone,
    Tally,
    entry,
    harness,
    load,
    percentile,
    rerun_message,
    start,
    stop,
)

MAX_SECONDS = 120  # the whole run, whatever happens
TARGET_ARRIVE_S = 2.0
TARGET_POLL_MS = 5.0
TARGET_CONFIRM_S = 1.0
EMPTY_PAGE = "Bench_empty"  # written into the bench's snapshot only: the same-run baseline of a poll
EMPTY_PAGE_SOURCE = """import streamlit as st


def nothing() -> None:
    pass


st.fragment(nothing, run_every=2.0)()
"""


@dataclass
class Drawn:
    """What one script run (and the runs a callback's st.rerun chained to it) sent back."""

    elements: list = field(default_factory=list)  # (kind, element proto, fragment id) of every new element
    exceptions: list[str] = field(default_factory=list)  # messages of exception elements
    statuses: list[int] = field(default_factory=list)  # script_finished statuses, in order
    timers: dict[str, float] = field(default_factory=dict)  # auto_rerun: fragment id -> interval (run_every)

    def widgets(self) -> dict[str, tuple[str, object, str]]:
        """Widget id -> (kind, element proto, fragment id): every element that has an id."""
        found = {}
        for kind, element, fragment in self.elements:
            widget_id = getattr(element, "id", "")
            if widget_id:
                found[widget_id] = (kind, element, fragment)
        return found

    def texts(self) -> list[str]:
        return [element.body for kind, element, _ in self.elements if kind in ("markdown", "alert")]


class ProtocolSession:
    """One session over Streamlit's own protocol, as bench/load.py's light clients and the phones (bench/phones.py)
    speak it (a websocket to /_stcore/stream, BackMsg up, ForwardMsg down), for any page and any widget values: the
    widget fuzz test (tests/browser/test_fuzz_widgets.py) uses it."""

    def __init__(self, url: str, query: str = "", page_name: str = "") -> None:
        self.url, self.query, self.page_name = url, query, page_name
        self.page_hash = ""
        self.socket = None

    async def __aenter__(self) -> ProtocolSession:
        self.socket = await websockets.connect(self.url, subprotocols=["streamlit"], max_size=None,
                                               ping_interval=None, open_timeout=30)
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.socket.close()

    async def run(self, widget_states=(), fragment_id: str = "", timeout: float = 60) -> Drawn:
        """Send one rerun_script (the widgets' new states, as a click or a typed value sends them) and read
        until a run finishes that was not cut short by a rerun."""
        await self.socket.send(rerun_message(self.query, self.page_hash, self.page_name, widget_states, fragment_id))
        drawn = Drawn()
        deadline = time.perf_counter() + timeout
        while True:
            raw = await asyncio.wait_for(self.socket.recv(), timeout=max(0.1, deadline - time.perf_counter()))
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = message.new_session.page_script_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "auto_rerun":
                drawn.timers[message.auto_rerun.fragment_id] = message.auto_rerun.interval
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                element = message.delta.new_element
                element_kind = element.WhichOneof("type")
                inner = getattr(element, element_kind) if element_kind else None
                drawn.elements.append((element_kind, inner, message.delta.fragment_id))
                if element_kind == "exception":
                    where = " | ".join(line.strip() for line in element.exception.stack_trace[-12:])
                    drawn.exceptions.append(f"{element.exception.type}: {element.exception.message} at {where}")
            elif kind == "script_finished":
                drawn.statuses.append(message.script_finished)
                if message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    return drawn


def projector(port: int, link: str, tally: Tally, expected: int, ready: threading.Event) -> None:
    """A real Chromium page on the host link; records the projected total whenever it changes."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        page = harness.new_context(browser, 1280, 720).new_page()
        page.goto(f"http://127.0.0.1:{port}/{link}", timeout=90_000)
        harness.wait_for_app(page, timeout_ms=90_000, initial_wait_ms=0)
        ready.set()
        last = -1
        while time.perf_counter() < tally.deadline:
            try:
                texts = page.locator('[data-testid="stProgress"]').all_inner_texts()
            except Exception:  # the page is reconnecting after a restart
                texts = []
            total = sum(int(m.group(1)) for t in texts if (m := re.search(r"· (\d+) votes?", t)))
            if texts and total != last:
                tally.projector.append((time.perf_counter(), total))
                last = total
                if total >= expected:
                    break
            page.wait_for_timeout(50)
        browser.close()


def sample_rss(pid_of, tally: Tally) -> None:
    while time.perf_counter() < tally.deadline:
        with contextlib.suppress(OSError, ValueError):  # the server is between a stop and a start
            tally.rss_peak_mb = max(tally.rss_peak_mb, load.rss_mb(pid_of()))
        time.sleep(0.25)


def arrival_seconds(tally: Tally) -> list[float]:
    """For the k-th finished vote: when the projector first showed a total of at least k, minus its moment."""
    finished = sorted(tally.tapped_at)  # from the tap, not from the end of the vote's run
    delays = []
    for k, moment in enumerate(finished, start=1):
        shown = next((at for at, total in tally.projector if total >= k), None)
        if shown is not None:
            delays.append(max(0.0, shown - moment))
    return delays


def serves_route(tree: Path) -> bool:
    """Can this tree serve the route (its serve.py, or app.py through poll_route.served)?"""
    route = tree / "attn_ui" / "views" / "poll_route.py"
    return (tree / "serve.py").is_file() or (route.is_file() and "def served(" in route.read_text())


async def lab_clicks(port: int, clients: int, until: float) -> tuple[list[float], list[str]]:
    level = load.Level(sessions=clients, browsers=0)
    args = SimpleNamespace(open_timeout=60, timeout=30)
    server = SimpleNamespace(port=port)
    lab = [load.LightClient(n, server, level, (1.0, 2.0), args) for n in range(clients)]
    opened: asyncio.Queue = asyncio.Queue()
    go = asyncio.Event()
    level.window_start, level.window_end = time.perf_counter(), until
    go.set()
    await asyncio.gather(*(client.run(time.perf_counter(), opened, go) for client in lab))
    return level.light_ms, level.errors


async def idle_phase(phones: list[Phone], tally: Tally, pid_of, idle: float, ready=None, checks=None,
                     ) -> tuple[float, int]:
    """Open every phone, wait until each is `ready` (timer mode: it has its timer fragment's id), then measure
    `idle` seconds of polls only: server CPU per poll in ms, and the polls (`checks()` counts them; timer mode:
    the timer runs answered in the window). The phones go on running (their own schedule) after it."""
    ready = ready or (lambda phone: bool(phone.timer_id))
    checks = checks or (lambda: tally.polls)
    tasks = [asyncio.create_task(phone.run()) for phone in phones]
    deadline = time.perf_counter() + 90
    while sum(map(ready, phones)) < len(phones) and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    if sum(map(ready, phones)) < len(phones):
        tally.errors.append(f"only {sum(map(ready, phones))} of {len(phones)} phones ready after 90 s")
    await asyncio.sleep(PHONE_EVERY_S + 0.5)  # every phone past its first poll
    cpu, before = harness.process_cpu_seconds(pid_of()), checks()
    tally.idle_window = (time.perf_counter(), time.perf_counter() + idle)
    if hasattr(tally, "lecture_start"):  # route mode's LectureTally: route answer times from here on
        tally.lecture_start = tally.idle_window[0]
    refreshes = len(getattr(tally, "refresh_s", ()))
    await asyncio.sleep(idle)
    if hasattr(tally, "refresh_s"):
        tally.idle_refreshes = len(tally.refresh_s) - refreshes  # Refresh runs in the idle window (none expected)
    spent, done = harness.process_cpu_seconds(pid_of()) - cpu, checks() - before
    tally.phones_tasks = tasks
    return spent * 1000 / max(1, done), done


async def baseline(port: int, args, pid_of) -> float:
    """The same number of sessions on a page with one empty run_every fragment (bench-only page): its per-poll CPU."""
    tally = Tally(deadline=time.perf_counter() + MAX_SECONDS)
    until = time.perf_counter() + 90 + PHONE_EVERY_S + args.idle + 1
    clients = [Phone(n, port, "", float("inf"), until, 0, tally, page=EMPTY_PAGE, query=f"n={n}")
               for n in range(args.students)]
    per_poll, _ = await idle_phase(clients, tally, pid_of, args.idle)
    for phone in clients:
        phone.until = 0.0  # stop after their current sleep
    await asyncio.gather(*tally.phones_tasks)
    return per_poll


# --- route mode (the stamp route) ---------------------------------------------------------------------------------


async def http_get(port: int, path: str, connection) -> tuple[str, bytes, object]:
    """One HTTP/1.1 GET on a kept-alive connection ((reader, writer), opened when None), as a browser's fetch:
    (status, body, the connection to use next, None when the server closed it)."""
    if connection is None:
        connection = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout=10)
    reader, writer = connection
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: */*\r\n"
                 f"Connection: keep-alive\r\n\r\n".encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", "0"))), timeout=30)
    if headers.get("connection", "").lower() == "close":
        writer.close()
        connection = None
    parts = lines[0].split(" ")
    return (parts[1] if len(parts) > 1 else "?"), body, connection


async def health_baseline(port: int, clients: int, idle: float, pid_of) -> tuple[float, int, list[str]]:
    """Route mode's same-run baseline: `clients` clients, each on its own kept-alive connection, GET
    /_stcore/health every PHONE_EVERY_S (spread at random, as the phones), measured for `idle` seconds after every
    client's first request: server CPU per request in ms, the requests answered in the window, and failures."""
    answered, failures = [0], []
    end = [float("inf")]

    async def client(number: int) -> None:
        rng = random.Random(number)
        connection = None
        await asyncio.sleep(rng.uniform(0, PHONE_EVERY_S))
        next_get = time.perf_counter()
        while time.perf_counter() < end[0]:
            try:
                status, body, connection = await http_get(port, "/_stcore/health", connection)
                if status == "200" and body.strip() == b"ok":
                    answered[0] += 1
                else:
                    failures.append(f"health client {number}: {status} {body[:60]!r}")
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as error:
                if connection is not None:
                    connection[1].close()
                connection = None
                failures.append(f"health client {number}: {type(error).__name__}: {str(error)[:80]}")
            next_get = max(next_get + PHONE_EVERY_S, time.perf_counter())
            await asyncio.sleep(max(0.0, min(next_get, end[0]) - time.perf_counter()))
        if connection is not None:
            connection[1].close()

    tasks = [asyncio.create_task(client(n)) for n in range(clients)]
    await asyncio.sleep(2 * PHONE_EVERY_S + 0.5)  # every client past its first request
    cpu, before = harness.process_cpu_seconds(pid_of()), answered[0]
    await asyncio.sleep(idle)
    spent, done = harness.process_cpu_seconds(pid_of()) - cpu, answered[0] - before
    end[0] = time.perf_counter()
    await asyncio.gather(*tasks)
    return spent * 1000 / max(1, done), done, failures


async def drive(port: int, code: str, args, tally: Tally, fault, pid_of, phone_class=Phone, ready=None, checks=None,
                ) -> tuple[list[float], list[str], tuple[float, int]]:
    rng = random.Random(7)
    phones = [phone_class(n, port, code, float("inf"), float("inf"), rng.randrange(3), tally)
              for n in range(args.students)]
    for phone in phones:
        phone.vote_at = float("nan")  # set below, once the idle window is over (nan: not yet)
    per_poll = await idle_phase(phones, tally, pid_of, args.idle, ready, checks)
    begin = time.perf_counter() + 0.5
    for n, phone in enumerate(phones):
        phone.vote_at = begin + args.spread * n / args.students
        phone.until = begin + args.spread + args.tail
    lab_until = begin + args.spread + args.tail
    faults = asyncio.get_running_loop().run_in_executor(None, fault, begin + 1.0)
    lab = await lab_clicks(port, args.lab, lab_until)
    await asyncio.gather(*tally.phones_tasks)
    await faults
    return lab[0], lab[1], per_poll


ROOM_SCRIPT = """import json
from attn_poll import Poll, open_store
poll = Poll(open_store())
room = poll.create_room([("causal-why", 3)])
poll.next_question(room.code, room.host_secret)
print(json.dumps({"code": room.code, "host_secret": room.host_secret}))
"""
COUNT_SCRIPT = """from attn_poll import Poll, open_store
print(sum(Poll(open_store()).counts("CODE").rounds[0]))
"""


def in_tree(tree: Path, url: str, source: str) -> str:
    """Run a few lines with the server tree's own attn_poll (its schema version may differ from this one's)."""
    done = subprocess.run([sys.executable, "-c", source], cwd=tree, env={**os.environ, "ATTN_LAB_DATABASE_URL": url},
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def progress(began: float, what: str) -> None:
    """A phase's start on stderr, so a run cut short still tells how far it got."""
    print(f"[{time.perf_counter() - began:5.1f} s] {what}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="", help="database URL (default: SQLite in a temp folder)")
    parser.add_argument("--students", type=int, default=150)
    parser.add_argument("--spread", type=float, default=5.0)
    parser.add_argument("--lab", type=int, default=10, help="Lab light clients clicking meanwhile")
    parser.add_argument("--fault", choices=("none", "restart", "kill-db"), default="none")
    parser.add_argument("--idle", type=float, default=10.0, help="measured seconds of idle polls, each phase")
    parser.add_argument("--tail", type=float, default=6.0, help="seconds phones go on polling after the votes")
    parser.add_argument("--rev", default="HEAD", help="the commit the server runs (a snapshot, plus the empty page)")
    parser.add_argument("--route", action="store_true",
                        help="the app with its route: idle phones GET the stamp route instead of rerunning the watch "
                             "fragment; baseline GET /_stcore/health (default: timer mode, ATTN_LAB_STAMP_ROUTE=0)")
    parser.add_argument("--server-cpus", default="",
                        help="keep the server on these CPUs (e.g. 1) and this script and its browser on the others")
    args = parser.parse_args()
    SERVER_CPUS.update(int(c) for c in args.server_cpus.split(",") if c)
    if SERVER_CPUS:
        if not os.sched_getaffinity(0) > SERVER_CPUS:
            parser.error("--server-cpus must name CPUs this machine has and leave one for this script")
        os.sched_setaffinity(0, os.sched_getaffinity(0) - SERVER_CPUS)
    if args.route and args.fault != "none":
        parser.error("--fault is not supported with --route: the route phones' reconnect and resend path is not "
                     "exercised by this bench; run the fault in timer mode (without --route)")
    args.students = min(args.students, 300)  # a room's cap; the bench stays bounded
    began = time.perf_counter()
    temp = tempfile.TemporaryDirectory()
    url = args.url or f"sqlite:///{Path(temp.name) / 'poll.sqlite3'}"
    env = {**os.environ, "ATTN_LAB_DATABASE_URL": url}
    tree_context = load.app_tree("head", args.rev)
    tree = tree_context.__enter__()
    if args.route and not serves_route(tree):
        tree_context.__exit__(None, None, None)
        raise SystemExit(f"--route needs the stamp route, which commit {args.rev} does not have")
    room = SimpleNamespace(**json.loads(in_tree(tree, url, ROOM_SCRIPT)))  # the tree's own attn_poll and schema
    port = harness.free_port()
    progress(began, "room opened; starting the server")
    if not args.route:
        (tree / "pages" / f"99_{EMPTY_PAGE}.py").write_text(EMPTY_PAGE_SOURCE)
    script, extra = entry(tree, args.route)
    server = {"process": start(port, {**env, **extra}, tree, script)}
    pid_of = lambda: server["process"].pid  # noqa: E731
    if args.route:
        tally = LectureTally(deadline=time.perf_counter() + MAX_SECONDS)
    else:
        tally = Tally(deadline=time.perf_counter() + MAX_SECONDS)
    ready = threading.Event()
    watcher = threading.Thread(target=projector, daemon=True,
                               args=(port, f"Class_poll?room={room.code}&host={room.host_secret}", tally,
                                     args.students, ready))
    watcher.start()
    progress(began, "server up; loading the projector page")
    if not ready.wait(120):
        raise SystemExit("the projector page did not load")
    threading.Thread(target=sample_rss, args=(lambda: server["process"].pid, tally), daemon=True).start()

    def fault(at: float) -> None:
        time.sleep(max(0.0, at - time.perf_counter()))
        if args.fault == "restart":
            stop(server["process"])
            server["process"] = start(port, env, tree)
        elif args.fault == "kill-db":
            admin = create_engine(url)
            with admin.begin() as connection:
                killed = connection.execute(text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = 'attn-lab-poll' AND pid <> pg_backend_pid()")).scalar_one()
            admin.dispose()
            print(f"killed {killed} database connections of the app")

    started = time.perf_counter()
    progress(began, "projector up; the baseline")
    base_failures = []
    if args.route:
        empty_ms, base_count, base_failures = asyncio.run(health_baseline(port, args.students, args.idle, pid_of))
        lab_ms, lab_errors, (poll_ms, checks) = asyncio.run(drive(
            port, room.code, args, tally, fault, pid_of, RoutePhone, RoutePhone.ready, lambda: tally.route_all))
    else:
        empty_ms = asyncio.run(baseline(port, args, pid_of))
        lab_ms, lab_errors, (poll_ms, checks) = asyncio.run(drive(port, room.code, args, tally, fault, pid_of))
    progress(began, f"phones done: {tally.votes_ok} votes finished, {len(tally.confirm_s)} confirmed, projector "
                    f"totals {[total for _, total in tally.projector][-3:]}, {len(tally.errors)} errors "
                    f"{tally.errors[:3]}; waiting for the projector, counting")
    watcher.join(timeout=30)
    counted = int(in_tree(tree, url, COUNT_SCRIPT.replace("CODE", room.code)))
    stop(server["process"])
    tree_context.__exit__(None, None, None)
    delays = arrival_seconds(tally)
    lost = tally.votes_ok - counted
    backend = url.split(":", 1)[0]
    mode = "route (app.py)" if args.route else "timer (app.py, ATTN_LAB_STAMP_ROUTE=0)"
    print(f"backend {backend} · {mode} · fault {args.fault} · {args.students} phones over {args.spread:.0f} s · "
          f"{args.lab} Lab clients · {time.perf_counter() - started:.0f} s · load average {os.getloadavg()[0]:.1f}")
    pinned = f" · server on CPUs {sorted(SERVER_CPUS)}" if SERVER_CPUS else ""
    print(f"commit {args.rev} · idle window {args.idle:.0f} s per phase{pinned}")
    if args.route:
        # The route holds a GET until the room moves (poll_route.HOLD_S): an idle phone asks once per hold, not once
        # every 2 s, so its cost is stated per phone per PHONE_EVERY_S, the timer's period (one poll's worth).
        per_phone = poll_ms * max(1, checks) / max(1e-9, args.students * args.idle / PHONE_EVERY_S)  # = the CPU spent
        print(f"idle phone, server CPU: {per_phone:.2f} ms per phone per {PHONE_EVERY_S:.0f} s ({checks} held route "
              f"GETs in {args.idle:.0f} s, {poll_ms:.2f} ms each), GET /_stcore/health {empty_ms:.2f} ms per request "
              f"({base_count} requests, {args.students} clients every {PHONE_EVERY_S:.0f} s; the same-run baseline, "
              f"replacing the empty fragment in route mode), ratio "
              f"{per_phone / empty_ms if empty_ms else float('nan'):.2f} (target phone <= {TARGET_POLL_MS} ms)")
        ms = [x * 1000 for x in tally.route_s]
        print(f"route GET answer (idle window on): p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms "
              f"over {len(ms)}; {tally.route_all} in the whole run; not 200 or failed {len(tally.route_failed)}"
              + "".join(f"\n  {f}" for f in tally.route_failed[:4]))
        print(f"Refresh runs: {len(tally.refresh_s)} in the whole run, {getattr(tally, 'idle_refreshes', 0)} in the "
              f"idle window (none expected); data-url seen {dict(tally.stamp_urls.most_common(2))}; health "
              f"baseline failures {len(base_failures)}" + "".join(f"\n  {f}" for f in base_failures[:4]))
    else:
        print(f"idle poll, server CPU: phone {poll_ms:.1f} ms per poll ({checks} polls), empty fragment "
              f"{empty_ms:.1f} ms per poll (same run), ratio {poll_ms / empty_ms:.2f} (target phone <= "
              f"{TARGET_POLL_MS} ms)")
    print(f"tap -> 'Your vote' confirmation: p50 {percentile(tally.confirm_s, 50):.2f} s, p95 "
          f"{percentile(tally.confirm_s, 95):.2f} s over {len(tally.confirm_s)} taps, phones "
          f"{'checking the route' if args.route else 'polling'} "
          f"(target p95 <= {TARGET_CONFIRM_S} s)")
    print(f"votes finished {tally.votes_ok}, counted {counted}, lost {lost}")
    print(f"tap -> projector: p50 {percentile(delays, 50):.2f} s, p95 {percentile(delays, 95):.2f} s, "
          f"max {max(delays, default=float('nan')):.2f} s over {len(delays)} votes (target p95 <= {TARGET_ARRIVE_S} s)")
    print(f"Lab clicks: p50 {percentile(lab_ms, 50):.0f} ms, p95 {percentile(lab_ms, 95):.0f} ms over {len(lab_ms)} "
          f"clicks (target p95 <= {load.TARGET_P95_MS} ms)")
    print(f"server RSS peak {tally.rss_peak_mb:.0f} MB (target < {load.TARGET_RSS_MB} MB)")
    print(f"reconnecting notes seen by phones: {tally.reconnecting_notes}")
    problems = tally.errors + lab_errors
    print(f"errors: {len(problems)}" + "".join(f"\n  {p}" for p in problems[:10]))
    print(f"projector totals seen: {[total for _, total in tally.projector][-5:]}, final {counted}")


if __name__ == "__main__":
    main()
