"""WCAG 2.1 A and AA, checked by axe-core in Chromium on every page of the app, in the states that matter.

axe-core (npm `axe-core@4`) is injected into each page with Playwright. CI installs it and exports AXE_PATH
(see .ci/run); locally: `npm install --no-save --prefix ~/.cache/attn-lab-axe axe-core@4` (the default path
below). Without axe these tests skip, except under REQUIRE_BROWSER=1, where they fail.

Pages are found in pages/ (URL path = file name without its number prefix and .py), so a new page is checked
without touching this file. Every expander is opened before axe runs, so what hides inside is checked too.
The bar is zero violations; EXCLUDED_RULES lists any rule we switch off, with the reason.

A page load costs seconds (the Plotly bundle), so each test loads once and then reaches its states the way a
student does: clicking controls and the sidebar's links. Every state is checked before the test fails, and
the failure lists the violations of all of them.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import harness
import pytest

from attn_core import Settings, compute

AXE_DEFAULT = Path.home() / ".cache" / "attn-lab-axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PAGES_DIR = harness.REPO_ROOT / "pages"
SLOW_MS = 120_000  # a first load fetches the Plotly bundle: slow on a busy 2-core machine
SCHEMES = ["light", "dark"]

# Rules switched off, each with the reason. Empty: every WCAG 2.1 A/AA rule runs on every page.
EXCLUDED_RULES: dict[str, str] = {}


def axe_path() -> Path:
    path = Path(os.environ.get("AXE_PATH") or AXE_DEFAULT)
    if not path.is_file():
        reason = (f"axe-core not found at {path}; run `npm install --no-save --prefix ~/.cache/attn-lab-axe "
                  "axe-core@4` or set AXE_PATH")
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def axe() -> Path:
    return axe_path()


def page_paths() -> dict[str, str]:
    """{file name: URL path} of every page in pages/, as Streamlit's automatic multipage serves them."""
    return {file.name: "/" + re.sub(r"^\d+_", "", file.stem) for file in sorted(PAGES_DIR.glob("*.py"))}


def test_page_paths_follow_the_file_names():
    pages = page_paths()
    assert len(pages) >= 5, pages
    assert all(re.fullmatch(r"/[A-Za-z][A-Za-z0-9_]*", path) for path in pages.values()), pages
    if "8_Check_yourself.py" in pages:
        assert pages["8_Check_yourself.py"] == "/Check_yourself"


# --- driving the app ------------------------------------------------------------------------------------


def open_themed(browser, server, path: str = "/", query: str = "", scheme: str = "light", width: int = 1366,
                height: int = 768):
    """A fresh context in this colour scheme (Streamlit follows it), the page loaded and settled."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    context.add_init_script(harness._TRACK_SOCKETS)
    page = context.new_page()
    errors = harness.collect_page_errors(page)
    page.goto(server.url.rstrip("/") + path + (f"?{query}" if query else ""), timeout=SLOW_MS)
    settle(page)
    return context, page, errors


@contextlib.contextmanager
def audited(browser, server, **options):
    """A page opened as open_themed does and its Audit; on leaving, every check must have been clean."""
    context, page, errors = open_themed(browser, server, **options)
    audit = Audit(page, errors)
    try:
        yield page, audit
        audit.assert_clean()
    finally:
        context.close()


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    harness.assert_no_exception(page)


def open_expanders(page) -> int:
    """Open every closed expander (a map's text alternative lives in one), so axe checks what is inside."""
    closed = page.locator('[data-testid="stExpander"] details:not([open]) > summary')
    opened = 0
    while closed.count() and opened < 20:
        closed.first.click()
        opened += 1
        settle(page)  # one at a time: a lazy expander reruns the page to draw what it holds
    return opened


def go_to(page, server, path: str) -> None:
    """Switch page with the sidebar's own link (no reload); a page the sidebar does not list is loaded."""
    links = page.locator('[data-testid="stSidebar"] a[href]')
    hrefs = links.evaluate_all("(as) => as.map((a) => new URL(a.href).pathname)")
    if path in hrefs:
        expand = page.locator('[data-testid="stExpandSidebarButton"]')
        if expand.count() and expand.is_visible():  # a narrow window starts with the sidebar closed
            expand.click()
        links.nth(hrefs.index(path)).click()
    else:
        page.goto(server.url.rstrip("/") + path, timeout=SLOW_MS)
    settle(page)
    assert page.evaluate("location.pathname") == path


_RUN_AXE = """
async ([tags, disabled]) => {
  // Let fades finish first (a focused slider fades its min/max labels in over 0.5 s); endless spinners excepted.
  const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => null))),
                      new Promise((done) => setTimeout(done, 3000))]);
  const rules = Object.fromEntries(disabled.map((id) => [id, {enabled: false}]));
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, rules, resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160),
                                summary: (n.failureSummary || "").slice(0, 240)})),
  }));
}
"""


# Icons never stand alone: each Material icon of our content sits in a control or box that also shows words.
# (Streamlit's own header buttons, such as "Collapse sidebar", are icons with an aria-label: not ours to change.)
_LONE_ICONS = """
() => [...document.querySelectorAll(
    ':is([data-testid="stMain"], [data-testid="stSidebarUserContent"]) [data-testid="stIconMaterial"]')
].filter((icon) => {
  if (!icon.getClientRects().length) return false;  // not shown
  if (icon.closest("details:not([open])")) return false;  // in a closed fold: laid out, but not shown (no words)
  const holder = icon.closest('button, a, summary, label, [role="alert"], [data-testid="stAlert"], li') ||
                 icon.parentElement.parentElement;
  const words = holder.innerText.replace(icon.innerText, "").replace(/\\s+/g, "");
  return words.length === 0;
}).map((icon) => icon.innerText + " in " + icon.parentElement.parentElement.outerHTML.slice(0, 120))
"""


class Audit:
    """Runs axe in each state it is given and keeps every violation, to report them all at the end."""

    def __init__(self, page, errors: list[str]) -> None:
        self.page, self.errors = page, errors
        self.found: dict[str, list[dict]] = {}

    def check(self, state: str) -> None:
        if not self.page.evaluate("typeof window.axe !== 'undefined'"):
            self.page.add_script_tag(path=str(axe_path()))
        self.found[state] = self.page.evaluate(_RUN_AXE, [WCAG_TAGS, sorted(EXCLUDED_RULES)])
        lone = self.page.evaluate(_LONE_ICONS)
        if lone:
            self.found[state].append({"id": "icon-without-text", "impact": "ours", "help": "an icon shows no words",
                                      "nodes": [{"target": text, "html": "", "summary": ""} for text in lone]})

    def assert_clean(self) -> None:
        assert self.found, "no state was checked"
        failing = {state: found for state, found in self.found.items() if found}
        report = []
        for state, violations in failing.items():
            report.append(f"== {state}")
            for v in violations:
                report.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
                report.extend(f"    {n['target'][:140]}\n      {n['html']}\n      {n['summary']}"
                              for n in v["nodes"][:4])
        assert not failing, "axe found WCAG 2.1 A/AA violations:\n" + "\n".join(report)
        assert self.errors == [], f"JavaScript errors: {self.errors}"


# --- the tests ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
def test_lab_states_have_no_axe_violations(axe, browser, server, scheme):
    """Default, mask on, padding tapped, dropout with four heads, a row picked: each checked with axe."""
    with audited(browser, server, scheme=scheme) as (page, audit):
        assert open_expanders(page) >= 2, "the Lab should have the 'More' expander and the map's table"
        assert page.locator('[data-testid="stTable"] table').count() >= 1, "the map's table is missing"
        summary = compute(Settings()).labels[0] + " looks most at"
        chart = page.get_by_role("figure", name=re.compile(r"^Attention weights of head 1 of 1 for 6 words\."))
        assert chart.count() == 1 and summary in chart.get_attribute("aria-label"), "the map needs its text summary"
        table = page.get_by_role("table", name="Attention weights of head 1 of 1")
        assert table.get_by_role("row").count() == 7, "a header row and one row per word"
        audit.check("Lab, default")

        harness.toggle(page, "Causal mask").click()
        settle(page)
        assert harness.metrics(page)["Masked cells"] == "15"
        audit.check("Lab, causal mask on")

        page.locator('[data-testid="stButtonGroup"] button').filter(has_text="with").click()  # word 4 -> PAD
        settle(page)
        expected = compute(Settings(causal=True, padded=(4,)))
        assert harness.metrics(page)["Padding-blocked cells"] == str(expected.padding_cells)
        open_expanders(page)
        audit.check("Lab, padding tapped")

        page.get_by_role("radio", name="4", exact=True).first.click()  # four heads
        settle(page)
        slider = page.get_by_role("slider", name="Dropout p")
        for _ in range(6):  # one step at a time: each step is a rerun
            slider.focus()
            page.keyboard.press("ArrowRight")
            settle(page)
        assert harness.metrics(page)["d_head"] == "12 / 4 = 3"
        assert "p=0.3" in page.evaluate("location.href")
        open_expanders(page)
        audit.check("Lab, four heads, dropout 0.3 in training")

        box = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
        page.mouse.click(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.6)  # a cell near the middle
        settle(page)
        audit.check("Lab, a row picked on the map")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_projector_mode_has_no_axe_violations(axe, browser, server, scheme):
    with audited(browser, server, query="causal=1&pad=5&mode=projector", scheme=scheme) as (page, audit):
        projector = harness.switch(page, "Projector mode")
        assert projector.count() == 1 and projector.is_checked(), "?mode=projector should switch projector mode on"
        assert not page.locator('[data-testid="stSidebar"]').is_visible(), "projector mode hides the sidebar"
        audit.check("Lab, projector mode")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_page_has_no_axe_violations(axe, browser, server, scheme):
    """Every file in pages/, reached from the Lab; a lesson also once its predictions are skipped (its answer folds
    then draw what they hold); Check yourself also after two answers."""
    with audited(browser, server, scheme=scheme) as (page, audit):
        for file, path in page_paths().items():
            go_to(page, server, path)
            assert page.locator("h1").count() >= 1, f"{file} drew no heading"
            open_expanders(page)
            audit.check(f"{path} ({file})")
            if skip_predictions(page):
                open_expanders(page)
                audit.check(f"{path} ({file}), its answers shown")
            if file == "8_Check_yourself.py":
                answer_two_questions(page)
                audit.check(f"{path} answered")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_your_lecture_with_a_deck_has_no_axe_violations(axe, browser, server, scheme):
    """Your lecture holding the example deck: its editor (every scene's controls and preview), a scene asked and
    answered, the pair of maps, in projector mode too."""
    from attn_core.deck import read_json, to_link

    link = to_link(read_json((harness.REPO_ROOT / "docs/decks/masks-week-3.json").read_bytes()))
    with audited(browser, server, path="/Your_lecture", query=f"deck={link}", scheme=scheme) as (page, audit):
        audit.check("Your lecture, the example deck's editor")
        for query in ("scene=5", "scene=5&reveal=1", "scene=9&mode=projector", "scene=9&reveal=1&mode=projector"):
            page.goto(f"{server.url.rstrip('/')}/Your_lecture?deck={link}&{query}", timeout=SLOW_MS)
            settle(page)
            audit.check(f"Your lecture presented, {query}")


def test_every_page_in_spanish_has_no_axe_violations(axe, browser, server):
    """Every page again in Spanish (a link's `lang=es`, kept from page to page): longer words, the same rules, and the
    document's language follows, so a screen reader reads it in Spanish."""
    with audited(browser, server, query="lang=es") as (page, audit):
        for file, path in page_paths().items():
            go_to(page, server, path)
            assert page.evaluate("document.documentElement.lang") == "es", path
            open_expanders(page)
            audit.check(f"{path} ({file}), in Spanish")


def skip_predictions(page) -> int:
    """Press every "Show it without answering" (in the answer folds open_expanders opened): how many."""
    skips = page.get_by_role("button", name="Show it without answering")
    pressed = 0
    while skips.count() and pressed < 5:
        skips.first.click()
        pressed += 1
        settle(page)
    return pressed


def answer_two_questions(page) -> None:
    """The first option of the first two single-choice questions: the page shows its verdict boxes."""
    questions = page.locator('[data-testid="stRadio"]')
    assert questions.count() >= 2, "Check yourself should ask its questions with st.radio"
    for index in range(2):
        questions.nth(index).locator('[data-testid="stRadioOption"]').first.click()
        settle(page)
    assert page.locator('[data-testid="stAlert"]').count() >= 2, "an answer should show a verdict box"


# --- 200% zoom ------------------------------------------------------------------------------------------

_MEASURE = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const cut = [];
  for (const el of document.querySelectorAll(
      '[data-testid="stWidgetLabel"] p, [data-testid="stCheckbox"] p, button p, [data-testid="stMetric"] p')) {
    if (el.getBoundingClientRect().width === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) cut.push(el.innerText.slice(0, 40));
  }
  return {docScroll: document.documentElement.scrollWidth, docClient: document.documentElement.clientWidth,
          mainScroll: main.scrollWidth, mainClient: main.clientWidth, cut};
}
"""


def test_every_page_at_200_percent_zoom_fits_the_window(browser, server):
    """Each page at 683x384 (1366x768 at 200%): no sideways scrolling, no label or button text cut off."""
    context, page, errors = open_themed(browser, server, width=683, height=384)
    problems = {}
    try:
        for file, path in page_paths().items():
            go_to(page, server, path)
            measured = page.evaluate(_MEASURE)
            wide = measured["docScroll"] > measured["docClient"] or measured["mainScroll"] > measured["mainClient"]
            if wide or measured["cut"]:
                problems[file] = measured
        assert problems == {}, f"pages that do not fit at 200% zoom: {problems}"
        assert errors == []
    finally:
        context.close()


def test_lab_at_200_percent_zoom_keeps_every_control_and_the_map(browser, server):
    """683x384 CSS pixels is a 1366x768 screen at 200% zoom: nothing cut, nothing wider than the window."""
    width = 683
    context, page, _ = open_themed(browser, server, query="causal=1&heads=4&view=2&p=0.5&pad=5", width=width,
                                   height=384)
    try:
        measured = page.evaluate(_MEASURE)
        assert measured["docScroll"] <= measured["docClient"], measured
        assert measured["mainScroll"] <= measured["mainClient"], measured
        assert measured["cut"] == [], f"text cut off at 200% zoom: {measured['cut']}"
        header = page.locator('[data-testid="stHeader"]').bounding_box()
        title = page.locator("h1").first.bounding_box()
        assert title["y"] >= header["y"] + header["height"] - 1, "the title hides under Streamlit's header"
        controls = [harness.switch(page, "Causal mask").locator("xpath=ancestor::label[1]"),
                    page.get_by_role("slider", name="Dropout p"),
                    page.get_by_role("button", name="Re-roll", exact=True),
                    page.locator('[data-testid="stPlotlyChart"]').first, page.get_by_text("The map as a table")]
        for control in controls:
            control.scroll_into_view_if_needed()
            box = control.bounding_box()
            assert box is not None and box["width"] > 0 and box["height"] > 0
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
        chart = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
        assert chart["width"] >= 300, f"the map is squeezed to {chart['width']:.0f}px at 200% zoom"
        harness.toggle(page, "Causal mask").click()  # still usable down here
        settle(page)
        assert not harness.switch(page, "Causal mask").is_checked()
    finally:
        context.close()
