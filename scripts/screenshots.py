"""Screenshots of the running app in headless Chromium, for looking at what we built.

usage: python3 scripts/screenshots.py BASE_URL OUT_DIR PATH [PATH ...]
       (each PATH like "/?causal=1"; every path is shot at 1366x768, 1280x720 and 390x844)
Options: --sizes 1366x768,390x844   --dark   --full (whole page, not just the first screen)
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def settle(page, timeout: float = 20.0) -> None:
    """Wait until Streamlit stops running, skeletons are gone and the charts are drawn."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout * 1000)
    end = time.time() + timeout
    time.sleep(1.0)
    quiet = 0
    while time.time() < end and quiet < 3:
        busy = page.locator('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]').count()
        quiet = 0 if busy else quiet + 1
        time.sleep(0.25)
    time.sleep(0.6)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("out")
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--sizes", default="1366x768,1280x720,390x844")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = [tuple(map(int, s.split("x"))) for s in args.sizes.split(",")]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        for width, height in sizes:
            context = browser.new_context(viewport={"width": width, "height": height},
                                          color_scheme="dark" if args.dark else "light")
            page = context.new_page()
            for path in args.paths:
                page.goto(args.base.rstrip("/") + path)
                settle(page)
                name = re.sub(r"[^a-zA-Z0-9]+", "_", path).strip("_") or "root"
                file = out / f"{name}_{width}x{height}{'_dark' if args.dark else ''}.png"
                page.screenshot(path=str(file), full_page=args.full)
                errors = page.locator('[data-testid="stException"]').count()
                print(file, "exceptions:", errors)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
