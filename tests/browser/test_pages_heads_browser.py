"""Pages 4-6 in a real Chromium: the numbers drawn match the core, the controls rerun, the Lab links carry the
state, the Lab's settings reach page 6, and nothing spills sideways on a phone."""

from __future__ import annotations

import math
from urllib.parse import parse_qs, urlsplit

import harness
import numpy as np

from attn_core import Settings, compute, head_error
from attn_core.lessons import heads as lessons

PATIENCE_MS = 90_000  # six charts on a busy two-core machine can take most of a minute to draw


def open_page(page, server, path: str, query: str = "") -> None:
    page.goto(server.url + path + (f"?{query}" if query else ""), timeout=PATIENCE_MS)
    settle(page)


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=PATIENCE_MS)
    harness.assert_no_exception(page)


def address(page) -> tuple[str, dict[str, str]]:
    """Path and query as the address bar holds them (page.url lags behind Streamlit's writes)."""
    parts = urlsplit(page.evaluate("location.href"))
    return parts.path, {key: values[-1] for key, values in parse_qs(parts.query).items()}


def grid(trace: dict) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in trace["z"]], dtype=float)


def fits_a_phone(page) -> None:
    """Shrink the window to a phone: Streamlit lays the page out again, and nothing may spill sideways."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(500)
    settle(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    harness.assert_no_exception(page)


def chart_count(page) -> int:
    return page.locator(".js-plotly-plot").count()


def choose(page, group: str, option: str) -> None:
    """Click one option of a segmented control by its label."""
    page.get_by_role("radiogroup", name=group).get_by_role("radio", name=option, exact=True).click()
    settle(page)


def test_many_heads_draws_the_core_heads_explains_a_bad_head_count_and_links_to_the_lab(server, page):
    errors = harness.collect_page_errors(page)
    open_page(page, server, "Many_heads")
    result = compute(Settings(causal=True, heads=4))
    assert chart_count(page) == 4, "four maps: concat and W_o wait until the question is answered"
    page.locator(".st-key-quiz-heads-start-column [data-testid='stRadioOption']").filter(has_text="Column 3").click()
    settle(page)
    assert chart_count(page) == 6
    for head in range(4):
        z = grid(harness.plotly_data(page, head)[0])
        np.testing.assert_allclose(z, np.where(result.blocked[head], np.nan, result.weights[head]), atol=5e-7)
    np.testing.assert_allclose(grid(harness.plotly_data(page, 4)[0]), result.context, atol=5e-7)
    assert harness.metrics(page) == {"Weights, 4 heads": "252", "Weights, 1 wide head": "252",
                                     "FLOPs, 4 heads": "4,752", "FLOPs, 1 wide head": "4,752"}
    assert page.get_by_text(head_error(5, 12)).is_visible()

    choose(page, "Number of heads h", "2")
    assert chart_count(page) == 4
    two = compute(Settings(causal=True, heads=2))
    np.testing.assert_allclose(grid(harness.plotly_data(page, 1)[0]),
                               np.where(two.blocked[1], np.nan, two.weights[1]), atol=5e-7)
    assert harness.metrics(page)["FLOPs, 2 heads"] == "4,752"

    box = page.get_by_label("Try a head count for d_model = 12")
    box.fill("7")
    box.press("Enter")
    settle(page)
    assert page.get_by_text(head_error(7, 12)).is_visible()
    assert page.get_by_text("cannot reshape array of size 72 into shape (6,7,1)").is_visible()
    fits_a_phone(page)
    assert errors == []

    page.get_by_role("link", name="Open the Lab in this state").click()  # the Try-it link, on the phone
    page.wait_for_function("() => !location.pathname.endsWith('Many_heads')")
    settle(page)
    _, query = address(page)
    assert {k: v for k, v in query.items() if k != "lesson"} == {"causal": "1", "heads": "4"}
    values = harness.metrics(page)
    assert values["d_head"] == "12 / 4 = 3" and values["Masked cells"] == "15"


def test_shapes_memory_follows_the_sliders(server, page):
    open_page(page, server, "Shapes_and_memory")
    page.get_by_text("The memory against T", exact=False).first.click()  # the fold holds the answer and its sliders
    harness.wait_for_app(page)
    page.get_by_role("button", name="Show it without answering").click()  # drawn once answered, or skipped
    harness.wait_for_app(page)
    float32, bf16, chosen = harness.plotly_data(page, 0)
    lengths = [2**k for k in range(7, 18)]
    assert float32["x"] == lengths
    assert float32["y"] == [8 * 12 * t * t * 4 for t in lengths]
    assert bf16["y"] == [8 * 12 * t * t * 2 for t in lengths]
    assert chosen["x"] == [1024]
    assert harness.metrics(page)["T = 1,024, float32"] == "403 MB"

    thumb = page.get_by_role("slider").nth(1)  # the context length (the first slider is the batch)
    thumb.focus()
    thumb.press("ArrowRight")
    settle(page)
    assert harness.plotly_data(page, 0)[2]["x"] == [2048]
    assert harness.metrics(page) == {"T = 2,048, float32": "1.61 GB", "T = 2,048, bf16": "805 MB",
                                     "T = 4,096, float32": "6.44 GB", "Doubling T multiplies it by": "4"}
    assert lessons.human_bytes(8 * 12 * 4096 * 4096 * 4) == "6.44 GB"
    fits_a_phone(page)


def test_one_row_by_hand_takes_the_lab_settings_and_links_back_to_the_row(server, page):
    open_page(page, server, "", "causal=1&heads=4&pad=6")
    page.get_by_role("link", name="One row by hand").click()  # the sidebar: same session, Lab state kept
    page.wait_for_function("() => location.pathname.endsWith('One_row_by_hand')")
    settle(page)
    lab = Settings(causal=True, heads=4, padded=(6,))
    result = compute(lab)
    values = harness.metrics(page)
    assert values["√d_head"] == f"{math.sqrt(3):.4f}"
    assert values["Row sum"] == f"{result.weights[0, 2].sum():.4f}"
    heads = page.get_by_role("radiogroup", name="Head", exact=True).get_by_role("radio")
    assert [heads.nth(i).inner_text().strip() for i in range(4)] == ["1", "2", "3", "4"]  # counted from 1

    choose(page, "Query word", "one")
    choose(page, "Head", "4")
    row = lessons.row_by_hand(result, 4, 3)
    values = harness.metrics(page)
    assert values["Max, taken off"] == f"{row.shift:.4f}"
    assert values["Sum of exps"] == f"{row.total:.4f}"
    assert values["Row sum"] == f"{row.weights.sum():.4f}"
    assert page.get_by_text("Query one (word 5), head 4 of 4.").is_visible()
    fits_a_phone(page)

    page.get_by_role("link", name="Open the Lab in this state").click()
    page.wait_for_function("() => !location.pathname.endsWith('One_row_by_hand')")
    settle(page)
    _, query = address(page)
    expected = {"causal": "1", "heads": "4", "view": "4", "pad": "6", "row": "5"}
    assert {k: v for k, v in query.items() if k != "lesson"} == expected
    assert harness.metrics(page)["d_head"] == "12 / 4 = 3"
