"""Messages: the sentences of the app, marked for translation where they are written (gettext's own pattern).

- `_(msgid, **values)`: the message in the run's language, now, formatted with `values` when there are any. Inside a
  function that draws or words a page, with a literal msgid; or on a constant marked with `N_` (below).
- `N_(msgid)`: marks a literal for the catalog and returns it unchanged, for module constants (text banks, labels):
  their English text is the msgid, and the code that draws one calls `_(constant)` or `_(constant, **values)`.
- `_n(singular, plural, count, **values)`: the catalog's plural forms choose by `count`, which fills `{count}`.

A msgid is a whole sentence in English with named placeholders (`{row}`, `{total:.2f}`); numbers in the values are
written as the language writes them (attn_lang.numbers). A message without values is never formatted, so its braces
are its own. `pybabel extract` finds the msgids through the keywords `_`, `N_` and `_n:1,2` (scripts/catalogs.py).
"""

from __future__ import annotations

from typing import Any

from attn_lang.catalogs import CATALOGS
from attn_lang.current import current_language
from attn_lang.languages import DEFAULT, PSEUDO
from attn_lang.numbers import NumberFormatter, is_number
from attn_lang.pseudo import pseudo

COUNT = "count"  # the value that decides a plural and fills {count}


def N_(msgid: str) -> str:  # noqa: N802 -- gettext's own name for "translate later"
    """Marks `msgid` for the catalog; returns it unchanged. Translate it where it is drawn: `_(constant)`."""
    return msgid


def translate(msgid: str, code: str) -> str:
    """The template of `msgid` in language `code` (the msgid itself when the catalog has no translation). An empty
    msgid is empty in every language (gettext would answer it with the catalog's header)."""
    if code == DEFAULT or not msgid:
        return msgid
    if code == PSEUDO:
        return pseudo(msgid)
    catalog = CATALOGS.get(code)
    return msgid if catalog is None else catalog.gettext(msgid)


def fill(template: str, values: dict[str, Any], code: str) -> str:
    """A template's placeholders filled, numbers in the language's own signs."""
    if code == DEFAULT and not any(is_number(value) and value < 0 for value in values.values()):
        return template.format_map(values)  # the fast path: English, and no negative number to write as "-0.00"
    return NumberFormatter(code).vformat(template, (), values)


def _(msgid: str, **values: Any) -> str:
    """The message in the run's language, formatted with `values` when there are any."""
    code = current_language()
    template = translate(msgid, code)
    return fill(template, values, code) if values else template


def _n(singular: str, plural: str, count: int | float, **values: Any) -> str:
    """The form the language's plural rules pick for `count`, formatted with `count` and `values`."""
    code = current_language()
    if code in (DEFAULT, PSEUDO) or CATALOGS.get(code) is None:
        template = singular if count == 1 else plural
        template = pseudo(template) if code == PSEUDO else template
    else:
        template = CATALOGS[code].ngettext(singular, plural, int(count) if float(count).is_integer() else 2)
    return fill(template, {COUNT: count, **values}, code)
