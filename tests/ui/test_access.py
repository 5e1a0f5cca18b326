"""Text alternatives and colour: the map's table says what every cell says, and every colour choice is checked.

- weight_table(): one cell in words per map cell, matched against the core (weights, masks, dropout).
- The Lab shows it under the map, as an HTML table with user words escaped.
- The numbers on the map: at least 4.5:1 against their cell's colour, for every weight from 0 to 1.
- The greys of blocked cells stay apart from every viridis colour, also for simulated colour-vision deficiencies.
- The app's CSS lifts captions to 4.5:1 in the light and dark themes.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute
from attn_ui.figures import maps, palette
from attn_ui.widgets import access, look
from attn_ui.words import table_words
from attn_ui.words.escape import md_escape
from attn_ui.words.explain import row_sentence
from tests.apptest_helpers import open_section, run_lab

SETTINGS = [
    Settings(),
    Settings(causal=True),
    Settings(causal=True, padded=(2, 5)),
    Settings(causal=True, padded=(1,)),  # row 1 has nothing left: an empty row
    Settings(causal=True, heads=4, view=3, dropout=0.5, padded=(6,)),
    Settings(dropout=0.3, heads=2, view=2, rescale=False),
    Settings(causal=True, route="zero_score"),  # the trap: blocked cells still get weight
    Settings(causal=True, route="zero_after", padded=(3,)),
    Settings(sentence="the cat sat on the mat", causal=True, padded=(6,)),
]


def ids(settings: Settings) -> str:
    return str(settings.to_query())


# --- the table in words -----------------------------------------------------------------------------------


@pytest.mark.parametrize("settings", SETTINGS, ids=ids)
def test_every_cell_of_the_table_says_what_the_map_shows(settings):
    result = compute(settings)
    head = result.view_index
    table = table_words.weight_table(result)
    length = len(result.tokens)
    assert table.head == head and len(table.columns) == length and len(table.rows) == length
    weights = result.weights[head]
    for query, (name, cells, total) in enumerate(table.rows):
        assert name == table.columns[query]
        assert total == f"{weights[query].sum():.2f}"
        for key, text in enumerate(cells):
            reason = result.block_reason(query, key)
            if reason is not None and weights[query, key] == 0:
                assert text == f"blocked ({reason})"
            elif reason is not None:
                assert text == f"{weights[query, key]:.2f} (should be blocked: {reason})"
            elif result.dropped[head, query, key]:
                assert text == f"dropped (was {result.weights_before_dropout[head, query, key]:.2f})"
            else:
                assert text == f"{weights[query, key]:.2f}"


@pytest.mark.parametrize("settings", SETTINGS, ids=ids)
def test_the_table_counts_agree_with_the_kpi_tiles(settings):
    result = compute(settings)
    cells = [text for _, row, _ in table_words.weight_table(result).rows for text in row]
    blocked = sum(text.startswith("blocked (") for text in cells)
    leaking = sum("should be blocked" in text for text in cells)
    assert blocked + leaking == result.masked_cells
    assert sum(text.startswith("dropped (") for text in cells) == result.dropped_cells
    assert sum("padding" in text for text in cells) == result.padding_cells
    if settings.route == "zero_score":
        assert leaking == 15 and blocked == 0
    else:
        assert leaking == 0


def test_causal_table_reads_as_the_lesson_says():
    table = table_words.weight_table(compute(Settings(causal=True, padded=(5,))))
    assert table.columns == ("Your", "journey", "starts", "with", "one (PAD)", "step")
    first = table.rows[0]
    assert first[0] == "Your" and first[1][0] == "1.00" and first[2] == "1.00"
    assert first[1][1:] == ("blocked (future)", "blocked (future)", "blocked (future)",
                            "blocked (future and padding)", "blocked (future)")
    assert table.rows[5][1][4] == "blocked (padding)"


def test_a_repeated_word_keeps_distinct_row_and_column_names():
    table = table_words.weight_table(compute(Settings(sentence="the cat saw the dog", padded=(4,))))
    assert table.columns == ("the (1)", "cat", "saw", "the (4) (PAD)", "dog")
    assert len(set(table.columns) | {table_words.QUERY_COLUMN, table_words.SUM_COLUMN}) == len(table.columns) + 2


def test_table_frame_escapes_markup_in_words():
    result = compute(Settings(sentence="*bold* [link](x) <b>tag</b> $x$"))
    frame = access.table_frame(table_words.weight_table(result))
    assert list(frame.columns[:-1]) == [md_escape(label) for label in result.labels]
    assert list(frame.index) == [md_escape(label) for label in result.labels]
    assert frame.columns[-1] == table_words.SUM_COLUMN and frame.index.name == table_words.QUERY_COLUMN
    assert "\\*bold\\*" in frame.columns[0]


# --- in the Lab -------------------------------------------------------------------------------------------


def lab_table(at: AppTest):
    open_section(at, access.TABLE_KEY)  # (again, if open: a plain rerun)
    expanders = [e for e in at.expander if e.label == "The map as a table"]
    assert len(expanders) == 1, [e.label for e in at.expander]
    tables = expanders[0].table
    whole, *parts = [table.value for table in tables]  # the whole table, then the phone's narrow parts of it
    assert len(parts) == -(-(whole.shape[1] - 1) // access.NARROW_KEYS)  # NARROW_KEYS keys a part, the sum last
    assert all(part.shape[1] <= access.NARROW_KEYS + 1 for part in parts)
    glued = [column for part in parts for column in part.columns]
    assert glued == list(whole.columns) and all((part.index == whole.index).all() for part in parts)
    assert all((part == whole[part.columns]).all().all() for part in parts)  # the same cells, in the same words
    return whole


def test_lab_shows_the_table_of_the_head_in_view_under_the_map():
    at = run_lab(causal="1", heads="2", view="2", pad="3")
    frame = lab_table(at)
    result = compute(Settings(causal=True, heads=2, view=2, padded=(3,)))
    expected = table_words.weight_table(result)
    assert frame.values[:, :-1].tolist() == [list(cells) for _, cells, _ in expected.rows]
    assert frame.values[:, -1].tolist() == [total for _, _, total in expected.rows]
    assert list(frame.index) == [md_escape(name) for name in expected.columns]  # "starts \\(PAD\\)"


def test_the_open_table_also_explains_every_row_in_words():
    """Keyboard and screen-reader users get each row's sentence without clicking the map."""
    at = run_lab(causal="1", pad="6")
    lab_table(at)
    result = compute(Settings(causal=True, padded=(6,)))
    (expander,) = [e for e in at.expander if e.label == "The map as a table"]
    lines = expander.markdown[0].value.splitlines()
    assert lines == [f"- {row_sentence(result, row)}" for row in range(6)]
    assert lines[0].startswith("- **Your** (query 1) looks most at **Your** 1.00")


def test_the_closed_table_is_not_built():
    """Closed, the expander holds nothing: a click does not pay for a table nobody is reading."""
    at = run_lab()
    (expander,) = [e for e in at.expander if e.label == "The map as a table"]
    assert len(expander.table) == 0 and len(expander.caption) == 0


def test_lab_table_follows_the_causal_switch():
    at = run_lab()
    assert "blocked (future)" not in lab_table(at).values
    at.toggle(key="lab.causal").set_value(True).run()
    values = lab_table(at).values
    assert (values == "blocked (future)").sum() == 15


# --- colour -----------------------------------------------------------------------------------------------


def test_numbers_on_the_map_reach_4_5_to_1_for_every_weight():
    ratios = []
    for weight in np.linspace(0, 1, 1001):
        text = palette.TEXT_ON_LIGHT if weight >= palette.BLACK_TEXT_FROM else palette.TEXT_ON_DARK
        ratios.append(palette.contrast_ratio(palette.scale_colour(weight), text))
    assert min(ratios) >= 4.5, f"lowest {min(ratios):.2f}"
    # Plotly's own choice (white or #444, whichever is better) falls to about 3.2:1 in the greens
    plotly_auto = [max(palette.contrast_ratio(palette.scale_colour(w), "#ffffff"),
                       palette.contrast_ratio(palette.scale_colour(w), "#444444")) for w in np.linspace(0, 1, 1001)]
    assert min(plotly_auto) < 3.3


@pytest.mark.parametrize("settings", SETTINGS, ids=ids)
def test_every_drawn_number_and_word_has_4_5_to_1_on_its_cell(settings):
    result = compute(settings)
    figure = maps.attention_map(result)
    weights, blocked, cells = figure.data
    z = np.array(weights.z, dtype=float)  # None -> nan for grey cells
    kind = np.array(blocked.z, dtype=float)  # 0 future, 1 PAD, nan legal
    labels = np.array(cells.text, dtype=object).reshape(z.shape)
    for (i, j), label in np.ndenumerate(labels):
        colour, text = maps.label_parts(label)
        assert text, f"cell ({i}, {j}) shows nothing"
        if np.isnan(z[i, j]):  # a grey cell: the word says why
            background = palette.GREY_FUTURE if kind[i, j] == 0 else palette.GREY_PADDING
            assert palette.contrast_ratio(background, colour) >= 7, background
        else:
            ratio = palette.contrast_ratio(palette.scale_colour(z[i, j]), colour)
            assert ratio >= 4.5, f"cell ({i}, {j}) weight {z[i, j]:.3f}: {ratio:.2f}:1"


# Machado, Oliveira and Fernandes (2009), severity 1.0, applied to linear RGB.
CVD = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}


def lab_colour(colour: str, deficiency: str) -> np.ndarray:
    """CIELAB (D65) of a colour as seen with this deficiency."""
    if colour.startswith("#"):
        rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    else:
        rgb = np.array([float(c) for c in re.findall(r"[\d.]+", colour)[:3]]) / 255
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    linear = np.clip(CVD[deficiency] @ linear, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


@pytest.mark.parametrize("deficiency", list(CVD))
def test_blocked_greys_stay_apart_from_every_weight_colour(deficiency):
    """CIE76 distance >= 8 (about three times a just-noticeable difference) from every colour of the scale."""
    scale = [lab_colour(palette.scale_colour(w), deficiency) for w in np.linspace(0, 1, 201)]
    for grey in (palette.GREY_FUTURE, palette.GREY_PADDING):
        nearest = min(np.linalg.norm(lab_colour(grey, deficiency) - colour) for colour in scale)
        assert nearest >= 8, f"{grey} is {nearest:.1f} from the scale for {deficiency}"
    apart = np.linalg.norm(lab_colour(palette.GREY_FUTURE, deficiency) - lab_colour(palette.GREY_PADDING, deficiency))
    assert apart >= 15


def test_the_scale_is_plotly_viridis_and_its_ends_are_the_documented_colours():
    assert maps.WEIGHT_SCALE[0] == (0, "#440154") and maps.WEIGHT_SCALE[-1] == (1.0, "#fde725")
    assert palette.scale_colour(0.5) == "rgb(33, 145, 140)"  # #21918c, the middle stop of plotly.js viridis
    luminances = [palette.relative_luminance(palette.scale_colour(w)) for w in np.linspace(0, 1, 101)]
    assert luminances == sorted(luminances), "viridis gets lighter all the way: readable without hue"


CAPTION_OPACITY = float(re.search(r'stCaptionContainer"\] \{ opacity: ([\d.]+)', look.CSS).group(1))
# (text, background) of Streamlit 1.67's default themes as measured in Chromium, and of .streamlit/config.toml
THEMES = {
    "default light": ("#2f2d2b", "#ffffff"),
    "default dark": ("#edebe8", "#171614"),
    "light, secondary background": ("#2f2d2b", "#f0f2f6"),
}


def _config_themes() -> dict[str, tuple[str, str]]:
    config = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"
    text = config.read_text() if config.is_file() else ""
    found = {}
    for name in ("light", "dark"):
        section = re.search(rf"\[theme\.{name}\]([^\[]*)", text)
        if section:
            colours = dict(re.findall(r'(\w+)\s*=\s*"(#[0-9a-fA-F]{6})"', section.group(1)))
            for background in ("backgroundColor", "secondaryBackgroundColor"):
                if "textColor" in colours and background in colours:
                    found[f"config {name}, {background}"] = (colours["textColor"], colours[background])
    return found


@pytest.mark.parametrize(("text", "background"), [*THEMES.values(), *_config_themes().values()],
                         ids=[*THEMES, *_config_themes()])
def test_captions_reach_4_5_to_1(text, background):
    def blend(a: str, b: str, alpha: float) -> str:
        mix = [round(alpha * int(a[i : i + 2], 16) + (1 - alpha) * int(b[i : i + 2], 16)) for i in (1, 3, 5)]
        return "#" + "".join(f"{c:02x}" for c in mix)

    assert palette.contrast_ratio(blend(text, background, CAPTION_OPACITY), background) >= 4.5
    if text == "#2f2d2b" and background == "#ffffff":  # Streamlit's own 60% was the first violation axe found
        assert blend(text, background, 0.6) == "#828180"  # axe: 3.88:1
        assert palette.contrast_ratio("#828180", background) < 3.9
