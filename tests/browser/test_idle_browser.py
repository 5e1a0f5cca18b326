"""An idle page stays idle: once the Lab or a lesson page has settled, its DOM does not move at all.

Guards against a client-side redraw loop (a chart whose size feeds back into its container, a chart remounted
over and over, a widget rerunning the script by itself): any of these costs a student's phone or laptop CPU
while nobody touches the page. Every page of pages/ is found from the folder, so a new page is covered.

What "settled" means here (measured in Chromium 156 with Streamlit 1.67 and its bundled Plotly.js):
- loaded: connected, the run over and answered, every chart drawn, every web font in, and no chart waiting for
  a font. Plotly.js redraws a chart once when a web font that was still loading while the chart was drawn has
  finished (`gd._fontLoadToken` is set while it waits): about 1,000 to 3,800 DOM mutations a chart, some
  hundreds of ms after the first draw. Measured before that, a page looks as if it loops; it never repeats.
- then quiet for QUIET_MS (`harness.wait_for_app`), if that comes at all within 10 s.
Then the whole document is observed for WINDOW_MS.

ALLOWANCE: every settled page measured 0 at every viewport when this test was written. The allowance leaves
room for one-off housekeeping (an attribute Streamlit sets once), never for a redraw loop: one redraw of the
smallest chart in the app is about 1,000 mutations, and even a single attribute rewritten at 60 Hz counts
about 90 in the window.
"""

from __future__ import annotations

import contextlib
import re

import harness
import pytest
from playwright.sync_api import Error as PlaywrightError

PAGES_DIR = harness.REPO_ROOT / "pages"
PAGES = ["", *sorted(re.sub(r"^\d+_", "", path.stem) for path in PAGES_DIR.glob("*.py"))]  # "" is the Lab
VIEWPORTS = {"1366x768": (1366, 768), "390x844": (390, 844)}  # a laptop and a phone (1920x1080 never differed)
CASES = [(viewport, path) for viewport in VIEWPORTS for path in PAGES]  # viewport-major: one context each
WINDOW_MS = 1500
ALLOWANCE = 50
PATIENCE_MS = 90_000  # six charts on a busy two-core machine can take most of a minute to draw
QUIET_MS = 500

# Loaded, whether or not the DOM is quiet (harness.wait_for_app also needs quiet, which a loop never gives):
# connected, run over and answered, every chart drawn, every web font in, no chart waiting to redraw for one.
_LOADED = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute("data-test-connection-state") !== "CONNECTED") return false;
  if (app.getAttribute("data-test-script-state") !== "notRunning") return false;
  if (document.querySelector('[data-testid="stStatusWidgetRunningIcon"], [data-testid="stSkeleton"]')) return false;
  const ws = window.__attnWs;
  if (ws && (ws.received === 0 || ws.lastSent > ws.lastReceived)) return false;
  if (document.fonts && document.fonts.status !== "loaded") return false;
  return [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].every((chart) => {
    const gd = chart.querySelector(".js-plotly-plot");
    return gd && gd._fullLayout && !gd._fontLoadToken;
  });
}
"""

# Observe everything for `ms`, then make two known mutations of our own (the probe) to prove the observer
# was live; report counts by target, remounted charts and WebSocket messages in the window.
_MEASURE = """
(ms) => new Promise((resolve) => {
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
  const ws = window.__attnWs || {sent: 0, received: 0};
  const sent = ws.sent, received = ws.received;
  const byTarget = {};
  let total = 0, probe = 0;
  const describe = (node) => {
    const el = node && node.nodeType === 1 ? node : node && node.parentElement;
    if (!el) return "(detached)";
    const chart = el.closest('[data-testid="stPlotlyChart"]');
    if (chart) return "chart " + charts.indexOf(chart) + " " + el.tagName.toLowerCase();
    const owner = el.closest("[data-testid]");
    return (owner ? owner.getAttribute("data-testid") : "(no testid)") + " " + el.tagName.toLowerCase();
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.attributeName === "data-idle-probe") { probe++; continue; }
      total++;
      const key = describe(record.target) + " " + record.type + ":" + (record.attributeName || "");
      byTarget[key] = (byTarget[key] || 0) + 1;
    }
  });
  observer.observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(() => {
    document.body.setAttribute("data-idle-probe", "1");
    document.body.removeAttribute("data-idle-probe");
    setTimeout(() => {
      for (const record of observer.takeRecords()) {
        if (record.attributeName === "data-idle-probe") probe++; else total++;
      }
      observer.disconnect();
      const now = [...document.querySelectorAll('[data-testid="stPlotlyChart"]')];
      resolve({
        total, probe,
        top: Object.entries(byTarget).sort((a, b) => b[1] - a[1]).slice(0, 6),
        charts: charts.length,
        remounted: now.filter((chart) => !charts.includes(chart)).length,
        sent: ws.sent - sent, received: ws.received - received,
      });
    }, 0);
  }, ms);
})
"""


@pytest.fixture(scope="module")
def viewport_page(browser):
    """viewport_page("1366x768") -> one page per viewport, in its own context, reused by every page test."""
    pages = {}

    def get(viewport: str):
        if viewport not in pages:
            pages[viewport] = harness.new_context(browser, *VIEWPORTS[viewport]).new_page()
        return pages[viewport]

    yield get
    for page in pages.values():
        page.context.close()


def settle(page) -> None:
    """Loaded, then quiet for QUIET_MS if that comes within 10 s: a page that never goes quiet is measured
    anyway and fails below with its mutation count, instead of timing out here."""
    page.wait_for_timeout(100)  # let a navigation or a rerun request start before the first check
    page.wait_for_function(_LOADED, timeout=PATIENCE_MS, polling=50)
    with contextlib.suppress(PlaywrightError):
        harness.wait_for_app(page, timeout_ms=10_000, initial_wait_ms=0, settle_ms=QUIET_MS)


def test_pages_are_found():
    assert "Many_heads" in PAGES and "Peeking_and_the_causal_mask" in PAGES
    assert len(PAGES) == len(list(PAGES_DIR.glob("*.py"))) + 1


@pytest.mark.parametrize(("viewport", "path"), CASES, ids=[f"{v}-{p or 'Lab'}" for v, p in CASES])
def test_settled_page_does_not_move(server, viewport_page, viewport, path):
    page = viewport_page(viewport)
    page.goto(server.url + path, timeout=PATIENCE_MS)
    settle(page)
    state = page.evaluate(
        """() => { const app = document.querySelector('[data-testid="stApp"]');
                   return [app?.getAttribute("data-test-connection-state"), app?.getAttribute("data-test-script-state"),
                           document.querySelectorAll('[data-testid="stElementContainer"]').length]; }"""
    )
    assert state[:2] == ["CONNECTED", "notRunning"], f"/{path} at {viewport} never finished loading: {state}"
    assert state[2] >= 3, f"/{path} at {viewport} shows almost nothing ({state[2]} elements)"
    harness.assert_no_exception(page)

    seen = page.evaluate(_MEASURE, WINDOW_MS)

    assert seen["probe"] == 2, f"the mutation observer missed its own probe: {seen}"
    where = f"/{path} at {viewport}"
    assert seen["remounted"] == 0, f"{where}: {seen['remounted']} of {seen['charts']} charts remounted while idle"
    assert seen["sent"] == 0, f"{where}: the page sent {seen['sent']} WebSocket messages while idle (a rerun?)"
    assert seen["total"] < ALLOWANCE, (
        f"{where}: {seen['total']} DOM mutations in {WINDOW_MS} ms while idle (allowance {ALLOWANCE}); "
        f"busiest targets: {seen['top']}"
    )


def test_measurement_sees_a_redraw(server, viewport_page):
    """The check above could pass by measuring nothing: a chart resized in the window must count thousands."""
    page = viewport_page("1366x768")
    page.goto(server.url + "Many_heads", timeout=PATIENCE_MS)
    settle(page)
    page.evaluate("(ms) => { window.__idleSeen = (" + _MEASURE + ")(ms); }", WINDOW_MS)
    page.set_viewport_size({"width": 1300, "height": 768})  # Streamlit hands every chart a new width: one redraw
    seen = page.evaluate("window.__idleSeen")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert seen["charts"] >= 1 and seen["probe"] == 2
    assert seen["total"] > 20 * ALLOWANCE, seen
