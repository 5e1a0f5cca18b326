"""Code reads at 4.5:1 in both themes: every syntax colour of every code block on Check yourself's code section and
lesson 2's shapes, measured against the block's own background in Chromium (on the light theme's #f9fafb the
keywords were 3.7:1, comments 3.6:1, numbers 2.6:1 and operators 2.9:1: look.py's code rules)."""

from __future__ import annotations

import harness
import pytest

pytestmark = pytest.mark.browser

SLOW_MS = 90_000
CODE_TEXT = """() => {
  const lum = (c) => { const m = c.match(/[\\d.]+/g).map(Number);
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const found = [];
  for (const pre of document.querySelectorAll('[data-testid="stCode"] pre')) {
    let holder = pre, background = getComputedStyle(holder).backgroundColor;
    while (background === "rgba(0, 0, 0, 0)" && holder.parentElement) {
      holder = holder.parentElement; background = getComputedStyle(holder).backgroundColor; }
    for (const span of pre.querySelectorAll("span")) {
      if (!span.textContent.trim() || span.children.length) continue;
      const colour = getComputedStyle(span).color;
      found.push({token: span.className, text: span.textContent.slice(0, 20), ratio: ratio(colour, background)});
    }
  }
  return found;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_syntax_colour_of_code_reads_at_4_5_to_1(browser, server, scheme):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme=scheme)
    try:
        page = context.new_page()
        measured = []
        for path in ("Check_yourself?section=code", "Check_yourself?section=padding"):
            page.goto(server.url + path, timeout=SLOW_MS)
            harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
            measured += page.evaluate(CODE_TEXT)
    finally:
        context.close()
    assert len({item["token"] for item in measured}) >= 5, "the code's tokens were not found"
    faint = {(item["token"], round(item["ratio"], 2)): item["text"] for item in measured if item["ratio"] < 4.5}
    assert not faint, faint
