"""The languages the app speaks: one line each. A new language is its catalog (attn_lang/locales/<code>/) plus its
line in LANGUAGES (docs/translating.md).

Numbers follow the language's own conventions, read from Babel's copy of the Unicode CLDR at import: the decimal
sign and the grouping sign (Spanish writes 0,69 and 1.024).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from types import MappingProxyType

from babel import Locale

DEFAULT = "en"
PSEUDO = "en-XA"  # the pseudo-language of the tests: every message accented, longer and bracketed
PSEUDO_ENV = "ATTN_LAB_PSEUDO"  # "1" offers the pseudo-language (tests); no student ever sees it otherwise


@dataclass(frozen=True)
class Language:
    code: str  # the `lang` value of a link, and the page's <html lang>
    name: str  # its own name, as the language menu shows it
    locale: str  # Babel's locale for numbers
    decimal: str = field(init=False)
    group: str = field(init=False)

    def __post_init__(self) -> None:
        found = Locale.parse(self.locale)
        symbols = found.number_symbols["latn"]
        object.__setattr__(self, "decimal", symbols["decimal"])
        object.__setattr__(self, "group", symbols["group"])


LANGUAGES = MappingProxyType({language.code: language for language in (
    Language("en", "English", "en"),
    Language("es", "Español", "es"),
)})
PSEUDO_LANGUAGE = Language(PSEUDO, "[Ƥšéûðö]", "en")


def supported() -> tuple[str, ...]:
    """The codes a link or the menu may choose: the languages, and the pseudo-language where the tests ask for it."""
    return (*LANGUAGES, *((PSEUDO,) if os.environ.get(PSEUDO_ENV) == "1" else ()))


def language(code: str) -> Language:
    """The Language of a supported code (English for any other)."""
    if code == PSEUDO:
        return PSEUDO_LANGUAGE
    return LANGUAGES.get(code, LANGUAGES[DEFAULT])


def language_for(raw: str | None) -> str | None:
    """The supported code a browser's locale or a link's `lang` names ("es-ES", "es_419", "ES" -> "es"), or None."""
    text = (raw or "").strip()[:35].replace("_", "-")
    if not text:
        return None
    codes = supported()
    lowered = {code.lower(): code for code in codes}
    if text.lower() in lowered:
        return lowered[text.lower()]
    base = text.split("-", 1)[0].lower()
    return lowered.get(base)
