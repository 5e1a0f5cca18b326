"""Every chart with a toolbar downloads SVG as well as PNG (attn_ui/widgets/svg_download.py), in a real Chromium: the
SVG button sits beside the camera, names itself in the page's language, gives a real SVG under the chart's own file
name, and leaves the camera giving PNG."""

from __future__ import annotations

import harness

PATIENCE_MS = 90_000
PNG = '[data-testid="stPlotlyChart"] .modebar-btn[data-title="Download plot as a PNG"]'
SVG = '[data-testid="stPlotlyChart"] .attn-svg-btn'


def open_page(page, server, path: str) -> None:
    page.goto(server.url + path, timeout=PATIENCE_MS)
    harness.wait_for_app(page, timeout_ms=PATIENCE_MS)
    harness.assert_no_exception(page)


def download(page, button) -> tuple[str, bytes]:
    with page.expect_download(timeout=PATIENCE_MS) as info:
        button.click()
    path = info.value.path()
    return info.value.suggested_filename, open(path, "rb").read()


def test_a_lesson_chart_downloads_svg_and_png_under_its_own_name(server, page):
    errors = harness.collect_page_errors(page)
    open_page(page, server, "Many_heads")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.scroll_into_view_if_needed()
    chart.hover()
    page.wait_for_selector(SVG, state="attached", timeout=PATIENCE_MS)
    assert page.locator(SVG).count() == page.locator(PNG).count() >= 4, "one beside every camera"
    button = chart.locator(".attn-svg-btn")
    assert button.get_attribute("data-title") == "Download plot as SVG"
    name, body = download(page, button)
    assert name == "head-1-of-4.svg"
    assert body.lstrip().startswith(b"<svg") and b"</svg>" in body[-200:]
    assert b"head 1" in body.lower() or b"Head 1" in body, "the chart's own words are in it"
    chart.hover()
    name, body = download(page, chart.locator(PNG.split(" ", 1)[1]))
    assert name == "head-1-of-4.png" and body.startswith(b"\x89PNG"), "the camera still gives PNG"
    assert not errors


def test_the_button_speaks_the_pages_language_and_the_lab_map_has_one(server, page):
    open_page(page, server, "?lang=es")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.hover()
    page.wait_for_selector(SVG, state="attached", timeout=PATIENCE_MS)
    assert chart.locator(".attn-svg-btn").get_attribute("data-title") == "Descargar el gráfico como SVG"
    name, body = download(page, chart.locator(".attn-svg-btn"))
    assert name.endswith(".svg") and body.lstrip().startswith(b"<svg")


def test_projector_mode_keeps_the_camera_and_hides_the_svg_button(server, page):
    """A projected page is for the room; the button would widen the Lab map's toolbar over the page menu."""
    open_page(page, server, "?mode=projector")
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.hover()
    page.wait_for_selector(SVG, state="attached", timeout=PATIENCE_MS)
    assert not chart.locator(".attn-svg-btn").is_visible()
    assert chart.locator(PNG.split(" ", 1)[1]).is_visible()
