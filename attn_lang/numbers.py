"""Numbers as each language writes them: "0.69" and "1,024" in English, "0,69" and "1.024" in Spanish.

A number is formatted with Python's own format spec (`.2f`, `,`, `g`, `.0%`), which gives the English text, and then
written with the language's decimal and grouping signs (attn_lang.languages, from Babel's CLDR data). English is left
exactly as Python writes it.
"""

from __future__ import annotations

import string
from typing import Any

from attn_lang.current import current_language
from attn_lang.languages import language

_SWAP = "\x00"


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) or type(value).__module__ == "numpy" and \
        hasattr(value, "dtype") and value.dtype.kind in "iuf" and getattr(value, "ndim", 1) == 0


def localise(text: str, code: str) -> str:
    """English number text written with language `code`'s signs."""
    spoken = language(code)
    if spoken.decimal == "." and spoken.group == ",":
        return text
    return text.replace(".", _SWAP).replace(",", spoken.group).replace(_SWAP, spoken.decimal)


def written(value: Any, spec: str) -> str:
    """A number formatted with `spec` as a person reads it: never a minus before a zero ("-0.0000" of -0.00001 is
    "0.0000"), which says a sign the number shown does not have."""
    text = format(value, spec)
    if text.startswith("-") and not any(digit in text for digit in "123456789"):
        return text[1:]
    return text


def number(value: Any, spec: str = "", code: str | None = None) -> str:
    """`value` formatted with the format spec `spec`, in language `code` (the run's language by default)."""
    if not is_number(value):
        return format(value, spec)
    return localise(written(value, spec), code or current_language())


class NumberFormatter(string.Formatter):
    """str.format, with every number written as language `code` writes it."""

    def __init__(self, code: str) -> None:
        self.code = code

    def format_field(self, value: Any, format_spec: str) -> str:
        if not is_number(value):
            return format(value, format_spec)
        return localise(written(value, format_spec), self.code)


def plotly_separators(code: str | None = None) -> str:
    """Plotly's `layout.separators` for the language: its decimal sign, then its grouping sign."""
    spoken = language(code or current_language())
    return spoken.decimal + spoken.group
