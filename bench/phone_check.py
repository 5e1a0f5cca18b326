"""What an idle phone's check costs the server when the browser asks the route instead of a script run.

    python3 bench/phone_check.py                 # 150 phones, 30 s a phase, SQLite (a temp file)
    python3 bench/phone_check.py --url postgresql+psycopg://...

One server (`streamlit run app.py`, loopback only). Phones are asyncio HTTP/1.1 clients on kept-alive
connections, as a browser's fetch is; each asks every --every seconds, their starts spread over the interval.
Phases, in the same server run:
  1. baseline: every phone asks `/_stcore/health`, the cheapest route the server has (no database);
  2. the check: every phone asks `/_attn/room/<CODE>/stamp` for one open room (an indexed read of its row).
Printed: server CPU per request in each phase (from /proc), their ratio, and the answer time p50/p95. The old way
(a timed fragment rerun per check) is measured by bench/load_poll.py's idle phase: 8.5 to 10.4 ms a check.
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

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402


async def phone(port: int, path: str, every: float, start_in: float, until: float, times: list[float],
                failures: list[str]) -> None:
    await asyncio.sleep(start_in)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n".encode()
    try:
        while time.monotonic() < until:
            asked = time.monotonic()
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length"))
            body = await reader.readexactly(length)
            if not head.startswith(b"HTTP/1.1 200"):
                failures.append(head.split(b"\r\n")[0].decode() + " " + body[:80].decode(errors="replace"))
            times.append(time.monotonic() - asked)
            await asyncio.sleep(max(0.0, every - (time.monotonic() - asked)))
    finally:
        writer.close()


async def phase(port: int, path: str, phones: int, every: float, seconds: float, pid: int) -> dict:
    times: list[float] = []
    failures: list[str] = []
    until = time.monotonic() + seconds
    cpu_before = harness.process_cpu_seconds(pid)
    await asyncio.gather(*(phone(port, path, every, every * i / phones, until, times, failures)
                           for i in range(phones)))
    cpu = harness.process_cpu_seconds(pid) - cpu_before
    return {"requests": len(times), "cpu_s": cpu, "ms_per_request": 1000 * cpu / max(1, len(times)),
            "p50_ms": 1000 * statistics.median(times) if times else float("nan"),
            "p95_ms": 1000 * statistics.quantiles(times, n=20)[18] if len(times) > 20 else float("nan"),
            "failures": failures[:3], "failed": len(failures)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--url", default="")
    args = parser.parse_args()
    url = args.url or f"sqlite:///{Path(tempfile.mkdtemp(prefix='phone-check-')) / 'poll.sqlite3'}"
    os.environ["ATTN_LAB_DATABASE_URL"] = url  # the server inherits it
    poll = Poll(open_store(url))
    room = poll.create_room([("causal-why", 4)])
    with harness.start_server("app.py", cwd=REPO_ROOT) as server:
        asyncio.run(phase(server.port, "/_stcore/health", 5, 0.2, 3, server.pid))  # warm up both paths
        asyncio.run(phase(server.port, f"/_attn/room/{room.code}/stamp", 5, 0.2, 3, server.pid))
        base = asyncio.run(phase(server.port, "/_stcore/health", args.phones, args.every, args.seconds, server.pid))
        check = asyncio.run(phase(server.port, f"/_attn/room/{room.code}/stamp", args.phones, args.every,
                                  args.seconds, server.pid))
    backend = url.split(":", 1)[0]
    print(f"{args.phones} idle phones, one check every {args.every:g} s each, {args.seconds:g} s a phase, {backend}")
    for name, found in (("baseline /_stcore/health", base), ("the room's stamp route", check)):
        print(f"  {name:26s} {found['requests']:6d} requests  {found['ms_per_request']:.2f} ms server CPU each  "
              f"answer p50 {found['p50_ms']:.1f} ms p95 {found['p95_ms']:.1f} ms  failed {found['failed']} "
              f"{found['failures']}")
    print(f"  stamp / health CPU per request: {check['ms_per_request'] / max(1e-9, base['ms_per_request']):.2f}x")
    print(f"  server CPU for {args.phones} idle phones: {check['cpu_s'] / args.seconds * 100:.1f}% of one core")


if __name__ == "__main__":
    main()
