"""Every chart's toolbar offers SVG beside PNG: a second download button, added in the browser.

Plotly's toolbar downloads one format, the one its config names (PNG here, at slide resolution). Drawing SVG on the
server would need a browser there (Kaleido), which Community Cloud does not have; the browser that shows the chart can
draw it. So a small script adds, beside each chart's camera, a button that asks the same download for SVG: it sets the
chart's own toImageButtonOptions.format to "svg", presses the camera (whose handler reads that option as it starts),
and puts "png" back. Same file name, the colours and fonts on screen. A still chart (no toolbar) has none; the Lab's map
has "Map as SVG" under it too, drawn in plain Python (figures/svg_export.py)."""

from __future__ import annotations

from html import escape

import streamlit as st

from attn_lang import _

SCRIPT_ID = "attn-svg"
BUTTON_CLASS = "attn-svg-btn"

SVG_JS = r"""
<script id="{script_id}" data-title="{title}">
if (!window.__attnSvg) {{
  window.__attnSvg = true;
  const mark = () => {{  // built node by node: the sanitizer drops a script whose text holds markup
    const ns = "http://www.w3.org/2000/svg";
    const icon = document.createElementNS(ns, "svg");
    const attrs = {{viewBox: "0 0 30 16", width: "1.9em", height: "1em", "aria-hidden": "true"}};
    Object.entries(attrs).forEach(([name, value]) => icon.setAttribute(name, value));
    const text = document.createElementNS(ns, "text");
    const place = {{x: "15", y: "12.5", "text-anchor": "middle", "font-size": "12", "font-weight": "700",
                   "font-family": "sans-serif"}};
    Object.entries(place).forEach(([name, value]) => text.setAttribute(name, value));
    text.textContent = "SVG";
    icon.appendChild(text);
    return icon;
  }};
  const add = () => {{
    const title = (document.getElementById("{script_id}") || {{dataset: {{}}}}).dataset.title || "SVG";
    document.querySelectorAll('.js-plotly-plot .modebar-btn[data-title="Download plot as a PNG"]').forEach((png) => {{
      const group = png.parentElement;
      let svg = group.querySelector(".{button_class}");
      if (!svg) {{
        svg = document.createElement("button");  // as Plotly draws its own
        svg.type = "button";
        svg.className = "modebar-btn {button_class}";
        svg.setAttribute("rel", "tooltip");
        svg.setAttribute("data-gravity", "n");
        svg.appendChild(mark());
        svg.addEventListener("click", (event) => {{
          event.preventDefault();
          event.stopPropagation();
          const chart = svg.closest(".js-plotly-plot");
          const options = chart && chart._context && chart._context.toImageButtonOptions;
          if (!options) return;
          const before = options.format;
          options.format = "svg";
          try {{ png.click(); }} finally {{ options.format = before; }}
        }});
        png.after(svg);
      }}
      svg.setAttribute("data-title", title);  // the language may have changed since
      svg.setAttribute("aria-label", title);
      const icon = png.querySelector("path");  // the toolbar's own colour, light or dark theme: "rgba(r, g, b, a)"
      const parts = icon ? getComputedStyle(icon).fill.match(/[\d.]+/g) : null;
      if (parts && parts.length >= 3) {{
        const text = svg.querySelector("text");
        text.style.fill = `rgb(${{parts[0]}}, ${{parts[1]}}, ${{parts[2]}})`;
        text.style.setProperty("--attn-svg-alpha", parts.length > 3 ? parts[3] : "1");
      }}
    }});
  }};
  let queued = false;
  new MutationObserver(() => {{
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {{ queued = false; add(); }});
  }}).observe(document.body, {{childList: true, subtree: true}});
  add();
}} else {{
  const title = document.getElementById("{script_id}").dataset.title;
  document.querySelectorAll(".{button_class}").forEach((b) => {{
    b.setAttribute("data-title", title); b.setAttribute("aria-label", title); }});
}}
</script>
<style>
[data-testid="stElementContainer"]:has(#{script_id}) {{ display: none !important; }}
.js-plotly-plot .modebar-btn.{button_class} svg text {{ fill-opacity: var(--attn-svg-alpha, 0.3); }}
.js-plotly-plot .modebar-btn.{button_class}:hover svg text {{
  fill-opacity: calc(var(--attn-svg-alpha, 0.3) * 2.3); }}
</style>
"""


def script() -> str:
    """The script and its style, the button's words in this run's language (escaped: they sit in an attribute)."""
    return SVG_JS.format(script_id=SCRIPT_ID, button_class=BUTTON_CLASS,
                         title=escape(_("Download plot as SVG"), quote=True))


def svg_buttons() -> None:
    st.html(script(), unsafe_allow_javascript=True)
