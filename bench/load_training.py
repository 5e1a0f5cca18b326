"""A class pressing Train: N light sessions open "Train it yourself" and each presses Train on a preset within a
few seconds, a few more press Train on custom settings, and Lab sessions keep clicking meanwhile.

    python3 bench/load_training.py                       # 150 preset sessions, 8 custom, 20 Lab clickers
    python3 bench/load_training.py --sessions 30 --custom 4 --lab 5
    python3 bench/load_training.py --nice -10            # on a shared machine, as bench/load.py allows
    python3 bench/load_training.py --hog 2 --rev e610e56 # two busy processes meanwhile, at an older commit
    python3 bench/load_training.py --cores 1             # the server and its training on one core

Targets (issue 17): p95 time from pressing Train to the curves on screen <= 3 s; custom runs queue with a bounded
number training at once and show "waiting for a free slot"; Lab clicks keep p95 <= 1 s meanwhile; server RSS
stays under 600 MB. Everything runs on loopback against a fresh server (a snapshot of HEAD, as bench/load.py
does), bounded in sessions and in time (--deadline).

The sessions are bench/load.py's light clients: Streamlit's own websocket protocol, the rerun message a browser
sends. A train session opens /Train_it_yourself?exp=<preset> (mask, heads and dropout in turn), reads the Train
button's id from its delta, waits until its moment (uniform over --press-within seconds from the start of the
window) and sends the button's trigger. Time to curves = that message -> the first Plotly chart delta (a live
run's curves, the shipped curves while a preset waits for its slot, or the finished result). The session then
reads until its run has finished: the page draws the result when training ends. A custom session does the same
on ?exp=mask&steps=200&seed=<100 + k> (two sessions a setting, so shared runs are exercised too). "Training at
once" is read from the sessions' own status lines: the most distinct settings any moment showed "Training ...".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402  (the light Lab client, the server snapshot, percentiles, RSS)
from load import SUCCESS, harness  # noqa: E402

PRESETS = ("mask", "heads", "dropout")
TARGET_CURVES_P95_S = 3.0
TRAIN_PAGE = "Train_it_yourself"


@dataclass
class Press:
    """What one session saw after pressing Train."""

    query: str
    custom: bool
    curves_s: float | None = None  # Train -> first chart delta
    done_s: float | None = None  # Train -> the run's end (the page's run finished)
    waited: bool = False  # saw "Waiting for a free slot"
    training: list[float] = field(default_factory=list)  # moments a "Training ..." status line arrived
    problems: list[str] = field(default_factory=list)


class TrainClient:
    def __init__(self, number: int, server: harness.Server, query: str, custom: bool, args) -> None:
        self.number, self.args = number, args
        self.url = f"ws://127.0.0.1:{server.port}/_stcore/stream"
        self.press = Press(query, custom)
        self.query, self.train_id = query, ""

    async def run(self, opened: asyncio.Queue, press_at: asyncio.Future) -> Press:
        try:
            async with websockets.connect(self.url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                          open_timeout=self.args.open_timeout) as socket:  # fmt: skip
                first = await self.rerun(socket, None, self.args.open_timeout)
                await opened.put(not first)
                if first or not self.train_id:
                    self.press.problems.append(f"first run: {first or 'no Train button'}")
                    return self.press
                moment = await press_at
                await asyncio.sleep(max(0.0, moment - time.perf_counter()))
                self.press.problems += await self.rerun(socket, self.train_id, self.args.timeout)
        except (OSError, websockets.WebSocketException, TimeoutError) as error:
            self.press.problems.append(f"connection {type(error).__name__}: {error}")
            await opened.put(False)
        return self.press

    async def rerun(self, socket, trigger: str | None, timeout: float) -> list[str]:
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query
        state.page_name = TRAIN_PAGE  # by name every time: new_session's page hash is the entry script's
        if trigger:
            state.widget_states.widgets.append(WidgetState(id=trigger, trigger_value=True))
        problems: list[str] = []
        sent = time.perf_counter()
        await socket.send(back.SerializeToString())
        while True:
            left = sent + timeout - time.perf_counter()
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, left))
            except TimeoutError:
                return [*problems, f"no end within {timeout:.0f} s"]
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            now = time.perf_counter()
            if kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                problems += self.read_element(message.delta.new_element, trigger is not None, now - sent, now)
            elif kind == "script_finished":
                if message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN and trigger is not None:
                    continue  # the page reruns itself once a run has ended (its Stop button): read that run too
                if message.script_finished not in SUCCESS:
                    problems.append(f"run ended with status {message.script_finished}")
                if trigger is not None:
                    self.press.done_s = now - sent
                return problems

    def read_element(self, element, pressed: bool, elapsed: float, now: float) -> list[str]:
        kind = element.WhichOneof("type")
        if kind == "button" and element.button.label == "Train":
            self.train_id = element.button.id
        elif kind == "plotly_chart" and pressed and self.press.curves_s is None:
            self.press.curves_s = elapsed
        elif kind == "alert" and pressed:
            if "Waiting for a free slot" in element.alert.body:
                self.press.waited = True
            elif element.alert.format == load.ERROR_ALERT:
                return [f"error box: {element.alert.body[:160]}"]
        elif kind == "markdown" and pressed and element.markdown.body.startswith("Training "):
            self.press.training.append(now)
        elif kind == "exception":
            return [f"exception: {element.exception.type}: {element.exception.message[:160]}"]
        return []


def most_at_once(presses: list[Press], tolerance: float = 0.5) -> int:
    """The most distinct settings showing "Training ..." in any one moment, from the sessions' status lines (each
    setting's first and last such line, shrunk by `tolerance` s at both ends for the lines' own delays)."""
    spans: dict[str, tuple[float, float]] = {}
    for press in presses:
        if press.training:
            first, last = spans.get(press.query, (min(press.training), max(press.training)))
            spans[press.query] = (min(first, *press.training), max(last, *press.training))
    shrunk = [(a + tolerance, b - tolerance) for a, b in spans.values() if b - a > 2 * tolerance]
    moments = [a for a, _ in shrunk]
    return max((sum(a <= m < b for a, b in shrunk) for m in moments), default=min(len(spans), 1))


def descendants(pid: int) -> list[int]:
    """The processes under `pid` (its training processes), from /proc's children lists."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*/children"):
            try:
                children = [int(c) for c in task.read_text().split()]
            except OSError:
                continue
            found += children
            todo += children
    return found


def sample_rss(pid: int, stop: threading.Event, peak: list[float], children_peak: list[float]) -> None:
    """The server's RSS together with its training processes' (they are part of what the server costs)."""
    while not stop.wait(0.2):
        try:
            own = load.rss_mb(pid)
        except OSError:
            return
        children = 0.0
        for child in descendants(pid):
            with contextlib.suppress(OSError):  # a child that ended meanwhile
                children += load.rss_mb(child)
        peak[0] = max(peak[0], own + children)
        children_peak[0] = max(children_peak[0], children)


def pin(pid: int, cores: int) -> None:
    """Keep the server (every thread it has, and the processes it starts later) on its first `cores` CPUs, as a
    host that gives the app a part of the machine does."""
    load.pin_to(pid, set(sorted(os.sched_getaffinity(0))[:cores]))


@contextlib.contextmanager
def hogs(count: int, seconds: float):
    """`count` busy processes at the bench's niceness, as other work on a shared host; each ends by itself
    after `seconds` at the latest, and all are killed when the block ends."""
    code = f"import time\nend = time.monotonic() + {seconds:.0f}\nwhile time.monotonic() < end:\n    pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def report(presses: list[Press], lab: load.Level, rss_peak: float, seconds: float, args) -> None:
    preset = [p for p in presses if not p.custom]
    custom = [p for p in presses if p.custom]
    curves = [p.curves_s for p in preset if p.curves_s is not None]
    problems = [f"{p.query}: {problem}" for p in presses for problem in p.problems]
    missing = [p for p in presses if p.curves_s is None]
    p95 = load.percentile(curves, 95) if curves else float("nan")
    print(f"preset sessions pressing Train: {len(preset)}; curves shown: {len(curves)}")
    if curves:
        print(f"  Train -> curves: median {statistics.median(curves):.2f} s, p95 {p95:.2f} s, max {max(curves):.2f} s"
              f"  (target p95 <= {TARGET_CURVES_P95_S:.0f} s)")
    done = [p.done_s for p in preset if p.done_s is not None]
    if done:
        print(f"  Train -> run finished on screen: median {statistics.median(done):.1f} s, max {max(done):.1f} s")
    print(f"  saw 'waiting for a free slot': {sum(p.waited for p in preset)} preset, "
          f"{sum(p.waited for p in custom)} of {len(custom)} custom sessions")
    if custom:
        done_custom = [p.done_s for p in custom if p.done_s is not None]
        print(f"  custom runs finished: {len(done_custom)} of {len(custom)}, Train -> done median "
              f"{statistics.median(done_custom) if done_custom else float('nan'):.1f} s")
    print(f"  distinct runs training at once, most seen: {most_at_once(presses)}")
    clicks = lab.light_ms
    print(f"Lab clicks meanwhile: {len(clicks)}; median {load.percentile(clicks, 50):.0f} ms, "
          f"p95 {load.percentile(clicks, 95):.0f} ms (target <= {load.TARGET_P95_MS} ms); errors {len(lab.errors)}")
    print(f"server RSS peak {rss_peak:.0f} MB (target < {load.TARGET_RSS_MB} MB); wall {seconds:.0f} s")
    print(f"problems: {len(problems) + len(missing)}")
    for line in (problems + lab.errors)[:10]:
        print("   ", line[:200])


async def main_async(args) -> None:
    with load.app_tree(args.tree, args.rev) as tree, harness.start_server("app.py", cwd=tree) as server:
        if args.cores:
            pin(server.pid, args.cores)
        stop, peak, children_peak = threading.Event(), [0.0], [0.0]
        sampler = threading.Thread(target=sample_rss, args=(server.pid, stop, peak, children_peak), daemon=True)
        sampler.start()
        started = time.perf_counter()
        rng = random.Random(0)
        clients = [TrainClient(n, server, f"exp={PRESETS[n % 3]}", False, args) for n in range(args.sessions)]
        clients += [TrainClient(args.sessions + k, server, f"exp=mask&steps=200&seed={100 + k // 2}", True, args)
                    for k in range(args.custom)]
        lab = load.Level(args.lab, 0)
        lab_args = argparse.Namespace(open_timeout=args.open_timeout, timeout=args.timeout)
        lab_clients = [load.LightClient(10_000 + n, server, lab, (3.0, 7.0), lab_args) for n in range(args.lab)]
        opened: asyncio.Queue = asyncio.Queue()
        go = asyncio.Event()
        futures = [asyncio.get_running_loop().create_future() for _ in clients]
        tasks = []
        for client, future in zip(clients, futures, strict=True):
            await asyncio.sleep(args.ramp / len(clients))  # the sessions arrive over --ramp seconds
            tasks.append(asyncio.create_task(client.run(opened, future)))
        lab_tasks = [asyncio.create_task(c.run(time.perf_counter(), opened, go)) for c in lab_clients]
        for _ in range(len(clients) + len(lab_clients)):
            await opened.get()
        print(f"  {len(clients)} train and {len(lab_clients)} Lab sessions open after "
              f"{time.perf_counter() - started:.1f} s")
        go.set()
        window = time.perf_counter() + 2.0  # the Lab clicks warm up for 2 s first
        cpu_before, busy_before = server.cpu_seconds(), load.machine_ticks()
        children_before = harness.process_cpu_seconds(server.pid, children=True)
        lab.window_start, lab.window_end = window, window + args.deadline
        for future in futures:
            future.set_result(window + rng.uniform(0, args.press_within))
        with hogs(args.hog, args.deadline + 30):
            presses = await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.deadline + 30)
        lab.window_end = time.perf_counter()  # Lab clicks count while the class trains, not after
        lasted = lab.window_end - window
        cpu = server.cpu_seconds() - cpu_before
        children_cpu = harness.process_cpu_seconds(server.pid, children=True) - children_before
        busy_after = load.machine_ticks()
        machine = (busy_after[0] - busy_before[0]) / max(busy_after[1] - busy_before[1], 1)
        await asyncio.gather(*lab_tasks)
        stop.set()
        report(list(presses), lab, peak[0], time.perf_counter() - started, args)
        print(f"  of which training processes at their peak: {children_peak[0]:.0f} MB")
        print(f"while the class trained ({lasted:.0f} s): server CPU {cpu:.1f} s ({cpu / lasted:.2f} of a core), "
              f"its training processes {children_cpu:.1f} s, machine busy {machine:.0%} of its cores "
              f"({args.hog} busy processes of the bench's and any other work included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=150, help="sessions pressing Train on a preset")
    parser.add_argument("--custom", type=int, default=8, help="sessions pressing Train on custom settings")
    parser.add_argument("--lab", type=int, default=20, help="Lab sessions clicking every 3 to 7 s meanwhile")
    parser.add_argument("--press-within", type=float, default=10.0, help="seconds over which the class presses")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which the sessions open the page")
    parser.add_argument("--deadline", type=float, default=150.0, help="seconds the whole class may take")
    parser.add_argument("--open-timeout", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds one press may take to finish")
    parser.add_argument("--tree", choices=("snapshot", "live"), default="snapshot")
    parser.add_argument("--rev", default="HEAD", help="the commit the snapshot is taken from (a baseline)")
    parser.add_argument("--cores", type=int, default=0, choices=range(5),
                        help="keep the server and its training processes on this many CPUs (0: all)")
    parser.add_argument("--hog", type=int, default=0, choices=range(5),
                        help="busy processes run meanwhile, as other work on a shared host (at most 4)")
    parser.add_argument("--nice", type=int, default=0, help="niceness for this script and the server (root: < 0)")
    args = parser.parse_args()
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # inherited by the server, as in bench/load.py
    print(f"niceness {os.getpriority(os.PRIO_PROCESS, 0)}; {os.cpu_count()} CPUs; the server on "
          f"{args.cores or 'all'}; load average {os.getloadavg()[0]:.1f} at the start")
    if not 1 <= args.sessions + args.custom <= 400 or args.lab > 100:
        parser.error("at most 400 train sessions and 100 Lab sessions: this is a loopback bench, not a flood")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
