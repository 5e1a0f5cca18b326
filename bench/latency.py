"""Click-to-update latency and server CPU per click: the target app against Streamlit's floor.

    python3 bench/latency.py                      # app.py against bench/floor_app.py
    python3 bench/latency.py --target bench/floor_app.py --clicks 25
    python3 bench/latency.py --floor-lab          # also bench/floor_lab_app.py: the Lab's elements, no work

One run measures three rows, each on its own fresh server and browser context:
  floor (defaults)         bench/floor_app.py with Streamlit's defaults (post-run GC on)
  floor (postScriptGC off) the same with --runner.postScriptGC false
  target                   --target, with the repo's .streamlit/config.toml; --runner.postScriptGC false
                           is added only when that file does not set runner.postScriptGC itself
  floor, the Lab's elements  with --floor-lab: bench/floor_lab_app.py (GC off), the elements a Lab click
                           sends, drawn from constants, so the target can also be read against a floor
                           that shows what it shows
For each click on the toggle labelled --toggle-label, the time from the click event to the first
heatmap's z data changing is taken inside the page (performance.now(); MutationObserver stamps the
change, page.wait_for_function waits for it). Server CPU is utime+stime from /proc/<pid>/stat over the
measured clicks (idle waits between clicks included). The ratio columns divide by the floor row with
the same postScriptGC setting.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "browser"))

import harness  # noqa: E402  (lives with the browser tests)

FLOOR_APP = REPO_ROOT / "bench" / "floor_app.py"
FLOOR_LAB_APP = REPO_ROOT / "bench" / "floor_lab_app.py"
FLOOR_LAB = "floor, the Lab's elements"

# JSON of the z of the first heatmap trace on the page, or null.
_FIRST_HEATMAP_Z = """
() => {
  for (const plot of document.querySelectorAll(".js-plotly-plot")) {
    const trace = (plot.data || []).find((t) => t.type === "heatmap");
    if (trace) return JSON.stringify(trace.z);
  }
  return null;
}
"""

# Arms one measurement: stamps the click, and the first DOM change after it at which z differs.
_ARM = """
([before]) => {
  const firstHeatmapZ = FIRST_HEATMAP_Z;
  const state = window.__attnBench = {before, clickAt: null, changedAt: null, firstHeatmapZ};
  const stampClick = () => { state.clickAt ??= performance.now(); };
  document.addEventListener("click", stampClick, {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (state.clickAt === null || state.changedAt !== null) return;
    const z = firstHeatmapZ();
    if (z !== null && z !== before) { state.changedAt = performance.now(); observer.disconnect(); }
  });
  observer.observe(document.documentElement, {subtree: true, childList: true, attributes: true});
}
""".replace("FIRST_HEATMAP_Z", _FIRST_HEATMAP_Z.strip())

# Polled by page.wait_for_function: milliseconds from click to change, or false while unchanged.
_CHANGED = """
() => {
  const state = window.__attnBench;
  if (state.changedAt === null && state.clickAt !== null) {  // backstop if no mutation was seen
    const z = state.firstHeatmapZ();
    if (z !== null && z !== state.before) state.changedAt = performance.now();
  }
  return state.changedAt === null ? false : state.changedAt - state.clickAt;
}
"""


@dataclass
class Row:
    name: str
    gc_off: bool
    latencies_ms: list[float]
    cpu_ms_per_click: float
    idle_cpu_ms_per_s: float
    seconds_per_click: float

    @property
    def idle_share_ms(self) -> float:
        return self.idle_cpu_ms_per_s * self.seconds_per_click

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies_ms)

    @property
    def p90_ms(self) -> float:
        return percentile(self.latencies_ms, 90)


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def configured_post_script_gc(cwd: Path) -> bool | None:
    """runner.postScriptGC from cwd/.streamlit/config.toml; None when the file does not set it."""
    config = cwd / ".streamlit" / "config.toml"
    if not config.is_file():
        return None
    with config.open("rb") as handle:
        value = tomllib.load(handle).get("runner", {}).get("postScriptGC")
    return None if value is None else bool(value)


def measure(browser, server: harness.Server, args: argparse.Namespace) -> tuple[list[float], float, float, float]:
    """Latencies (ms) of the measured clicks, server CPU ms per click, idle server CPU ms per s, and
    wall seconds per click cycle."""
    context = harness.new_context(browser)
    try:
        page = context.new_page()
        harness.open_app(page, server, timeout_ms=60_000)
        harness.assert_no_exception(page)
        target = harness.toggle(page, args.toggle_label)
        if target.count() != 1:
            names = [switch.get_attribute("aria-label") for switch in page.get_by_role("switch").all()]
            raise SystemExit(f"{server.script.name}: no single toggle {args.toggle_label!r}; toggles: {names}")
        if page.evaluate(_FIRST_HEATMAP_Z) is None:
            raise SystemExit(f"{server.script.name}: no Plotly heatmap on the first page")

        for _ in range(args.warmup):  # first clicks pay for lazy chunks and cold caches
            click_and_time(page, target)
        idle_before = server.cpu_seconds()  # what an open session costs doing nothing
        time.sleep(args.idle_seconds)
        idle_cpu_ms_per_s = (server.cpu_seconds() - idle_before) * 1000 / args.idle_seconds
        cpu_before, wall_before = server.cpu_seconds(), time.perf_counter()
        latencies = [click_and_time(page, target) for _ in range(args.clicks)]
        cpu_ms_per_click = (server.cpu_seconds() - cpu_before) * 1000 / args.clicks
        seconds_per_click = (time.perf_counter() - wall_before) / args.clicks
        harness.assert_no_exception(page)
        return latencies, cpu_ms_per_click, idle_cpu_ms_per_s, seconds_per_click
    finally:
        context.close()


def click_and_time(page, target) -> float:
    before = page.evaluate(_FIRST_HEATMAP_Z)
    page.evaluate(_ARM, [before])
    target.click()
    elapsed_ms = page.wait_for_function(_CHANGED, timeout=30_000, polling="raf").json_value()
    harness.wait_for_app(page, initial_wait_ms=0)  # let the run finish before the next click
    return float(elapsed_ms)


def run_row(browser, name, script, cwd, extra_args, gc_off, args) -> Row:
    started = time.perf_counter()
    print(f"  {name}: {' '.join(extra_args) or '(no extra flags)'} ...", end="", flush=True)
    with harness.start_server(script, cwd=cwd, extra_args=extra_args) as server:
        measured = measure(browser, server, args)
    print(f" {time.perf_counter() - started:.0f} s", flush=True)
    return Row(name, gc_off, *measured)


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}" if floor > 0 else "n/a"


def print_table(rows: list[Row], clicks: int) -> None:
    floors = {row.gc_off: row for row in rows[:2]}
    header = (
        f"{'app':<28} {'postScriptGC':>12} {'median ms':>10} {'p90 ms':>8} "
        f"{'CPU ms/click':>13} {'median x floor':>15} {'CPU x floor':>12} {'idle CPU ms/s':>14}"
    )
    print(f"\nclick -> heatmap data changed, {clicks} clicks per row (in-page timing)\n")
    print(header)
    print("-" * len(header))
    for row in rows:
        floor = floors[row.gc_off]
        print(
            f"{row.name:<28} {'off' if row.gc_off else 'on':>12} {row.median_ms:>10.0f} {row.p90_ms:>8.0f} "
            f"{row.cpu_ms_per_click:>13.1f} {ratio(row.median_ms, floor.median_ms):>15} "
            f"{ratio(row.cpu_ms_per_click, floor.cpu_ms_per_click):>12} {row.idle_cpu_ms_per_s:>14.1f}"
        )
    print("\nratios: against the floor row with the same postScriptGC setting")
    matched = next((row for row in rows if row.name == FLOOR_LAB), None)
    if matched:  # --floor-lab: the target (the last row) against the floor that shows the same elements
        target = rows[-1]
        print(f"{target.name} against {matched.name}: median {ratio(target.median_ms, matched.median_ms)}x, "
              f"CPU {ratio(target.cpu_ms_per_click, matched.cpu_ms_per_click)}x")
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    print(f"CPU ms/click: server utime+stime over the series / clicks ({tick_ms:.0f} ms ticks); it includes")
    print("the idle cost of the waits between clicks, about idle CPU ms/s x seconds per click:")
    for row in rows:
        print(f"  {row.name}: {row.seconds_per_click:.2f} s per click -> ~{row.idle_share_ms:.1f} ms/click idle")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="app.py", help="app script, relative to the repo root")
    parser.add_argument("--clicks", type=int, default=25, help="measured clicks per row")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured clicks first")
    parser.add_argument("--idle-seconds", type=float, default=3.0, help="idle CPU sample per row")
    parser.add_argument("--toggle-label", default="Causal mask", help="label of the st.toggle to click")
    parser.add_argument("--floor-lab", action="store_true",
                        help="also measure bench/floor_lab_app.py, the Lab's elements drawn from constants")
    args = parser.parse_args(argv)
    if args.clicks < 1 or args.warmup < 0 or args.idle_seconds <= 0:
        parser.error("--clicks must be >= 1, --warmup >= 0 and --idle-seconds > 0")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    target = (REPO_ROOT / args.target).resolve()
    if not target.is_file():
        raise SystemExit(f"no target app at {target}")
    if harness.chromium_executable() is None:
        raise SystemExit(f"no Chromium at {harness.CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    configured_gc = configured_post_script_gc(REPO_ROOT)
    target_flags = ["--runner.postScriptGC", "false"] if configured_gc is None else []
    target_gc_off = not configured_gc  # unset (so flagged off) or set to false
    # The floor runs outside the repo root so the repo's .streamlit/config.toml does not apply to it.
    floor_cwd = FLOOR_APP.parent
    print(f"bench: {args.clicks} clicks (+{args.warmup} warm-up) per row; toggle {args.toggle_label!r}")
    with sync_playwright() as playwright:
        browser = harness.launch_browser(playwright)
        try:
            rows = [
                run_row(browser, "floor (defaults)", FLOOR_APP, floor_cwd,
                        ["--runner.postScriptGC", "true"], False, args),
                run_row(browser, "floor (postScriptGC off)", FLOOR_APP, floor_cwd,
                        ["--runner.postScriptGC", "false"], True, args),
                run_row(browser, args.target, target, REPO_ROOT, target_flags, target_gc_off, args),
            ]  # fmt: skip
            if args.floor_lab:
                rows.insert(2, run_row(browser, FLOOR_LAB, FLOOR_LAB_APP, floor_cwd, ["--runner.postScriptGC", "false"],
                                       True, args))
        finally:
            browser.close()
    print_table(rows, args.clicks)
    source = "--runner.postScriptGC false" if target_flags else ".streamlit/config.toml"
    print(f"{args.target}: postScriptGC from {source}")


if __name__ == "__main__":
    main()
