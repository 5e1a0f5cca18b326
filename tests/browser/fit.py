"""What a page looks like on one screen, measured in Chromium: scrolling, cut content, what the projector switch
covers, and the contrast of every chart text (axe does not read text inside an SVG chart).

Shared by tests/browser/test_fit_browser.py and scripts/shoot_projector.py (which also takes the screenshots).
"""

from __future__ import annotations

# The fit of the page at its viewport:
# - scroll: how far the main area (and the document) can scroll down or sideways, in px;
# - cut: visible texts, charts and controls whose box leaves the viewport (their first words);
# - covered: what the fixed projector switch ("Projector mode") sits over, if it is fixed at all;
# - faint: chart texts (SVG) whose fill is below 4.5:1 against the page background, with their ratio.
MEASURE = r"""
() => {
  const W = window.innerWidth, H = window.innerHeight;
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = e; a; a = a.parentElement) {
      // a folded expander's body (a closed <details> outside its <summary>) is not drawn, whatever its boxes say
      if (a.tagName === "DETAILS" && !a.open && !e.closest("summary")) return false;
      const style = getComputedStyle(a);
      if (style.display === "none" || style.visibility === "hidden" || style.clipPath === "inset(50%)"
          || parseFloat(style.opacity) === 0) return false;
    }
    return true;
  };
  const boxes = [];  // [label, rect] of every piece of content
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("style, script, .js-plotly-plot, .katex-mathml"))
      continue;
    if (!shown(element)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width >= 1 && r.height >= 1) boxes.push([node.textContent.trim().slice(0, 40), r, element]);
    }
  }
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (text.textContent.trim() && shown(text))
      boxes.push(["chart: " + text.textContent.trim().slice(0, 34), text.getBoundingClientRect(), text]);
  }
  for (const area of main.querySelectorAll(".js-plotly-plot .nsewdrag, img, canvas, input[type=range]")) {
    if (shown(area)) boxes.push([area.tagName + " area", area.getBoundingClientRect(), area]);
  }
  const cut = boxes.filter(([, r]) => r.bottom > H + 0.5 || r.right > W + 0.5 || r.left < -0.5)
                   .map(([label, r]) => `${label} @${Math.round(r.left)},${Math.round(r.bottom)}`);
  const wide = boxes.filter(([, r]) => r.right > W + 0.5 || r.left < -0.5).map(([label]) => label);
  // chart text cut by its own chart's edge (Plotly clips nothing: such text spills out or is lost)
  const clipped = [];
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (!text.textContent.trim() || !shown(text)) continue;
    const svg = text.closest(".js-plotly-plot").querySelector(".main-svg").getBoundingClientRect();
    const r = text.getBoundingClientRect();
    if (r.left < svg.left - 1 || r.right > svg.right + 1 || r.top < svg.top - 1 || r.bottom > svg.bottom + 1)
      clipped.push(text.textContent.trim().slice(0, 30));
  }
  const toggle = document.querySelector(".st-key-page-mode");
  const covered = [];
  let switchBox = null;
  if (toggle && shown(toggle)) {
    const s = toggle.getBoundingClientRect();
    switchBox = [Math.round(s.left), Math.round(s.top), Math.round(s.right), Math.round(s.bottom)];
    if (getComputedStyle(toggle).position === "fixed") {
      for (const [label, r, element] of boxes) {
        if (toggle.contains(element)) continue;
        if (r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top) covered.push(label);
      }
    }
  }
  const scroll = {down: Math.max(main.scrollHeight - main.clientHeight,
                                 document.documentElement.scrollHeight - document.documentElement.clientHeight),
                  sideways: Math.max(main.scrollWidth - main.clientWidth,
                                     document.documentElement.scrollWidth - document.documentElement.clientWidth)};
  // contrast of chart text: its fill (and fill-opacity) over the page background
  const rgb = (c) => { const m = c.match(/[\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 1]; };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const page = rgb(getComputedStyle(document.querySelector(".stApp")).backgroundColor);
  const faint = [];
  let lowest = Infinity;
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (!text.textContent.trim() || !shown(text)) continue;
    if (text.closest(".heatmaplayer, .hm, .textpoint, .bars, .trace")) continue;  // text on a coloured cell
    const style = getComputedStyle(text);
    const [r, g, b, a0] = rgb(style.fill);
    const a = (a0 === undefined ? 1 : a0) * parseFloat(style.fillOpacity || "1");
    const mix = [r, g, b].map((v, i) => v * a + page[i] * (1 - a));
    const [hi, lo] = [lum(mix), lum(page)].sort((x, y) => y - x);
    const ratio = (hi + 0.05) / (lo + 0.05);
    lowest = Math.min(lowest, ratio);
    if (ratio < 4.5) faint.push(`${text.textContent.trim().slice(0, 30)} ${ratio.toFixed(2)}:1 (${style.fill})`);
  }
  // every chart text's size as drawn on the screen, in px
  const small = [];
  for (const text of main.querySelectorAll(".js-plotly-plot svg text")) {
    if (!text.textContent.trim() || !shown(text)) continue;
    const matrix = text.getScreenCTM();  // the SVG's own scaling to the screen (1 unless a chart is shrunk)
    const drawn = parseFloat(getComputedStyle(text).fontSize) * (matrix ? Math.hypot(matrix.a, matrix.b) : 1);
    small.push([text.textContent.trim().slice(0, 30), Math.round(drawn * 10) / 10]);
  }
  return {scroll, cut, wide, clipped, covered, switchBox, faint, lowest: lowest === Infinity ? null : lowest,
          height: main.scrollHeight, chartText: small};
}
"""


def measure(page) -> dict:
    return page.evaluate(MEASURE)


def problems(found: dict, one_screen: bool = True, chart_floor: float | None = None) -> list[str]:
    """What is wrong with a screen: empty when it fits (`one_screen`: nothing to scroll, nothing below the edge;
    otherwise nothing sideways), nothing is clipped or covered, and chart text reads from the back (its contrast,
    and with `chart_floor` its size: the projector's 18 px)."""
    wrong = []
    if chart_floor is not None:
        small = [f"{words} {size}px" for words, size in found["chartText"] if size < chart_floor - 0.25]
        if small:
            wrong.append(f"chart text under {chart_floor:g} px: {small[:6]}")
    if found["scroll"]["sideways"] > 1 or (one_screen and found["scroll"]["down"] > 1):
        wrong.append(f"scrolls {found['scroll']}")
    if found["cut"] if one_screen else found["wide"]:
        wrong.append(f"cut: {(found['cut'] if one_screen else found['wide'])[:6]}")
    if found["clipped"]:
        wrong.append(f"chart text outside its chart: {found['clipped'][:6]}")
    if found["covered"]:
        wrong.append(f"under the projector switch: {found['covered'][:6]}")
    if found["faint"]:
        wrong.append(f"faint chart text: {found['faint'][:6]}")
    return wrong


# The scene and step the address says (scene_nav.write_step writes both in one message).
AT_STEP = """([number, revealed]) => {
  const query = new URLSearchParams(location.search);
  return query.get("scene") === String(number) && (query.get("reveal") === "1") === revealed;
}"""


def every_step(page, count: int, timeout_ms: int = 90_000):
    """Each lecture step from scene 1's question (the page opened there) to the last scene's answer, as a lecturer's
    clicker walks them: Page Down, then wait until the address says the step and the app has settled. Yields
    (scene number, revealed) with the page at that step. One page load for the whole lecture, as in a hall."""
    import harness  # noqa: PLC0415 (tests/browser is on the path where a browser runs)

    for number in range(1, count + 1):
        for revealed in (False, True):
            if (number, revealed) != (1, False):
                page.keyboard.press("PageDown")
                page.wait_for_function(AT_STEP, arg=[number, revealed], timeout=timeout_ms, polling=25)
                harness.wait_for_app(page, timeout_ms=timeout_ms, initial_wait_ms=0)
            yield number, revealed
