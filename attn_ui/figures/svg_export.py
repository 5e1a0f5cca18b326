"""The attention map as a standalone SVG document, written in Python: for a lecturer's slide or handout.

Plotly's own image export needs kaleido and a browser, and Community Cloud has neither; the modebar's camera gives
one format only. So this module writes the SVG text itself, drawing what attention_map_spec draws, from the same
palette and the same words:
1. one square a cell: an open cell in viridis by its weight (0..1; a weight above 1 after dropout's rescale takes the
   top colour), a blocked cell light grey (future key) or darker grey (PAD key),
2. each cell's text: its weight with two decimals, "drop", the future mark or "PAD", black or white by palette's
   contrast rule,
3. the keys along the top, the queries down the left, the corner "query ↓" and the key title, as the Lab frames them,
4. an outline around the selected query row.

Every word of the sentence is a student's text: it is escaped, so `<script>` or `&amp;` shows as typed. The words are
in the run's language (map_words), so a cache of these documents keys on the language too. The same input gives the
same bytes.
"""

from __future__ import annotations

import math
import unicodedata
from xml.sax.saxutils import escape

import numpy as np

from attn_core.engine import HeadMap
from attn_lang import _, number
from attn_ui.figures.maps import DROP_MARK, X_TICK_ANGLE, ShowsAttention, cell_status, map_words
from attn_ui.figures.palette import (
    BLACK_TEXT_FROM,
    GREY_FUTURE,
    GREY_PADDING,
    GREY_TEXT,
    SELECT_COLOUR,
    TEXT_ON_DARK,
    TEXT_ON_LIGHT,
    scale_colour,
)

FONT_STACK = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK = "#31333f"  # words and titles: Streamlit's own text colour on its light theme
PAPER = "#ffffff"  # a slide may be dark: the map brings its own white ground
CELL = 48  # px a side, gap included
GAP = 2  # px between cells, as the app's heatmaps (xgap, ygap)
NUMBER_FONT = 14
MARK_FONT = 11  # "future", "PAD" and "drop" are longer than a number
LABEL_FONT = 14
TITLE_FONT = 18
PAIR_FONT = 22  # the big "A" and "B" over a pair
EDGE = 12  # px of paper around everything
BAND = 22  # px a line of titles takes
PAIR_SPACE = 40  # px between the two maps of a pair


def map_svg(result: ShowsAttention, row: int | None = None, numbers: bool = True, title: str = "",
            show_blocked_words: bool = True) -> str:
    """The map of the head in view as an SVG document. `row` (1-based) is outlined; `numbers` writes each open
    cell's weight; `show_blocked_words` writes "future" or "PAD" in grey cells; `title` goes on top."""
    parts, width, height, __ = _map_group(result.head_map(), row, numbers, show_blocked_words)
    return _document([f'<g class="map" transform="translate({EDGE},{EDGE + _title_room(title)})">', *parts, "</g>"],
                     width, height, title)


def pair_svg(result_a: ShowsAttention, result_b: ShowsAttention, numbers: bool = False, title: str = "") -> str:
    """Two maps side by side, marked "A" and "B" (a question such as "which of these maps has the causal mask?")."""
    groups = [_map_group(result.head_map(), None, numbers, True) for result in (result_a, result_b)]
    header = max(grid_top for *__, grid_top in groups)  # both grids start at the same height
    top = EDGE + _title_room(title)
    body, left = [], float(EDGE)
    for mark, (parts, width, __, grid_top) in zip("AB", groups, strict=True):
        body.append(_text(left + width / 2, top + PAIR_FONT, mark, PAIR_FONT, "middle", INK,
                          'class="pair-label" font-weight="bold"'))
        lift = top + PAIR_FONT + 8 + header - grid_top
        body += [f'<g class="map" transform="translate({_n(left)},{_n(lift)})">', *parts, "</g>"]
        left += width + PAIR_SPACE
    tallest = max(height - grid_top for __, __, height, grid_top in groups) + header
    return _document(body, left - PAIR_SPACE - EDGE, tallest + PAIR_FONT + 8, title)


def _map_group(view: HeadMap, row: int | None, numbers: bool,
               show_blocked_words: bool) -> tuple[list[str], float, float, float]:
    """(SVG elements, width, height, the grid's top) of one map drawn from (0, 0): words, grid, outline."""
    length = len(view.labels)
    if row is not None and not 1 <= row <= length:
        raise ValueError(f"row {row} is not a query of this map: rows are 1 to {length}")
    words = map_words(view, [])  # the Lab's own corner, key title and future mark, in the run's language
    rows = [label + (" · PAD" if position in words.padded else "") for position, label in enumerate(view.labels)]
    lean = length > 6 or max(_width(label, LABEL_FONT) for label in rows) > CELL - 4
    sine, cosine = math.sin(math.radians(X_TICK_ANGLE)), math.cos(math.radians(X_TICK_ANGLE))
    key_heights = [_width(label, LABEL_FONT) * sine + LABEL_FONT * cosine if lean else LABEL_FONT for label in rows]
    left = max(max(_width(label, LABEL_FONT) for label in rows), _width(words.corner, LABEL_FONT)) + 10
    top = BAND + max(key_heights) + 8
    grid = length * CELL
    overhang = max([(position + 0.5) * CELL + _width(label, LABEL_FONT) * (cosine if lean else 0.5) - grid
                    for position, label in enumerate(rows)] + [0.0])
    key_title_width = _width(words.key_title, LABEL_FONT)
    key_title_x = max(left + grid / 2, key_title_width / 2)  # over the keys, unless it would leave the paper
    width = max(left + grid + max(overhang, 0.0), key_title_x + key_title_width / 2) + 4
    parts = [_text(key_title_x, BAND - 6, words.key_title, LABEL_FONT, "middle", INK, 'class="axis-title"'),
             _text(left - 8, top - 6, words.corner, LABEL_FONT, "end", INK, 'class="axis-title"')]
    for position, label in enumerate(rows):
        x, y = left + (position + 0.5) * CELL, top - 6
        turn = f'transform="rotate({-X_TICK_ANGLE} {_n(x)} {_n(y)})" ' if lean else ""
        parts.append(_text(x, y, label, LABEL_FONT, "start" if lean else "middle", INK, turn + 'class="key"'))
        parts.append(_text(left - 8, top + (position + 0.5) * CELL + LABEL_FONT * 0.35, label, LABEL_FONT, "end",
                           INK, 'class="query"'))
    parts += _cells(view, words.future, numbers, show_blocked_words, left, top)
    if row is not None:
        parts.append(f'<rect class="selected-row" x="{_n(left)}" y="{_n(top + (row - 1) * CELL)}" width="{grid}" '
                     f'height="{CELL}" fill="none" stroke="{SELECT_COLOUR}" stroke-width="4"/>')
    return parts, width, top + grid + 4, top


def _cells(view: HeadMap, future_word: str, numbers: bool, show_blocked_words: bool, left: float,
           top: float) -> list[str]:
    """One <rect> a cell and its text, row by row, as the app's map colours and labels them."""
    weights = view.weights  # (T, T)
    blocked = view.blocked & (weights == 0)  # (T, T) the zero-score trap gives blocked cells weight: shown open
    status = cell_status(view)  # (T, T)
    future_mark = future_word if _width(future_word, MARK_FONT) <= CELL - GAP - 4 else "·"
    drop_mark = _(DROP_MARK)
    parts = []
    for (query, key), weight in np.ndenumerate(weights):
        x, y = left + key * CELL + GAP / 2, top + query * CELL + GAP / 2
        if blocked[query, key]:
            kind = "future" if status[query, key] == "future" else "padding"
            fill, ink = (GREY_FUTURE if kind == "future" else GREY_PADDING), GREY_TEXT
            text = (future_mark if kind == "future" else "PAD") if show_blocked_words else ""
        else:
            kind, fill = "open", _hex(scale_colour(float(weight)))
            ink = TEXT_ON_LIGHT if weight >= BLACK_TEXT_FROM else TEXT_ON_DARK
            text = (drop_mark if status[query, key] == "dropped" else number(float(weight), ".2f")) if numbers else ""
        parts.append(f'<rect class="cell {kind}" data-query="{query + 1}" data-key="{key + 1}" x="{_n(x)}" '
                     f'y="{_n(y)}" width="{CELL - GAP}" height="{CELL - GAP}" fill="{fill}"/>')
        if text:
            size = NUMBER_FONT if kind == "open" and text != drop_mark else MARK_FONT
            centre_x, centre_y = x + (CELL - GAP) / 2, y + (CELL - GAP) / 2 + size * 0.35
            parts.append(_text(centre_x, centre_y, text, size, "middle", ink, f'class="cell-text {kind}"'))
    return parts


def _document(body: list[str], width: float, height: float, title: str) -> str:
    """A whole SVG file: the paper, an optional title on top, then `body`."""
    full_width, full_height = math.ceil(width + 2 * EDGE), math.ceil(height + 2 * EDGE + _title_room(title))
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{full_width}" height="{full_height}" '
        f'viewBox="0 0 {full_width} {full_height}" font-family="{FONT_STACK}">',
    ]
    if title:
        head.append(f"<title>{_escape(title)}</title>")
    head.append(f'<rect class="paper" width="{full_width}" height="{full_height}" fill="{PAPER}"/>')
    if title:
        head.append(_text(full_width / 2, EDGE + TITLE_FONT, title, TITLE_FONT, "middle", INK,
                          'class="title" font-weight="bold"'))
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def _title_room(title: str) -> int:
    return TITLE_FONT + 14 if title else 0


def _text(x: float, y: float, words: str, size: int, anchor: str, colour: str, extra: str = "") -> str:
    """One <text>; `words` escaped (a student's word is text, never markup)."""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" text-anchor="{anchor}" fill="{colour}" {extra}>'
            f"{_escape(words)}</text>")


def _escape(text: str) -> str:
    """XML-escape text for an element or an attribute: & < > and both quotes."""
    return escape(str(text), {'"': "&quot;", "'": "&apos;"})


def _width(text: str, size: int) -> float:
    """About how wide `text` is drawn at `size` px (no font metrics here): wide letters (CJK, emoji) a whole em,
    combining marks nothing, others 0.6 em."""
    ems = 0.0
    for letter in text:
        if unicodedata.combining(letter) or unicodedata.category(letter) in ("Mn", "Cf"):
            continue
        ems += 1.0 if unicodedata.east_asian_width(letter) in ("W", "F") else 0.6
    return ems * size


def _hex(colour: str) -> str:
    """'rgb(r, g, b)' (what palette.scale_colour gives) or '#rrggbb' as '#rrggbb'."""
    if colour.startswith("#"):
        return colour.lower()
    channels = [round(float(part)) for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    return "#" + "".join(f"{channel:02x}" for channel in channels)


def _n(value: float) -> str:
    """A coordinate with at most one decimal ("12", "12.5"): short files, the same bytes every run."""
    return f"{round(value, 1):g}"
