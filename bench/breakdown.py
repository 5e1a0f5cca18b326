"""Where one Lab click's server CPU goes, phase by phase, against the framework's floor app in the same run.

    python3 bench/breakdown.py                    # the Lab (app.py) and bench/floor_app.py, 300 clicks each
    python3 bench/breakdown.py --clicks 500 --rate 1000
    python3 bench/breakdown.py --rev HEAD~2       # the Lab as it was at another commit, same floor
    python3 bench/breakdown.py --floor-extra 31   # also the floor with 31 more elements (captions) a click
    python3 bench/breakdown.py --floor-lab        # also bench/floor_lab_app.py: the Lab's 33 elements, no work

Profiler: py-spy (PyPI, `pip install py-spy`; not in requirements-dev.txt since no test needs it). It samples
the server from outside the process (`py-spy record --nonblocking --gil --format raw`): it never stops or slows
the server, it only reads its memory, and its own CPU is charged to py-spy, not to the server. `--gil` keeps
only the thread holding the GIL at each sample, so a thread waiting for the GIL (the script thread after each
message it hands the event loop) is not counted as working: the samples share out Python's CPU time. The bench measures
that overhead instead of trusting it: each app gets one unprofiled series and one profiled series of the same
clicks, and the table prints both CPU figures (the difference is the overhead, within the machine's noise).

Each app runs on its own fresh server (tests/browser/harness.py: loopback, the repo's .streamlit/config.toml for
the Lab; the floor with `--runner.postScriptGC false`, the floor the issue compares against). One light client
(bench/load.py's: Streamlit's own websocket protocol, the rerun message a browser sends for the click) flips the
"Causal mask" toggle --clicks times with a short pause, after a warm-up; server CPU = utime + stime from
/proc/<pid>/stat over the series, less the idle cost of the pauses (measured first, per second).

Every sample's stack is put in one phase, by the deepest frame that names one (the rules are PHASES below):
  widgets and state   st.* widget calls, our controls and the Lab's state module, Streamlit's session state
  compute             attn_core, and the cache lookup that fronts it (cached_compute)
  the figure          our figure builders (attn_ui/figures) or, on the floor, go.Figure / go.Heatmap
  serialisation       st.plotly_chart's marshalling: the figure's JSON and its element
  other elements      any other st.* element the script draws (tiles, captions, containers, buttons, ...)
  address write       state.remember: the URL and the session's Settings
  script, other       our script's own lines outside those calls
  framework           everything outside the script: the runner, the fragment machinery, the message queue,
                      protobuf, the websocket, the event loop
A phase's CPU is its share of the samples times the measured CPU per click.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402
import load  # noqa: E402  (its light client speaks Streamlit's protocol)
import websockets  # noqa: E402

FLOOR_APP = REPO_ROOT / "bench" / "floor_app.py"
FLOOR_LAB_APP = REPO_ROOT / "bench" / "floor_lab_app.py"
FLOOR_LAB = "floor, the Lab's elements"
PHASE_ORDER = ("widgets and state", "compute", "the figure", "serialisation", "other elements", "address write",
               "script, other", "framework")

# (phase, pattern on "function (file)"): the deepest matching frame of a stack names its phase. Checked in order
# for each frame, so a frame matching two rules takes the first.
PHASES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((phase, re.compile(pattern)) for phase, pattern in (
    ("address write", r"(^|\.)remember \(.*attn_ui/widgets/state\.py"),
    ("serialisation", r"(^|\.)_?plotly_chart \(.*streamlit/elements/plotly_chart\.py"),
    ("compute", r"attn_core/|(^|\.)cached_compute "),
    ("the figure", r"attn_ui/figures/|plotly/graph_objs/|plotly/basedatatypes\.py|ReadyFigure"),
    ("widgets and state", r"streamlit/elements/widgets/|attn_ui/widgets/(controls|state|address)\.py|"
                          r"streamlit/runtime/state/|(^|\.)(projector_on|projector_switch|_write_mode) "),
    ("other elements", r"streamlit/elements/|streamlit/delta_generator|streamlit/commands/|attn_ui/"),
))
SCRIPT_FRAME = re.compile(r"\(((?:[^)]*/)?(?:app|floor_app|floor_lab_app)\.py|[^)]*/pages/[^)]*)[:)]")
# A thread waiting (py-spy's own idle test misses a thread blocked in epoll or on a Condition), or the
# framework's periodic work between clicks: left out of the shares, since the idle CPU is taken off the total.
IDLE = re.compile(r"^(EpollSelector\.select|Condition\.wait|Event\.wait|sleep) \(|PollingPathWatcher")


@dataclass
class Series:
    cpu_ms_per_click: float
    clicks: int
    samples: Counter[str] = field(default_factory=Counter)  # phase -> samples

    def phase_ms(self) -> dict[str, float]:
        total = sum(self.samples[phase] for phase in PHASE_ORDER)
        return {phase: self.cpu_ms_per_click * self.samples[phase] / total if total else float("nan")
                for phase in PHASE_ORDER}


def phase_of(stack: list[str]) -> str:
    """The phase of one sampled stack (root first).

    Outside the script only Streamlit's session state counts (it applies the click's widget values before the
    run); the rest is the framework. Inside, the first frame from the root that names a phase decides, except
    that "other elements" (our panels, a container) gives way to a more precise phase further down (the map
    inside the panel)."""
    phase = None
    in_script = False
    for frame in stack:
        if not in_script and SCRIPT_FRAME.search(frame):
            in_script, phase = True, "script, other"
        if not in_script:
            if "streamlit/runtime/state/" in frame:
                return "widgets and state"
            continue
        name = next((name for name, pattern in PHASES if pattern.search(frame)), None)
        if name is not None and phase in ("script, other", "other elements"):
            phase = name
    return phase or "framework"


def read_raw(path: Path) -> Counter[str]:
    """py-spy's raw (collapsed) output -> samples per phase."""
    counts: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack_text, _, number = line.rpartition(" ")
        if not number.isdigit():
            continue
        frames = [frame.strip() for frame in stack_text.split(";") if frame.strip()]
        if frames and (IDLE.search(frames[-1]) or any("PollingPathWatcher" in frame for frame in frames)):
            counts["(idle)"] += int(number)
            continue
        counts[phase_of(frames)] += int(number)
    return counts


@contextlib.contextmanager
def profiled(pid: int, rate: int, out: Path) -> Iterator[None]:
    spy = subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--rate", str(rate), "--format", "raw",
                            "--nonblocking", "--gil", "--output", str(out)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)  # fmt: skip
    time.sleep(1.0)  # py-spy attaches
    if spy.poll() is not None:
        raise SystemExit(f"py-spy could not attach: {spy.stderr.read()[-400:]}")
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        try:
            spy.wait(timeout=30)
        except subprocess.TimeoutExpired:
            spy.kill()


async def click_series(client: load.LightClient, socket, clicks: int, pause: float, causal: bool) -> bool:
    for _ in range(clicks):
        await asyncio.sleep(pause)
        causal = not causal
        run = await client.rerun(socket, causal, client.args.timeout)
        if run.problems:
            raise SystemExit(f"click failed: {run.problems}")
    return causal


async def measure_app(server: harness.Server, args, out_dir: Path, name: str) -> tuple[Series, Series]:
    """(unprofiled, profiled) series of --clicks clicks on one server."""
    level = load.Level(1, 0, window_start=0.0)
    client = load.LightClient(1, server, level, (args.pause, args.pause),
                              SimpleNamespace(timeout=30.0, open_timeout=90.0))  # fmt: skip
    async with websockets.connect(client.url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                  open_timeout=90) as socket:  # fmt: skip
        first = await client.rerun(socket, None, 90.0)
        if first.problems or not client.toggle_id:
            raise SystemExit(f"{name}: first run {first.problems or 'has no Causal mask toggle'}")
        causal = await click_series(client, socket, args.warmup, args.pause, False)
        idle_start = server.cpu_seconds()
        await asyncio.sleep(args.idle_seconds)
        idle_per_s = (server.cpu_seconds() - idle_start) / args.idle_seconds

        async def series(profile: bool) -> Series:
            nonlocal causal
            raw = out_dir / f"{name}.raw"
            cm = profiled(server.pid, args.rate, raw) if profile else contextlib.nullcontext()
            with cm:
                cpu_start, wall_start = server.cpu_seconds(), time.perf_counter()
                causal = await click_series(client, socket, args.clicks, args.pause, causal)
                wall = time.perf_counter() - wall_start
                busy = server.cpu_seconds() - cpu_start - idle_per_s * wall
            result = Series(max(busy, 0.0) * 1000 / args.clicks, args.clicks)
            if profile:
                result.samples = read_raw(raw)
            return result

        plain = await series(False)
        spied = await series(True)
        return plain, spied


def print_table(results: dict[str, tuple[Series, Series]]) -> None:
    names = list(results)
    print("\nserver CPU per click by phase, ms (phase shares from py-spy samples x the profiled series' CPU)\n")
    header = f"| phase | {' | '.join(names)} |"
    print(header)
    print("| --- |" + " ---: |" * len(names))
    for phase in PHASE_ORDER:
        cells = [f"{results[n][1].phase_ms()[phase]:.1f}" for n in names]
        print(f"| {phase} | {' | '.join(cells)} |")
    print(f"| **total (profiled)** | {' | '.join(f'**{results[n][1].cpu_ms_per_click:.1f}**' for n in names)} |")
    print(f"| total, no profiler | {' | '.join(f'{results[n][0].cpu_ms_per_click:.1f}' for n in names)} |")
    counts = [f"{sum(results[n][1].samples.values())} ({results[n][1].samples['(idle)']})" for n in names]
    print(f"| samples (of them idle, left out) | {' | '.join(counts)} |")
    floor = results[names[0]][0].cpu_ms_per_click
    for n in names[1:]:
        print(f"\n{n}: {results[n][0].cpu_ms_per_click / floor:.2f}x the floor's CPU per click (no profiler)")
    if FLOOR_LAB in results:  # the Lab is the last app measured
        lab = names[-1]
        print(f"{lab}: {results[lab][0].cpu_ms_per_click / results[FLOOR_LAB][0].cpu_ms_per_click:.2f}x the "
              "CPU per click of its own elements drawn from constants (no profiler)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=300, help="clicks per series (two series per app)")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--pause", type=float, default=0.03, help="seconds between one answer and the next click")
    parser.add_argument("--idle-seconds", type=float, default=3.0)
    parser.add_argument("--rate", type=int, default=500, help="py-spy samples per second")
    parser.add_argument("--rev", help="profile the Lab as it was at this commit (default: the working tree)")
    parser.add_argument("--keep", help="folder to keep py-spy's raw files in")
    parser.add_argument("--floor-extra", type=int, default=0,
                        help="also profile the floor drawing this many more captions a click (the price of elements)")
    parser.add_argument("--floor-lab", action="store_true",
                        help="also profile bench/floor_lab_app.py: the Lab's elements from constants, no work")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    results: dict[str, tuple[Series, Series]] = {}
    with contextlib.ExitStack() as stack:
        out_dir = Path(args.keep) if args.keep else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        out_dir.mkdir(parents=True, exist_ok=True)
        root = stack.enter_context(load.tree_at(args.rev))
        gc_off = ["--runner.postScriptGC", "false"]
        apps = [("floor (GC off)", FLOOR_APP, FLOOR_APP.parent, gc_off, 0),
                (f"Lab ({args.rev or 'working tree'})", root / "app.py", root, [], 0)]
        if args.floor_lab:
            apps.insert(1, (FLOOR_LAB, FLOOR_LAB_APP, FLOOR_APP.parent, gc_off, 0))
        if args.floor_extra:
            apps.insert(1, (f"floor + {args.floor_extra} captions", FLOOR_APP, FLOOR_APP.parent, gc_off,
                            args.floor_extra))
        for name, script, cwd, flags, extra in apps:
            print(f"  {name} ...", flush=True)
            os.environ["ATTN_FLOOR_EXTRA"] = str(extra)  # the server inherits it; only the floor app reads it
            with harness.start_server(script, cwd=cwd, extra_args=flags) as server:
                results[name] = asyncio.run(measure_app(server, args, out_dir, name.replace(" ", "_")))
        os.environ.pop("ATTN_FLOOR_EXTRA", None)
    print_table(results)
    print(f"\n{args.clicks} clicks a series, {args.pause * 1000:.0f} ms pause, py-spy at {args.rate} Hz, "
          f"CPU on {os.cpu_count()} shared cores")


if __name__ == "__main__":
    main()
