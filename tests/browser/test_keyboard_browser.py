"""The Lab with the keyboard alone: every control reached with Tab in reading order, each with a visible focus
ring, and the causal mask, a padding chip, the head count and dropout driven with Space and the arrow keys."""

from __future__ import annotations

import harness
import pytest

from attn_core import Settings, compute
from attn_ui.figures.palette import contrast_ratio as contrast  # the one WCAG formula of the app

SLOW_MS = 120_000
MAX_TABS = 90

# What has focus: its role, its accessible name (as a screen reader would say it), whether a ring is visible.
_FOCUS = """
() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const byId = (ids) => (ids || "").split(/\\s+/).map((id) => document.getElementById(id)?.innerText || "").join(" ");
  const name = (e.getAttribute("aria-label") || byId(e.getAttribute("aria-labelledby")) ||
                e.closest("label")?.innerText || e.innerText || e.value || "").replace(/\\s+/g, " ").trim();
  const role = e.getAttribute("role") || (e.type === "range" ? "slider" : e.tagName.toLowerCase());
  // the part that shows the ring: a hidden input's label, a slider's thumb, else the element itself
  let shown = e;
  if (e.matches('input[type="checkbox"], input[type="radio"]')) shown = e.closest("label");
  if (e.matches('input[type="range"]')) shown = e.parentElement.parentElement;
  const style = getComputedStyle(shown);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 ? style.outlineColor : null;
  const box = shown.getBoundingClientRect();
  const app = getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor;
  const group = e.closest('[role="radiogroup"], [role="group"], [role="toolbar"]')?.getAttribute("aria-label") || "";
  return {role, name: name.slice(0, 60), group, ring, app, inMain: !!e.closest('[data-testid="stMain"]'),
          visible: box.width > 0 && box.height > 0, checked: e.getAttribute("aria-checked") || String(e.checked)};
}
"""


def open_lab(browser, server, query: str = "", scheme: str = "light"):
    context = browser.new_context(viewport=harness.VIEWPORT, color_scheme=scheme)
    context.add_init_script(harness._TRACK_SOCKETS)
    page = context.new_page()
    page.goto(server.url + (f"?{query}" if query else ""), timeout=SLOW_MS)
    settle(page)
    return context, page


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    harness.assert_no_exception(page)


def focus(page) -> dict | None:
    return page.evaluate(_FOCUS)


def tab_until(page, wanted, limit: int = MAX_TABS, backwards: bool = False) -> dict:
    """Press Tab (or Shift+Tab) until `wanted(focus)` is true; fail with the stops seen otherwise."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        now = focus(page)
        if now and wanted(now):
            return now
        seen.append(now and f"{now['role']}:{now['name']}")
    raise AssertionError(f"never reached the wanted control; focus went through {seen}")


def tab_through_page(page) -> list[dict]:
    """Every Tab stop from the top of the page until focus wraps round to the first one again."""
    page.locator("body").focus()
    stops = []
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        now = focus(page)
        if now is None:
            continue
        if stops and now["name"] == stops[0]["name"] and now["role"] == stops[0]["role"]:
            break
        stops.append(now)
    return stops


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tab_reaches_every_lab_control_in_reading_order_with_a_visible_ring(browser, server, scheme):
    # two heads (so "Viewing head" shows) and dropout in training (so Re-roll is enabled)
    context, page = open_lab(browser, server, "causal=1&heads=2&p=0.2", scheme)
    try:
        stops = tab_through_page(page)
        main = [stop for stop in stops if stop["inMain"]]
        names = [f"{stop['role']}:{stop['name']} [{stop['group']}]" for stop in main]
        controls = [  # (role, words in its name or in its group's name)
            ("switch", "Causal mask"), ("radio", "Heads"), ("radio", "Viewing head"), ("slider", "Dropout p"),
            ("switch", "Training"), ("button", "Re-roll"), ("button", "Tap a word to make it PAD"),
            ("summary", "More: sentence, d_model"), ("summary", "The map as a table"),
        ]
        positions = []
        for role, name in controls:
            hits = [i for i, stop in enumerate(main) if stop["role"] == role and name in stop["name"] + stop["group"]]
            assert hits, f"Tab never reaches {role} {name!r}; the stops were {names}"
            positions.append(hits[0])
        assert positions == sorted(positions), f"Tab order is not the reading order: {names}"
        pad_chips = [stop for stop in main if stop["name"] in ("journey", "starts", "with", "one", "step")]
        assert pad_chips == [], "the PAD chips are one Tab stop (arrows move inside), not six"
        no_ring = [f"{stop['role']}:{stop['name']}" for stop in main if not stop["ring"]]
        assert no_ring == [], f"focus is invisible on: {no_ring}"
        weak = [(stop["name"], round(contrast(stop["ring"], stop["app"]), 2)) for stop in main
                if contrast(stop["ring"], stop["app"]) < 3]
        assert weak == [], f"focus ring under 3:1 against the page: {weak}"
        assert all(stop["visible"] for stop in main), [stop["name"] for stop in main if not stop["visible"]]
    finally:
        context.close()


def test_keyboard_alone_drives_the_mask_a_padding_chip_heads_and_dropout(browser, server):
    context, page = open_lab(browser, server)
    try:
        tiles = harness.metrics(page)
        assert tiles["Masked cells"] == "0" and tiles["Sees future?"] == "Yes"
        page.locator("body").focus()

        tab_until(page, lambda f: f["role"] == "switch" and f["name"] == "Causal mask")
        page.keyboard.press("Space")
        settle(page)
        assert harness.switch(page, "Causal mask").is_checked()
        tiles = harness.metrics(page)
        assert tiles["Masked cells"] == "15" and tiles["Sees future?"] == "No"
        assert focus(page)["name"] == "Causal mask", "focus should stay on the switch after the rerun"

        chip = tab_until(page, lambda f: f["role"] == "button" and f["name"] == "Your")
        assert chip["ring"]
        for _ in range(4):  # Your -> journey -> starts -> with -> one
            page.keyboard.press("ArrowRight")
        assert focus(page)["name"] == "one"
        page.keyboard.press("Space")
        settle(page)
        expected = compute(Settings(causal=True, padded=(5,)))
        tiles = harness.metrics(page)
        assert tiles["Padding-blocked cells"] == str(expected.padding_cells) == "6"
        assert tiles["Masked cells"] == str(expected.masked_cells) == "17"  # 15 future + 2 more in column 5
        assert "pad=5" in page.evaluate("location.href")

        tab_until(page, lambda f: f["role"] == "radio" and f["group"] == "Heads", backwards=True)  # back to Heads
        page.keyboard.press("ArrowRight")  # focus 1 -> 2; Streamlit's segments then need Space (not radio-like)
        assert focus(page)["name"] == "2"
        page.keyboard.press("Space")
        settle(page)
        assert harness.metrics(page)["d_head"] == "12 / 2 = 6"

        tab_until(page, lambda f: f["role"] == "slider" and f["name"] == "Dropout p")
        for step in (1, 2):
            page.keyboard.press("ArrowRight")
            settle(page)
            assert f"p={0.05 * step:g}" in page.evaluate("location.href")
            assert page.get_by_role("slider", name="Dropout p").get_attribute("aria-valuetext") == f"{0.05 * step:.2f}"
            assert (focus(page) or {}).get("role") == "slider", "focus should stay on the slider after the rerun"
        harness.assert_no_exception(page)
    finally:
        context.close()
