"""What the languages cost: the server CPU of one Lab click in Spanish against the same click in English, in one run.

    python3 bench/languages.py                        # 6 rounds of 150 clicks in each language, on one server
    python3 bench/languages.py --clicks 300 --rounds 8 --lang es

One server (the Lab, `streamlit run app.py`, loopback) and two light clients (bench/load.py's: Streamlit's own
protocol), one opened with `lang=en`, one with `lang=es`, each its own session. Each flips the Lab's causal mask
--clicks times per series, after a warm-up; the series alternate English, Spanish, Spanish, English (and so on), so a
drift of the machine's speed falls on both languages alike. Server CPU = utime + stime from /proc over a series, less
the idle cost of the pauses (measured first). The figure that counts is the ratio of the two totals, Spanish over
English, and its spread over the rounds: the target is a Spanish click at no more than 1.03 times an English one
(issue 41: translation lookups cost the click at most 3%).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402
import load  # noqa: E402  (its light client speaks Streamlit's protocol)
import websockets  # noqa: E402
from breakdown import click_series  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=150, help="clicks per series")
    parser.add_argument("--rounds", type=int, default=6, help="series per language")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.03, help="seconds between one answer and the next click")
    parser.add_argument("--idle-seconds", type=float, default=3.0)
    parser.add_argument("--lang", default="es", help="the language measured against English")
    return parser.parse_args(argv)


async def measure(server: harness.Server, args) -> dict[str, list[float]]:
    clients, sockets, causal = {}, {}, {}
    for number, code in enumerate(("en", args.lang), start=1):
        client = load.LightClient(number, server, load.Level(1, 0, window_start=0.0), (args.pause, args.pause),
                                  SimpleNamespace(timeout=30.0, open_timeout=90.0))
        client.query = f"seed={number}&lang={code}"  # two sessions, the same Lab, one language each
        socket = await websockets.connect(client.url, subprotocols=["streamlit"], max_size=None, ping_interval=None,
                                          open_timeout=90)
        first = await client.rerun(socket, None, 90.0)
        if first.problems or not client.toggle_id:
            raise SystemExit(f"{code}: first run {first.problems or 'has no causal mask toggle'}")
        causal[code] = await click_series(client, socket, args.warmup, args.pause, False)
        clients[code], sockets[code] = client, socket
    idle_start = server.cpu_seconds()
    await asyncio.sleep(args.idle_seconds)
    idle_per_s = (server.cpu_seconds() - idle_start) / args.idle_seconds
    spent: dict[str, list[float]] = {code: [] for code in clients}
    order = list(clients)
    for round_number in range(args.rounds):
        for code in (order if round_number % 2 == 0 else order[::-1]):  # English, Spanish; Spanish, English; ...
            cpu_start, wall_start = server.cpu_seconds(), time.perf_counter()
            causal[code] = await click_series(clients[code], sockets[code], args.clicks, args.pause, causal[code])
            busy = server.cpu_seconds() - cpu_start - idle_per_s * (time.perf_counter() - wall_start)
            spent[code].append(max(busy, 0.0) * 1000 / args.clicks)
    for socket in sockets.values():
        await socket.close()
    return spent


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    with harness.start_server(REPO_ROOT / "app.py", cwd=REPO_ROOT) as server:
        spent = asyncio.run(measure(server, args))
    english, other = spent["en"], spent[args.lang]
    ratios = [b / a for a, b in zip(english, other, strict=True) if a > 0]
    print(f"\nserver CPU of one Lab click, ms ({args.rounds} series of {args.clicks} clicks per language, "
          "alternating)\n")
    print("| language | series (ms a click) | mean |")
    print("| --- | --- | ---: |")
    for code, values in spent.items():
        print(f"| {code} | {', '.join(f'{v:.2f}' for v in values)} | {statistics.mean(values):.2f} |")
    print(f"\n{args.lang} / en: {statistics.mean(other) / statistics.mean(english):.3f} of the means; per pair "
          f"{', '.join(f'{r:.3f}' for r in ratios)} (median {statistics.median(ratios):.3f})")


if __name__ == "__main__":
    main()
