"""Classroom helpers without a browser: the CSV export, file names, the link to a view, projector sizes, theme."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from attn_core import Settings, compute, settings_from_query
from attn_ui.figures import layout, maps
from attn_ui.widgets import look, projector
from attn_ui.words import export
from attn_ui.words.export import map_file_name

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = [
    Settings(),
    Settings(causal=True, heads=4, view=3, padded=(5, 6)),
    Settings(causal=True, dropout=0.5, heads=2, view=2),
    Settings(causal=True, padded=(1,)),
    Settings(sentence="the cat sat on the mat", causal=True),
]


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: str(s.to_query()))
def test_csv_holds_the_weights_of_the_head_in_view_with_six_decimals(settings):
    result = compute(settings)
    rows = read_csv(export.weights_csv(result))
    length = len(result.tokens)
    assert len(rows) == length + 1 and all(len(row) == length + 1 for row in rows)
    assert rows[0][0] == "query \\ key"
    assert [row[0] for row in rows[1:]] == rows[0][1:]  # the same words label rows and columns
    table = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]])  # (T, T)
    np.testing.assert_allclose(table, result.weights[result.view_index], atol=5e-7, rtol=0)
    assert all(len(cell.split(".")[1]) == 6 for row in rows[1:] for cell in row[1:])


def test_csv_of_another_head_and_pad_words_marked():
    result = compute(Settings(causal=True, heads=4, view=1, padded=(5, 6)))
    rows = read_csv(export.weights_csv(result, head=2))
    table = np.array([[float(cell) for cell in row[1:]] for row in rows[1:]])
    np.testing.assert_allclose(table, result.weights[2], atol=5e-7, rtol=0)
    assert not np.allclose(table, result.weights[0], atol=1e-3)
    assert rows[0][1:] == ["Your", "journey", "starts", "with", "one (PAD)", "step (PAD)"]


def test_csv_keeps_odd_words_exact_and_never_starts_a_cell_with_a_formula():
    result = compute(Settings(sentence='=SUM(A1) +1 -x @me a,b "quoted" plain'))
    header = read_csv(export.weights_csv(result))[0][1:]
    assert header == ["'=SUM(A1)", "'+1", "'-x", "'@me", "a,b", '"quoted"', "plain"]


def test_csv_file_name_matches_the_png_name():
    settings = Settings(causal=True, heads=4, view=2, padded=(5, 6), dropout=0.5)
    assert export.csv_file_name(settings) == "attention-head2of4_causal_pad5-6_drop50.csv"
    assert export.csv_file_name(settings) == map_file_name(settings) + ".csv"


@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("http://127.0.0.1:8671", "http://127.0.0.1:8671/"),
        ("http://localhost:8501/", "http://localhost:8501/"),
        ("https://attention-lab.streamlit.app/~/+/", "https://attention-lab.streamlit.app/"),
        ("https://attention-lab.streamlit.app/~/+", "https://attention-lab.streamlit.app/"),
        ("https://example.org/tools/lab?causal=1#top", "https://example.org/tools/lab/"),
        (None, None),
        ("", None),
        ("javascript:alert(1)", None),
        ("file:///etc/passwd", None),
    ],
)
def test_lab_root_drops_query_and_the_cloud_frame(url, root):
    assert export.lab_root(url) == root


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: str(s.to_query()))
def test_view_url_opens_the_same_settings_and_view(settings):
    url = export.view_url("https://lab.example/", settings, row="3", mode="projector")
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://lab.example/"
    params = parse_qs(parts.query, keep_blank_values=True)
    assert params.pop("row") == ["3"] and params.pop("mode") == ["projector"]
    assert settings_from_query(params) == (settings, [])


def test_view_url_escapes_sentence_characters_and_is_relative_without_a_root():
    settings = Settings(sentence="a&b c#d e=f g?h", causal=True)
    url = export.view_url(None, settings)
    assert url.startswith("?") and "#" not in url and url.count("&") == 1
    assert settings_from_query(parse_qs(url[1:]))[0] == settings
    assert export.view_url(None, Settings()) == ""  # the default Lab needs no query at all


def test_view_keys_write_row_and_mode_only_when_set():
    assert projector.view_keys(None, False) == {"row": "", "mode": ""}
    assert projector.view_keys(2, True) == {"row": "3", "mode": "projector"}


def test_projector_style_draws_every_word_and_number_at_18_px_or_more():
    figure = maps.attention_map(compute(Settings(causal=True, padded=(6,), dropout=0.3)), style=layout.PROJECTOR)
    sizes = [size for trace in figure.data if trace.textfont and trace.textfont.size
             for size in np.ravel(trace.textfont.size)]
    sizes += [figure.layout.xaxis.tickfont.size, figure.layout.yaxis.tickfont.size]
    sizes += [note.font.size for note in figure.layout.annotations]  # the titles: key, "query ↓"
    assert len(sizes) >= 6 and min(sizes) >= 18, sizes
    assert figure.layout.height >= 500  # room left under it for the row's sentence and the legend at 720 px
    assert projector.map_style(True) is layout.PROJECTOR and projector.map_style(False) is layout.LAB
    assert 480 <= projector.map_style(True, scene=True).height <= layout.PROJECTOR.height


def test_projector_css_is_constant_markup_with_its_marker():
    css = look.PROJECTOR_CSS
    assert css.count("<style>") == 1 and css.count("</style>") == 1 and "<script" not in css
    assert 'class="attn-projector"' in css  # keeps the CSS out of the event container (see the module)


# --- the theme in .streamlit/config.toml --------------------------------------------------------------


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of '#rrggbb'."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


THEME = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]


@pytest.mark.parametrize("name", ["light", "dark"])
def test_theme_text_accent_and_backgrounds_have_enough_contrast(name):
    theme = THEME[name]
    assert contrast(theme["textColor"], theme["backgroundColor"]) >= 15
    assert contrast(theme["textColor"], theme["secondaryBackgroundColor"]) >= 12
    assert contrast("#ffffff", theme["primaryColor"]) >= 4.5  # white label on a primary button
    assert contrast(theme["primaryColor"], theme["backgroundColor"]) >= 3  # toggles, slider, borders


def test_the_themes_are_really_light_and_dark():
    assert luminance(THEME["light"]["backgroundColor"]) > 0.9 > 0.02 > luminance(THEME["dark"]["backgroundColor"])


def test_config_sets_none_of_the_options_community_cloud_overrides():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert "showErrorDetails" not in config.get("client", {})
    assert "enableXsrfProtection" not in config.get("server", {})
    assert "fastReruns" not in config.get("runner", {})
    assert config["runner"]["postScriptGC"] is False  # the one runner setting we rely on, kept by Cloud
