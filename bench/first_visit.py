"""A student's first visit on a phone: through deploy/local.sh's proxy against one app process directly.

    python3 bench/first_visit.py                 # about 2 minutes; starts and stops deploy/local.sh itself
    python3 bench/first_visit.py --networks 2/80 --top 10
    python3 bench/first_visit.py --networks loopback --list    # every request of the proxied first visit

One run starts deploy/local.sh (tests/deploy/local_deploy.py: free loopback ports) and measures, for the proxy
and for replica 1 directly (the same process behind the proxy, so the app and its bundles are identical):
- four paths: "proxy" is http://127.0.0.1 (a secure context for Chromium, as HTTPS is: it asks for br and gets
  brotli); "proxy-http" is the same proxy under a host name that is not localhost (HOST, mapped to 127.0.0.1 by
  --host-resolver-rules), so Chromium asks for gzip, deflate only, as a phone does over plain http to a
  classroom's server; "proxy-https" is that host name over HTTPS at the proxy (local.sh's ATTN_TLS_PORT, a
  throwaway self-signed certificate that this Chromium trusts by its key), as a real deployment should be:
  brotli and HTTP/2; "direct" is replica 1 without the proxy. Without openssl there is no "proxy-https".
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
import base64
import hashlib
import shutil
import subprocess
import sys
import tempfile
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
HOST = "attn-lab.test"  # resolves to 127.0.0.1 in this bench's Chromium only; over http not a secure context

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
    started: float | None = None  # CDP's monotonic clock at the first request
    plotly_s: float = float("nan")  # when the Plotly bundle was asked for, after the first request
    by_url: Counter[str] = field(default_factory=Counter)
    # one row per finished request: (bytes on the wire, protocol, content-encoding, cache-control, url)
    rows: list[tuple[int, str, str, str, str]] = field(default_factory=list)


class Recorder:
    """CDP network events of one page, into the current Visit."""

    def __init__(self, context, page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.visit = Visit()
        self.urls: dict[str, str] = {}
        self.headers: dict[str, dict[str, str]] = {}
        self.protocols: dict[str, str] = {}
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
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
        if self.visit.started is None:
            self.visit.started = event["timestamp"]
        if "/PlotlyChart." in event["request"]["url"] and self.visit.plotly_s != self.visit.plotly_s:
            self.visit.plotly_s = event["timestamp"] - self.visit.started
        self.urls[event["requestId"]] = event["request"]["url"]

    def _response(self, event: dict) -> None:
        self.protocols[event["requestId"]] = event["response"].get("protocol", "?")
        self.headers[event["requestId"]] = {k.lower(): v for k, v in event["response"].get("headers", {}).items()}

    def _finished(self, event: dict) -> None:
        size = int(event.get("encodedDataLength", 0))
        self.visit.bytes += size
        url = self.urls.get(event["requestId"], "?")
        self.visit.by_url[url.split("?")[0].rsplit("/", 1)[-1] or url] += size
        headers = self.headers.get(event["requestId"], {})
        self.visit.rows.append((size, self.protocols.get(event["requestId"], "?"), headers.get("content-encoding", "-"),
                                headers.get("cache-control", "-"), url))

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


def self_signed(folder: Path) -> tuple[Path, str] | None:
    """A PEM (certificate, then key) for HOST, and its key's SPKI hash for Chromium; None without openssl."""
    if shutil.which("openssl") is None:
        return None
    cert, key, pem = folder / "cert.pem", folder / "key.pem", folder / "proxy.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}", "-days", "2",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)  # fmt: skip
    pem.write_bytes(cert.read_bytes() + key.read_bytes())
    public = subprocess.run(["openssl", "x509", "-in", str(cert), "-pubkey", "-noout"], check=True,
                            capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public, check=True,
                         capture_output=True).stdout
    return pem, base64.b64encode(hashlib.sha256(der).digest()).decode()


def parse_network(text: str) -> tuple[float | None, float]:
    if text == "loopback":
        return None, 0.0
    mbit, latency = text.split("/")
    return float(mbit), float(latency)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", default="loopback,10/40,2/80", help="Mbit/s/latency ms pairs, or loopback")
    parser.add_argument("--top", type=int, default=6, help="list the largest downloads of the proxied first visit")
    parser.add_argument("--list", action="store_true", help="each path's first visit, request by request")
    args = parser.parse_args(argv)
    networks = [(name, parse_network(name)) for name in args.networks.split(",")]
    if harness.chromium_executable() is None or local_deploy.missing_tools():
        raise SystemExit(f"needs Chromium at {harness.CHROMIUM} and {local_deploy.missing_tools() or 'nothing else'}")
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    rows = []
    certs = Path(tempfile.mkdtemp(prefix="first-visit-tls-"))
    tls = self_signed(certs)
    tls_port = harness.free_port()
    extra_env = {"ATTN_TLS_PORT": str(tls_port), "ATTN_TLS_CERT": str(tls[0])} if tls else {}
    chromium_args = [*harness.CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
    if tls:  # trusted by its key, so no certificate error (which would also keep responses out of the cache)
        chromium_args.append(f"--ignore-certificate-errors-spki-list={tls[1]}")
    with local_deploy.start_local(extra_env=extra_env) as deployment, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(harness.CHROMIUM), headless=True, args=chromium_args)
        targets = [("proxy", deployment.url), ("proxy-http", f"http://{HOST}:{deployment.proxy_port}/")]
        if tls:
            targets.append(("proxy-https", f"https://{HOST}:{tls_port}/"))
        targets.append(("direct", f"http://127.0.0.1:{deployment.app_ports[0]}/"))
        for warm in targets:  # each replica's first run of the Lab, so no row pays for a cold server
            measure(browser, warm[1], (None, 0.0))
        for name, network in networks:
            for target, url in targets:
                first, second = measure(browser, url, network)
                rows.append((target, name, first, second))
                print(f"  {target:11} {name:8}: first {first.bytes / 1e6:.2f} MB in {first.requests} requests, "
                      f"map after {first.map_s:.1f} s (Plotly asked for after {first.plotly_s:.1f} s); "
                      f"second visit {second.bytes / 1e3:.0f} KB", flush=True)
        browser.close()
    shutil.rmtree(certs, ignore_errors=True)
    print()
    print("| path | network | first visit MB (requests) | websocket KB | first map s | second visit KB (requests) |")
    print("|---|---|---:|---:|---:|---:|")
    for target, name, first, second in rows:
        print(f"| {target} | {name} | {first.bytes / 1e6:.2f} ({first.requests}) | {first.socket_bytes / 1e3:.0f} "
              f"| {first.map_s:.1f} | {second.bytes / 1e3:.1f} ({second.requests}) |")
    if args.list:
        for target, _url in targets:
            first = next(row[2] for row in rows if row[0] == target)
            print(f"\nfirst visit, {target}: bytes, protocol, content-encoding, cache-control, url")
            for size, protocol, coding, cache, url in sorted(first.rows, reverse=True):
                print(f"  {size:>9} {protocol:8} {coding:5} {cache[:40]:40} {url[:100]}")
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
    for target, what in (("proxy-http", "over plain http to a host name (gzip only)"),
                         ("proxy-https", "over HTTPS to that host name (brotli, HTTP/2)")):
        other = [row for row in rows if row[0] == target]
        if not other:
            continue
        slow_other = [row[2].map_s for row in other if row[1] == "2/80"]
        print(f"- {what}, {target}: first visit {max(r[2].bytes for r in other) / 1e6:.2f} MB"
              + (f", first map at 2 Mbit/s / 80 ms {slow_other[0]:.1f} s" if slow_other else "")
              + f", second visit {max(r[3].bytes for r in other) / 1e3:.0f} KB")
    print(f"- second visit {second_bytes / 1e3:.0f} KB (target <= 100): "
          f"{'met' if second_bytes <= TARGET_SECOND_BYTES else 'MISSED'}")
    print(f"(took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
