"""Server CPU of one rerun of every page, against Streamlit's floor page in the same run.

    python3 bench/pages.py                 # every page of the working tree, 15 reruns each
    python3 bench/pages.py --rev HEAD~3    # the same pages as they were at another commit
    python3 bench/pages.py --reruns 30 --pages Dropout,Lab

A page is opened in headless Chromium at 1366x768 and settled; then the bench presses R (Streamlit's rerun
key) --reruns times, waiting for each run to finish, and reads the server's CPU (utime + stime) over them.
Idle CPU between reruns is measured for --idle-seconds and taken off. The floor is bench/floor_app.py (one
toggle and one heatmap) served with the same config; the ratio column divides by it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))

import harness  # noqa: E402  (lives with the browser tests)
from load import tree_at  # noqa: E402  (a commit's files in a temp folder)
from playwright.sync_api import sync_playwright  # noqa: E402

TARGET_MS = 30  # the budget for one rerun of any page


def page_paths(root: Path) -> dict[str, str]:
    """Page name -> URL path: the Lab and every script in pages/ (Streamlit drops the number prefix)."""
    paths = {"Lab": "/"}
    for script in sorted((root / "pages").glob("*.py"), key=lambda p: int(p.name.split("_", 1)[0])):
        name = re.sub(r"^\d+_", "", script.stem)
        paths[name] = "/" + name
    return paths


def cpu_ms_per_rerun(page, server: harness.Server, path: str, reruns: int, idle_seconds: float) -> float:
    page.goto(server.url.rstrip("/") + path, timeout=60_000)
    harness.wait_for_app(page, timeout_ms=60_000, initial_wait_ms=0)
    harness.assert_no_exception(page)
    for _ in range(2):  # warm caches and lazy chunks
        rerun(page)
    idle_before = server.cpu_seconds()
    time.sleep(idle_seconds)
    idle_per_s = (server.cpu_seconds() - idle_before) / idle_seconds
    cpu_before, wall_before = server.cpu_seconds(), time.perf_counter()
    for _ in range(reruns):
        rerun(page)
    wall = time.perf_counter() - wall_before
    busy = server.cpu_seconds() - cpu_before - idle_per_s * wall
    harness.assert_no_exception(page)
    return max(busy, 0.0) * 1000 / reruns


def rerun(page) -> None:
    page.locator("body").press("r")
    harness.wait_for_app(page, timeout_ms=60_000, initial_wait_ms=80)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", help="measure the pages as they were at this commit (default: working tree)")
    parser.add_argument("--reruns", type=int, default=15)
    parser.add_argument("--idle-seconds", type=float, default=2.0)
    parser.add_argument("--pages", help="comma-separated page names (default: all)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    with tree_at(args.rev) as root, sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        context = harness.new_context(browser, 1366, 768)
        page = context.new_page()
        rows: list[tuple[str, float]] = []
        with harness.start_server(REPO_ROOT / "bench" / "floor_app.py", cwd=root) as floor:
            floor_ms = cpu_ms_per_rerun(page, floor, "/", args.reruns, args.idle_seconds)
        wanted = set(args.pages.split(",")) if args.pages else None
        with harness.start_server(root / "app.py", cwd=root) as server:
            for name, path in page_paths(root).items():
                if wanted is None or name in wanted:
                    rows.append((name, cpu_ms_per_rerun(page, server, path, args.reruns, args.idle_seconds)))
        context.close()
        browser.close()
    print(f"\nserver CPU per rerun, {args.reruns} reruns a page, tree: {args.rev or 'working tree'}")
    print(f"| page | CPU per rerun | × floor ({floor_ms:.1f} ms) | within {TARGET_MS} ms |")
    print("| --- | ---: | ---: | :---: |")
    for name, ms in rows:
        print(f"| {name} | {ms:.1f} ms | {ms / floor_ms:.2f} | {'yes' if ms <= TARGET_MS else 'NO'} |")


if __name__ == "__main__":
    main()
