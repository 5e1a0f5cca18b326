"""The app's languages: every sentence a person reads is a message marked here, looked up in a gettext catalog.

    from attn_lang import _, N_, _n
    _("Row {row} sums to {total:.2f}", row=3, total=1.34)   # in the language of the run: "Row 3 sums to 1.34"
    LABEL = N_("Causal mask")                                 # a constant, marked: drawn as _(LABEL)
    _n("{count} cell", "{count} cells", 12)                   # the catalog's plural forms decide

- A message is a whole sentence with named placeholders; numbers in it are written as the language writes them
  (`{total:.2f}` is "1.34" in English, "1,34" in Spanish).
- The catalogs are standard gettext: `attn_lang/locales/messages.pot` made by `pybabel extract`, one
  `<code>/LC_MESSAGES/messages.po` per language, compiled to `.mo` beside it (committed, so a host such as
  Community Cloud needs no build step; tests/lang/test_catalogs.py fails when any of them is out of date).
- Which language a message is drawn in: `using(code)` where a caller says so, else the language the Streamlit layer
  names for the session being drawn (attn_ui/widgets/lang.py), else English.

Pure: the standard library, and Babel only when a language other than English formats a number. No Streamlit.
"""

from attn_lang.current import current_language, set_language_source, using
from attn_lang.languages import DEFAULT, LANGUAGES, PSEUDO, Language, language_for, supported
from attn_lang.messages import N_, _, _n
from attn_lang.numbers import number, plotly_separators

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "Language",
    "_",
    "_n",
    "current_language",
    "language_for",
    "number",
    "plotly_separators",
    "set_language_source",
    "supported",
    "using",
]
