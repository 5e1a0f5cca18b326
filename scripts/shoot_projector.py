"""Screenshots and fit measures of every lecture scene (question and answer) and the pages, in projector mode.

usage: python3 scripts/shoot_projector.py BASE_URL OUT_DIR [--size 1280x720] [--pages] [--scenes 1-27] [--plain]
Prints one line a screen: its height, what scrolls, is cut, covered or faint (tests/browser/fit.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
import fit  # noqa: E402
import harness  # noqa: E402

PAGES = ("/", "/Peeking_and_the_causal_mask", "/Padding_mask", "/Dropout", "/Many_heads", "/Shapes_and_memory",
         "/One_row_by_hand", "/Train_it_yourself", "/Check_yourself", "/Class_poll")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("out")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--pages", action="store_true")
    parser.add_argument("--scenes", default="")
    parser.add_argument("--plain", action="store_true", help="without projector mode")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    width, height = map(int, args.size.split("x"))
    mode = "" if args.plain else "mode=projector"
    paths = []
    if args.scenes:
        first, _, last = args.scenes.partition("-")
        for number in range(int(first), int(last or first) + 1):
            paths += [f"/Lecture_scenes?scene={number}", f"/Lecture_scenes?scene={number}&reveal=1"]
    if args.pages:
        paths += list(PAGES)
    with sync_playwright() as p:
        browser = harness.launch_browser(p)
        context = harness.new_context(browser, width, height, touch=width < 640)
        page = context.new_page()
        for path in paths:
            url = args.base.rstrip("/") + path + (("&" if "?" in path else "?") + mode if mode else "")
            start = time.monotonic()
            page.goto(url)
            harness.wait_for_app(page, timeout_ms=60_000, initial_wait_ms=0)
            found = fit.measure(page)
            name = path.strip("/").replace("?", "_").replace("&", "_").replace("=", "") or "Lab"
            page.screenshot(path=str(out / f"{name}_{width}x{height}.png"))
            wrong = fit.problems(found, one_screen="Lecture" in path or path == "/")
            print(f"{path:44s} h={found['height']} switch={found['switchBox']} low={found['lowest']}"
                  f" {wrong} ({time.monotonic() - start:.1f}s)", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
