"""What one request of the phone's page costs the server, by kind: the server's CPU over a bounded burst of requests
divided by their number, so a change to one path (an answer, the floor under every route) is measured alone.

The app server runs alone on a CPU (--server-cpus 0); the phones are asyncio HTTP/1.1 clients in this process
(bench/phone_load.py's Connection), each with its own cookies. Kinds, one after the other on the same server:

    floor    GET /j/s/<stylesheet>: the route that does least (no database); what every request pays in the server
    answer   POST /j/CODE/vote, each phone once, at --rate answers a second (a hall answering one question)
    page     GET /j/CODE: a phone's first visit (joins the room)

    python3 bench/phone_request_cost.py --server-cpus 0
    python3 bench/phone_request_cost.py --server-cpus 0 --phones 2000 --rate 200

Printed: per kind, the server CPU a request (ms), the requests' p50/p95 time, and for answers the number counted in
the database (each phone's answer once). Servers listen on 127.0.0.1; each burst is bounded by --phones.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402
import load  # noqa: E402 (pin_to)
import phones as streamlit_phones  # noqa: E402 (serve, stop)
from phone_load import Connection, make_room_for, percentile  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402

STYLESHEET = 'href="(/j/s/phone\\.[^"]+\\.css)"'


class Visitor:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = Connection(port)
        self.cookies: dict[str, str] = {}

    def headers(self, **more: str) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {**({"Cookie": cookie} if cookie else {}), **more}

    def keep(self, headers: dict[str, str]) -> None:
        for line in headers.get("set-cookie", "").split("\n"):
            if "=" in line:
                name, value = line.split(";", 1)[0].split("=", 1)
                self.cookies[name.strip()] = value.strip()


async def burst(visitors: list[Visitor], rate: float, one) -> list[float]:
    """Each visitor's request once, started at `rate` a second (0: all at once); their times."""
    times: list[float] = []

    async def run(visitor: Visitor, delay: float) -> None:
        await asyncio.sleep(delay)
        started = time.perf_counter()
        await one(visitor)
        times.append(time.perf_counter() - started)

    await asyncio.gather(*(run(v, n / rate if rate else 0.0) for n, v in enumerate(visitors)))
    return times


async def measure(label: str, pid: int, visitors: list[Visitor], rate: float, one) -> float:
    cpu = harness.process_cpu_seconds(pid)
    started = time.perf_counter()
    times = await burst(visitors, rate, one)
    wall = time.perf_counter() - started
    cpu = harness.process_cpu_seconds(pid) - cpu
    each = cpu / len(visitors) * 1000
    print(f"{label:7s} {len(visitors)} requests in {wall:.1f} s: server CPU {cpu:.2f} s = {each:.2f} ms a request; "
          f"time p50 {percentile(times, 0.5) * 1000:.1f} ms, p95 {percentile(times, 0.95) * 1000:.1f} ms")
    return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="answers a second (0: all at once)")
    parser.add_argument("--url", default="", help="database URL (default: SQLite in a temp folder)")
    parser.add_argument("--server-cpus", default="", help="keep the app server on these CPUs (e.g. 0)")
    args = parser.parse_args()
    server_cpus = make_room_for(args.phones, 2, args.server_cpus)
    temp = tempfile.TemporaryDirectory()
    url = args.url or f"sqlite:///{Path(temp.name) / 'poll.sqlite3'}"
    os.environ["ATTN_LAB_DATABASE_URL"] = url
    poll = Poll(open_store(url, application_name="attn-lab-request-bench"))
    port = harness.free_port()
    log_path = Path(temp.name) / "server.log"
    process = streamlit_phones.serve(port, log_path, "app.py")
    if server_cpus:
        load.pin_to(process.pid, server_cpus)
    try:
        room = poll.create_room(live.lecture_questions())
        position = next(n for n in range(1, len(live.SCENES)) if live.live_question(n + 1).kind == "choice")
        poll.show_scene(room.code, room.host_secret, position, False)
        visitors = [Visitor(port) for _ in range(args.phones)]
        stylesheet: list[str] = []

        async def page(visitor: Visitor) -> None:
            status, headers, body, __ = await visitor.connection.request("GET", f"/j/{room.code}", visitor.headers())
            assert status == 200, status
            visitor.keep(headers)
            if not stylesheet:
                import re  # noqa: PLC0415

                stylesheet.append(re.search(STYLESHEET, body.decode()).group(1))

        async def floor(visitor: Visitor) -> None:
            status, *__ = await visitor.connection.request("GET", stylesheet[0], visitor.headers())
            assert status == 200, status

        async def answer(visitor: Visitor) -> None:
            body = f"csrf={visitor.cookies['attn_csrf']}&q={position}&r=1&option=1".encode()
            status, __, reply, __ = await visitor.connection.request(
                "POST", f"/j/{room.code}/vote", visitor.headers(**{
                    "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": f"http://127.0.0.1:{port}"}), body)
            assert status == 200 and b'"sent":true' in reply, (status, reply[:200])

        async def kinds() -> tuple[float, float]:
            fast = 0.0 if args.rate == 0 else args.rate * 2
            await measure("page", process.pid, visitors, fast, page)
            floor_ms = await measure("floor", process.pid, visitors, fast, floor)
            answer_ms = await measure("answer", process.pid, visitors, args.rate, answer)
            for visitor in visitors:
                visitor.connection.close()
            return floor_ms, answer_ms

        print(f"backend {url.split(':', 1)[0]} · server on CPU {args.server_cpus or 'any'} · load average "
              f"{os.getloadavg()[0]:.1f}")
        floor_ms, answer_ms = asyncio.run(kinds())
        counted = sum(poll.counts(room.code, position).rounds[0])
        print(f"answers counted {counted} of {len(visitors)}; an answer costs {answer_ms / floor_ms:.1f} floors "
              f"({answer_ms - floor_ms:.2f} ms above the floor)")
    finally:
        streamlit_phones.stop(process)
        poll.store.engine.dispose()
    log = log_path.read_text(errors="replace")
    print(f"server log tracebacks {log.count('Traceback')}")


if __name__ == "__main__":
    main()
