"""The attention map's figure: what it shows must match the core, cell by cell."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from attn_core import Settings, compute
from attn_ui.figures import layout, map_fit, maps, plotly_fast


@pytest.fixture
def validated(monkeypatch):
    """Build figures with Plotly's full property validation, as the app skips it for speed."""
    monkeypatch.setattr(plotly_fast, "VALIDATE", True)


def grids(figure: go.Figure):
    """The weights (NaN where grey), the future-grey and PAD-grey cells (1 where drawn, else NaN), and the text
    drawn in every cell."""
    weights, blocked, _ = figure.data
    as_array = lambda trace: np.array(trace.z, dtype=float)  # noqa: E731  None -> nan
    kind = as_array(blocked)  # 0 future, 1 PAD, NaN legal
    grey = lambda value: np.where(kind == value, 1.0, np.nan)  # noqa: E731
    return as_array(weights), grey(0), grey(1), maps.drawn_labels(figure.to_dict()["data"])


SETTINGS = [
    Settings(),
    Settings(causal=True),
    Settings(causal=True, heads=4, view=3, padded=(5, 6)),
    Settings(dropout=0.5, heads=2),
    Settings(causal=True, padded=(1,)),
    Settings(causal=True, route="zero_score"),
    Settings(sentence="the cat sat on the mat", causal=True),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: str(s.to_query()))
def test_every_builder_output_passes_plotly_validation(settings, validated):
    result = compute(settings)
    figure = maps.attention_map(result, selected_row=1)
    assert [trace.name for trace in figure.data] == ["weights", "blocked", "cells"]
    assert len(figure.layout.shapes) == 1
    for style in (layout.SMALL, layout.PROJECTOR):
        maps.attention_map(result, head=0, style=style, title="head 1")


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: str(s.to_query()))
def test_grey_cells_are_exactly_the_blocked_cells_and_numbers_are_the_weights(settings):
    result = compute(settings)
    view = result.view_index
    weights, future, padding, text = grids(maps.attention_map(result))
    blocked = result.blocked[view] & (result.weights[view] == 0)
    np.testing.assert_array_equal(np.isnan(weights), blocked)
    np.testing.assert_array_equal(weights[~blocked], result.weights[view][~blocked])
    np.testing.assert_array_equal(~np.isnan(future), blocked & result.blocked_by_causal & ~result.blocked_by_padding)
    np.testing.assert_array_equal(~np.isnan(padding), blocked & result.blocked_by_padding)
    for i, j in zip(*np.nonzero(~blocked), strict=True):
        expected = "drop" if result.dropped[view, i, j] else f"{result.weights[view, i, j]:.2f}"
        assert text[i, j] == expected
    grey_word = "·" if len(result.tokens) > 10 else "future"
    assert (text[~np.isnan(future)] == grey_word).all() and (text[~np.isnan(padding)] == "PAD").all()


def test_causal_map_greys_exactly_the_upper_triangle_and_the_top_row_is_one():
    result = compute(Settings(causal=True, heads=4))
    for head in range(4):
        weights, future, _, text = grids(maps.attention_map(result, head=head))
        np.testing.assert_array_equal(np.isnan(weights), np.triu(np.ones((6, 6), bool), k=1))
        assert text[0].tolist() == ["1.00", "future", "future", "future", "future", "future"]


def test_pad_words_are_marked_on_both_axes_and_markup_is_escaped():
    result = compute(Settings(sentence="<b>hi</b> there you", padded=(3,)))
    figure = maps.attention_map(result)
    assert figure.layout.yaxis.ticktext == ("&lt;b&gt;hi&lt;/b&gt;", "there", "you<br>PAD")  # rows tall enough: 2 lines
    assert figure.layout.xaxis.ticktext[2] == "you<br>PAD"
    hover = figure.data[2].hovertext
    assert all("<b>hi</b>" not in line for line in hover)
    sixteen = maps.attention_map(compute(Settings(sentence=" ".join(f"w{n}" for n in range(16)), padded=(3,))))
    assert sixteen.layout.yaxis.ticktext[2] == "w2 · PAD"  # 16 rows are one line tall


def test_hover_says_why_a_cell_is_blocked_or_dropped():
    result = compute(Settings(causal=True, padded=(6,), dropout=0.5))
    hover = np.array(maps.attention_map(result).data[2].hovertext).reshape(6, 6)
    assert "future" in hover[0, 1] and "PAD" in hover[1, 5]
    view = result.view_index
    i, j = map(int, np.argwhere(result.dropped[view])[0])
    assert "dropped by dropout" in hover[i, j]


def test_the_selected_row_gets_an_outline():
    figure = maps.attention_map(compute(Settings()), selected_row=2)
    shape = figure.layout.shapes[0]
    assert (shape.y0, shape.y1) == (1.5, 2.5)
    assert maps.attention_map(compute(Settings()), selected_row=None).layout.shapes == ()


@pytest.mark.parametrize("settings", SETTINGS[:3], ids=lambda s: str(s.to_query()))
def test_the_ready_figure_sends_streamlit_the_same_json_as_a_plotly_figure(settings):
    """ReadyFigure skips go.Figure's parsing and copying; the chart the browser gets must not change."""
    import plotly.io as pio
    import plotly.tools
    import streamlit  # noqa: F401  (sets Plotly's default template to Streamlit's, as in the app)

    spec = maps.attention_map_spec(compute(settings), selected_row=2)
    as_plotly = plotly.tools.return_figure_from_figure_or_data(go.Figure(spec, _validate=False), True)
    as_ready = plotly.tools.return_figure_from_figure_or_data(plotly_fast.ReadyFigure(spec), True)
    assert json.loads(pio.to_json(as_ready, validate=False)) == json.loads(pio.to_json(as_plotly, validate=False))
    assert as_ready["layout"]["template"]  # Streamlit's theme template travels with the chart


def test_label_box_measures_words_counts_entities_once_and_stacks_lines():
    width, height = plotly_fast.label_box("journey", 15)
    assert width == pytest.approx(48.94, rel=0.05)  # Chromium draws "journey" 48.94 px wide in Source Sans, 15 px
    assert height == pytest.approx(20)
    assert plotly_fast.label_box("&lt;b&gt;", 10) == plotly_fast.label_box("<b>", 10)  # escaped markup: 3 characters
    assert plotly_fast.label_box("中", 10)[0] == 10  # a character not in the table counts as a full em
    two_lines = plotly_fast.label_box("step<br>PAD", 15)
    assert two_lines[0] == plotly_fast.label_box("step", 15)[0] and two_lines[1] == pytest.approx(15 * (4 / 3 + 1.3))


def test_margins_come_from_the_labels_and_leave_a_phone_250_px_of_map():
    short = maps.attention_map_spec(compute(Settings()))["layout"]["margin"]
    long = maps.attention_map_spec(compute(Settings(sentence=" ".join(["tokenization"] * 12))))["layout"]["margin"]
    assert short["l"] < long["l"] <= layout.LAB.word_room + map_fit.ROW_GAP and short["t"] < long["t"]  # keys on end
    for style in (layout.LAB, layout.PROJECTOR):
        margin = maps.attention_map_spec(compute(Settings(sentence=" ".join(["x" * 24] * 16))), style=style)["layout"][
            "margin"]
        assert map_fit.NARROW_CHART - margin["l"] - margin["r"] >= 250
    small = maps.attention_map_spec(compute(Settings()), style=layout.SMALL, title="head 1")["layout"]["margin"]
    assert small == {"l": 4, "r": 4, "t": 38, "b": 4}  # no frame: Plotly's automargin sizes it
