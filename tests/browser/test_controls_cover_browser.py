"""No control sits over content: in projector mode the Lab's page menu and projector switch are placed by CSS (the map's
empty corner on a wide screen, the flow on a phone), so at every width from 320 to 1366 px each visible button's box
is checked against every visible text and chart text it could cover (on a phone it once covered the keys' title)."""

from __future__ import annotations

import harness
import pytest

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
WIDTHS = ((320, 700), (390, 844), (768, 1024), (1280, 720), (1366, 768))

# every visible button, and every visible text (chart texts included) outside buttons, that its box overlaps
OVERLAPS = r"""
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = e; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.display === "none" || style.visibility === "hidden" || style.clipPath === "inset(50%)") return false;
    }
    return true;
  };
  const texts = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("button, style, script, .js-plotly-plot, .katex-mathml")
        || !shown(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) texts.push([node.textContent.trim().slice(0, 30), r]);
  }
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (text.textContent.trim() && shown(text)) texts.push(["chart: " + text.textContent.trim().slice(0, 24),
                                                            text.getBoundingClientRect()]);
  }
  const found = [];
  for (const button of main.querySelectorAll("button")) {
    if (!shown(button) || button.closest('.js-plotly-plot, [data-testid="stTooltipHoverTarget"]')) continue;
    const b = button.getBoundingClientRect();
    for (const [label, r] of texts) {
      const x = Math.min(b.right, r.right) - Math.max(b.left, r.left);
      const y = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
      if (x > 2 && y > 2) found.push(`${button.innerText.trim().slice(0, 20) || "button"} over ${label}`);
    }
  }
  return found;
}
"""


@pytest.mark.parametrize(("width", "height"), WIDTHS, ids=[f"{w}x{h}" for w, h in WIDTHS])
def test_no_button_covers_a_word_of_the_projected_lab(browser, server, width, height):
    context = harness.new_context(browser, width, height)
    try:
        page = context.new_page()
        for query in ("mode=projector&causal=1", "mode=projector&causal=1&row=3&heads=2&scene=4"):
            page.goto(f"{server.url}?{query}", timeout=SLOW_MS)
            harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
            page.wait_for_timeout(500)  # the map's margins settle after its first draw
            covered = page.evaluate(OVERLAPS)
            assert not covered, f"{width}x{height} ?{query}: {covered}"
    finally:
        context.close()
