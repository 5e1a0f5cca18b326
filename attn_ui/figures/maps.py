"""Plotly figure builders: a Result in, a Figure out. They draw; they never compute attention or call st.*.

The attention map is three layers on one pair of axes, and an outline:
1. the weights of legal cells (viridis, fixed to 0..1),
2. blocked cells in grey: light for a future key, darker for a PAD key,
3. a scatter over the cell centres: it draws each cell's label (the weight, "drop", "future" or "PAD", each in
   its own colour), carries the hover text and makes cells clickable,
4. an outline around the selected query row.
Few layers and margins worked out from the labels keep a click's redraw in the browser short (Plotly draws
every layer, and draws the whole chart again when it has to grow its margins).
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import plotly.colors as pc
import plotly.graph_objects as go
import plotly.io as pio
from plotly.basedatatypes import BaseFigure

from attn_core import Result
from attn_ui.words.escape import plotly_escape

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
GREY_SCALE = ((0, GREY_FUTURE), (0.5, GREY_FUTURE), (0.5, GREY_PADDING), (1, GREY_PADDING))  # z 0 future, 1 PAD
DROP_MARK = "drop"
_LABEL = re.compile(r'<span style="color:(#[0-9a-f]{6})">(.*)</span>', re.DOTALL)  # see _coloured

# Advance widths (em) of Source Sans, the font Streamlit's theme gives Plotly charts, measured in Chromium (canvas
# measureText at 100 px). Any other character counts as a full em, wider than any in the table.
SOURCE_SANS_EM = MappingProxyType(dict(zip(
    '0123456789 !"#$%&\'()*+,-./:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~·',
    (
        0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.2, 0.289, 0.426, 0.497,
        0.497, 0.824, 0.609, 0.249, 0.303, 0.303, 0.418, 0.497, 0.249, 0.311, 0.249, 0.35, 0.249, 0.249,
        0.497, 0.497, 0.497, 0.425, 0.847, 0.543, 0.588, 0.571, 0.615, 0.527, 0.494, 0.617, 0.652, 0.263,
        0.479, 0.579, 0.486, 0.727, 0.647, 0.664, 0.566, 0.664, 0.569, 0.534, 0.536, 0.645, 0.515, 0.786,
        0.513, 0.476, 0.539, 0.303, 0.35, 0.303, 0.497, 0.5, 0.542, 0.504, 0.553, 0.456, 0.555, 0.496,
        0.292, 0.504, 0.544, 0.246, 0.247, 0.495, 0.255, 0.829, 0.547, 0.542, 0.555, 0.555, 0.347, 0.419,
        0.338, 0.544, 0.467, 0.719, 0.446, 0.467, 0.425, 0.303, 0.241, 0.303, 0.497, 0.249,
    ),
    strict=True,
)))
LINE_SPACING = 1.3  # Plotly's: each further line of a label adds 1.3 em
FIRST_LINE = 4 / 3  # the first line of an SVG label is about 1.33 em tall
X_TICK_ANGLE = 35  # key labels lean this much (degrees) from 7 words on


@dataclass(frozen=True)
class MapStyle:
    """How large things are drawn: the Lab, a small multiple, or the projector."""

    height: int = 440
    cell_font: int = 15
    axis_font: int = 15
    show_scale: bool = True
    show_titles: bool = True
    margin: int = 10
    # (left, top) px Plotly needs beyond the widest word and tallest key label: tick gaps and the axis title.
    # With it the margins are worked out here, so Plotly does not draw the chart twice to grow them (about
    # 50 ms a click in the Lab); measured in Chromium, and tests/browser/test_map_margins_browser.py checks
    # that Plotly did not have to grow them. None leaves the margins to Plotly's automargin alone.
    label_room: tuple[int, int] | None = None


# numbers in every cell; a colour bar costs a phone a third of the width
LAB = MapStyle(show_scale=False, label_room=(62, 57))
# numbers in cells, no bar
PROJECTOR = MapStyle(height=690, cell_font=24, axis_font=24, show_scale=False, margin=6, label_room=(65, 58))
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
    kind = np.where(blocked & (status == "future"), 0.0, np.where(blocked, 1.0, np.nan))  # (T, T) grey layer
    grey = ~np.isnan(kind)
    texts = np.where(kind == 0, "·" if length > 10 else "future", np.where(grey, "PAD", cell_text))
    colours = np.where(grey, GREY_TEXT, np.where(weights >= BLACK_TEXT_FROM, TEXT_ON_LIGHT, TEXT_ON_DARK))
    labels_drawn = [_coloured(colour, text) for colour, text in zip(colours.ravel(), texts.ravel(), strict=True)]
    sizes = np.where(grey, max(8, font - 3), font).ravel().tolist()
    cols, rows = np.meshgrid(positions, positions)
    traces = [
        {
            "type": "heatmap", "name": "weights", "z": _cells(shown), "x": positions, "y": positions,
            "zmin": 0, "zmax": 1, "colorscale": WEIGHT_SCALE, "hoverinfo": "skip", "hoverongaps": False,
            "showscale": style.show_scale, "xgap": 2, "ygap": 2,
            "colorbar": {"title": {"text": "weight"}, "thickness": 14, "len": 0.9, "tickvals": [0, 0.5, 1]},
        },
        {
            "type": "heatmap", "name": "blocked", "z": _cells(kind), "x": positions, "y": positions,
            "zmin": 0, "zmax": 1, "showscale": False, "colorscale": GREY_SCALE,
            "hoverinfo": "skip", "hoverongaps": False, "xgap": 2, "ygap": 2,
        },
        {
            "type": "scatter", "name": "cells", "x": cols.ravel().tolist(), "y": rows.ravel().tolist(),
            "mode": "markers+text", "marker": {"symbol": "square", "size": 28, "opacity": 0},
            "text": labels_drawn, "textposition": "middle center", "textfont": {"size": sizes},
            "selected": {"marker": {"opacity": 0}}, "unselected": {"marker": {"opacity": 0}},
            "hovertext": [line for row in hover_lines(result, head, status) for line in row],
            "hovertemplate": "%{hovertext}<extra></extra>", "showlegend": False,
        },
    ]
    layout = _layout(axis_labels(result, joiner="<br>"), labels, style, title)
    if selected_row is not None and 0 <= selected_row < length:
        layout["shapes"] = [{
            "type": "rect", "x0": -0.5, "x1": length - 0.5, "y0": selected_row - 0.5, "y1": selected_row + 0.5,
            "line": {"color": SELECT_COLOUR, "width": 4}, "fillcolor": "rgba(0,0,0,0)", "layer": "above",
        }]
    return {"data": traces, "layout": layout}


def _coloured(colour: str, text: str) -> str:
    """A cell's label in its own colour, as a <span> (a scatter's per-point colours dim while a click selects
    a point; the span's colour holds). label_parts reads it back."""
    return f'<span style="color:{colour}">{text}</span>' if text else ""


def label_parts(label: str) -> tuple[str | None, str]:
    """(colour, text) of one drawn cell label; (None, "") for an empty one."""
    match = _LABEL.fullmatch(label or "")
    return (match[1], match[2]) if match else (None, label or "")


def drawn_labels(traces: list[dict]) -> np.ndarray:
    """(T, T) the text drawn in each cell of an attention map (a number, "drop", "future", "·" or "PAD"), from
    the figure's traces as plain dicts (a spec, AppTest's JSON or the browser's gd.data)."""
    (cells,) = [trace for trace in traces if trace.get("name") == "cells"]
    length = int(round(len(cells["text"]) ** 0.5))
    return np.array([label_parts(label)[1] for label in cells["text"]], dtype=object).reshape(length, length)


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


def label_box(label: str, size: float) -> tuple[float, float]:
    """(width, height) in px of a tick label at this font size (<br> breaks lines). Within a few per cent of what
    Chromium draws; MapStyle.label_room was measured with this estimate, so it covers the difference."""
    lines = [html.unescape(line) for line in label.split("<br>")]
    width = max(size * sum(SOURCE_SANS_EM.get(char, 1.0) for char in line) for line in lines)
    return width, size * (FIRST_LINE + LINE_SPACING * (len(lines) - 1))


def _x_tick_angle(length: int) -> int:
    """How far (degrees) the key labels lean: 0 up to 6 words, then X_TICK_ANGLE."""
    return X_TICK_ANGLE if length > 6 else 0


def _margins(x_labels: list[str], y_labels: list[str], style: MapStyle, title: str | None) -> dict:
    """The map's margins; from the labels' sizes when the style knows the room its titles need."""
    title_room = 34 if title else 0
    margins = {"l": style.margin, "r": style.margin, "t": style.margin + title_room, "b": style.margin}
    if style.label_room is None:
        return margins
    left, top = style.label_room
    angle = math.radians(_x_tick_angle(len(x_labels)))
    widest = max(label_box(label, style.axis_font)[0] for label in y_labels)
    tallest = max(w * math.sin(angle) + h * math.cos(angle)
                  for w, h in (label_box(label, style.axis_font) for label in x_labels))
    return {**margins, "l": math.ceil(widest + left), "t": math.ceil(tallest + top) + title_room}


def _layout(x_labels: list[str], y_labels: list[str], style: MapStyle, title: str | None) -> dict:
    length = len(y_labels)
    angle = _x_tick_angle(length)
    axis = {
        "tickmode": "array", "tickvals": list(range(length)),
        "tickfont": {"size": style.axis_font}, "showgrid": False, "zeroline": False, "fixedrange": True,
        "range": [-0.5, length - 0.5],
    }
    layout = {
        "height": style.height,
        "margin": _margins(x_labels, y_labels, style, title),
        "xaxis": {**axis, "ticktext": x_labels, "side": "top", **({"tickangle": -angle} if angle else {}),
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
