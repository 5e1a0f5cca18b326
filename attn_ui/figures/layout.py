"""How big things are drawn, and the layout every figure starts from.

`MapStyle` sizes an attention map; the named styles are the only ones the app uses (the Lab, the projector, a
lecture scene, a lesson page, a small multiple). `base_layout` is the one starting layout of every figure:
transparent backgrounds (the theme shows through), no dragging, margins as asked, and ticks and hover numbers in
the run's language (Plotly's `separators`: "0,5" in Spanish).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from attn_lang import plotly_separators

MIN_TEXT = 11  # px: no text on a chart is drawn smaller; what would be is left out (the tables hold it)


@dataclass(frozen=True)
class MapStyle:
    """How large things are drawn: the Lab, a small multiple, or the projector."""

    height: int = 440
    cell_font: int = 15
    axis_font: int = 15
    show_scale: bool = True
    show_titles: bool = True
    margin: int = 10
    cell_text: bool = True  # a number in every cell; off for maps too large to print them readably
    # A framed map (figures/map_fit.py): px of text a word may take beside the rows (or above the keys, on end) before
    # it is cut, and the smallest text it draws on the style's own screen (a number in a cell that would be smaller is
    # left out). Its margins are worked out from the labels and kept, so Plotly draws it once, and it fits a 390 px
    # phone as well (tests/browser/test_map_margins_browser.py, test_map_sentences_browser.py). None leaves the
    # margins to Plotly's automargin.
    word_room: int | None = None
    text_floor: int = MIN_TEXT


# numbers in every cell; a colour bar costs a phone a third of the width. 88 px of words ("journey · PAD" at 13 px)
# leave a 390 px phone's map a plot of 250 px a side or more
LAB = MapStyle(show_scale=False, word_room=88)
# numbers in cells, no bar; 510 px leaves room under it for a two-line row sentence and the legend at 1280x720. On a
# phone its words are drawn at the Lab's sizes, and 92 px of them leave a plot of 250 px a side or more
PROJECTOR = MapStyle(height=510, cell_font=24, axis_font=24, show_scale=False, margin=6, word_room=92,
                      text_floor=18)
SMALL = MapStyle(height=280, cell_font=11, axis_font=12, show_scale=False, show_titles=False, margin=4)
# the projected Lab opened from a scene: its map's column starts with the way back and the page menu, one line
PROJECTOR_UNDER_LINK = dataclasses.replace(PROJECTOR, height=PROJECTOR.height - 48)
SCENE_PROJECTOR = dataclasses.replace(PROJECTOR, height=510)  # leaves room for Back / Next above, legend below
SCENE_BOARD_HEIGHT = 600  # px a scene's board has at 1280x720 under Back / Next: no projected scene chart is taller
# the zero-score trap's map shares the board with the worked example above it (four lines at body size)
# no numbers in its cells: at 400 px they ran into each other, and the worked example above gives them
SCENE_UNDER_TEXT = dataclasses.replace(PROJECTOR, height=330, cell_font=19, axis_font=20, cell_text=False,
                                      show_titles=False)  # under a worked example in any language: no room for titles
LESSON = MapStyle(height=410, cell_font=12, axis_font=12, show_scale=False)  # beside a lesson's text
CHEAT = MapStyle(height=300, cell_font=12, axis_font=11, show_scale=False, show_titles=False, margin=4)
PHONE_MIN_HEIGHT = 300

# A trained model's map of 24 tokens: numbers in the cells would be below 11 px, and a colour bar would take a
# phone a third of the width (the legend under the map says what the colours mean). Axis titles are 2 px smaller.
LEARNED = MapStyle(height=440, cell_font=11, axis_font=13, show_scale=False, margin=6, cell_text=False)
LEARNED_PROJECTOR = dataclasses.replace(LEARNED, height=600, axis_font=18)


@dataclass(frozen=True)
class ChartStyle:
    """How large a line or bar chart is drawn: on a page, or on a projector."""

    height: int = 330
    font: int = 13  # ticks, legend and labels; never below 11 px
    title_font: int = 15


CHART = ChartStyle()
CHART_PROJECTOR = ChartStyle(height=380, font=20, title_font=22)  # with the controls above: one 720 px screen
# a training scene's curves in a live lecture's reveal: the room's answers take the board's foot


def base_layout(height: int, margin: int | dict = 10, **extra) -> dict:
    """The layout every figure starts from; `extra` adds or overrides keys. Its numbers (ticks, hover) take the run's
    decimal and grouping signs, so a figure cached for every session keys on the language too."""
    margins = margin if isinstance(margin, dict) else {"l": margin, "r": margin, "t": margin, "b": margin}
    return {"height": height, "margin": margins, "dragmode": False, "plot_bgcolor": "rgba(0,0,0,0)",
            "paper_bgcolor": "rgba(0,0,0,0)", "separators": plotly_separators(), **extra}


PROJECTOR_MIN_FONT = 18  # px: the smallest chart text the back row of a hall can read at 1280x720
PLOTLY_DEFAULT_FONT = 12  # px: what Plotly draws when a figure names no size


def with_min_fonts(spec: dict, minimum: int = PROJECTOR_MIN_FONT) -> dict:
    """A copy of a figure dict whose every font is at least `minimum` px (projector mode, for any lesson chart).

    Every `size` inside a font dict (`font`, `tickfont`, `textfont`, `title.font`, ...) is raised; the layout's
    own font, which every unsized text inherits, is raised too. Marker sizes are left alone: they are not text.
    """
    raised = _raise_fonts(spec, minimum, inside_font=False)
    layout = dict(raised.get("layout") or {})
    layout["font"] = _at_least(layout.get("font"), minimum)
    # Streamlit's chart theme gives axes and legends their own small sizes unless the figure names one
    for key in [k for k in layout if k.rstrip("0123456789") in ("xaxis", "yaxis")]:
        axis = dict(layout[key])
        axis["tickfont"] = _at_least(axis.get("tickfont"), minimum)
        title = axis.get("title")
        if isinstance(title, dict):
            axis["title"] = {**title, "font": _at_least(title.get("font"), minimum)}
        layout[key] = axis
    if isinstance(layout.get("legend"), dict):
        layout["legend"] = {**layout["legend"], "font": _at_least(layout["legend"].get("font"), minimum)}
    # larger text needs a larger chart: grow it and its margins as much as its smallest text grew (at most 2x)
    growth = min(minimum / min(_font_sizes(spec) or [minimum]), 2.0)
    if growth > 1 and isinstance(layout.get("height"), int | float):
        layout["height"] = round(layout["height"] * growth)
        if isinstance(layout.get("margin"), dict):
            layout["margin"] = {side: round(px * growth) if isinstance(px, int | float) else px
                                for side, px in layout["margin"].items()}
    return {**raised, "layout": layout}


def _font_sizes(value, inside_font: bool = False) -> list[float]:
    """Every explicit font size in a figure dict (the layout's own font counts as Plotly's default when unset)."""
    if isinstance(value, dict):
        found = []
        for key, inner in value.items():
            if key == "template":
                continue  # the theme's sizes are not the chart's
            if inside_font and key == "size" and isinstance(inner, int | float) and not isinstance(inner, bool):
                found.append(float(inner))
            else:
                found += _font_sizes(inner, inside_font=key.endswith("font"))
        return found
    if isinstance(value, list | tuple):
        return [size for inner in value for size in _font_sizes(inner)]
    return []


def _at_least(font: dict | None, minimum: int) -> dict:
    font = dict(font or {})
    font["size"] = max(font.get("size") or PLOTLY_DEFAULT_FONT, minimum)
    return font


def _raise_fonts(value, minimum: int, inside_font: bool):
    if isinstance(value, dict):
        out = {}
        for key, inner in value.items():
            if inside_font and key == "size" and isinstance(inner, int | float) and not isinstance(inner, bool):
                out[key] = max(inner, minimum)
            elif inside_font and key == "size" and isinstance(inner, list | tuple):
                out[key] = [max(size, minimum) for size in inner]
            else:
                out[key] = _raise_fonts(inner, minimum, inside_font=key.endswith("font"))
        return out
    if isinstance(value, list | tuple):
        return [_raise_fonts(inner, minimum, inside_font=False) for inner in value]
    return value


def heatmap_cells(grid: np.ndarray) -> list[list]:
    """A 2-d array as nested lists, NaN as None (a gap in a heatmap)."""
    return [[None if isinstance(v, float) and v != v else v for v in row] for row in np.asarray(grid).tolist()]


def still_config() -> dict:
    """Plotly's config for a figure that is not a tool (a lesson's table, a live chart): no toolbar at all."""
    return {"displayModeBar": False}


def download_config(filename: str, scale: int = 3) -> dict:
    """Plotly's toolbar: a PNG with a meaningful name at slide resolution; no editing tools."""
    return {
        "displaylogo": False,
        "modeBarButtonsToRemove": ["zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d",
                                   "autoScale2d", "resetScale2d"],
        "toImageButtonOptions": {"format": "png", "filename": filename, "scale": scale},
    }
