"""Health checks under a busy host: does HAProxy keep live replicas in, and still take a dead one out fast?

    python3 bench/health.py                          # 300 s of two CPU hogs beside 30 sessions (the soak)
    python3 bench/health.py --seconds 60 --sessions 20

Starts deploy/local.sh (HAProxy with deploy/haproxy.cfg, three replicas, PostgreSQL) on free loopback ports, then:
1. idle: times GET /_stcore/health on each replica directly (a sample every 0.2 s) for --idle seconds;
2. busy: two CPU hogs (busy loops, one per core of this 2-core machine, same niceness as the replicas, killed at
   the end) and bench/load.py's light clients (Streamlit's own protocol, through the proxy, clicking the Lab) for
   --seconds; meanwhile the same health timing, and HAProxy's own counters from its runtime API: checks failed
   (`chkfail`) and times a replica went DOWN (`chkdown`) per replica, and any status other than UP, every 0.25 s;
3. a replica is killed (SIGKILL): the time until HAProxy says DOWN.
Prints one line per phase and a last line of figures. Exit status 1 if a live replica went down or the dead one
stayed in for more than 3 s. The time bounds: --seconds + --idle + about 60 s of start and stop.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.deploy import local_deploy  # noqa: E402

HOG = "import time\nend = time.monotonic() + float(__import__('sys').argv[1])\nwhile time.monotonic() < end: pass\n"
OUT_WITHIN_S = 3.0


def health_ms(port: int, timeout: float = 30.0) -> float:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=timeout) as response:
            ok = response.read() == b"ok"
    except OSError:
        ok = False
    return (time.perf_counter() - start) * 1000 if ok else float("inf")


def sample_health(ports: list[int], seconds: float, out: list[float]) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for port in ports:
            out.append(health_ms(port))
        time.sleep(0.2)


def quantiles(values: list[float]) -> str:
    done = sorted(values)
    if not done:
        return "no samples"
    pick = lambda q: done[min(len(done) - 1, int(q * len(done)))]  # noqa: E731
    return (f"n={len(done)} p50={pick(0.5):.0f} ms p95={pick(0.95):.0f} ms p99={pick(0.99):.0f} ms "
            f"max={done[-1]:.0f} ms; over 1 s (the old `timeout check 1s`): {sum(v > 1000 for v in done)}")


def counters(deployment: local_deploy.Deployment) -> dict[str, dict[str, str]]:
    lines = deployment.haproxy("show stat").splitlines()
    header = lines[0].lstrip("# ").split(",")
    rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
    return {row["svname"]: row for row in rows if row["pxname"] == "replicas" and row["svname"].startswith("app")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300.0, help="the busy phase: hogs and sessions")
    parser.add_argument("--idle", type=float, default=10.0, help="health timing with nothing else running")
    parser.add_argument("--sessions", type=int, default=30, help="light clients clicking through the proxy")
    parser.add_argument("--hogs", type=int, default=2, help="CPU hogs (busy loops)")
    args = parser.parse_args()

    with local_deploy.start_local(respawn_delay=3) as deployment:
        idle: list[float] = []
        sample_health(deployment.app_ports, args.idle, idle)
        print(f"idle  /_stcore/health: {quantiles(idle)}", flush=True)

        before = counters(deployment)
        hogs = [subprocess.Popen([sys.executable, "-c", HOG, str(args.seconds + 30)]) for _ in range(args.hogs)]
        load = subprocess.Popen(
            [sys.executable, str(REPO_ROOT / "bench" / "load.py"), "--proxy", deployment.url, "--browsers", "0",
             "--sessions", str(args.sessions), "--ramp", "10", "--warmup", "0", "--window", str(args.seconds - 15),
             "--timeout", "30", *[f"--replica-pid={deployment.replica_pid(n)}" for n in (1, 2, 3)]],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
        busy: list[float] = []
        sampler = threading.Thread(target=sample_health, args=(deployment.app_ports, args.seconds, busy))
        sampler.start()
        not_up: list[str] = []
        end = time.monotonic() + args.seconds
        try:
            while time.monotonic() < end:
                for name, row in counters(deployment).items():
                    if not row["status"].startswith("UP"):
                        not_up.append(f"{time.monotonic() - end + args.seconds:.1f}s {name} {row['status']}")
                time.sleep(0.25)
        finally:
            sampler.join()
            for hog in hogs:
                hog.kill()
                hog.wait()
            try:
                load_out, _ = load.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                load.kill()
                load_out, _ = load.communicate()
        after = counters(deployment)
        failed = {n: int(after[n]["chkfail"]) - int(before[n]["chkfail"]) for n in after}
        downs = {n: int(after[n]["chkdown"]) - int(before[n]["chkdown"]) for n in after}
        print(f"busy  /_stcore/health ({args.hogs} hogs, {args.sessions} sessions, {args.seconds:.0f} s): "
              f"{quantiles(busy)}", flush=True)
        print(f"busy  HAProxy: failed checks {failed}, went DOWN {downs}, seen not UP {len(not_up)} times "
              f"{not_up[:5]}", flush=True)
        tail = [line for line in load_out.splitlines() if line.strip()][-8:]
        print("busy  bench/load.py:\n    " + "\n    ".join(tail), flush=True)

        os.kill(deployment.replica_pid(2), signal.SIGKILL)
        killed = time.monotonic()
        while counters(deployment)["app2"]["status"].startswith("UP") and time.monotonic() - killed < 30:
            time.sleep(0.05)
        out_after = time.monotonic() - killed
        print(f"kill  replica 2 DOWN after {out_after:.2f} s", flush=True)
    ok = sum(downs.values()) == 0 and not not_up and out_after <= OUT_WITHIN_S
    print(f"RESULT healthy replicas marked down: {sum(downs.values())}; killed replica out after {out_after:.2f} s "
          f"(bound {OUT_WITHIN_S} s); busy health max {max(busy, default=float('nan')):.0f} ms: "
          f"{'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
