"""A class votes: N students vote within a few seconds while their phones and the projector poll the room.

usage: python3 bench/poll.py [--voters 150] [--spread 5] [--backends sqlite,postgresql]

Per backend, in one run and one process (threads, loopback only, bounded by --spread + a few seconds):
- the class: every student has joined; each votes at its moment (uniform over --spread s) and its phone
  polls phone_view once a second throughout; two projectors on their own engine (another app process)
  poll projector_view every 0.5 s and every 1 s;
- the baseline, just before: the same threads on the same schedule, every query replaced by `SELECT 1`
  (the projector then reads how many of those "votes" have returned): the floor that threads, the pool,
  the driver and the polling interval set on their own.
Figures: votes lost (expected minus counted), p50/p95 of a vote and of a phone's poll, and from a student's
tap to the projector's count including it. The k-th vote to return is taken as
seen by the first projector read ending with a total >= k. Threads share one GIL with the readers, so a
latency here includes Python's own queueing; read the ratio to SELECT 1 as well as the figure.
PostgreSQL comes from ATTN_TEST_DATABASE_URL (`bash scripts/test_postgres.sh`), in a schema dropped after.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import numpy as np
from sqlalchemy import create_engine, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_poll import Poll, open_store  # noqa: E402

PROJECTOR_INTERVALS = (0.5, 1.0)
PHONE_INTERVAL = 1.0
OPTIONS = 4


def percentiles(values: list[float]) -> str:
    if not values:
        return "   -   /   -  "
    p50, p95 = np.percentile(np.array(values) * 1000, [50, 95])  # ms
    return f"{p50:6.1f} / {p95:6.1f}"


def run_class(voters: int, spread: float, vote, phone, projector) -> dict:
    """N students on one schedule: vote(number) once at its moment, phone(number) every second throughout, and
    projector() -> total votes every 0.5 s and 1 s. Returns the timings and the tap -> visible delays."""
    moments = np.linspace(0, spread, voters, endpoint=False)  # (N,) seconds after the start
    vote_times, tapped_returned, phone_reads, errors = [], [], [], []
    reads = {interval: [] for interval in PROJECTOR_INTERVALS}  # interval -> [(end time, total)]
    start = time.monotonic() + 0.5
    stop = start + spread + 2.5

    def student(number: int, moment: float) -> None:
        next_poll = start + (number % 10) / 10  # phones do not poll in step
        voted = False
        while time.monotonic() < stop:
            now = time.monotonic()
            if not voted and now >= start + moment:
                tapped = time.monotonic()
                try:
                    vote(number)
                    vote_times.append(time.monotonic() - tapped)
                    tapped_returned.append((tapped, time.monotonic()))
                except Exception as error:  # noqa: BLE001  counted and reported, never hidden
                    errors.append(repr(error))
                voted = True
            elif now >= next_poll:
                began = time.perf_counter()
                phone(number)
                phone_reads.append(time.perf_counter() - began)
                next_poll += PHONE_INTERVAL
            wake = min(next_poll, start + moment) if not voted else next_poll
            time.sleep(max(0.0, min(wake, stop) - time.monotonic()))

    def projector_loop(interval: float) -> None:
        next_read = start
        while time.monotonic() < stop:
            time.sleep(max(0.0, next_read - time.monotonic()))
            total = projector()
            reads[interval].append((time.monotonic(), total))
            next_read += interval

    threads = [threading.Thread(target=student, args=(n, m)) for n, m in enumerate(moments)]
    threads += [threading.Thread(target=projector_loop, args=(i,)) for i in PROJECTOR_INTERVALS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    visible = {}
    by_return = sorted(tapped_returned, key=lambda pair: pair[1])
    for interval, seen in reads.items():
        delays = []
        for rank, (tapped, _returned) in enumerate(by_return, start=1):
            first = next((end for end, total in seen if total >= rank), None)
            if first is not None:
                delays.append(first - tapped)
        visible[interval] = delays
    return {"errors": errors, "vote": vote_times, "phone": phone_reads, "visible": visible}


def run_backend(url: str, schema: str | None, voters: int, spread: float) -> tuple[dict, dict, int]:
    """(baseline, poll, votes lost): the same class twice, first with SELECT 1 for every query."""
    store = open_store(url, schema=schema)
    projector_store = open_store(url, schema=schema)  # the projector's own engine, as a second app process has
    try:
        def select_one(opened) -> int:
            return opened.read(lambda c: c.execute(select(1)).scalar_one())

        done = []  # the baseline's "votes": the projector reads how many SELECT 1 calls have returned
        baseline = run_class(voters, spread, vote=lambda n: (select_one(store), done.append(n)),
                             phone=lambda n: select_one(store),
                             projector=lambda: select_one(projector_store) and len(done))

        poll, projector = Poll(store), Poll(projector_store)
        room = poll.create_room([("masks.causal", OPTIONS)])
        poll.next_question(room.code, room.host_secret)
        for number in range(voters):
            poll.join(room.code, f"bench-{number}")  # joining happens before "vote now"
        measured = run_class(voters, spread,
                             vote=lambda n: poll.vote(room.code, f"bench-{n}", 0, 1, n % OPTIONS),
                             phone=lambda n: poll.phone_view(room.code, f"bench-{n}"),
                             projector=lambda: projector.projector_view(room.code).counts.total(1))
        return baseline, measured, voters - poll.counts(room.code).total(1)
    finally:
        for opened in (store, projector_store):
            opened.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voters", type=int, default=150)
    parser.add_argument("--spread", type=float, default=5.0, help="seconds over which the votes arrive")
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    if not 1 <= args.voters <= 300 or not 0.5 <= args.spread <= 30:
        parser.error("--voters 1..300 and --spread 0.5..30 keep the bench bounded")

    print(f"{args.voters} voters within {args.spread:g} s; phones poll every {PHONE_INTERVAL:g} s; "
          f"projectors every {' and '.join(f'{i:g}' for i in PROJECTOR_INTERVALS)} s. Times in ms (p50 / p95).")
    print(f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (other work on the machine counts)")
    for backend in args.backends.split(","):
        schema = None
        with tempfile.TemporaryDirectory(prefix="attn-poll-bench-") as folder:
            if backend == "sqlite":
                url = f"sqlite:///{folder}/poll.sqlite3"
            else:
                url = os.environ.get("ATTN_TEST_DATABASE_URL", "")
                if not url:
                    print(f"{backend}: skipped (set ATTN_TEST_DATABASE_URL; bash scripts/test_postgres.sh)")
                    continue
                schema = f"poll_bench_{uuid.uuid4().hex[:10]}"
            try:
                baseline, result, lost = run_backend(url, schema, args.voters, args.spread)
            finally:
                if schema:
                    admin = create_engine(url)
                    with admin.begin() as connection:
                        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))  # our own name
                    admin.dispose()
        print(f"\n{backend}: votes lost {lost}, errors {len(result['errors'])} {result['errors'][:3]}"
              f" (baseline errors {len(baseline['errors'])})")
        print("                        poll        baseline (SELECT 1 for every query, same schedule)")
        print(f"  vote             {percentiles(result['vote'])}   {percentiles(baseline['vote'])}")
        print(f"  phone poll       {percentiles(result['phone'])}   {percentiles(baseline['phone'])}"
              f"   ({len(result['phone'])} phone_view polls)")
        for interval in PROJECTOR_INTERVALS:
            delays, floor = result["visible"][interval], baseline["visible"][interval]
            print(f"  tap -> projector {percentiles(delays)}   {percentiles(floor)}"
                  f"   (projector polls every {interval:g} s; {len(delays)} of {args.voters} votes seen)")


if __name__ == "__main__":
    main()
