"""A phone's first visit on a slow hall Wi-Fi: the QR code's link to a question the student can answer.

Headless Chromium at 390x844 with the network throttled as Chrome DevTools does it (Network.emulateNetworkConditions:
--mbit down and up, --latency ms a round trip, no cache, a fresh context a visit), against `streamlit run app.py`:
- the phone's page, `/j/CODE` on a live lecture's number scene: until its answer box (#typed) is on screen;
- in the same run, the baseline: a Streamlit page of the same app (`/Class_poll`, the open face a phone loaded before
  the phone's page existed), until its join form's box is drawn.
Printed per visit: seconds, bytes on the wire (the sum of encodedDataLength of every finished request, compressed as
sent) and requests. The held wait the phone's page opens at once is not finished, so not counted.

    python3 bench/phone_first_visit.py --visits 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))
sys.path.insert(0, str(REPO_ROOT))

import harness  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402


def visit(browser, url: str, ready: str, mbit: float, latency_ms: float) -> tuple[float, int, int]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    rate = mbit * 1_000_000 / 8
    session.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                      "downloadThroughput": rate, "uploadThroughput": rate})
    sizes: dict[str, int] = {}
    session.on("Network.loadingFinished", lambda event: sizes.__setitem__(event["requestId"],
                                                                           event["encodedDataLength"]))
    started = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_selector(ready, state="visible", timeout=120_000)
    seconds = time.perf_counter() - started
    page.wait_for_timeout(300)
    context.close()
    return seconds, sum(sizes.values()), len(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visits", type=int, default=5)
    parser.add_argument("--mbit", type=float, default=2.0)
    parser.add_argument("--latency", type=float, default=80.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with harness.server_with_database(Path(__import__("tempfile").mkdtemp()), "app.py") as (server, url):
        poll = Poll(open_store(url))
        room = poll.create_room(live.lecture_questions())
        poll.show_scene(room.code, room.host_secret, 2, False)
        with sync_playwright() as playwright:
            browser = harness.launch_browser(playwright)
            pages = {"the phone's page /j/CODE (to its answer box)": (f"{server.url}j/{room.code}", "#typed"),
                     "Streamlit's /Class_poll (to its join form's box)": (f"{server.url}Class_poll",
                                                                          '[data-testid="stTextInput"] input')}
            for name, (address, ready) in pages.items():
                visit(browser, address, ready, 1000, 0)  # warm the server (imports, first run): not counted
                runs = [visit(browser, address, ready, args.mbit, args.latency) for _ in range(args.visits)]
                seconds = [run[0] for run in runs]
                print(f"{name}: {statistics.median(seconds):.2f} s median (min {min(seconds):.2f}, max "
                      f"{max(seconds):.2f}) over {len(runs)} visits at {args.mbit:g} Mbit/s and {args.latency:g} ms; "
                      f"{statistics.median(run[1] for run in runs) / 1000:.1f} KB on the wire in "
                      f"{statistics.median(run[2] for run in runs):.0f} requests")
            browser.close()
        poll.store.engine.dispose()


if __name__ == "__main__":
    main()
