"""Start `bash deploy/local.sh` on free loopback ports and talk to what it started (tests and benches).

    with start_local() as deployment:          # returns once local.sh printed the proxy's URL (all healthy)
        deployment.url                         # http://127.0.0.1:<port>/
        deployment.replica_pid(2)              # the pid of replica 2 (changes when local.sh restarts it)
        deployment.server_states()             # {"app1": "UP", ...} from HAProxy's runtime API

Importable without pytest; the skip-or-fail policy lives in tests/deploy/conftest.py.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.browser import harness

REPO_ROOT = Path(__file__).resolve().parents[2]
LOCAL_SH = REPO_ROOT / "deploy" / "local.sh"
COOKIE = "ATTN_REPLICA"  # deploy/haproxy.cfg's sticky cookie; its values name the replicas
REPLICAS = {"a1": "app1", "a2": "app2", "a3": "app3"}
START_TIMEOUT_S = 240.0  # the first start on a machine also runs deploy/precompress.py (brotli 11: a minute or more)


class DeployError(RuntimeError):
    """local.sh did not come up; the message ends with its output and logs."""


def missing_tools() -> list[str]:
    """What local.sh needs and this machine lacks (Debian packages)."""
    missing = [] if shutil.which("haproxy") else ["haproxy"]
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        missing.append("postgresql")
    return missing


@dataclass
class Deployment:
    process: subprocess.Popen
    run_dir: Path
    proxy_port: int
    app_ports: list[int]
    pg_port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}/"

    @property
    def database_url(self) -> str:
        """The class poll's database, as local.sh gave it to the replicas."""
        return (self.run_dir / "database_url").read_text().strip()

    def output(self) -> str:
        return _read(self.run_dir / "stdout.txt") + _read(self.run_dir / "stderr.txt")

    def log_tail(self, lines: int = 30) -> str:
        parts = [f"--- local.sh output\n{self.output()}"]
        for name in ("haproxy.log", "app1.log", "app2.log", "app3.log"):
            text = _read(self.run_dir / name).splitlines()[-lines:]
            parts.append(f"--- {name}\n" + "\n".join(text))
        return "\n".join(parts)

    def replica_pid(self, number: int) -> int:
        return int((self.run_dir / f"app{number}.pid").read_text())

    def haproxy(self, command: str) -> str:
        """One command on HAProxy's runtime API (the stats socket in the run folder)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.run_dir / "haproxy.sock"))
            sock.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def server_states(self) -> dict[str, str]:
        """{"app1": "UP" | "DOWN" | ..., ...}: the proxy's own view of each replica (`show stat`)."""
        lines = self.haproxy("show stat").splitlines()
        header = lines[0].lstrip("# ").split(",")
        rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
        return {row["svname"]: row["status"].split()[0] for row in rows
                if row["pxname"] == "replicas" and row["svname"] in REPLICAS.values()}  # fmt: skip

    def fresh_visit(self) -> str:
        """GET / as a new browser would (no cookie); the replica the proxy picked, from the cookie it set."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with opener.open(self.url, timeout=10) as response:
            response.read()
        values = [cookie.value for cookie in jar if cookie.name == COOKIE]
        assert len(values) == 1, f"the proxy set no {COOKIE} cookie (cookies: {list(jar)})"
        return REPLICAS[values[0]]

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """SIGTERM local.sh (it stops everything it started), wait, then remove the run folder."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Deployment:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def start_local(respawn_delay: float = 3, timeout: float = START_TIMEOUT_S, extra_env: dict[str, str] | None = None,
                local_sh: Path = LOCAL_SH) -> Deployment:
    """Run deploy/local.sh on free ports until it prints the proxy's URL; retried when a port was taken."""
    last = ""
    for _attempt in range(3):
        ports = [harness.free_port() for _ in range(5)]
        if len(set(ports)) < 5:
            continue
        run_dir = Path(tempfile.mkdtemp(prefix="attn-deploy-test-"))
        env = {**os.environ, "ATTN_PROXY_PORT": str(ports[0]), "ATTN_APP_PORTS": " ".join(map(str, ports[1:4])),
               "ATTN_PG_PORT": str(ports[4]), "ATTN_RUN_DIR": str(run_dir), "ATTN_RESPAWN_DELAY": str(respawn_delay),
               **(extra_env or {})}  # fmt: skip
        with open(run_dir / "stdout.txt", "wb") as out, open(run_dir / "stderr.txt", "wb") as err:
            process = subprocess.Popen(["bash", str(local_sh)], cwd=local_sh.parents[1], env=env,
                                       stdin=subprocess.DEVNULL, stdout=out, stderr=err)  # fmt: skip
        deployment = Deployment(process, run_dir, ports[0], ports[1:4], ports[4])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and deployment.alive():
            first = _read(run_dir / "stdout.txt").partition("\n")
            if first[1]:
                if first[0] != deployment.url:
                    deployment.stop()
                    raise DeployError(f"local.sh's first line is {first[0]!r}, not {deployment.url!r}")
                return deployment
            time.sleep(0.2)
        last = deployment.log_tail()
        timed_out = deployment.alive()
        with contextlib.suppress(Exception):
            deployment.stop()
        if timed_out or "is in use" not in last:
            raise DeployError(f"local.sh {'timed out' if timed_out else 'exited'}:\n{last}")
    raise DeployError(f"local.sh could not get free ports (3 tries):\n{last}")


def in_own_thread(function: Callable[[], None]) -> None:
    """Run `function` in a new thread and re-raise what it raised there.

    Playwright's sync API runs one instance per thread, and under xdist the browser tests' session-wide
    browser may already hold this worker's main thread.
    """
    raised: list[BaseException] = []

    def target() -> None:
        try:
            function()
        except BaseException as error:  # noqa: BLE001  assertion errors, skips and fails alike
            raised.append(error)

    thread = threading.Thread(target=target, name="deploy-browser")
    thread.start()
    thread.join()
    if raised:
        raise raised[0]
