"""Every chart's toolbar offers SVG beside PNG: a second download button, added in the browser.

Plotly's toolbar downloads one format, the one its config names (PNG here, at slide resolution). Drawing SVG on the
server would need a browser there (Kaleido), which Community Cloud does not have; the browser that shows the chart can
draw it. So a small script adds, beside each chart's camera, a button that asks the same download for SVG: it sets the
chart's own toImageButtonOptions.format to "svg", presses the camera (whose handler reads that option as it starts),
and puts "png" back. Same file name, the colours and fonts on screen. A still chart (no toolbar) has none; the Lab's map
has "Map as SVG" under it too, drawn in plain Python (figures/svg_export.py). Projector mode hides the button (look.py's
PROJECTOR_HIDDEN): a projected page is for the room, and the button would widen the toolbar over the Lab's page menu.

The script is a constant (tests/browser/test_hostile_browser.py allows a page only the app's own scripts, by their
exact text). Its words are not in it: the button's name, in the page's language, is a hidden text element the script
reads (TITLE_KEY). Its mark, the letters S V G, is drawn as strokes, not text, so a page's words stay the page's own.
"""

from __future__ import annotations

import streamlit as st

from attn_lang import _

TITLE_KEY = "attn-svg-title"

SVG_JS = """
<script id="attn-svg">
if (!window.__attnSvg) {
  window.__attnSvg = true;
  const LETTERS = [  // S, V and G as strokes in a 30 x 16 box
    "M8 4.6C7.4 3.5 6.3 3 5.1 3 3.6 3 2.4 3.9 2.4 5.3 2.4 8.2 8.2 7.4 8.2 10.6 " +
      "8.2 12.1 7 13 5.3 13 4 13 2.8 12.4 2.2 11.3",
    "M11 3L14.2 13 17.4 3",
    "M27.6 4.9C26.9 3.7 25.8 3 24.3 3 21.8 3 20.2 5.2 20.2 8 20.2 10.9 21.8 13 24.3 13 " +
      "26.2 13 27.6 11.8 27.6 9.6V8.6H24.6",
  ];
  const mark = () => {  // built node by node: the sanitizer drops a script whose text holds markup
    const ns = "http://www.w3.org/2000/svg";
    const icon = document.createElementNS(ns, "svg");
    const attrs = {viewBox: "0 0 30 16", width: "1.9em", height: "1em", "aria-hidden": "true"};
    Object.entries(attrs).forEach(([name, value]) => icon.setAttribute(name, value));
    LETTERS.forEach((shape) => {
      const path = document.createElementNS(ns, "path");
      path.setAttribute("d", shape);
      icon.appendChild(path);
    });
    return icon;
  };
  const add = () => {
    const named = document.querySelector('.st-key-attn-svg-title [data-testid="stText"]');
    const title = (named && named.textContent.trim()) || "SVG";
    document.querySelectorAll('.js-plotly-plot .modebar-btn[data-title="Download plot as a PNG"]').forEach((png) => {
      const group = png.parentElement;
      let svg = group.querySelector(".attn-svg-btn");
      if (!svg) {
        svg = document.createElement("button");  // as Plotly draws its own
        svg.type = "button";
        svg.className = "modebar-btn attn-svg-btn";
        svg.setAttribute("rel", "tooltip");
        svg.setAttribute("data-gravity", "n");
        svg.appendChild(mark());
        svg.addEventListener("click", (event) => {
          event.preventDefault();
          event.stopPropagation();
          const chart = svg.closest(".js-plotly-plot");
          const options = chart && chart._context && chart._context.toImageButtonOptions;
          if (!options) return;
          const before = options.format;
          options.format = "svg";
          try { png.click(); } finally { options.format = before; }
        });
        png.after(svg);
      }
      if (svg.getAttribute("data-title") !== title) {  // the language may have changed since
        svg.setAttribute("data-title", title);
        svg.setAttribute("aria-label", title);
      }
      const icon = png.querySelector("path");  // the toolbar's own colour, light or dark theme: "rgba(r, g, b, a)"
      const parts = icon ? getComputedStyle(icon).fill.match(/[\\d.]+/g) : null;
      if (parts && parts.length >= 3) {
        const colour = `rgb(${parts[0]}, ${parts[1]}, ${parts[2]})`;
        const alpha = parts.length > 3 ? parts[3] : "1";
        const set = (name, value) => {  // written only when it changed
          if (svg.style.getPropertyValue(name) !== value) svg.style.setProperty(name, value);
        };
        set("--attn-svg-colour", colour);
        set("--attn-svg-alpha", alpha);
      }
    });
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; add(); });
  }).observe(document.body, {childList: true, subtree: true});
  add();
}
</script>
<style>
[data-testid="stLayoutWrapper"]:has(> .st-key-attn-svg-title), .st-key-attn-svg-title { display: none !important; }
.js-plotly-plot .modebar-btn.attn-svg-btn svg path { fill: none !important; stroke: var(--attn-svg-colour, #506784);
  stroke-width: 1.7; stroke-linecap: round; stroke-linejoin: round; stroke-opacity: var(--attn-svg-alpha, 0.3); }
.js-plotly-plot .modebar-btn.attn-svg-btn:hover svg path {
  stroke-opacity: min(1, calc(var(--attn-svg-alpha, 0.3) * 2.3)); }
</style>
"""


def svg_buttons() -> None:
    """The script, and the button's name in this run's language (plain text, hidden: the script reads it)."""
    with st.container(key=TITLE_KEY):  # hidden whole, so the page's flow has no gap for it
        st.text(_("Download plot as SVG"))
        st.html(SVG_JS, unsafe_allow_javascript=True)
