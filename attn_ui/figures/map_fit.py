"""How large an attention map's words and numbers are drawn, and where, so that they fit any screen from a 390 px
phone to a 1280x720 projector without running into each other.

The figure is built once on the server for every screen: it cannot know the width it will get. So every size is
chosen for two widths at once: the style's own screen (wide: the map is as tall as the style's height allows) and a
390 px phone (NARROW_CHART px wide: the width decides, and the plot keeps at least 250 px a side). The margins are
set here from the labels, and Plotly is told not to move them; the figure carries the wide sizes, and what a phone
draws smaller (labels, titles, the numbers in the cells) reaches the browser as CSS (`PhoneFit`, written by
widgets/look.py), together with the height the phone's map really needs.

- Key labels (top) lie flat when every word fits its column on both screens; otherwise they stand on end.
- A word wider than the style's `word_room` is cut ("Electro…") and keeps its position ("3 Electro…"); the line
  under the map gives it whole.
- A number is drawn in a cell only when it fits at MIN_TEXT px or more; below that the colour, the row's sentence and
  the table carry it. The marks of grey cells ("future", "PAD") follow the numbers.

Sizes come from label_box (Source Sans' widths) and a few gaps Plotly leaves, measured in Chromium; the browser tests
(tests/browser/test_map_sentences_browser.py, test_map_margins_browser.py) check the result on real screens.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

from attn_ui.figures.layout import MIN_TEXT, MapStyle
from attn_ui.figures.plotly_fast import FIRST_LINE, LINE_SPACING, label_box

NARROW_CHART = 358  # px: the Lab's map on a 390 px phone (the screen less Streamlit's 1 rem a side)
PHONE_FONT = 15  # px: a phone draws no map text larger than the Lab does
MIN_PHONE_PLOT = 250  # px: the least plot a map keeps on a phone's 390 px screen
PHONE_TITLE = 13  # px: the titles on a phone (the Lab's)
ROW_GAP = 9  # px Plotly leaves between a row label and the plot (8.2 measured)
BAND_GAP = 8  # px between the key labels and the plot (6-8 measured, flat or on end)
LINE_GAP = 4  # px between the titles' line and the key labels
LABEL_GAP = 5  # px at least between two flat key labels
CELL_PAD = 4  # px a cell's text leaves free, besides the 2 px gap between cells
CORNER_GAP = 6  # px between "query ↓" and the first key label
CUT = "…"
WIDTH_MARGIN = 1.05
EXTRA_RANGE = (-128, 128)  # px: what PhoneFit.key can say of a map's extra room (a map needs -60 to 40)
LABEL_FLOOR = 12  # px: the smallest whole word or flat key label; smaller, a word is cut or the keys stand on end


@dataclass(frozen=True)
class PhoneFit:
    """What a 390 px phone draws differently: smaller text, and a chart only as tall as its map.

    The chart keeps min(`height`, its width + `extra`) px: the plot is a square as wide as the chart less the left
    and right margins, under the top margin. `key` carries it all to the browser as the name of an empty container,
    which look.PHONE_MAP_CSS (constant CSS) reads."""

    row_font: int
    column_font: int
    title_font: int
    cell_font: int  # the numbers' font; 0: none (they would be below MIN_TEXT)
    mark_font: int  # "future" and "PAD"; 0: none
    height: int
    extra: int  # top + bottom margin - left - right margin

    @property
    def key(self) -> str:
        """"mp-k-8-h440-r15-c14-t13-n15-m12-": `extra` rounded up to 4 px (the map is never cut, at most 3 px of
        room are left under it) and held to EXTRA_RANGE, and the five sizes (0: none)."""
        extra = min(max(-(-self.extra // 4) * 4, EXTRA_RANGE[0]), EXTRA_RANGE[1])
        return (f"mp-k{extra}-h{self.height}-r{self.row_font}-c{self.column_font}-t{self.title_font}-"
                f"n{self.cell_font}-m{self.mark_font}-")


@dataclass(frozen=True)
class MapFit:
    """Where the words and numbers of one map go and how large they are, on the style's own screen (the figure's
    sizes) and on a phone (`phone`)."""

    rows: tuple[str, ...]  # the query labels (left), ready for Plotly (escaped)
    columns: tuple[str, ...]  # the key labels (top)
    upright: bool  # the key labels stand on end: side by side they do not fit
    cut: tuple[int, ...]  # 0-based positions whose word was cut: the line under the map gives them whole
    row_font: int
    column_font: int
    title_font: int
    corner_font: int
    corner_shift: int  # px left of the plot where "query ↓" ends (clear of a first key label wider than its column)
    key_title_right: bool  # the key title is set to the right: centred, it would run into the head's name
    head_above: bool  # the head's name has a line of its own, above the key title's
    cell_font: int  # 0: no numbers
    mark_font: int  # 0: no marks
    future_mark: str  # "future" (translated), "·" or ""
    margin: dict
    phone: PhoneFit


def width(text: str, font: float) -> float:
    """A label's width, 5% wider than label_box says: Chromium drew short words up to 4% wider (hinting)."""
    return label_box(text, font)[0] * WIDTH_MARGIN


def band(text: str, font: float) -> float:
    """The height of a flat label (lines stacked)."""
    return label_box(text, font)[1]


def line_height(font: float) -> float:
    return font * FIRST_LINE


def largest(fits, top: int, floor: int) -> int | None:
    """The largest font from `top` down to `floor` that `fits`, or None."""
    return next((size for size in range(top, floor - 1, -1) if fits(size)), None)


def cut_word(text: str, font: float, room: float) -> str:
    """`text` (escaped for Plotly) shortened to `room` px, ending in "…"; whole when it fits."""
    if width(text, font) <= room:
        return text
    plain = html.unescape(text)
    for end in range(len(plain) - 1, 0, -1):
        short = html.escape(plain[:end].rstrip(), quote=False) + CUT
        if width(short, font) <= room:
            return short
    return CUT


def flat_fits(labels: list[str], font: int, column: float, right_room: float) -> bool:
    """Flat key labels at `font` in columns `column` px wide: every two neighbours apart, the last inside the map's
    right margin."""
    widths = [width(label, font) for label in labels]
    apart = all((a + b) / 2 + LABEL_GAP <= column for a, b in zip(widths, widths[1:], strict=False))
    return apart and (widths[-1] - column) / 2 <= right_room


@dataclass(frozen=True)
class Words:
    """The text of a map's axes and cells, before any fitting (words escaped for Plotly)."""

    labels: list[str]  # one word a position
    padded: frozenset[int]  # 0-based positions of PAD words
    numbers: list[str]  # every number or mark a legal cell may hold ("0.25", "drop")
    future: str  # the grey mark of a future key, translated
    key_title: str
    corner: str
    title: str | None = None  # the head's name, at the top left

    def row(self, position: int, stacked: bool = False) -> str:  # stacked: "PAD" under the word
        return self.labels[position] + self.pad_mark(position, "<br>" if stacked else " · ")

    def column(self, position: int) -> str:  # flat: "PAD" on a line of its own
        return self.labels[position] + self.pad_mark(position, "<br>")

    def pad_mark(self, position: int, joiner: str) -> str:
        return f"{joiner}PAD" if position in self.padded else ""


def fit_map(words: Words, style: MapStyle) -> MapFit:
    """Sizes and margins of a framed map (style.word_room is set) for its own screen and a 390 px phone."""
    length, room = len(words.labels), style.word_room
    floor = max(LABEL_FLOOR, style.text_floor)  # a word smaller than this is cut, or stands on end
    positions = range(length)
    title_font = max(MIN_TEXT, style.axis_font - 2)
    top_line = line_height(title_font) + LINE_GAP + 2  # the titles' line above the key labels
    right = bottom = style.margin

    # the rows: "PAD" under its word where rows are two lines tall on both screens; whole words as large as word_room
    # allows them, down to the style's floor; below it, cut
    lines = 1 + (bool(words.padded) and two_lines_fit(style, length, top_line, room))
    whole_font = largest(lambda f: all(width(words.row(i, lines > 1), f) <= room for i in positions),
                         style.axis_font, floor)
    widest_row = room if whole_font is None else max(width(words.row(i, lines > 1), whole_font) for i in positions)
    left = math.ceil(max(widest_row, min(room, width(words.corner, title_font))) + ROW_GAP)  # "query ↓" above them
    if style.text_floor > MIN_TEXT:  # the projector: "query ↓" at its floor, where a longer language needs more room
        needed = math.ceil(width(words.corner, min(style.text_floor, title_font)) + CORNER_GAP + 2)
        if NARROW_CHART - needed - right >= MIN_PHONE_PLOT:  # ... but never at the cost of a phone's map
            left = max(left, needed)
    narrow_side = NARROW_CHART - left - right

    def wide_side(top: float) -> float:  # the style's own screen: the map is as tall as its height allows
        return style.height - math.ceil(top) - bottom

    def words_font(side: float) -> int:  # rows no taller, and keys on end no wider, than side / T
        return int(side / length / (FIRST_LINE + LINE_SPACING * (lines - 1)))

    # the key labels: flat on both screens if they fit side by side, else on end
    upright, flat = True, [words.column(i) for i in positions]
    for size in range(style.axis_font, floor - 1, -1):
        top = top_line + max(band(label, size) for label in flat) + BAND_GAP
        phone = largest(lambda f: flat_fits(flat, f, narrow_side / length, right), min(PHONE_FONT, size), LABEL_FLOOR)
        if phone and flat_fits(flat, size, wide_side(top) / length, right):
            upright, column_font, phone_column, columns = False, size, phone, flat
            break
    if upright:  # on end the keys take the rows' words, font and cuts: the top margin holds the longest
        top = top_line + widest_row + BAND_GAP

    # the head's name shares the key title's line where both fit beside each other on both screens, else it takes a
    # line of its own above (and flat keys shrink if the lower map no longer gives them room)
    head_above = bool(words.title) and any(
        width(words.title, font) + 2 * CORNER_GAP + width(words.key_title, font) > side
        for side, font in ((wide_side(top), title_font), (narrow_side, PHONE_TITLE)))
    if head_above:
        top_line += line_height(title_font) + LINE_GAP
        top += line_height(title_font) + LINE_GAP
    while not upright and column_font > floor and not flat_fits(flat, column_font, wide_side(top) / length, right):
        column_font -= 1
    if not upright and not flat_fits(flat, column_font, wide_side(top) / length, right):  # not even at the floor
        upright, top = True, top_line + widest_row + BAND_GAP  # on end after all (a short map: the Lab under a link)

    # cut words as large as keeps three letters of each, down to the floor
    kept = whole_font or largest(lambda f: all(keeps(words, i, f, room, lines > 1) for i in positions),
                                 style.axis_font, floor) or floor
    row_font = max(MIN_TEXT, min(kept, words_font(wide_side(top))))
    phone_row = max(MIN_TEXT, min(PHONE_FONT, row_font, words_font(narrow_side)))
    rows = [shorten(words, i, row_font, room, lines > 1) for i in positions]
    cut = tuple(i for i in positions if rows[i] != words.row(i, lines > 1))
    if upright:  # the rows' labels, on end
        column_font, phone_column, columns = row_font, phone_row, rows
        top = top_line + max(width(label, column_font) for label in columns) + BAND_GAP

    # the cells: numbers, and the marks of grey cells ("future", "PAD"), where they fit at MIN_TEXT px or more
    wide_cell, phone_cell = wide_side(top) / length, narrow_side / length
    number_em = max((width(text, 1) for text in words.numbers), default=1.0)

    def fits_cell(text: str, font: int, cell: float) -> bool:
        return width(text, font) <= cell - 2 - CELL_PAD

    def number_font(cell: float, most: int, least: int) -> int:
        size = min(most, int((cell - 2 - CELL_PAD) / number_em))
        return size if size >= least and style.cell_text else 0

    cell_font = number_font(wide_cell, style.cell_font, style.text_floor)
    phone_cell_font = number_font(phone_cell, PHONE_FONT, MIN_TEXT)
    # a mark is 3 px smaller than the numbers, no smaller than the style's floor; "future" where it fits the style's
    # own screen (the projector keeps its word, smaller if it must, down to the floor), else "·". A phone's CSS tells
    # a mark from a number by its grey colour (look.PHONE_MAP_CSS): it draws the marks at their own size where they
    # fit, else none
    mark_font = max(style.text_floor, cell_font - 3) if cell_font else 0
    future_font = cell_font and largest(lambda f: fits_cell(words.future, f, wide_cell), mark_font, style.text_floor)
    mark_font = future_font or mark_font  # "future" as large as its cell takes it, down to the floor
    future_mark = "" if not cell_font else words.future if future_font else "·"
    widest_mark = max([future_mark, "PAD"], key=lambda mark: width(mark, 1))
    phone_mark = largest(lambda f: fits_cell(widest_mark, f, phone_cell),
                         max(MIN_TEXT, (phone_cell_font or PHONE_FONT) - 3), MIN_TEXT) or 0

    # "query ↓" ends clear of a first key label wider than its column; the key title is centred over the plot unless
    # it would run into the head's name beside it, on either screen
    first = 0.0 if upright else max((width(columns[0], column_font) - wide_cell) / 2,
                                    (width(columns[0], phone_column) - phone_cell) / 2, 0.0)
    corner_shift = round(first + CORNER_GAP / 2)
    corner_font = largest(lambda f: width(words.corner, f) <= left - corner_shift - 2, title_font, MIN_TEXT) or MIN_TEXT
    phone_title = min(PHONE_TITLE, corner_font)  # one size for the titles on a phone: the corner's, or 13 px
    key_title_right = bool(words.title) and not head_above and any(
        width(words.title, font) + 2 * CORNER_GAP > left + (side - width(words.key_title, font)) / 2
        for side, font in ((wide_side(top), title_font), (narrow_side, phone_title)))

    margin = {"l": left, "r": right, "t": math.ceil(top), "b": bottom}
    phone = PhoneFit(row_font=phone_row, column_font=phone_column, title_font=phone_title,
                     cell_font=phone_cell_font, mark_font=phone_mark, height=style.height,
                     extra=margin["t"] + margin["b"] - margin["l"] - margin["r"])
    return MapFit(rows=tuple(rows), columns=tuple(columns), upright=upright, cut=cut, row_font=row_font,
                  column_font=column_font, title_font=title_font, corner_font=corner_font,
                  corner_shift=corner_shift, key_title_right=key_title_right, head_above=head_above,
                  cell_font=cell_font, mark_font=mark_font, future_mark=future_mark, margin=margin, phone=phone)


def two_lines_fit(style: MapStyle, length: int, top_line: float, room: float) -> bool:
    """Are the rows tall enough for two lines of words ("step", "PAD") on both screens? Reckoned with the largest
    labels and margins the map can have."""
    two = FIRST_LINE + LINE_SPACING
    wide_side = style.height - top_line - two * style.axis_font - BAND_GAP - style.margin
    narrow_side = NARROW_CHART - room - ROW_GAP - style.margin
    return two * style.axis_font <= wide_side / length and two * PHONE_FONT <= narrow_side / length


def keeps(words: Words, position: int, font: int, room: float, stacked: bool, letters: int = 3) -> bool:
    """Does the word at `position`, cut to `room` px at `font`, keep `letters` letters (or all of a shorter one)?"""
    label = shorten(words, position, font, room, stacked)
    if label == words.row(position, stacked):
        return True
    kept = html.unescape(label.split("…")[0]).removeprefix(f"{position + 1} ")
    return len(kept) >= min(letters, len(html.unescape(words.labels[position])))


def shorten(words: Words, position: int, font: int, room: float, stacked: bool = False) -> str:
    """A row label as it fits `room` px: whole, or its word cut and its position in front ("3 Electro…",
    "3 Elec… · PAD"), so that two cut words stay apart and the line under the map can name them."""
    whole, mark = words.row(position, stacked), words.pad_mark(position, "<br>" if stacked else " · ")
    if width(whole, font) <= room:
        return whole
    beside = 0.0 if stacked else width(mark, font)  # a stacked "PAD" has a line of its own
    return cut_word(f"{position + 1} {words.labels[position]}", font, room - beside) + mark
