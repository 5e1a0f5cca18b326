"""A lesson's table that fits the screen it is read on: the whole table on a wide screen, and on a phone the same
cells cut into narrow tables, each one a few columns wide and repeating the first (label) column.

st.dataframe draws on a canvas that scrolls sideways inside its own box once its columns outgrow the screen,
and a page cannot ask the browser how wide it is. So both layouts are sent and CSS shows one of them
(look.py: the `-table-wide` and `-table-narrow` containers, switched at the same 640 px where Streamlit stacks
its columns). The narrow parts are static tables (st.table) whose cells wrap, with the numbers written as the
wide table shows them; tests/browser/test_student_phone_browser.py measures in Chromium that they fit 390 px.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import streamlit as st

from attn_lang import number
from attn_ui.widgets import panels

NARROW_BUDGET = 54  # characters a 390 px phone fits across one table (358 px, about 6 px a character in Chromium)
CELL_PADDING = 3  # characters' worth of a cell's padding and border
LABEL_WRAP = 12  # the first column wraps its words into about this many characters

Formatter = Callable[[Any], str]


def _width(texts: Sequence[str], wrap: bool) -> int:
    """Characters across a column: its longest cell, or its longest word when its cells may wrap."""
    return max((len(word) for text in texts for word in (text.split() if wrap else [text])), default=1)


def column_groups(columns: Mapping[str, Sequence[str]], budget: int = NARROW_BUDGET) -> list[list[str]]:
    """The columns after the first, in order, cut into groups that fit `budget` characters beside the first one.

    Every cell of a number column stays on one line; headers and the first column wrap at spaces. A column too
    wide for any company still gets a group of its own.
    """
    names = list(columns)
    label, rest = names[0], names[1:]
    room = budget - max(LABEL_WRAP, _width([label, *columns[label]], wrap=True)) - CELL_PADDING
    groups: list[list[str]] = []
    used = room + 1
    for name in rest:
        width = max(_width(columns[name], wrap=False), _width([name], wrap=True)) + CELL_PADDING
        if groups and used + width <= room:
            groups[-1].append(name)
            used += width
        else:
            groups.append([name])
            used = width
    return groups


INFINITE = MappingProxyType({math.inf: "∞", -math.inf: "−∞"})  # a blocked score: the sign, not "-Infinity"


def _text(value: Any, formatter: Formatter | None) -> str:
    """A cell as text: ±∞ as the signs, a fractional number by `formatter`, any other number in the language's
    signs."""
    if isinstance(value, float) and math.isinf(value):
        return INFINITE[value]
    if formatter is not None and isinstance(value, float):
        return formatter(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, ",")  # 1,296 (1.296 in Spanish), as the text writes it
    return number(value) if isinstance(value, float) else str(value)


def _written(table: Mapping[str, Sequence[Any]], formatter: Formatter | None,
             options: dict[str, Any]) -> tuple[dict[str, Sequence[Any]], dict[str, Any]]:
    """The wide table as it may be drawn: in a language with a decimal comma, or with an infinite cell, a column of
    numbers is written as text (st.dataframe writes its numbers with a point, and −∞ as "-Infinity"), and its number
    format goes; English keeps numbers, so they sort as numbers. A column with a whole number of four digits or more
    is text too, grouped as the page's text groups it (st.dataframe writes 1296, the text 1,296)."""
    comma = number(0.5) != "0.5"
    written, config = {}, dict(options.get("column_config") or {})
    for name, values in table.items():
        floats = [value for value in values if isinstance(value, float)]
        large = any(isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1_000 for value in values)
        if large or (floats and (comma or any(math.isinf(value) for value in floats))):
            written[name] = [_text(value, formatter) for value in values]
            config.pop(name, None)
        else:
            written[name] = values
    return written, ({**options, "column_config": config} if "column_config" in options else options)


def fitted_table(table: Mapping[str, Sequence[Any]], key: str, number: Formatter | None = None,
                 **dataframe_options: Any) -> None:
    """`table` (column -> values, the first column labels the rows) as one st.dataframe on a wide screen and as
    narrow static tables on a phone. `number` writes every fractional number of the narrow tables, as the wide
    table shows it (its column_config), in the run's language. The column names are drawn as they are given."""
    wide, options = _written(table, number, dataframe_options)
    with st.container(key=f"{key}-table-wide"):
        panels.table(wide, hide_index=True, **options)  # an HTML table in projector mode
    texts = {name: [_text(value, number) for value in values] for name, values in table.items()}
    label = next(iter(texts))
    with st.container(key=f"{key}-table-narrow", gap="small"):
        for group in column_groups(texts):
            st.table({name: texts[name] for name in (label, *group)}, hide_index=True)
