"""The compiled catalogs, one per language, read once when the app starts (a few milliseconds each).

`attn_lang/locales/<code>/LC_MESSAGES/messages.mo` is compiled from the `.po` beside it by `pybabel compile`
(scripts/catalogs.py does every step); both are committed, so nothing is built where the app is deployed.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from types import MappingProxyType

from attn_lang.languages import DEFAULT, LANGUAGES

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"


def mo_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _load(code: str) -> gettext.NullTranslations:
    path = mo_path(code)
    if not path.is_file():  # a language whose catalog is not compiled yet speaks English (tests/lang fails on it)
        return gettext.NullTranslations()
    with path.open("rb") as compiled:
        return gettext.GNUTranslations(compiled)


# code -> its translations; read-only (the translations themselves are never changed after loading)
CATALOGS = MappingProxyType({code: _load(code) for code in LANGUAGES if code != DEFAULT})
