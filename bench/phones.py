"""The light phone clients of the poll and lecture benches, and what both benches share to run them.

These phones are Streamlit sessions: the app's phone as it was until the phone's own page (attn_phone, `/j/CODE`;
bench/phone_load.py drives that one). The app now sends a student's Class_poll address to the phone's page, so these
benches measure a checkout from before it (their tree or `--against` option), as the baseline of phone_load.py.

bench/load_poll.py (a class poll round) and bench/load_lecture.py (a lecture of live scenes) both drive their
phones from here, so that neither imports the other:
- Phone and Tally: one student's phone over Streamlit's own protocol (a websocket to /_stcore/stream, BackMsg up,
  ForwardMsg down, as bench/load.py's light clients speak it): it reruns the phone page's timed watch fragment every
  PHONE_EVERY_S, as the frontend's run_every timer does, and votes once at its moment with the radio's WidgetState.
- LecturePhone, LectureTally and Answer: Phone on a lecture room (bench/load_lecture.py): it answers every scene once,
  at a random moment after the scene's question appeared on it, and, in route mode, checks the room as the phone
  page's browser does (PHONE_JS): one held GET of the HTTP stamp route at a time (its address and the drawn stamp read
  from the poll-stamp mark, STAMP_TEXT), and on a different stamp the hidden Refresh button's trigger.
- RoutePhone: LecturePhone on a class poll room (bench/load_poll.py --route): it checks the route as LecturePhone does
  and votes as Phone does.
- The app server: entry (the script and environment for a mode), start (its output dropped; kept on SERVER_CPUS when
  set), serve (its output kept in a log) and stop; percentile.
Importing this module puts the repository, tests/browser and bench on sys.path.
"""

from __future__ import annotations

import asyncio
import collections
import json
import math
import os
import random
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402
import load  # noqa: E402  (the Lab's light client)

ASK_CARD_AFTER_MS = 200  # the Streamlit phone's script (attn_ui/views/poll_phone.py until the phone's own page)

if TYPE_CHECKING:
    from attn_ui.words import live

SUCCESS = load.SUCCESS
PHONE_EVERY_S = 2.0


def rerun_message(query: str, page_hash: str, page_name: str, widget_states=(), fragment_id: str = "",
                  auto: bool = False) -> bytes:
    """Streamlit's rerun_script BackMsg, as its frontend sends it: a page's run (or a fragment's, with fragment_id;
    `auto` as its timer sends it) with these widgets' new states, e.g. a click's trigger or a typed value."""
    back = BackMsg()
    state = back.rerun_script
    state.query_string = query
    state.page_script_hash = page_hash
    state.page_name = page_name
    if fragment_id:
        state.fragment_id = fragment_id
        state.is_auto_rerun = auto
    state.widget_states.widgets.extend(widget_states)
    return back.SerializeToString()


@dataclass
class Tally:
    tapped_at: list[float] = field(default_factory=list)  # perf_counter when a vote was sent (the tap)
    confirm_s: list[float] = field(default_factory=list)  # tap -> the run that shows "Your vote" finished
    votes_ok: int = 0
    polls: int = 0  # idle polls answered (timer fragment runs) in the measured idle window
    errors: list[str] = field(default_factory=list)
    reconnecting_notes: int = 0
    projector: list[tuple[float, int]] = field(default_factory=list)  # (moment, total on the projector)
    rss_peak_mb: float = 0.0
    deadline: float = 0.0
    idle_window: tuple[float, float] = (float("inf"), float("inf"))  # only polls, nothing changes in the room
    phones_tasks: list = field(default_factory=list)


class Phone:
    """One student's phone over Streamlit's protocol: polls its timer fragment every 2 s (as the frontend's
    run_every timer does: fragment id from the auto_rerun message, is_auto_rerun), taps its vote at its moment
    (the radio's WidgetState, sent with the radio's own fragment), and goes on polling until --until."""

    def __init__(self, number: int, port: int, code: str, vote_at: float, until: float, option: int, tally: Tally,
                 page: str = "Class_poll", query: str = "") -> None:
        self.number, self.port, self.tally = number, port, tally
        self.query = query or f"room={code}&v={secrets.token_urlsafe(18)}"
        self.page = page
        self.vote_at, self.until, self.option = vote_at, until, option
        self.page_hash = ""
        self.fragment_id = ""  # the radio's fragment
        self.timer_id = ""  # the fragment the page asked to rerun every PHONE_EVERY_S
        self.radio_id = ""
        self.radio_options: list[str] = []
        self.confirmed = False

    async def run(self) -> None:
        voted = self.vote_at == float("inf")
        rng = random.Random(self.number)
        while time.perf_counter() < min(self.tally.deadline, self.until):
            try:
                async with websockets.connect(f"ws://127.0.0.1:{self.port}/_stcore/stream", subprotocols=["streamlit"],
                                              max_size=None, ping_interval=None, open_timeout=10) as socket:
                    await self.rerun(socket, None)
                    await asyncio.sleep(rng.uniform(0, PHONE_EVERY_S))  # phones do not poll in step
                    next_poll = time.perf_counter()
                    while time.perf_counter() < min(self.tally.deadline, self.until):
                        now = time.perf_counter()
                        if not voted and now >= self.vote_at:
                            await self.tap(self.rerun(socket, self.option))
                            voted = True
                            continue
                        if now >= next_poll:
                            await self.rerun(socket, None, timer=True)
                            if self.tally.idle_window[0] <= now < self.tally.idle_window[1]:
                                self.tally.polls += 1
                            next_poll += PHONE_EVERY_S
                        wake = next_poll if voted else min(next_poll, self.vote_at)
                        await asyncio.sleep(max(0.0, min(wake, self.until) - time.perf_counter()))
            except (OSError, websockets.WebSocketException, TimeoutError):
                await asyncio.sleep(0.5)  # the server is restarting: reconnect, as the frontend does
        if not voted:
            self.tally.errors.append(f"phone {self.number}: never voted")

    async def tap(self, run: Awaitable[None]) -> None:
        """The vote at its moment: the tap's time, its run (`run`, not started yet), and whether it said 'Your vote'."""
        self.confirmed = False
        sent = time.perf_counter()
        self.tally.tapped_at.append(sent)
        await run
        self.tally.votes_ok += 1
        if self.confirmed:
            self.tally.confirm_s.append(time.perf_counter() - sent)
        else:
            self.tally.errors.append(f"phone {self.number}: the vote's run showed no 'Your vote'")

    async def rerun(self, socket, option: int | None, timer: bool = False) -> None:
        if option is not None:
            await self.send(socket, [WidgetState(id=self.radio_id, string_value=self.radio_options[option])],
                            self.fragment_id)
        else:
            await self.send(socket, [], self.timer_id if timer else "", auto=timer)

    async def send(self, socket, widget_states: list[WidgetState], fragment_id: str, auto: bool = False) -> None:
        """One run (of a fragment, when fragment_id) with these widget states, e.g. a form's values and its submit
        trigger, read until a run finishes that was not cut short by a rerun.

        The page's hash is the `navigation` message's: in Streamlit 1.67 new_session carries the main script's hash
        (app.py) for a pages/ app, and a fragment's st.rerun(scope="app") reruns the page whose hash the fragment's
        run was sent with, so new_session's hash made such a rerun draw the Lab instead of the Class poll (the
        browser sends the navigation's hash). new_session's is kept only until a navigation arrives."""
        await socket.send(rerun_message(self.query, self.page_hash, self.page, widget_states, fragment_id, auto))
        while True:
            message = ForwardMsg()
            message.ParseFromString(await asyncio.wait_for(socket.recv(), timeout=30))
            kind = message.WhichOneof("type")
            if kind == "new_session" and not self.page_hash:
                self.page_hash = message.new_session.page_script_hash
            elif kind == "navigation":
                self.page_hash = message.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string or self.query
            elif kind == "auto_rerun":
                self.timer_id = message.auto_rerun.fragment_id
            elif kind == "delta":
                self.read(message)
            elif kind == "script_finished":
                if message.script_finished not in SUCCESS and message.script_finished != \
                        ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    raise OSError(f"run ended with status {message.script_finished}")
                if message.script_finished in SUCCESS:
                    return

    def read(self, message: ForwardMsg) -> None:
        delta = message.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "radio":
            self.radio_id, self.radio_options = element.radio.id, list(element.radio.options)
            self.fragment_id = delta.fragment_id
        elif kind == "markdown" and element.markdown.body.startswith("Your vote: **"):
            self.confirmed = True
        elif kind == "alert" and "reconnecting" in element.alert.body:
            self.tally.reconnecting_notes += 1
        elif kind == "alert" and element.alert.format == load.ERROR_ALERT:
            self.tally.errors.append(f"phone {self.number}: {element.alert.body[:120]}")
        elif kind == "exception":
            self.tally.errors.append(f"phone {self.number}: exception {element.exception.message[:120]}")



def percentile(values: list[float], q: float) -> float:
    return load.percentile(values, q) if values else float("nan")


# --- the app server -------------------------------------------------------------------------------------------------


SERVER_CPUS: set[int] = set()  # --server-cpus: the CPUs the server is kept on (empty: all)


def entry(tree: Path, route: bool) -> tuple[str, dict[str, str]]:
    """The script to run for a mode, and what it adds to the environment: app.py serves the route itself unless
    ATTN_LAB_STAMP_ROUTE=0 (attn_ui/views/poll_route.served); a tree from before that served it from serve.py."""
    if not route:
        return "app.py", {"ATTN_LAB_STAMP_ROUTE": "0"}
    return ("serve.py" if (tree / "serve.py").is_file() else "app.py"), {}


def start(port: int, env: dict, tree: Path = REPO_ROOT, script: str = "app.py") -> subprocess.Popen:
    args = [sys.executable, "-m", "streamlit", "run", str(tree / script), "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
    process = subprocess.Popen(args, cwd=tree, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not harness.healthy(port):
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("the app server did not start")
        time.sleep(0.1)
    if SERVER_CPUS:
        load.pin_to(process.pid, SERVER_CPUS)
    return process


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


def serve(port: int, log_path: Path, script: str, tree: Path = REPO_ROOT, extra: dict[str, str] | None = None
          ) -> subprocess.Popen:
    """start's server (of `script` in `tree`, `extra` added to its environment), its output kept in a log (start
    drops it). A tree other than this one runs with its own modules only (no PYTHONPATH)."""
    args = [sys.executable, "-m", "streamlit", "run", str(tree / script), "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
    env = {key: value for key, value in os.environ.items() if tree == REPO_ROOT or key != "PYTHONPATH"}
    env.update(extra or {})
    with log_path.open("wb") as log:
        process = subprocess.Popen(args, cwd=tree, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not harness.healthy(port):
        if time.monotonic() > deadline or process.poll() is not None:
            stop(process)
            raise RuntimeError(f"the app server did not start; log tail:\n{log_path.read_text()[-2000:]}")
        time.sleep(0.1)
    return process


# --- a lecture's phone (bench/load_lecture.py) ----------------------------------------------------------------------

ANSWER_ID = re.compile(r"-live\.answer\.(\d+)\.(\d+)$")  # a phone's number box or radio: key live.answer.<q>.<r>
FORM_ID = re.compile(r"live-form-(\d+)-(\d+)$")
ALERT_ERROR, ALERT_WARNING = 1, 2  # Alert.Format
STAMP_TEXT = re.compile(r"^`([^`]*)` `([^`]*/_attn/room/[^`]*/stamp)`(?: `[^`]*`)?$")  # poll_phone._mark: stamp,
# then the route's address, then the voter's own stamp


@dataclass
class Answer:
    phone: int
    scene: int  # question index, from 0
    option: int
    sent: float  # perf_counter when the answer's rerun was sent
    run_s: float = math.nan  # sent -> its run finished
    finished: bool = False  # its run finished (a SUCCESS status)
    confirmed: bool = False  # the run drew "Sent: **...**"
    refused: str = ""  # a note or error the run showed (the vote was not counted, and the phone said so)


@dataclass
class LectureTally(Tally):
    lecture_start: float = math.inf
    changed_at: dict[int, float] = field(default_factory=dict)  # scene -> start of its show_scene call
    show_s: list[float] = field(default_factory=list)  # show_scene call durations (moves and reveals)
    seen: dict[tuple[int, int], float] = field(default_factory=dict)  # (phone, scene) -> question first received
    told: dict[tuple[int, int], float] = field(default_factory=dict)  # (phone, scene) -> the route's answer carried it
    boxed: dict[tuple[int, int], float] = field(default_factory=dict)  # (phone, scene) -> its answer box drawn
    answers: list[Answer] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # a scene a phone could not answer, and why
    idle_poll_s: list[float] = field(default_factory=list)  # a timer poll that drew nothing: its round trip
    drawing_poll_s: list[float] = field(default_factory=list)  # a timer poll that drew the page again
    counts: dict[int, list[tuple[float, tuple[int, ...]]]] = field(default_factory=dict)  # scene -> count changes
    current: int = 0  # the scene on screen (the counter reads it)
    reconnects: int = 0
    route_s: list[float] = field(default_factory=list)  # route mode, over the lecture: each GET's answer time
    held_s: list[float] = field(default_factory=list)  # of those, the GETs the route held (answered at once: no)
    route_all: int = 0  # route GETs over the whole run (joins included)
    route_failed: list[str] = field(default_factory=list)  # a GET that did not answer 200 (status and body)
    refresh_s: list[float] = field(default_factory=list)  # a Refresh run: sent -> finished
    refresh_drew: int = 0  # Refresh runs that drew a new question (the scene moved)
    stamp_urls: collections.Counter = field(default_factory=collections.Counter)  # data-url values seen
    projected: dict[int, list[tuple[float, int]]] = field(default_factory=dict)  # --projector: scene -> readings
    repeated: list[str] = field(default_factory=list)  # --projector: presses the host page did not take at first


class LecturePhone(Phone):
    """Phone on a lecture room: it polls as Phone does (Phone.rerun with the timer fragment), or in route mode checks
    the stamp route as PHONE_JS does (route_step), and besides answers every scene once, at its random moment after
    the scene's question appeared on it."""

    def __init__(self, number: int, port: int, code: str, tally: LectureTally, questions: list[live.Live],
                 answer_within: float, start_at: float, seed: int, route: bool = True) -> None:
        super().__init__(number, port, code, math.inf, math.inf, 0, tally)
        self.code, self.route = code, route
        self.drawn_stamp: str | None = None  # route mode: data-stamp of the last #attn-stamp element drawn
        self.stamp_path = ""  # its data-url
        self.refresh_id = ""  # the hidden Refresh button's widget id
        self.refresh_fragment = ""  # and its fragment (the phone fragment)
        self.asked_for: str | None = None  # PHONE_JS's askedFor / askedAt
        self.asked_at = -math.inf
        self.held: asyncio.Future | None = None  # the GET in flight with the drawn stamp (PHONE_JS's fetch)
        self.held_at = 0.0
        self.next_ask = 0.0  # PHONE_JS's pause: the moment of the next GET
        self.questions = questions
        self.asks = {question.ask: index for index, question in enumerate(questions)}
        self.answer_within, self.start_at = answer_within, start_at
        self.rng = random.Random(seed * 100_003 + number)
        # scene -> (element kind, widget id, fragment id, disabled, a radio's options)
        self.widgets: dict[int, tuple[str, str, str, bool, list[str]]] = {}
        self.submits: dict[int, str] = {}  # q -> its form's Send button id
        self.answered: set[int] = set()
        self.pending: tuple[int, float] | None = None  # (scene, moment to answer)
        self.latest = -1  # the scene whose question this phone drew last
        self.drew = 0  # elements received (a poll that drew the page)
        self.alerts: list[str] = []  # error and warning notes received in the current run

    # --- what comes down -----------------------------------------------------------------------------------------

    def read(self, message: ForwardMsg) -> None:
        super().read(message)  # the radio's id and fragment, error alerts, exceptions, reconnecting notes
        delta = message.delta
        if delta.WhichOneof("type") != "new_element":
            return
        now = time.perf_counter()
        self.drew += 1
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "markdown":
            body = element.markdown.body
            asked = body.rpartition("\n\n")[2]  # live_phone.phone_scene: the scene's heading, then its question
            if asked in self.asks:
                self.saw(self.asks[asked], now)
            elif body.startswith("Sent: **"):
                self.confirmed = True
            elif STAMP_TEXT.match(body):  # poll_phone._mark: the stamp drawn, then the route's address
                found = STAMP_TEXT.match(body)
                self.drawn_stamp, self.stamp_path = found[1], found[2]
                self.tally.stamp_urls[self.stamp_path] += 1
        elif kind in ("text_input", "radio"):  # a number is typed into a text box (either decimal sign)
            inner = getattr(element, kind)
            found = ANSWER_ID.search(inner.id)
            if found and int(found[1]) < len(self.questions):
                scene = int(found[1])
                self.saw(scene, now)
                self.tally.boxed.setdefault((self.number, scene), now)
                options = list(inner.options) if kind == "radio" else []
                self.widgets[scene] = (kind, inner.id, delta.fragment_id, inner.disabled, options)
        elif kind == "button" and element.button.is_form_submitter:
            found = FORM_ID.search(element.button.form_id)
            if found:
                self.submits[int(found[1])] = element.button.id
        elif kind == "button" and element.button.id.endswith("-poll.refresh"):
            self.refresh_id, self.refresh_fragment = element.button.id, delta.fragment_id
        elif kind == "alert" and element.alert.format in (ALERT_ERROR, ALERT_WARNING):
            self.alerts.append(element.alert.body)

    def saw(self, scene: int, now: float) -> None:
        key = (self.number, scene)
        self.tally.seen[key] = min(self.tally.seen.get(key, math.inf), now)  # a card may have shown it first (heard)
        self.latest = scene

    # --- what goes up ------------------------------------------------------------------------------------------

    # --- route mode: the browser's check (PHONE_JS) ------------------------------------------------------------------

    http: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    def close_http(self) -> None:
        if self.held is not None:
            self.held.cancel()
            self.held = None
        self.close_connection()

    def close_connection(self) -> None:
        """The kept-alive connection only: the held GET itself calls this when the server closes it."""
        if self.http is not None:
            self.http[1].close()
            self.http = None

    async def get_stamp(self, since: str | None = None) -> str:
        """One GET of the route on this phone's kept-alive connection (opened again when the server closed it),
        held by the route while the room's stamp is `since`: the stamp, or "error <status>" as PHONE_JS writes a
        failed answer."""
        path = self.stamp_path or f"/_attn/room/{self.code}/stamp"
        if since is not None:  # and the page's language, as PHONE_JS sends the document's
            path += "?since=" + urllib.parse.quote(since, safe="") + "&lang=en"
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAccept: */*\r\n"
                   f"Cache-Control: no-store\r\nConnection: keep-alive\r\n\r\n").encode()
        for attempt in range(2):
            if self.http is None:
                self.http = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.port), timeout=10)
            reader, writer = self.http
            asked = time.perf_counter()
            try:
                writer.write(request)
                await writer.drain()
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
            except (OSError, asyncio.IncompleteReadError):
                self.close_connection()  # the server closed the idle connection: a browser opens another one
                if attempt:
                    raise
                continue
            lines = head.decode("latin-1").split("\r\n")
            headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
            if "content-length" not in headers:
                raise OSError(f"route answer without Content-Length: {lines[0]} {headers}")
            body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), timeout=30)
            took = time.perf_counter() - asked
            self.tally.route_all += 1
            if self.tally.lecture_start <= asked < self.until:
                self.tally.route_s.append(took)
                if since is not None and took >= 1.0:
                    self.tally.held_s.append(took)
            if headers.get("connection", "").lower() == "close":
                self.close_connection()  # not close_http: that would cancel this very GET, the one held
            status = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "?"
            if status != "200":
                self.tally.route_failed.append(f"phone {self.number}: {lines[0]} {body[:80]!r}")
                return f"error {status}"
            told = json.loads(body)
            if "ask" in told:
                self.heard(told["ask"])
            return told["stamp"]
        raise OSError("unreachable")

    def heard(self, ask: dict) -> None:
        """The route's answer carried a scene's heading and question (poll_route.describe_room): PHONE_JS shows them in
        its card ASK_CARD_AFTER_MS later unless the fragment has drawn the phone again by then (then the question is
        on the phone from that drawing: saw). It must be the scene's own question, word for word."""
        scene = ask.get("scene", 0) - 1
        if not 0 <= scene < len(self.questions):
            self.tally.errors.append(f"phone {self.number}: the route told of scene {scene + 1}, not in the lecture")
            return
        if "".join(text for text, _ in ask.get("ask", [])) != self.questions[scene].ask.replace("*", ""):
            self.tally.errors.append(f"phone {self.number}: the route's question for scene {scene + 1} is not its own")
            return
        key, shown = (self.number, scene), time.perf_counter() + ASK_CARD_AFTER_MS / 1000
        if key not in self.tally.told and self.tally.boxed.get(key, math.inf) > shown:
            self.tally.told[key] = shown
            self.tally.seen[key] = min(self.tally.seen.get(key, math.inf), shown)

    async def route_step(self, socket, wake: float) -> None:
        """PHONE_JS's loop, until the moment `wake` at the latest: one GET at a time, with the drawn stamp (the route
        holds it until the room moves, or HOLD_S); an answer that differs from what is drawn now presses Refresh
        (not again within 6 s for the same drawing); a quick answer that changed nothing waits PHONE_EVERY_S."""
        now = time.perf_counter()
        if self.held is None:
            if self.asked_for == self.drawn_stamp and now - self.asked_at < 6.0:  # a refresh is on its way
                await asyncio.sleep(max(0.0, min(wake, now + 0.25) - now))
                return
            if now < self.next_ask:
                await asyncio.sleep(max(0.0, min(wake, self.next_ask) - now))
                return
            self.held, self.held_at = asyncio.ensure_future(self.get_stamp(self.drawn_stamp)), now
        done, _ = await asyncio.wait({self.held}, timeout=max(0.0, wake - time.perf_counter()))
        if not done:
            return
        task, self.held = done.pop(), None
        try:
            answer = task.result()
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError, KeyError) as error:
            self.close_http()
            self.tally.route_failed.append(f"phone {self.number}: {type(error).__name__}: {str(error)[:80]}")
            answer = "offline"
        drawn = self.drawn_stamp  # the fragment may have been drawn again while the GET was held
        quick = time.perf_counter() - self.held_at < 1.0
        self.next_ask = time.perf_counter() + (PHONE_EVERY_S if answer == drawn and quick else 0.05)
        if answer == drawn:
            return
        self.asked_for, self.asked_at = drawn, time.perf_counter()
        if not self.refresh_id:
            self.tally.errors.append(f"phone {self.number}: the stamp moved ({drawn} -> {answer}) but no Refresh drawn")
            return
        latest, sent = self.latest, time.perf_counter()
        await self.send(socket, [WidgetState(id=self.refresh_id, trigger_value=True)], self.refresh_fragment)
        self.tally.refresh_s.append(time.perf_counter() - sent)
        self.tally.refresh_drew += self.latest != latest

    def plan(self) -> None:
        """Pick the moment to answer the scene on screen, once its question is drawn and open."""
        scene = self.latest
        if self.pending is not None and self.pending[0] != scene:
            self.tally.skipped.append(f"phone {self.number}, scene {self.pending[0] + 1}: the room moved on first")
            self.answered.add(self.pending[0])
            self.pending = None
        if scene < 0 or scene in self.answered or self.pending is not None or self.tally.lecture_start == math.inf:
            return
        widget = self.widgets.get(scene)
        if widget is None or widget[3]:  # not drawn, or disabled: the round is closed or revealed
            if widget is not None:
                self.tally.skipped.append(f"phone {self.number}, scene {scene + 1}: first drawn closed")
                self.answered.add(scene)
            return
        appeared = max(self.tally.seen[(self.number, scene)], self.tally.lecture_start)
        self.pending = (scene, appeared + self.rng.uniform(1.0, self.answer_within))

    async def answer(self, socket, scene: int) -> None:
        kind, widget_id, fragment_id, disabled, options = self.widgets[scene]
        if disabled:  # the reveal reached this phone first: a person could not send now
            self.tally.skipped.append(f"phone {self.number}, scene {scene + 1}: revealed before its moment")
            self.answered.add(scene)
            return
        question = self.questions[scene]
        option = self.rng.randrange(question.option_count)
        if kind == "text_input":
            submit = self.submits.get(scene)
            if submit is None:
                self.tally.errors.append(f"phone {self.number}, scene {scene + 1}: no Send button drawn")
                self.answered.add(scene)
                return
            states = [WidgetState(id=widget_id, string_value=question.options[option]),
                      WidgetState(id=submit, trigger_value=True)]
        else:
            states = [WidgetState(id=widget_id, string_value=options[option])]
        record = Answer(self.number, scene, option, time.perf_counter())
        self.tally.answers.append(record)
        self.answered.add(scene)
        self.confirmed, self.alerts = False, []
        errors_before = len(self.tally.errors)
        try:
            await self.send(socket, states, fragment_id)
        except BaseException:
            self.tally.answers.remove(record)  # sent again after reconnecting, as the frontend resends
            self.answered.discard(scene)
            self.pending = (scene, time.perf_counter())
            raise
        record.run_s = time.perf_counter() - record.sent
        record.finished = True
        record.confirmed = self.confirmed
        mine = f"phone {self.number}:"
        problems = self.alerts + [e for e in self.tally.errors[errors_before:] if e.startswith(mine)]
        record.refused = " | ".join(problems)[:200]

    async def run(self) -> None:
        await asyncio.sleep(max(0.0, self.start_at - time.perf_counter()))  # scanning the QR code
        while time.perf_counter() < min(self.tally.deadline, self.until):
            try:
                async with websockets.connect(f"ws://127.0.0.1:{self.port}/_stcore/stream", subprotocols=["streamlit"],
                                              max_size=None, ping_interval=None, open_timeout=30) as socket:
                    await self.rerun(socket, None)  # the page's first run: joins, draws the scene on screen
                    await asyncio.sleep(self.rng.uniform(0, PHONE_EVERY_S))  # phones do not poll in step
                    next_poll = time.perf_counter()
                    while time.perf_counter() < min(self.tally.deadline, self.until):
                        self.plan()
                        now = time.perf_counter()
                        if self.pending is not None and now >= self.pending[1]:
                            scene, self.pending = self.pending[0], None
                            await self.answer(socket, scene)
                            continue
                        wake = min(self.until, math.inf if self.pending is None else self.pending[1])
                        if self.route:
                            await self.route_step(socket, min(wake, now + 0.25))
                            continue
                        if now >= next_poll:
                            drew, sent = self.drew, time.perf_counter()
                            await self.rerun(socket, None, timer=True)
                            took = time.perf_counter() - sent
                            (self.tally.drawing_poll_s if self.drew > drew else self.tally.idle_poll_s).append(took)
                            next_poll = max(next_poll + PHONE_EVERY_S, time.perf_counter())
                            continue
                        await asyncio.sleep(max(0.0, min(next_poll, wake) - time.perf_counter()))
            except (OSError, websockets.WebSocketException, TimeoutError, asyncio.IncompleteReadError) as error:
                self.close_http()
                self.tally.reconnects += 1
                self.tally.errors.append(f"phone {self.number}: reconnecting after {type(error).__name__}: "
                                         f"{str(error)[:100]}")
                await asyncio.sleep(0.5)
        self.close_http()
        for scene in range(self.tally.current + 1):  # every scene shown is answered or has its reason
            if scene in self.answered:
                continue
            widget = self.widgets.get(scene)
            reason = ("never drawn" if widget is None else "revealed before its moment" if widget[3] else
                      "the lecture ended before its moment")
            self.tally.skipped.append(f"phone {self.number}, scene {scene + 1}: {reason}")


# --- a class poll's phone in route mode (bench/load_poll.py --route) ------------------------------------------------


class RoutePhone(LecturePhone):
    """LecturePhone on a class poll room (bench/load_poll.py --route): its page run (the navigation's page hash, the
    stamp mark and the Refresh button from the deltas), its check() (the route GET on a kept-alive
    connection, the Refresh trigger on a different stamp) every PHONE_EVERY_S, and at vote_at the radio's
    value in a run of the phone fragment (the radio's fragment id), as Phone does."""

    def __init__(self, number: int, port: int, code: str, vote_at: float, until: float, option: int,
                 tally) -> None:
        super().__init__(number, port, code, tally, [], PHONE_EVERY_S, 0.0, number, route=True)
        self.vote_at, self.until, self.option = vote_at, until, option

    def ready(self) -> bool:
        return self.drawn_stamp is not None and bool(self.refresh_id) and bool(self.radio_id)

    async def run(self) -> None:
        voted = self.vote_at == float("inf")
        rng = random.Random(self.number)
        while time.perf_counter() < min(self.tally.deadline, self.until):
            try:
                async with websockets.connect(f"ws://127.0.0.1:{self.port}/_stcore/stream",
                                              subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                              open_timeout=10) as socket:
                    await self.send(socket, [], "")  # the page's first run: joins, draws the stamp and Refresh
                    await asyncio.sleep(rng.uniform(0, PHONE_EVERY_S))  # phones do not check in step
                    while time.perf_counter() < min(self.tally.deadline, self.until):
                        now = time.perf_counter()
                        if not voted and now >= self.vote_at:
                            await self.tap(self.send(socket, [WidgetState(
                                id=self.radio_id, string_value=self.radio_options[self.option])], self.fragment_id))
                            voted = True
                            continue
                        tap = self.vote_at if not voted and self.vote_at > now else math.inf  # nan: not yet
                        await self.route_step(socket, min(now + 0.25, tap, self.until))
            except (OSError, websockets.WebSocketException, TimeoutError, asyncio.IncompleteReadError) as error:
                self.close_http()
                self.tally.errors.append(f"phone {self.number}: reconnecting after {type(error).__name__}: "
                                         f"{str(error)[:100]}")
                await asyncio.sleep(0.5)
        self.close_http()
        if not voted:
            self.tally.errors.append(f"phone {self.number}: never voted")
