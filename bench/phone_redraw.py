"""What one phone's redraw costs the server when a live lecture moves on, and how long 150 redraws take together.

    python3 bench/phone_redraw.py                       # this working tree, 150 phones, SQLite (a temp file)
    python3 bench/phone_redraw.py --against HEAD~2      # besides, the same run against an older commit, alternating
    python3 bench/phone_redraw.py --url postgresql+psycopg://... --phones 60

A scene change makes every phone in the room redraw at once: each phone's browser hears from the held check
(attn_ui/views/poll_route.py) that the room moved and presses the phone fragment's hidden Refresh button, so the
server runs the phone fragment once per phone. bench/load_lecture.py measures that inside a whole lecture; this
bench isolates it, so that a change to the phone's drawing can be weighed in a few minutes.

One server at a time (`streamlit run app.py` of the tree, or its serve.py from before app.py served the route, on
127.0.0.1), its own live lecture room (opened as Go live opens one: Poll.create_room over live.lecture_questions(),
then scene 1). --phones light clients over Streamlit's own protocol (bench/phones.py's LecturePhone) open
the phone page and draw scene 1. Then:
  1. idle redraws: the first 30 phones press Refresh 5 times each, one press at a time (nothing moved): server CPU
     per run, without contention;
  2. --bursts scene changes: Poll.show_scene to the next scene, then every phone presses Refresh at once, as their
     browsers do when the held check answers: server CPU per redraw, and the time from the presses to each
     phone's drawn question (p50 / p95 / max). Each phone must draw the new scene's question.
--floor adds the floor: bench/phone_floor_app.py, a page whose fragment draws only the stamp and the Refresh
button, so that what Streamlit's run costs anyway can be read off. With --against REV the trees alternate (REV, this
tree, REV, this tree: --rounds of each), each on a fresh server and room, so the ratio of their figures compares them
in the same conditions. Server CPU is the process's utime + stime from /proc. Every wait is bounded; the bench
fails when a phone does not draw the scene it was moved to.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import websockets
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_lecture  # noqa: E402  (sets sys.path for the repo, tests/browser and bench)
from phones import LecturePhone, LectureTally, entry, harness, load, percentile, serve, stop  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402

IDLE_PHONES, IDLE_PRESSES = 30, 5
RUN_TIMEOUT_S = 60  # one press's run must finish within this, even on a saturated machine


async def press(phone: LecturePhone, socket) -> float:
    began = time.perf_counter()
    await asyncio.wait_for(phone.send(socket, [WidgetState(id=phone.refresh_id, trigger_value=True)],
                                      phone.refresh_fragment), RUN_TIMEOUT_S)
    return time.perf_counter() - began


async def measure(port: int, pid: int, poll: Poll | None, code: str, secret: str, phones_n: int,
                  bursts: int) -> dict:
    """The idle and burst figures of one server; poll None: the floor page (no room, nothing to draw but the
    stamp and the button)."""
    questions = [live.live_question(n) for n in range(1, len(live.SCENES) + 1)]
    tally = LectureTally(deadline=time.perf_counter() + 900)
    phones = [LecturePhone(n, port, code, tally, questions, 20.0, 0.0, 7) for n in range(phones_n)]
    if poll is None:
        for phone in phones:
            phone.page, phone.query = "", ""
    sockets = []
    try:
        for phone in phones:
            socket = await websockets.connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"],
                                              max_size=None, ping_interval=None, open_timeout=30)
            sockets.append(socket)
            await asyncio.wait_for(phone.rerun(socket, None), RUN_TIMEOUT_S)
            if not phone.refresh_id:
                raise RuntimeError(f"phone {phone.number} drew no Refresh button (does this server serve the route?)")
        cpu, runs = harness.process_cpu_seconds(pid), 0
        for phone, socket in list(zip(phones, sockets, strict=True))[:IDLE_PHONES]:
            for _ in range(IDLE_PRESSES):
                await press(phone, socket)
                runs += 1
        idle_ms = (harness.process_cpu_seconds(pid) - cpu) / runs * 1000
        burst_ms, waits = [], []
        for scene in range(1, 1 + bursts):
            if poll is not None:
                poll.show_scene(code, secret, scene, False)
            cpu = harness.process_cpu_seconds(pid)
            pairs = zip(phones, sockets, strict=True)
            waits += await asyncio.gather(*(press(phone, socket) for phone, socket in pairs))
            burst_ms.append((harness.process_cpu_seconds(pid) - cpu) / phones_n * 1000)
            missed = [phone.number for phone in phones if poll is not None and phone.latest != scene]
            if missed:
                raise RuntimeError(f"scene {scene + 1}: {len(missed)} phones did not draw its question")
        problems = tally.errors
        if problems:
            raise RuntimeError(f"{len(problems)} phone errors, the first: {problems[0]}")
        return {"idle_ms": idle_ms, "burst_ms": statistics.fmean(burst_ms), "waits": sorted(waits)}
    finally:
        for socket in sockets:
            await socket.close()


def floor_run(args) -> dict:
    with tempfile.TemporaryDirectory(prefix="attn-redraw-floor-") as temp:
        port = harness.free_port()
        log = Path(temp) / "server.log"
        process = serve(port, log, "bench/phone_floor_app.py")
        try:
            return asyncio.run(measure(port, process.pid, None, "", "", args.phones, args.bursts))
        finally:
            stop(process)


def tree_run(rev: str | None, args) -> dict:
    """One server of the working tree (rev None) or of a commit's files, with its own live lecture room."""
    with load.tree_at(rev) as folder, tempfile.TemporaryDirectory(prefix="attn-redraw-db-") as temp:
        url = args.url or f"sqlite:///{Path(temp) / 'poll.sqlite3'}"
        os.environ["ATTN_LAB_DATABASE_URL"] = url  # the server inherits it
        poll = Poll(open_store(url, application_name="attn-lab-redraw-bench"))
        room = poll.create_room(live.lecture_questions())
        poll.show_scene(room.code, room.host_secret, 0, False)
        port = harness.free_port()
        log = Path(temp) / "server.log"
        process = serve(port, log, entry(folder, True)[0], folder)
        try:
            result = asyncio.run(measure(port, process.pid, poll, room.code, room.host_secret, args.phones,
                                         args.bursts))
        finally:
            stop(process)
            poll.store.engine.dispose()
        traces = load_lecture.tracebacks(log.read_text(errors="replace"))
        if traces:
            raise RuntimeError(f"tracebacks in the server log: {traces}")
        return result


def line(name: str, results: list[dict]) -> str:
    waits = sorted(w for result in results for w in result["waits"])
    p = lambda q: percentile(waits, q)  # noqa: E731
    return (f"| {name} | {statistics.fmean(r['idle_ms'] for r in results):.2f} | "
            f"{statistics.fmean(r['burst_ms'] for r in results):.2f} | {p(50):.2f} / {p(95):.2f} / {waits[-1]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--bursts", type=int, default=4, help="scene changes a run (at most 26)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each tree")
    parser.add_argument("--against", default="", help="a git revision to compare with, in the same run")
    parser.add_argument("--floor", action="store_true",
                        help="besides, the floor: a page whose fragment draws only the stamp and the Refresh button")
    parser.add_argument("--url", default="", help="database URL (default: SQLite in a temp folder)")
    args = parser.parse_args()
    args.phones = max(IDLE_PHONES, min(args.phones, load_lecture.MAX_PHONES))
    args.bursts = max(1, min(args.bursts, len(live.SCENES) - 1))
    args.rounds = max(1, min(args.rounds, 5))
    runs = ([("floor: bench/phone_floor_app.py", lambda: floor_run(args))] if args.floor else []) + (
        [(args.against, lambda: tree_run(args.against, args))] if args.against else []) + [
        ("this tree", lambda: tree_run(None, args))]
    results: dict[str, list[dict]] = {name: [] for name, _ in runs}
    for round_number in range(args.rounds):
        for name, run in runs:
            result = run()
            results[name].append(result)
            print(f"round {round_number + 1}, {name}: idle {result['idle_ms']:.2f} ms a run, "
                  f"burst {result['burst_ms']:.2f} ms a redraw, p95 {percentile(result['waits'], 95):.2f} s",
                  flush=True)
    backend = (args.url or "sqlite").split(":", 1)[0]
    print(f"\n{args.phones} phones, {args.bursts} scene changes a run, {args.rounds} runs a tree, {backend}\n")
    print("| tree | idle redraw, server CPU ms | redraw in a burst, server CPU ms | burst: presses -> drawn, "
          "p50 / p95 / max s |")
    print("| --- | ---: | ---: | --- |")
    for name, _ in runs:
        print(line(name, results[name]))
    mean = lambda name, key: statistics.fmean(r[key] for r in results[name])  # noqa: E731
    for name, _ in runs[:-1]:
        print(f"this tree / {name}: idle {mean('this tree', 'idle_ms') / mean(name, 'idle_ms'):.2f}x, "
              f"burst {mean('this tree', 'burst_ms') / mean(name, 'burst_ms'):.2f}x")


if __name__ == "__main__":
    main()
