"""Two students, two browser contexts, different settings, clicking at the same moment: each sees only their
own state (switches, KPI tiles, map labels and mask, address bar), round after round.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import harness
import pytest

from attn_core import QUERY_KEYS, Settings, compute
from attn_ui.words.explain import kpi_values

OPEN_MS = 90_000
STUDENT_A = Settings(sentence="alpha beta gamma delta", causal=True, heads=2, view=2)
STUDENT_B = Settings(sentence="one two three four five", padded=(5,), d_model=8, seed=7)

_TICKS = """
() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot g.ytick text')]
        .map((t) => t.textContent)
"""


def open_student(new_page, server, settings: Settings):
    page = new_page()
    errors = harness.collect_page_errors(page)
    harness.open_app(page, server, query=urlencode(settings.to_query()), timeout_ms=OPEN_MS)
    return page, errors


def core_query(page) -> dict[str, str]:
    """The Lab's keys in the address bar (location.href: Playwright's page.url lags one rerun behind)."""
    query = parse_qs(urlsplit(page.evaluate("location.href")).query, keep_blank_values=True)
    return {key: values[-1] for key, values in query.items() if key in QUERY_KEYS}


def assert_shows(page, settings: Settings) -> None:
    harness.assert_no_exception(page)
    result = compute(settings)
    assert harness.switch(page, "Causal mask").is_checked() == settings.causal
    assert harness.metrics(page) == kpi_values(result)
    padded = set(settings.padded)
    assert harness.tick_problems(page.evaluate(_TICKS), list(result.labels), padded) == []
    z = harness.plotly_data(page)[0]["z"]  # the weights layer: blocked cells are blank (None)
    blocked = result.blocked[result.view_index] & (result.weights[result.view_index] == 0)
    assert [[cell is None for cell in row] for row in z] == blocked.tolist()
    assert core_query(page) == settings.to_query()


def click_both(page_a, page_b, label_a: str, label_b: str) -> None:
    """Click one control in each page within a few milliseconds, then wait for both to settle."""
    aims = []
    for page, label in ((page_a, label_a), (page_b, label_b)):
        if label:
            box = harness.toggle(page, label).bounding_box()  # aim first, so the two clicks follow each other
            aims.append((page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    for page, x, y in aims:
        page.mouse.click(x, y)  # real mouse events, a few milliseconds apart
    harness.wait_for_app(page_a, timeout_ms=OPEN_MS)
    harness.wait_for_app(page_b, timeout_ms=OPEN_MS)


def test_two_students_clicking_together_never_see_each_other(server, new_page):
    page_a, errors_a = open_student(new_page, server, STUDENT_A)
    page_b, errors_b = open_student(new_page, server, STUDENT_B)
    a, b = STUDENT_A, STUDENT_B
    assert_shows(page_a, a)
    assert_shows(page_b, b)

    for _round in range(3):  # both flip the causal mask at once: A on -> off -> on, B off -> on -> off
        click_both(page_a, page_b, "Causal mask", "Causal mask")
        a, b = a.replace(causal=not a.causal), b.replace(causal=not b.causal)
        assert_shows(page_a, a)
        assert_shows(page_b, b)

    # different controls at once: A flips the mask, B turns training off
    click_both(page_a, page_b, "Causal mask", "Training")
    a, b = a.replace(causal=not a.causal), b.replace(training=False)
    assert_shows(page_a, a)
    assert_shows(page_b, b)
    assert errors_a == [] and errors_b == []


@pytest.mark.parametrize("reload_first", [False, True], ids=["live", "after-reload"])
def test_a_reload_keeps_each_students_own_state(server, new_page, reload_first):
    page_a, _ = open_student(new_page, server, STUDENT_A)
    page_b, _ = open_student(new_page, server, STUDENT_B)
    click_both(page_a, page_b, "Causal mask", "")
    a = STUDENT_A.replace(causal=False)
    if reload_first:
        page_a.reload()
        harness.wait_for_app(page_a, timeout_ms=OPEN_MS)
    assert_shows(page_a, a)
    assert_shows(page_b, STUDENT_B)
