"""A student's first visit on a phone: through deploy/local.sh's proxy against one app process directly.

    python3 bench/first_visit.py                 # about 2 minutes; starts and stops deploy/local.sh itself
    python3 bench/first_visit.py --networks 2/80 --top 10

One run starts deploy/local.sh (tests/deploy/local_deploy.py: free loopback ports) and measures, for the proxy
and for replica 1 directly (the same process behind the proxy, so the app and its bundles are identical):
- the first visit: a fresh browser context (empty cache, no cookie) on a 390x844 page opens the Lab. Bytes on
  the wire are the sum of CDP's Network.loadingFinished encodedDataLength (headers and body as received,
  compressed when compressed), requests are Network.requestWillBeSent events, both until the page has
  settled after its first map. The websocket's frames are counted apart (their payload, decompressed).
- time to the first map: from the start of navigation to the first `.js-plotly-plot` holding drawn data
  (gd.data and gd._fullLayout set), read inside the page from performance.now(), under Chromium's network
  emulation (CDP Network.emulateNetworkConditions: throughput both ways and the added round-trip latency);
  "loopback" is no emulation.
- the second visit: the same context opens the Lab again (its cache warm); its bytes and requests.
Targets (issue 19): first visit through the proxy <= 2.5 MB, first map at 2 Mbit/s / 80 ms <= 12 s, second
visit <= 100 KB.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.browser import harness  # noqa: E402
from tests.deploy import local_deploy  # noqa: E402

PHONE = (390, 844)
TARGET_FIRST_BYTES = 2.5e6
TARGET_FIRST_MAP_S = 12.0
TARGET_SECOND_BYTES = 100e3
WAIT_MS = 180_000

# Resolves with performance.now() (ms since navigation start) once a Plotly chart holds drawn data.
_FIRST_MAP = """
() => {
  for (const plot of document.querySelectorAll(".js-plotly-plot")) {
    if (plot.data && plot.data.length && plot._fullLayout) return performance.now();
  }
  return false;
}
"""


@dataclass
class Visit:
    bytes: int = 0
    requests: int = 0
    socket_bytes: int = 0
    map_s: float = float("nan")
    by_url: Counter[str] = field(default_factory=Counter)


class Recorder:
    """CDP network events of one page, into the current Visit."""

    def __init__(self, context, page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.visit = Visit()
        self.urls: dict[str, str] = {}
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.webSocketFrameReceived", self._frame)
        self.cdp.send("Network.enable")

    def emulate(self, mbit: float | None, latency_ms: float) -> None:
        if mbit is None:
            return
        rate = mbit * 1e6 / 8  # bytes per second
        self.cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                           "downloadThroughput": rate, "uploadThroughput": rate})

    def _sent(self, event: dict) -> None:
        self.visit.requests += 1
        self.urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict) -> None:
        size = int(event.get("encodedDataLength", 0))
        self.visit.bytes += size
        url = self.urls.get(event["requestId"], "?")
        self.visit.by_url[url.split("?")[0].rsplit("/", 1)[-1] or url] += size

    def _frame(self, event: dict) -> None:
        self.visit.socket_bytes += len(event["response"].get("payloadData", ""))


def open_lab(page, url: str, recorder: Recorder) -> Visit:
    recorder.visit = Visit()
    page.goto(url, timeout=WAIT_MS, wait_until="commit")
    recorder.visit.map_s = page.wait_for_function(_FIRST_MAP, timeout=WAIT_MS, polling=50).json_value() / 1000
    harness.wait_for_app(page, timeout_ms=WAIT_MS, initial_wait_ms=0)
    page.wait_for_timeout(1000)  # late requests (fonts, lazy chunks) belong to the visit too
    harness.assert_no_exception(page)
    return recorder.visit


def measure(browser, url: str, network: tuple[float | None, float]) -> tuple[Visit, Visit]:
    context = harness.new_context(browser, *PHONE)
    try:
        page = context.new_page()
        recorder = Recorder(context, page)
        recorder.emulate(*network)
        first = open_lab(page, url, recorder)
        second = open_lab(page, url, recorder)
        return first, second
    finally:
        context.close()


def parse_network(text: str) -> tuple[float | None, float]:
    if text == "loopback":
        return None, 0.0
    mbit, latency = text.split("/")
    return float(mbit), float(latency)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", default="loopback,10/40,2/80", help="Mbit/s/latency ms pairs, or loopback")
    parser.add_argument("--top", type=int, default=6, help="list the largest downloads of the proxied first visit")
    args = parser.parse_args(argv)
    networks = [(name, parse_network(name)) for name in args.networks.split(",")]
    if harness.chromium_executable() is None or local_deploy.missing_tools():
        raise SystemExit(f"needs Chromium at {harness.CHROMIUM} and {local_deploy.missing_tools() or 'nothing else'}")
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    rows = []
    with local_deploy.start_local() as deployment, sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        targets = [("proxy", deployment.url), ("direct", f"http://127.0.0.1:{deployment.app_ports[0]}/")]
        for warm in targets:  # each replica's first run of the Lab, so no row pays for a cold server
            measure(browser, warm[1], (None, 0.0))
        for name, network in networks:
            for target, url in targets:
                first, second = measure(browser, url, network)
                rows.append((target, name, first, second))
                print(f"  {target:6} {name:8}: first {first.bytes / 1e6:.2f} MB in {first.requests} requests, "
                      f"map after {first.map_s:.1f} s; second visit {second.bytes / 1e3:.0f} KB", flush=True)
        browser.close()
    print()
    print("| path | network | first visit MB (requests) | websocket KB | first map s | second visit KB (requests) |")
    print("|---|---|---:|---:|---:|---:|")
    for target, name, first, second in rows:
        print(f"| {target} | {name} | {first.bytes / 1e6:.2f} ({first.requests}) | {first.socket_bytes / 1e3:.0f} "
              f"| {first.map_s:.1f} | {second.bytes / 1e3:.1f} ({second.requests}) |")
    proxied = [row for row in rows if row[0] == "proxy"]
    biggest = proxied[0][2].by_url.most_common(args.top)
    print("\nlargest downloads, first visit through the proxy: "
          + ", ".join(f"{name} {size / 1e3:.0f} KB" for name, size in biggest))
    first_bytes = max(row[2].bytes for row in proxied)
    second_bytes = max(row[3].bytes for row in proxied)
    slow = [row[2].map_s for row in proxied if row[1] == "2/80"]
    print(f"- first visit through the proxy {first_bytes / 1e6:.2f} MB (target <= 2.5): "
          f"{'met' if first_bytes <= TARGET_FIRST_BYTES else 'MISSED'}")
    if slow:
        print(f"- first map at 2 Mbit/s / 80 ms through the proxy {slow[0]:.1f} s (target <= 12): "
              f"{'met' if slow[0] <= TARGET_FIRST_MAP_S else 'MISSED'}")
    print(f"- second visit {second_bytes / 1e3:.0f} KB (target <= 100): "
          f"{'met' if second_bytes <= TARGET_SECOND_BYTES else 'MISSED'}")
    print(f"(took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
