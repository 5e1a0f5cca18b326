"""Train it yourself in a real Chromium: Train really trains while the curves grow, the curves drawn are the core's
run, the page stays usable during a run, Stop stops, and axe finds nothing on the page in its states."""

from __future__ import annotations

import time

import harness
import pytest
from test_a11y_browser import audited, axe, open_expanders  # noqa: F401 (axe is a fixture)

from attn_core.training import PRESETS, run
from attn_core.training.choices import coerce
from attn_core.training.worker import progress_elsewhere

PATIENCE_MS = 120_000  # a shared machine under load stretches a run several times over


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=PATIENCE_MS)
    harness.assert_no_exception(page)


def open_train(page, server, query: str, predicted: bool = True) -> None:
    """The page with these keys; `predicted`: then its question skipped on purpose, which opens Train and the run
    (each run answers the experiment's question, so both wait for the prediction)."""
    page.goto(server.url + "Train_it_yourself?" + query, timeout=PATIENCE_MS)
    settle(page)
    if predicted:
        skip_prediction(page)


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def curves(page, index: int = 0) -> dict[str, list[float]]:
    return {trace["name"]: trace["y"] for trace in harness.plotly_data(page, index) if trace.get("y")}


def skip_prediction(page) -> None:
    """Open Train and the run without predicting, as a student may at any time: "Show it without answering"."""
    page.get_by_role("button", name="Show it without answering").click()
    settle(page)


def wait_for_text(page, text: str) -> None:
    page.get_by_text(text).first.wait_for(timeout=PATIENCE_MS)


# points on the first chart's longest trace (a level line has two; the curves grow)
LONGEST_CURVE = """() => Math.max(0, ...[...(document.querySelector('.js-plotly-plot')?.data ?? [])]
                                 .map((trace) => trace.y?.length ?? 0))"""


def test_train_grows_the_curves_live_and_ends_with_the_cores_run(server, page):
    errors = harness.collect_page_errors(page)
    # the preset's model on another seed and 800 steps: long enough to watch it grow, and trained twice here (the
    # page, then the test's own run to compare with), so the preset's 2000 steps cost two minutes of a busy CI
    choice = coerce("heads", steps=800, seed=41)[0]
    open_train(page, server, "exp=heads&steps=800&seed=41")
    assert page.get_by_text("Training takes about").count() == 1  # said before it starts
    button(page, "Train").click()
    page.locator('[data-testid="stProgress"]').wait_for(timeout=PATIENCE_MS)
    assert button(page, "Stop").is_enabled()
    seen = []
    end = time.monotonic() + PATIENCE_MS / 1000
    while time.monotonic() < end and not page.get_by_text("Trained live in").count():
        if page.locator(".js-plotly-plot").count():
            points = page.evaluate(LONGEST_CURVE)
            if points:  # 0: a chart between two draws (the live one goes, the finished one comes)
                seen.append(points)
        time.sleep(0.1)
    wait_for_text(page, "Trained live in")
    settle(page)
    assert len(set(seen)) >= 2 and sorted(seen) == seen, f"the live curve should grow: {seen}"
    expected = run(progress_elsewhere(choice))  # as the page trains it: in the training process, on its kernel
    drawn = curves(page)
    assert drawn["held-out loss"] == list(expected.curves[0].losses)
    assert drawn["loss on the repeat"] == list(expected.curves[1].losses)
    assert button(page, "Train").is_enabled()
    assert button(page, "Stop").is_disabled(), "a finished run leaves nothing to stop"
    assert errors == []


def test_a_preset_asks_first_trains_again_into_its_shipped_curves_and_stop_stops_a_run(server, page):
    open_train(page, server, "exp=mask", predicted=False)
    shipped = PRESETS["mask"].shipped()
    assert page.get_by_text("Predict first.").count() == 1
    assert not page.get_by_text("it learned to read the next word").count(), "no verdict before asking"
    assert button(page, "Train").is_disabled(), "Train's run answers the question: it waits for the prediction"
    assert page.get_by_text("Training takes about").count() == 1  # a preset's estimate, before Train
    skip_prediction(page)
    assert curves(page)["training loss (mask on)"] == list(shipped.masked.curves[0].losses)  # shown at once
    button(page, "Train").click()
    page.get_by_text("Trained ").first.wait_for(timeout=PATIENCE_MS)  # live, or earlier by another test
    settle(page)
    drawn = curves(page)
    assert drawn["generating loss (mask on)"] == list(shipped.masked.curves[2].losses)
    assert drawn["generating loss (mask off)"] == list(shipped.unmasked.curves[2].losses)  # both models in view
    assert page.get_by_text("it learned to read the next word").first.is_visible()

    harness.toggle(page, "Tiles and samples of the model with the causal mask").click()  # the page stays usable
    settle(page)
    assert curves(page)["training loss (mask off)"] == list(shipped.unmasked.curves[0].losses)
    assert page.get_by_text("The tiles: mask off").count() == 1

    open_train(page, server, "exp=dropout&steps=1500&seed=43")
    button(page, "Train").click()
    page.locator('[data-testid="stProgress"]').wait_for(timeout=PATIENCE_MS)
    button(page, "Stop").click()
    wait_for_text(page, "Stopped.")
    settle(page)
    assert page.get_by_text("This setting has not been trained").count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_train_page_has_no_axe_violations(axe, browser, server, scheme):  # noqa: F811
    """Each experiment's preset with its expanders open, and projector mode."""
    with audited(browser, server, path="/Train_it_yourself", scheme=scheme) as (page, audit):
        for experiment in ("mask", "heads", "dropout"):
            page.goto(server.url + f"Train_it_yourself?exp={experiment}", timeout=PATIENCE_MS)
            settle(page)
            skip_prediction(page)  # the run and its expanders open once the question is skipped
            open_expanders(page)
            for chart in page.locator('[data-testid="stPlotlyChart"]').all():
                assert chart.get_attribute("role") == "figure" and chart.get_attribute("aria-label"), \
                    "every chart needs a text summary"
            audit.check(f"train page, {experiment}")
        page.goto(server.url + "Train_it_yourself?exp=heads&mode=projector", timeout=PATIENCE_MS)
        settle(page)
        audit.check("train page, projector mode")


# --- the review's findings: the live chart, layouts at three widths, the chooser's place, projector verdict ------

LIVE_STATE = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  const bar = document.querySelector('[data-testid="stProgress"]');
  if (!plot || !plot._fullLayout || !bar) return null;
  const value = bar.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
  const title = (plot._fullLayout.title?.text ?? '').replace(/<[^>]+>/g, '');  // the theme wraps it in <b>
  return {traces: plot.data.length, title,
          levels: (plot._fullLayout.shapes || []).length, value, text: bar.innerText.trim()};
}"""


def test_the_live_mask_chart_draws_the_model_training_now_with_its_levels(server, page):
    open_train(page, server, "exp=mask&steps=2400&seed=47")  # the most steps: model 1 lasts long enough to see
    button(page, "Train").click()
    page.locator('[data-testid="stProgress"]').wait_for(timeout=PATIENCE_MS)
    seen = []
    end = time.monotonic() + PATIENCE_MS / 1000
    while time.monotonic() < end and not page.get_by_text("Trained live in").count():
        state = page.evaluate(LIVE_STATE)
        if state:
            seen.append(state)
        time.sleep(0.15)
    assert seen, "the live chart was never seen"
    assert {s["title"] for s in seen} <= {"mask off: model 1 of 2", "mask on: model 2 of 2"}
    assert seen[0]["title"] == "mask off: model 1 of 2"
    assert all(s["traces"] == (3 if s["title"].startswith("mask off") else 6) and s["levels"] == 2
               for s in seen), seen  # the models trained so far, chance and entropy

    assert all(s["text"] == f"{s['value']}%" for s in seen), seen  # the bar's text is its value


def _boxes(page, index: int) -> dict:
    return page.evaluate("""([index]) => {
      const plot = document.querySelectorAll('.js-plotly-plot')[index];
      const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                           return r.width && r.height ? [r.left, r.top, r.right, r.bottom] : null; };
      const chart = plot.closest('[data-testid="stPlotlyChart"]') || plot;
      const toolbars = '.modebar-container .modebar, [data-testid="stElementToolbar"]';
      const tools = [...chart.parentElement.querySelectorAll(toolbars)];
      return {xtitle: box(plot.querySelector('.g-xtitle')), legend: box(plot.querySelector('.legend')),
              notes: [...plot.querySelectorAll('.annotation')].map(box).filter(Boolean),
              tools: tools.map(box).filter(Boolean)};
    }""", [index])


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 720), (1366, 768)])
@pytest.mark.parametrize("experiment", ["dropout", "heads", "mask"])
def test_legends_axis_titles_labels_and_toolbars_never_collide(new_page, server, experiment, width, height):
    page = new_page(width, height)
    open_train(page, server, f"exp={experiment}")
    charts = 2 if experiment == "dropout" else 1  # the curves (and the dropout bars); the heads map has no legend
    for index in range(charts):
        page.locator('.js-plotly-plot').nth(index).scroll_into_view_if_needed()
        page.locator('.js-plotly-plot').nth(index).hover()
        page.wait_for_timeout(300)
        boxes = _boxes(page, index)
        if boxes["xtitle"] and boxes["legend"]:
            assert not _overlap(boxes["xtitle"], boxes["legend"]), boxes
        for tool in boxes["tools"]:
            for note in boxes["notes"]:
                assert not _overlap(tool, note), (tool, note)


def test_on_a_phone_the_head_chooser_comes_before_its_map(new_page, server):
    page = new_page(390, 844)
    open_train(page, server, "exp=heads")
    chooser = page.locator('[data-testid="stRadio"]').filter(has_text="Map of").first.bounding_box()
    learned = page.locator('[data-testid="stPlotlyChart"]').nth(1).bounding_box()
    assert chooser["y"] + chooser["height"] <= learned["y"]


def test_projector_mode_shows_the_mask_curves_and_both_models_compared_on_one_screen(new_page, server):
    page = new_page(1280, 720)
    open_train(page, server, "exp=mask&mode=projector")
    verdict = page.get_by_text("Sentences in the language").first
    verdict.scroll_into_view_if_needed()
    chart = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
    said = verdict.locator("xpath=ancestor::*[@data-testid='stMarkdownContainer'][1]").bounding_box()
    top, bottom = min(chart["y"], said["y"]), max(chart["y"] + chart["height"], said["y"] + said["height"])
    assert bottom - top <= 720, (chart, said)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
