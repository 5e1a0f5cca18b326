"""A lecture hall of phones on the phone's page (attn_phone, `/j/CODE`): how many phones one core holds, and how soon
each sees a move and hears back from an answer.

Each phone is what a browser running the page's script does, over plain HTTP/1.1 (asyncio streams, no browser): it
opens `/j/CODE` (joins; keeps its cookies), then follows the room on one connection as the script does: it keeps
`GET /j/CODE/events?since=<stamp>` open (server-sent events, `--follow stream`), or holds
`GET /j/CODE/wait?since=<stamp>` and asks again after each answer (`--follow wait`, the script's fallback), and
swaps in the room's page; at each new question it answers once, at a random moment in [1, answer-within] s,
with a POST of the form on a second connection (a number for a number scene, an option for a choice), and reads the
reply. The lecturer moves the room from this process (Poll.show_scene on the database), as a host page on another
replica would: the server hears of it from its room check (poll_route.CHECK_S, 0.1 s), not from a nudge, so the
figures include that wait.

Printed: move -> question with its answer box on the phone (p50/p95/max over phones and scenes), tap -> confirmed,
answers sent, confirmed, counted in the database (lost = confirmed but not counted), server CPU a phone-minute
(utime + stime of the server process from /proc over the lecture, joins excluded), the first visit's bytes, and
requests a phone-minute. With --server-cpus 0 the server keeps CPU 0 and the phones the others.

    python3 bench/phone_load.py --phones 1000 --server-cpus 0
    python3 bench/phone_load.py --phones 1000 --server-cpus 0 --follow both   # stream, then wait: the same run's ratio
    python3 bench/phone_load.py --phones 1000 --server-cpus 0 --url postgresql+psycopg://...
Servers listen on 127.0.0.1 only; the run is bounded by --scenes x --scene-seconds plus the joins.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402

MAIN = re.compile(r'data-stamp="([^"]+)" data-phase="([^"]+)"\s+data-kind="([^"]+)" data-q="(-?\d+)" data-r="(\d+)"')


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def spread(values: list[float]) -> str:
    return (f"p50 {percentile(values, 0.5):.3f} s, p95 {percentile(values, 0.95):.3f} s, max {max(values):.3f} s "
            f"over {len(values)}") if values else "none"


@dataclass
class Tally:
    moved_at: dict[tuple[int, str], float] = field(default_factory=dict)  # (scene index, phase) -> when the bench moved
    arrived: list[float] = field(default_factory=list)  # move -> the phone has the page with its answer box
    confirmed: list[float] = field(default_factory=list)  # tap -> reply read
    sent: dict[int, int] = field(default_factory=dict)  # scene index -> answers confirmed
    refused: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    requests: int = 0
    rss_mb: float = 0.0
    first_visit_bytes: list[int] = field(default_factory=list)
    stop: bool = False


class Connection:
    """One keep-alive HTTP/1.1 connection to the server: one request at a time (a second waits for the first, as a
    browser queues on a connection; two on one socket would read each other's answers)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.turn: asyncio.Lock | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"",
                      timeout: float = 60.0) -> tuple[int, dict[str, str], bytes, int]:
        """One request; on a kept-alive connection the server closed meanwhile (its keep-alive timeout), once more
        on a new one, as a browser does."""
        if self.turn is None:
            self.turn = asyncio.Lock()
        async with self.turn:
            reused = self.writer is not None and not self.writer.is_closing()
            try:
                return await self._send(method, path, headers, body, timeout)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if not reused:
                    raise
            except BaseException:  # a timeout or a cancel mid-answer: what is left on the socket is no one's
                self.close()
                raise
            try:
                return await self._send(method, path, headers, body, timeout)
            except BaseException:
                self.close()
                raise

    async def _send(self, method: str, path: str, headers: dict[str, str], body: bytes,
                    timeout: float) -> tuple[int, dict[str, str], bytes, int]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                 *(f"{k}: {v}" for k, v in headers.items())]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        return await asyncio.wait_for(self._response(), timeout)

    async def _response(self) -> tuple[int, dict[str, str], bytes, int]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        headers: dict[str, str] = {}
        cookies = []
        for line in head.decode("latin-1").split("\r\n")[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                if name.lower() == "set-cookie":
                    cookies.append(value.strip())
                headers[name.lower()] = value.strip()
        headers["set-cookie"] = "\n".join(cookies)
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    break
                body += await self.reader.readexactly(size + 2)
                body = body[:-2]
        else:
            body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, body, len(head) + len(body)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = None


class Phone:
    def __init__(self, port: int, code: str, tally: Tally, questions: list[live.Live], rng: random.Random,
                 answer_within: float) -> None:
        self.port, self.code, self.tally, self.questions = port, code, tally, questions
        self.rng, self.answer_within = rng, answer_within
        self.cookies: dict[str, str] = {}
        self.waiting, self.sending = Connection(port), Connection(port)
        self.stamp = ""
        self.answered: set[int] = set()

    def cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    def keep_cookies(self, headers: dict[str, str]) -> None:
        for line in headers.get("set-cookie", "").split("\n"):
            if "=" in line:
                name, value = line.split(";", 1)[0].split("=", 1)
                self.cookies[name.strip()] = value.strip()

    async def join(self) -> None:
        status, headers, body, size = await self.waiting.request("GET", f"/j/{self.code}",
                                                                  {"Accept-Encoding": "gzip"})
        self.tally.requests += 1
        if status != 200:
            self.tally.failures.append(f"join {status}")
            return
        self.keep_cookies(headers)
        self.tally.first_visit_bytes.append(size)
        self.seen(body.decode(errors="replace") if headers.get("content-encoding") != "gzip" else _gunzip(body))

    def seen(self, html: str) -> None:
        found = MAIN.search(html)
        if not found:
            return
        stamp, phase, kind, q, __ = found.groups()
        self.stamp = stamp
        position = int(q)
        if phase == "voting" and kind in ("number", "choice") and position not in self.answered:
            moved = self.tally.moved_at.get((position, "voting"))
            if moved is not None:
                self.tally.arrived.append(time.perf_counter() - moved)
            self.answered.add(position)
            asyncio.ensure_future(self.answer(position, html))

    async def listen(self) -> None:
        """The room as a stream: one request, then an event at each move (a comment between them)."""
        while not self.tally.stop:
            connection = self.waiting
            try:
                connection.close()
                connection.reader, connection.writer = await asyncio.open_connection("127.0.0.1", self.port)
                lines = [f"GET /j/{self.code}/events?since={self.stamp} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                         "Accept: text/event-stream", *(f"{k}: {v}" for k, v in self.cookie_header().items())]
                connection.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
                await connection.writer.drain()
                head = await asyncio.wait_for(connection.reader.readuntil(b"\r\n\r\n"), 70)
                self.tally.requests += 1
                status = int(head.split(b" ", 2)[1])
                if status != 200:
                    self.tally.failures.append(f"events {status}")
                    await asyncio.sleep(1)
                    continue
                waiting = b""
                while not self.tally.stop:
                    size = int((await asyncio.wait_for(connection.reader.readuntil(b"\r\n"), 70)).strip(), 16)
                    if size == 0:
                        break  # the server ended the stream: open it again, as a browser does
                    waiting += (await connection.reader.readexactly(size + 2))[:-2]
                    while b"\n\n" in waiting:
                        event, waiting = waiting.split(b"\n\n", 1)
                        self.heard(event)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                if self.tally.stop:
                    return
                self.tally.failures.append(f"events: {type(error).__name__}")
                await asyncio.sleep(1)

    def heard(self, event: bytes) -> None:
        fields = dict(line.split(": ", 1) for line in event.decode().split("\n") if ": " in line)
        if "data" not in fields or fields.get("event"):
            if fields.get("event"):
                self.tally.failures.append(f"event {fields['event']}")
            return
        told = json.loads(fields["data"])
        if "html" in told:
            self.seen(told["html"])
        elif "stamp" in told:
            self.stamp = told["stamp"]

    async def follow(self) -> None:
        while not self.tally.stop:
            try:
                status, __, body, __ = await self.waiting.request(
                    "GET", f"/j/{self.code}/wait?since={self.stamp}", self.cookie_header(), timeout=70)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                self.tally.failures.append(f"wait: {type(error).__name__}")
                self.waiting.close()
                await asyncio.sleep(1)
                continue
            self.tally.requests += 1
            if status != 200:
                self.tally.failures.append(f"wait {status}")
                await asyncio.sleep(1)
                continue
            told = json.loads(body)
            if "html" in told:
                self.seen(told["html"])
            elif "stamp" in told:
                self.stamp = told["stamp"]

    async def answer(self, position: int, html: str) -> None:
        await asyncio.sleep(self.rng.uniform(1.0, self.answer_within))
        if self.tally.stop:
            return
        question = self.questions[position]
        round_number = MAIN.search(html).group(5)
        fields = {"csrf": self.cookies.get("attn_csrf", ""), "q": str(position), "r": round_number}
        option = self.rng.randrange(question.option_count)
        if question.kind == "number":
            fields["typed"] = question.options[option]
        else:
            fields["option"] = str(option)
        body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
        tapped = time.perf_counter()
        try:
            status, __, reply, __ = await self.sending.request(
                "POST", f"/j/{self.code}/vote", {**self.cookie_header(), "Accept": "application/json",
                                                 "Content-Type": "application/x-www-form-urlencoded",
                                                 "Origin": f"http://127.0.0.1:{self.port}"}, body)
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
            self.tally.failures.append(f"vote: {type(error).__name__}")
            return
        self.tally.requests += 1
        told = json.loads(reply) if status == 200 else {"sent": False, "note": str(status)}
        if told.get("sent"):
            self.tally.confirmed.append(time.perf_counter() - tapped)
            self.tally.sent[position] = self.tally.sent.get(position, 0) + 1
        else:
            self.tally.refused.append(told.get("note", "")[:60])


def rss_mb(pid: int) -> float:
    """The server's resident memory now (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _gunzip(body: bytes) -> str:
    import gzip

    return gzip.decompress(body).decode(errors="replace")


async def hall(args, port: int, poll: Poll, code: str, secret: str, tally: Tally, questions: list[live.Live],
               pids, mode: str) -> tuple[float, float]:
    rng = random.Random(args.seed)
    phones = [Phone(port, code, tally, questions, random.Random(rng.random()), args.answer_within)
              for _ in range(args.phones)]
    gap = args.join_seconds / max(1, args.phones)
    tally.moved_at[(0, "voting")] = time.perf_counter()  # scene 1 is on before they join: not counted as arrivals
    for phone in phones:
        await phone.join()
        await asyncio.sleep(gap)
    tally.arrived.clear()
    followers = [asyncio.ensure_future(phone.listen() if mode == "stream" else phone.follow()) for phone in phones]
    await asyncio.sleep(2)
    cpu_start, wall_start = sum(harness.process_cpu_seconds(pid) for pid in pids()), time.perf_counter()
    for scene in range(1, args.scenes):
        tally.moved_at[(scene, "voting")] = time.perf_counter()
        await asyncio.to_thread(poll.show_scene, code, secret, scene, False)
        await asyncio.sleep(args.scene_seconds - args.reveal_before)
        await asyncio.to_thread(poll.show_scene, code, secret, scene, True)
        await asyncio.sleep(args.reveal_before)
    cpu = sum(harness.process_cpu_seconds(pid) for pid in pids()) - cpu_start
    tally.rss_mb = sum(rss_mb(pid) for pid in pids())
    wall = time.perf_counter() - wall_start
    tally.stop = True
    for task in followers:
        task.cancel()
    for phone in phones:
        phone.waiting.close()
        phone.sending.close()
    return cpu, wall


def report(args, url: str, deployment, mode: str, tally: Tally, counted: dict[int, int], cpu: float,
           wall: float) -> float:
    """Print one hall's figures; the server CPU a phone-minute."""
    phone_minutes = args.phones * wall / 60
    confirmed = sum(tally.sent.get(scene, 0) for scene in range(1, args.scenes))
    lost = sum(max(0, tally.sent.get(scene, 0) - counted[scene]) for scene in counted)
    twice = sum(max(0, counted[scene] - tally.sent.get(scene, 0)) for scene in counted)
    print(f"\n== phones follow the room by {'a stream (events)' if mode == 'stream' else 'held waits (wait)'}")
    print(f"backend {url.split(':', 1)[0]}{' through HAProxy, 3 replicas' if deployment else ''} · {args.phones} "
          f"phones · server on CPU {args.server_cpus or 'any'} · "
          f"{args.scenes - 1} scenes x {args.scene_seconds:.0f} s measured · load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"move -> question with its answer box on the phone: {spread(tally.arrived)} (target p95 <= 0.3 s); "
          f"expected {args.phones * (args.scenes - 1)}")
    print(f"tap -> confirmed: {spread(tally.confirmed)} (target p95 <= 0.25 s)")
    print(f"answers: confirmed {confirmed}, counted {sum(counted.values())}, lost {lost}, counted twice {twice}, "
          f"refused {len(tally.refused)} {sorted(set(tally.refused))[:3]}")
    print(f"server CPU {cpu:.1f} s over {wall:.0f} s = {cpu / phone_minutes:.4f} s a phone-minute "
          f"(target <= 0.005 s)")
    print(f"first visit (the page, gzip): median {statistics.median(tally.first_visit_bytes or [0]):.0f} bytes; "
          f"requests {tally.requests} = {tally.requests / phone_minutes:.1f} a phone-minute")
    print(f"server memory at the end (VmRSS): {tally.rss_mb:.0f} MB")
    print(f"failures {len(tally.failures)} {sorted(set(tally.failures))[:5]}")
    return cpu / phone_minutes


def make_room_for(phones: int, sockets_a_phone: int, server_cpus_text: str) -> set[int]:
    """This process may open `sockets_a_phone` sockets a phone, and keeps off the server's CPUs ("0" or "0,1"):
    those CPUs, for the server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, sockets_a_phone * phones + 256)), hard))
    server_cpus = {int(c) for c in server_cpus_text.split(",") if c.strip()}
    if server_cpus:
        os.sched_setaffinity(0, os.sched_getaffinity(0) - server_cpus)
    return server_cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--scenes", type=int, default=6, help="scenes shown (the first is on while phones join)")
    parser.add_argument("--scene-seconds", type=float, default=20.0)
    parser.add_argument("--reveal-before", type=float, default=3.0)
    parser.add_argument("--answer-within", type=float, default=12.0)
    parser.add_argument("--join-seconds", type=float, default=20.0)
    parser.add_argument("--url", default="", help="database URL (default: SQLite in a temp folder)")
    parser.add_argument("--server-cpus", default="", help="keep the app server on these CPUs (e.g. 0)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--follow", choices=("stream", "wait", "both"), default="stream",
                        help="how a phone follows the room: the stream (the script's way), the held wait (its "
                             "fallback), or both one after the other on the same server (the same run's ratio)")
    parser.add_argument("--deploy", action="store_true",
                        help="start bash deploy/local.sh (HAProxy, three app.py replicas, its own PostgreSQL; --url "
                             "ignored) and send the phones through the proxy; server CPU is the replicas' sum")
    args = parser.parse_args()
    server_cpus = make_room_for(args.phones, 4, args.server_cpus)
    temp = tempfile.TemporaryDirectory()
    deployment = None
    if args.deploy:
        sys.path.insert(0, str(REPO_ROOT / "tests" / "deploy"))
        from local_deploy import start_local  # noqa: PLC0415

        deployment = start_local()
        args.url = deployment.database_url
    url = args.url or f"sqlite:///{Path(temp.name) / 'poll.sqlite3'}"
    os.environ["ATTN_LAB_DATABASE_URL"] = url
    poll = Poll(open_store(url, application_name="attn-lab-phone-bench"))
    questions = [live.live_question(n) for n in range(1, len(live.SCENES) + 1)]
    import load  # noqa: PLC0415 (bench/load.py: pin_to)
    import phones as streamlit_phones  # noqa: PLC0415 (bench/phones.py: serve, stop)

    log_path = Path(temp.name) / "server.log"
    if deployment is not None:
        port, process = deployment.proxy_port, None
        pids = lambda: [deployment.replica_pid(n) for n in (1, 2, 3)]  # noqa: E731
    else:
        port = harness.free_port()
        process = streamlit_phones.serve(port, log_path, "app.py")
        if server_cpus:
            load.pin_to(process.pid, server_cpus)
        pids = lambda: [process.pid]  # noqa: E731
    modes = ("stream", "wait") if args.follow == "both" else (args.follow,)
    cpu_a_minute = {}
    try:
        for mode in modes:  # each on a room of its own, one after the other, on the same server
            room = poll.create_room(live.lecture_questions())
            poll.show_scene(room.code, room.host_secret, 0, False)
            tally = Tally()
            cpu, wall = asyncio.run(hall(args, port, poll, room.code, room.host_secret, tally, questions, pids, mode))
            counted = {scene: sum(poll.counts(room.code, scene).rounds[0]) for scene in range(1, args.scenes)}
            cpu_a_minute[mode] = report(args, url, deployment, mode, tally, counted, cpu, wall)
    finally:
        if deployment is not None:
            log_path.write_text("".join((deployment.run_dir / f"app{n}.log").read_text(errors="replace")
                                        for n in (1, 2, 3)))
            poll.store.engine.dispose()
            deployment.stop()
        else:
            streamlit_phones.stop(process)
    log = log_path.read_text(errors="replace")
    print(f"server log tracebacks {log.count('Traceback')}")
    if len(cpu_a_minute) == 2:
        print(f"server CPU a phone-minute, stream / wait in this run: {cpu_a_minute['stream']:.4f} / "
              f"{cpu_a_minute['wait']:.4f} s = {cpu_a_minute['stream'] / cpu_a_minute['wait']:.2f}")
    poll.store.engine.dispose()


if __name__ == "__main__":
    main()
