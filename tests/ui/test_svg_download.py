"""The SVG button's script (attn_ui/widgets/svg_download.py) leans on two facts of the Plotly inside Streamlit: the
camera's title when it gives PNG, and a click handler that reads the chart's toImageButtonOptions as it starts. Both
are checked in the bundle this app is served with, so an upgrade that changes them fails here, not in a lecture."""

from __future__ import annotations

import re
from pathlib import Path

import streamlit

from attn_ui.widgets import svg_download


def plotly_bundle() -> str:
    folder = Path(streamlit.__file__).parent / "static" / "static" / "js"
    bundles = [path for path in folder.glob("*.js") if "toImageButtonOptions" in path.read_text(errors="ignore")]
    assert bundles, "Streamlit's Plotly bundle not found"
    return "\n".join(path.read_text(errors="ignore") for path in bundles)


def test_the_camera_is_found_by_the_title_plotly_gives_it():
    assert "Download plot as a PNG" in plotly_bundle()
    assert '[data-title="Download plot as a PNG"]' in svg_download.SVG_JS


def test_the_camera_reads_its_format_as_its_click_starts():
    bundle = plotly_bundle()
    click = re.search(r"name:`toImage`.{0,400}?click:function\((\w)\)\{var (\w)=\1\._context\.toImageButtonOptions,"
                      r"\w=\{format:\2\.format", bundle, re.S)
    assert click, "toImage's click no longer reads gd._context.toImageButtonOptions.format first"


def test_the_script_carries_no_words_and_draws_no_text():
    """Its name comes from the page (a hidden text element, in the page's language); its mark is strokes, so a page's
    text (which the language tests read) holds no English from it."""
    assert "createElementNS(ns, \"text\")" not in svg_download.SVG_JS
    assert f".{svg_download.TITLE_KEY.join(['st-key-', ''])}" in svg_download.SVG_JS.replace('"', "")
    assert "Download plot as SVG" not in svg_download.SVG_JS


def test_the_title_is_plain_text_in_the_pages_language():
    from streamlit.testing.v1 import AppTest

    def page(lang: str) -> None:
        from attn_lang.current import using
        from attn_ui.widgets import svg_download

        with using(lang):
            svg_download.svg_buttons()

    for lang, words in (("en", "Download plot as SVG"), ("es", "Descargar el gráfico como SVG")):
        run = AppTest.from_function(page, args=(lang,)).run()
        assert not run.exception
        assert [text.value for text in run.text] == [words]


def test_the_script_holds_no_markup_the_sanitizer_would_drop_it_for():
    """st.html's sanitizer (DOMPurify) removes a script whose text matches <[/\\w] (a first version built its icon from
    an HTML string and never ran)."""
    body = re.search(r"<script[^>]*>(.*)</script>", svg_download.SVG_JS, re.S).group(1)
    assert not re.search(r"<[/\w]", body)
