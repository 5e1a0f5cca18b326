"""What a finger and an eye meet on a page, measured in Chromium: the box of every control a pointer or a finger can
hit, and the contrast of every text drawn in a chart's SVG (axe reads neither).

TARGETS: every tappable element (links, buttons, radio and checkbox labels, switches, help icons, pills, select
boxes, expander summaries, sliders) with its box, as WCAG 2.2's 2.5.8 (Target Size, Minimum) counts it: a box under
24x24 CSS px passes only when a 24 px circle on its centre meets no other target (nor another small one's circle),
and a link inside a sentence is exempt. Returns how many were measured, every small one and the ones that fail.

CHART_TEXT: every text of every Plotly chart in the main area (ticks, titles, notes, legends; not the numbers drawn on
coloured cells, whose black or white is chosen per cell) with its contrast against what lies behind it: the chart's
paper over the page, or a note's own box.
"""

TARGETS = r"""
() => {
  const SELECT = ['a[href]', 'button', '[role="button"]', '[role="radio"]', '[role="checkbox"]', '[role="switch"]',
    '[role="tab"]', '[role="option"]', '[role="slider"]', 'summary', 'input:not([type="hidden"])', 'select',
    'textarea', '[data-testid="stTooltipIcon"]', '[data-baseweb="select"] > div'].join(", ");
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === "none" || s.visibility === "hidden" || s.clipPath === "inset(50%)"
          || parseFloat(s.opacity) === 0) return false;
    }
    return true;
  };
  // what a finger hits: a visually hidden input's label, a help icon's button
  const box = (e) => {
    if (e.matches('input[type="checkbox"], input[type="radio"]')) return e.closest("label") || e;
    if (e.matches('[data-testid="stTooltipIcon"]')) return e.querySelector("button") || e;
    return e;
  };
  const seen = new Set();
  const targets = [];
  for (const raw of document.querySelectorAll(SELECT)) {
    const e = box(raw);
    if (seen.has(e) || !e.closest(".stApp")) continue;
    if (e.closest('.js-plotly-plot, [data-testid="stElementToolbar"]')) continue;  // a chart's own layer
    if (raw.matches('input[type="range"]')) continue;  // the slider's thumb ([role=slider]) is what a finger drags
    if (raw.matches('[data-baseweb="select"] input')) continue;  // its box is the target
    if (e.closest('[data-testid="stSidebar"][aria-expanded="false"], [data-testid="stSkipToContent"]')) continue;
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.right <= 0 || r.left >= window.innerWidth) continue;  // off the screen
    seen.add(e);
    // inline: a link inside a sentence (2.5.8's exception), the sentence longer than the link
    const sentence = e.matches("a") && e.closest("p, li");
    const inline = !!(sentence && sentence.textContent.trim().length > e.textContent.trim().length + 3);
    const label = (e.getAttribute("aria-label") || e.textContent || e.getAttribute("title") || e.tagName)
      .trim().replace(/\s+/g, " ").slice(0, 40);
    targets.push({e, r, inline, label, testid: (e.closest("[data-testid]") || e).dataset.testid});
  }
  const name = (t) => `${t.label} [${t.testid}] ${Math.round(t.r.width)}x${Math.round(t.r.height)}`;
  const small = targets.filter((t) => !t.inline && (t.r.width < 23.5 || t.r.height < 23.5));
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const near = ([x, y], r, radius) => {
    const dx = Math.max(r.left - x, 0, x - r.right), dy = Math.max(r.top - y, 0, y - r.bottom);
    return dx * dx + dy * dy < radius * radius;
  };
  const failing = small.filter((t) => {
    const c = centre(t.r);
    return targets.some((o) => o !== t && !o.e.contains(t.e) && !t.e.contains(o.e) && (near(c, o.r, 12)
      || (small.includes(o) && Math.hypot(c[0] - centre(o.r)[0], c[1] - centre(o.r)[1]) < 24)));
  });
  return {count: targets.length, small: small.map(name), failing: failing.map(name)};
}
"""

CHART_TEXT = r"""
() => {
  const rgb = (c) => { const m = (c || "").match(/[\d.]+/g); return m ? m.map(Number) : null; };
  const over = (top, bottom) => {  // an rgba colour over an opaque one
    const a = top.length > 3 ? top[3] : 1;
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a));
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [hi, lo] = [lum(x), lum(y)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
  };
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === "none" || s.visibility === "hidden" || parseFloat(s.opacity) === 0) return false;
    }
    return true;
  };
  const page = rgb(getComputedStyle(document.querySelector(".stApp")).backgroundColor);
  const found = [];
  for (const plot of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
    const paper = rgb(plot._fullLayout && plot._fullLayout.paper_bgcolor) || [0, 0, 0, 0];
    const behind = over(paper, page);
    for (const text of plot.querySelectorAll("svg text")) {
      if (!text.textContent.trim() || !shown(text)) continue;
      if (text.closest(".heatmaplayer, .hm, .textpoint, .bars, .trace, .cbaxis, .colorbar")) continue;
      let back = behind;
      const note = text.closest(".annotation");
      const rect = note && note.querySelector("rect.bg");
      if (rect) {
        const fill = rgb(getComputedStyle(rect).fill), opacity = parseFloat(getComputedStyle(rect).fillOpacity || "1");
        const alpha = (fill && fill.length > 3 ? fill[3] : 1) * opacity;
        if (fill && alpha > 0) back = over([fill[0], fill[1], fill[2], alpha], behind);
      }
      const style = getComputedStyle(text);
      const fill = rgb(style.fill) || [0, 0, 0];
      let alpha = (fill.length > 3 ? fill[3] : 1) * parseFloat(style.fillOpacity || "1");
      for (let a = text; a && a !== plot; a = a.parentElement) alpha *= parseFloat(getComputedStyle(a).opacity || "1");
      found.push({text: text.textContent.trim().slice(0, 30), fill: style.fill,
                  ratio: Math.round(ratio(over([fill[0], fill[1], fill[2], alpha], back), back) * 100) / 100});
    }
  }
  return found;
}
"""
