"""Hostile links in a real browser: the Lab always shows a valid map and at most a friendly note, and words a
student types show as literal text (SVG tick labels, PAD chips, the row caption), never as markup.

Every test listens for JavaScript dialogs (an `alert(1)` that ran would open one) and page errors.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

import harness
import pytest

from attn_core import Settings, compute
from attn_ui.widgets.lang import LANG_JS
from attn_ui.widgets.look import ROW_JS, TOUCH_JS
from attn_ui.widgets.svg_download import SVG_JS
from attn_ui.words.explain import kpi_values

OPEN_MS = 90_000  # a fresh server's first page on a busy 2-core machine can take over 30 s
LONG = " ".join(f"w{i}" for i in range(17))
NASTY_QUERIES = [
    "heads=-4&view=99&p=nan&d=7&route=%3Cscript%3E&seed=1e999&roll=-1&causal=maybe&train=%F0%9F%99%82",
    "heads=2.5&p=1e309&pad=0,-1,99,x,%EF%BC%91&rescale=%00&seed=0x10",
    "causal=1&causal=0&causal=1&heads=2&heads=3&heads=4&view=4&view=9",
    "pad=%3Cb%3Ex%3C%2Fb%3E,%3Ared%5By%5D,%24x%24,**b**,%5Ba%5D(javascript:x)",
    "s=",
    "s=%20%20%20%20",
    "s=" + quote(LONG),
    "s=" + "x" * 10_000,
    "s=a%00b%20c%E2%80%8Bd%20%E2%80%AEevil",
    "s=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "s=" + quote("[link](javascript:alert(1))"),
    "p=" + "9" * 3_000 + "&seed=" + "1" * 3_000,
    "row=-1&mode=%3Cb%3Ex%3C%2Fb%3E&zz=%3Cscript%3Ealert(1)%3C%2Fscript%3E&%3Cb%3E=1",
    "row=99999&scene=%27%22%3E%3Csvg%2Fonload%3Dalert(1)%3E",
    "s=" + quote("مرحبا بالعالم שלום עולם") + "&causal=1&pad=1",
]  # fmt: skip

# Elements that would exist only if user text had been turned into markup somewhere in the app's body.


def _script(html: str) -> tuple[str, str]:
    """(id, text) of the one <script> in a constant of the app's."""
    opening, rest = html.strip().split(">", 1)
    return opening.split('id="')[1].split('"')[0], rest.split("</script>")[0].strip()


# the app's own scripts (constants: phone taps and the sidebar, the Lab's row sentence, the language of the
# document, the toolbars' SVG button), the only scripts allowed on a page, each by its id and its exact text
OWN_SCRIPTS = dict(map(_script, (TOUCH_JS, ROW_JS, LANG_JS, SVG_JS)))
_MARKUP_FOUND = """
(ownScripts) => {
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const found = [];
  const bad = 'script, svg[onload], img[src="x"], a[href^="javascript"], [onerror], [onload], iframe, .katex';
  for (const el of main.querySelectorAll(bad)) {
    if (el.matches("script[id]") && ownScripts[el.id] === el.textContent.trim()) continue;  // a constant of ours
    found.push(el.outerHTML.slice(0, 120));
  }
  for (const el of main.querySelectorAll('b, strong, em, i, u, s, del, code')) {
    if (['x', 'bold', 'b', 'y'].includes(el.textContent.trim())) found.push(el.outerHTML.slice(0, 120));
  }
  for (const el of main.querySelectorAll('span[style*="color"], span[class*="red"]')) {
    if (['x', 'y'].includes(el.textContent.trim())) found.push(el.outerHTML.slice(0, 120));
  }
  return found;
}
"""

# A lone emoji option is drawn as an icon (aria-hidden) next to its accessible text: read the text once.
_VISIBLE_TEXT = """
(elements) => elements.map((element) => {
  const copy = element.cloneNode(true);
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent.trim();
})
"""

_TICKS = """
([axis]) => {
  const plot = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  if (!plot) return null;
  return [...plot.querySelectorAll(`g.${axis}tick text`)].map((t) => t.textContent);
}
"""


@pytest.fixture
def watched(page):
    """The page, with every JavaScript dialog recorded (and dismissed) and every page error collected."""
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    errors = harness.collect_page_errors(page)
    yield page
    assert dialogs == [], f"a dialog opened: {dialogs}"
    assert errors == [], f"page errors: {errors}"


def assert_valid_lab(page) -> None:
    harness.assert_no_exception(page)
    traces = harness.plotly_data(page)
    z = traces[0]["z"]
    assert 1 <= len(z) <= 16 and all(len(row) == len(z) for row in z)
    shown = [v for row in z for v in row if v is not None]
    assert shown and all(v >= 0.0 for v in shown)  # dropout survivors may exceed 1 (rescaled)
    values = harness.metrics(page)
    assert {"Masked cells", "Row sums"} <= set(values)
    assert "nan" not in " ".join(values.values()).lower()
    notes = page.locator('[data-testid="stAlert"]')
    assert notes.count() <= 2, "at most a note (and the empty-row notice)"
    assert page.evaluate(_MARKUP_FOUND, OWN_SCRIPTS) == []


@pytest.mark.parametrize("query", NASTY_QUERIES, ids=lambda q: q[:40])
def test_a_nasty_link_opens_a_valid_lab(server, watched, query):
    harness.open_app(watched, server, query=query, timeout_ms=OPEN_MS)
    assert_valid_lab(watched)


def test_a_refused_sentence_says_why_and_shows_the_default(server, watched):
    harness.open_app(watched, server, query="s=" + quote("<script>alert(1)</script>"), timeout_ms=OPEN_MS)
    assert_valid_lab(watched)
    note = watched.locator('[data-testid="stAlert"]').first.inner_text()
    assert "25 characters long; each word may have at most 24" in note and "default sentence" in note
    assert y_ticks(watched) == list(Settings().tokens)


def test_rejected_pad_values_are_quoted_literally_in_the_note(server, watched):
    harness.open_app(watched, server, query="pad=" + quote("<b>x</b>,:red[y],$x$"), timeout_ms=OPEN_MS)
    assert_valid_lab(watched)
    note = watched.locator('[data-testid="stAlert"]').first.inner_text()
    assert "'<b>x</b>'" in note and "':red[y]'" in note and "'$x$'" in note


# ------------------------------------------------------------------ custom sentences, shown literally

SENTENCES = [
    "<b>x</b> **bold** :red[x] $x^2$ 🙂 שלום مرحبا <svg/onload=alert(1)>",
    "<script>alert(1) </script> [a](javascript:x) <img/src=x> &lt;b&gt; `code` # > |a|",
    "<b>x</b> <b>x</b> ~~s~~ _i_ \\ :material/home: 👩‍💻",
]


def y_ticks(page) -> list[str]:
    ticks = page.evaluate(_TICKS, ["y"])
    assert ticks is not None, "no map drawn"
    return ticks


@pytest.mark.parametrize("sentence", SENTENCES, ids=["tags-markdown-rtl", "script-link-entities", "repeats"])
def test_typed_words_show_as_literal_text(server, watched, sentence):
    settings = Settings(sentence=sentence, padded=(2,))
    result = compute(settings)
    labels = list(result.labels)
    query = urlencode({"s": sentence, "pad": "2", "row": "1"}, quote_via=quote)
    harness.open_app(watched, server, query=query, timeout_ms=OPEN_MS)
    assert_valid_lab(watched)
    assert watched.locator('[data-testid="stAlert"]').count() == 0, "a valid sentence needs no note"

    # heatmap: the SVG tick text is the word itself; the padded word carries the PAD mark
    # (a word too long for the map is cut, its position first; the line under the map gives it whole)
    assert harness.tick_problems(y_ticks(watched), labels, {2}) == []
    assert harness.tick_problems(watched.evaluate(_TICKS, ["x"]), labels, {2}) == []

    # PAD chips: one per word, the word as typed
    assert watched.locator(".st-key-lab-pad button").evaluate_all(_VISIBLE_TEXT) == labels

    # the caption of the selected row names the words as typed
    caption = watched.locator('[data-testid="stMarkdown"]').filter(has_text="(query 1)")
    assert caption.count() == 1
    text = caption.inner_text()
    assert text.startswith(f"{labels[0]} (query 1) looks most at")

    # the KPI tiles are the core's numbers for these settings
    assert harness.metrics(watched) == kpi_values(result)


def test_the_sentence_box_takes_markup_literally_and_refuses_too_long(server, watched):
    harness.open_app(watched, server, timeout_ms=OPEN_MS)
    watched.get_by_text("More: sentence, d_model, masking route, seed").click()
    box = watched.get_by_label("Sentence (1 to 16 words)")
    typed = "<b>x</b> **bold** :red[x] $x^2$ 🙂 שלום"
    box.fill(typed)
    box.press("Enter")
    harness.wait_for_app(watched, timeout_ms=OPEN_MS)
    assert_valid_lab(watched)
    assert y_ticks(watched) == list(compute(Settings(sentence=typed)).labels)

    box.fill(" ".join(["word"] * 17))
    box.press("Enter")
    harness.wait_for_app(watched, timeout_ms=OPEN_MS)
    assert_valid_lab(watched)
    note = watched.locator('[data-testid="stAlert"]').first.inner_text()
    assert "17 words; the app takes 1 to 16" in note and "keeps the previous sentence" in note
    assert y_ticks(watched) == list(compute(Settings(sentence=typed)).labels)  # the map keeps the last good one
