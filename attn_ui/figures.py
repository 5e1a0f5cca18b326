"""Plotly figure builders: a Result in, a Figure out. They draw; they never compute attention or call st.*.

The attention map is these layers on one pair of axes, and an outline:
1. the weights of legal cells (viridis, fixed to 0..1; the trace's `text` holds the number of every cell),
2. blocked cells in grey, with a word in the cell saying why (future, PAD),
3. a transparent scatter over the cell centres that carries the hover text and makes cells clickable,
4. the numbers drawn on the cells, black on light cells and white on dark ones (two transparent layers),
5. an outline around the selected query row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.colors as pc
import plotly.graph_objects as go
import plotly.io as pio
from plotly.basedatatypes import BaseFigure

from attn_core import Result
from attn_ui.text import plotly_escape

# Viridis (colour-blind safe, no grey in it), written out with plotly.js's own stops so the text-colour rule
# below is computed on exactly the colours the browser paints.
VIRIDIS = ("#440154", "#48186a", "#472d7b", "#424086", "#3b528b", "#33638d", "#2c728e", "#26828e", "#21918c",
           "#1fa088", "#28ae80", "#3fbc73", "#5ec962", "#84d44b", "#addc30", "#d8e219", "#fde725")
WEIGHT_SCALE = tuple((min(index * 16 / 255, 1.0), colour) for index, colour in enumerate(VIRIDIS))
GREY_FUTURE = "#d9d9d9"  # light grey: blocked because the key lies in the future
GREY_PADDING = "#a6a6a6"  # darker grey: blocked because the key is a PAD token
GREY_TEXT = "#1a1a1a"  # text on both greys (contrast > 7:1)
SELECT_COLOUR = "#ff6a13"  # outline of the selected row; orange is not in viridis
TEXT_ON_LIGHT = "#000000"  # numbers on light cells; black, not Plotly's #444, keeps every cell >= 4.5:1
TEXT_ON_DARK = "#ffffff"  # numbers on dark cells
CLEAR = ((0, "rgba(0,0,0,0)"), (1, "rgba(0,0,0,0)"))  # a heatmap layer that only carries text
DROP_MARK = "drop"


@dataclass(frozen=True)
class MapStyle:
    """How large things are drawn: the Lab, a small multiple, or the projector."""

    height: int = 440
    cell_font: int = 15
    axis_font: int = 15
    show_scale: bool = True
    show_titles: bool = True
    margin: int = 10


LAB = MapStyle(show_scale=False)  # numbers in every cell; a colour bar costs a phone a third of the width
PROJECTOR = MapStyle(height=690, cell_font=24, axis_font=24, show_scale=False, margin=6)  # numbers in cells, no bar
SMALL = MapStyle(height=280, cell_font=11, axis_font=12, show_scale=False, show_titles=False, margin=4)
PHONE_MIN_HEIGHT = 300


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of '#rrggbb' or 'rgb(r, g, b)'."""
    if colour.startswith("#"):
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    else:
        channels = [float(c) / 255 for c in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2.1 contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def scale_colour(weight: float, scale: tuple = WEIGHT_SCALE) -> str:
    """The colour a heatmap with zmin=0, zmax=1 paints for this weight (Plotly interpolates in RGB)."""
    return pc.sample_colorscale([list(stop) for stop in scale], [min(max(weight, 0.0), 1.0)])[0]


def _black_text_from(scale: tuple = WEIGHT_SCALE, steps: int = 1000) -> float:
    """The smallest weight whose cell colour gives black text more contrast than white (viridis gets lighter)."""
    for step in range(steps + 1):
        colour = scale_colour(step / steps, scale)
        if contrast_ratio(colour, TEXT_ON_LIGHT) > contrast_ratio(colour, TEXT_ON_DARK):
            return step / steps
    return 1.0 + 1 / steps


BLACK_TEXT_FROM = _black_text_from()  # about 0.44 for viridis; computed once, at import


def axis_labels(result: Result, joiner: str = " · ") -> list[str]:
    """Words as tick labels, PAD words marked; escaped so markup shows as text."""
    padded = set(result.settings.padded)
    return [
        plotly_escape(label) + (f"{joiner}PAD" if pos in padded else "")
        for pos, label in enumerate(result.labels, start=1)
    ]


def cell_status(result: Result, head: int) -> np.ndarray:
    """One word per cell: 'legal', 'future', 'padding', 'both' or 'dropped'."""
    future, padding = result.blocked_by_causal, result.blocked_by_padding
    status = np.full(future.shape, "legal", dtype=object)  # (T, T)
    status[future] = "future"
    status[padding] = "padding"
    status[future & padding] = "both"
    status[result.dropped[head]] = "dropped"
    return status


def hover_lines(result: Result, head: int, status: np.ndarray) -> list[list[str]]:
    """What the mouse says over each cell: query, key, weight, and why a cell is blocked or dropped."""
    words = [plotly_escape(label) for label in result.labels]
    weights = result.weights[head]
    before = result.weights_before_dropout[head]
    why = {
        "future": "blocked: this key comes after the query (future)",
        "padding": "blocked: this key is a PAD token",
        "both": "blocked: future and PAD",
        "dropped": "dropped by dropout (was {before:.3f})",
        "legal": "",
    }
    rows = []
    for i, query in enumerate(words):
        row = []
        for j, key in enumerate(words):
            note = why[status[i, j]].format(before=before[i, j])
            text = f"query <b>{query}</b> looks at key <b>{key}</b><br>weight {weights[i, j]:.3f}"
            row.append(text + (f"<br>{note}" if note else ""))
        rows.append(row)
    return rows


def attention_map(result: Result, **options) -> go.Figure:
    """attention_map_spec(result, **options) as a go.Figure: the map of one head, blocked cells grey."""
    return figure_from_spec(attention_map_spec(result, **options))


def attention_map_spec(
    result: Result,
    head: int | None = None,
    selected_row: int | None = None,
    style: MapStyle = LAB,
    title: str | None = None,
) -> dict:
    """The weight table of one head (0-based; default: the head in view), blocked cells grey, as the plain
    figure dict (the Lab hands it to st.plotly_chart as ReadyFigure(spec); attention_map wraps it)."""
    head = result.view_index if head is None else head
    length = len(result.tokens)
    weights = result.weights[head]  # (T, T)
    blocked = result.blocked[head] & (weights == 0)  # the zero-score trap gives blocked cells weight
    status = cell_status(result, head)
    labels = axis_labels(result)
    positions = list(range(length))
    font = max(8, style.cell_font - max(0, length - 8))  # long sentences get smaller numbers

    shown = np.where(blocked, np.nan, weights)  # (T, T) grey cells are gaps in this layer
    cell_text = np.where(status == "dropped", DROP_MARK, np.char.mod("%.2f", weights)).astype(object)
    cell_text[blocked] = ""
    on_light = weights >= BLACK_TEXT_FROM  # (T, T) the cell is light enough for black numbers
    future_only = np.where(blocked & (status == "future"), 1.0, np.nan)
    padding_any = np.where(blocked & np.isin(status, ["padding", "both"]), 1.0, np.nan)
    grey_text = np.where(blocked & (status == "future"), "future", np.where(blocked, "PAD", "")).astype(object)
    if length > 10:
        grey_text = np.where(grey_text == "future", "·", grey_text)
    cols, rows = np.meshgrid(positions, positions)
    traces = [
        {
            "type": "heatmap", "name": "weights", "z": _cells(shown), "x": positions, "y": positions,
            "zmin": 0, "zmax": 1, "colorscale": WEIGHT_SCALE, "text": _cells(cell_text),
            "hoverinfo": "skip", "hoverongaps": False, "showscale": style.show_scale,
            "xgap": 2, "ygap": 2,
            "colorbar": {"title": {"text": "weight"}, "thickness": 14, "len": 0.9, "tickvals": [0, 0.5, 1]},
        },
        *(
            {
                "type": "heatmap", "name": f"blocked ({name})", "z": _cells(grid), "x": positions, "y": positions,
                "zmin": 0, "zmax": 1, "showscale": False, "colorscale": [[0, colour], [1, colour]],
                "text": _cells(grey_text), "texttemplate": "%{text}",
                "textfont": {"size": max(8, font - 3), "color": GREY_TEXT},
                "hoverinfo": "skip", "hoverongaps": False, "xgap": 2, "ygap": 2,
            }
            for grid, colour, name in ((future_only, GREY_FUTURE, "future"), (padding_any, GREY_PADDING, "padding"))
        ),
        {
            "type": "scatter", "name": "cells", "x": cols.ravel().tolist(), "y": rows.ravel().tolist(),
            "mode": "markers", "marker": {"symbol": "square", "size": 28, "opacity": 0},
            "selected": {"marker": {"opacity": 0}}, "unselected": {"marker": {"opacity": 0}},
            "hovertext": [line for row in hover_lines(result, head, status) for line in row],
            "hovertemplate": "%{hovertext}<extra></extra>", "showlegend": False,
        },
        *(
            {
                "type": "heatmap", "name": f"numbers ({name})", "z": _cells(np.zeros((length, length))),
                "x": positions, "y": positions, "zmin": 0, "zmax": 1, "colorscale": CLEAR, "showscale": False,
                "text": _cells(np.where(on_light == light, cell_text, "")), "texttemplate": "%{text}",
                "textfont": {"size": font, "color": colour}, "hoverinfo": "skip", "xgap": 2, "ygap": 2,
            }
            for light, colour, name in ((False, TEXT_ON_DARK, "white"), (True, TEXT_ON_LIGHT, "black"))
        ),
    ]
    layout = _layout(axis_labels(result, joiner="<br>"), labels, style, title)
    if selected_row is not None and 0 <= selected_row < length:
        layout["shapes"] = [{
            "type": "rect", "x0": -0.5, "x1": length - 0.5, "y0": selected_row - 0.5, "y1": selected_row + 0.5,
            "line": {"color": SELECT_COLOUR, "width": 4}, "fillcolor": "rgba(0,0,0,0)", "layer": "above",
        }]
    return {"data": traces, "layout": layout}


def _cells(grid: np.ndarray) -> list[list]:
    """A 2-d array as nested lists, NaN as None (a gap in a heatmap)."""
    return [[None if isinstance(v, float) and v != v else v for v in row] for row in grid.tolist()]


def figure_from_spec(spec: dict) -> go.Figure:
    """Wrap a plain figure dict without Plotly's per-property validation (about 25 ms -> 2 ms a map).

    The builders write plain dicts for speed; tests/ui/test_figures.py builds every figure again WITH
    validation, so a misspelt property still fails there.
    """
    return go.Figure(spec, _validate=VALIDATE)


VALIDATE = False  # tests switch this on to have Plotly check every property


class ReadyFigure(BaseFigure):
    """A finished figure dict that st.plotly_chart takes as it is: the Lab's hot path (about 3 ms a click).

    st.plotly_chart turns a go.Figure into a dict with `to_dict()` (a deep copy of everything) and turns a
    dict into a go.Figure WITH validation before it writes the JSON. A BaseFigure is taken as already checked
    and only asked for `to_dict()`, so this one hands over the dict itself: nothing is copied or parsed.
    The same dicts are built into validated go.Figures in tests/ui/test_figures.py.
    """

    def __init__(self, spec: dict) -> None:  # BaseFigure.__init__ is skipped on purpose: it parses the spec
        layout = spec.get("layout", {})
        default = pio.templates.default  # "streamlit" once Streamlit is imported, as go.Figure would apply
        if "template" not in layout and default:
            spec = {**spec, "layout": {**layout, "template": _template_dict(pio.templates[default])}}
        object.__setattr__(self, "_spec", spec)

    def to_dict(self) -> dict:
        return self._spec


def _template_dict(template: go.layout.Template) -> dict:
    """The template as a dict, for reading only: Plotly's own dict when it has one (to_plotly_json deep-copies
    it, about 1 ms a click). tests/ui/test_figures.py checks the JSON equals what go.Figure writes."""
    props = getattr(template, "_props", None)
    return props if isinstance(props, dict) else template.to_plotly_json()


def _layout(x_labels: list[str], y_labels: list[str], style: MapStyle, title: str | None) -> dict:
    length = len(y_labels)
    axis = {
        "tickmode": "array", "tickvals": list(range(length)),
        "tickfont": {"size": style.axis_font}, "showgrid": False, "zeroline": False, "fixedrange": True,
        "range": [-0.5, length - 0.5],
    }
    layout = {
        "height": style.height,
        "margin": {"l": style.margin, "r": style.margin, "t": style.margin + (34 if title else 0),
                   "b": style.margin},
        "xaxis": {**axis, "ticktext": x_labels, "side": "top", **({"tickangle": -35} if length > 6 else {}),
                  "title": {"text": "key: the word being looked at →" if style.show_titles else "",
                            "font": {"size": style.axis_font - 2}}},
        "yaxis": {**axis, "ticktext": y_labels, "autorange": False, "range": [length - 0.5, -0.5],
                  "scaleanchor": "x",
                  "title": {"text": "query: the word looking ↓" if style.show_titles else "",
                            "font": {"size": style.axis_font - 2}}},
        "dragmode": False, "hovermode": "closest", "clickmode": "event+select",
        "plot_bgcolor": "rgba(0,0,0,0)", "paper_bgcolor": "rgba(0,0,0,0)",
    }
    if title:
        layout["title"] = {"text": plotly_escape(title), "x": 0.5, "font": {"size": style.axis_font}}
    return layout


def download_config(filename: str, scale: int = 3) -> dict:
    """Plotly's toolbar: a PNG with a meaningful name at slide resolution; no editing tools."""
    return {
        "displaylogo": False,
        "modeBarButtonsToRemove": ["zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d",
                                   "autoScale2d", "resetScale2d"],
        "toImageButtonOptions": {"format": "png", "filename": filename, "scale": scale},
    }
