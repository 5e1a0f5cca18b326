"""What keeps the catalogs honest, as a list of problems (scripts/catalogs.py check prints it; the tests assert it is
empty):

- messages.pot is what `pybabel extract` finds in the code now (a message added, changed or moved is extracted);
- every language's messages.po holds exactly those messages, each translated, none fuzzy;
- a translation keeps every placeholder of its message, format included, and every number written in it, so no
  language can drop or change a number the core computed ("every number earned" holds in every language);
- every messages.mo says what its messages.po says (the app reads the .mo).
"""

from __future__ import annotations

import gettext
import io
import re
import tempfile
from collections import Counter
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from attn_lang.catalogs import DOMAIN, LOCALES, mo_path
from attn_lang.languages import DEFAULT, LANGUAGES

POT = LOCALES / f"{DOMAIN}.pot"
FIELD = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
DIGITS = re.compile(r"\d+(?:[.,]\d+)?")


TEX_COMMA = "{,}"  # TeX's decimal comma (a bare comma in a formula is punctuation, with a space after it)
NUMBER_GROUP = re.compile(r"\{\d+(?:[.,]\d+)?\}")  # a TeX group holding only a number: $e^{0.34}$, $e^{0}$


def _tex(text: str) -> str:
    return text.replace(TEX_COMMA, ",")


def fields(text: str) -> Counter:
    """The placeholders of a message; a TeX group that holds only a number is a number, not a placeholder, so a
    language may write its decimal sign in it ($e^{0{,}34}$)."""
    return Counter(found for found in FIELD.findall(_tex(text)) if not NUMBER_GROUP.fullmatch(found))


def numbers(text: str) -> Counter:
    """The numbers written in a message outside its placeholders (TeX number groups included), with either decimal
    sign."""
    outside = FIELD.sub(lambda found: found[0] if NUMBER_GROUP.fullmatch(found[0]) else " ", _tex(text))
    return Counter(found.replace(",", ".") for found in DIGITS.findall(outside))


def po_path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def _ids(catalog) -> set[tuple[str, str | None]]:
    found = set()
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            found.add((message.id[0], message.id[1]))
        else:
            found.add((message.id, None))
    return found


def pot_problems() -> list[str]:
    from scripts.catalogs import extract

    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "fresh.pot"
        extract(fresh)
        if not POT.is_file():
            return [f"{POT} is missing: run `python3 scripts/catalogs.py all`"]
        if fresh.read_text(encoding="utf-8") != POT.read_text(encoding="utf-8"):
            added = sorted(_ids(read(fresh)) - _ids(read(POT)))
            gone = sorted(_ids(read(POT)) - _ids(read(fresh)))
            return [f"messages.pot is out of date with the code (new: {added[:5]}, gone: {gone[:5]}, or moved): run "
                    "`python3 scripts/catalogs.py all`"]
    return []


def translation_problems(code: str) -> list[str]:
    path = po_path(code)
    if not path.is_file():
        return [f"{code}: {path} is missing: run `python3 scripts/catalogs.py init {code}`"]
    catalog = read(path)
    problems = []
    wanted, held = _ids(read(POT)), _ids(catalog)
    if wanted - held:
        problems.append(f"{code}: {len(wanted - held)} messages not in messages.po yet: {sorted(wanted - held)[:3]}")
    if held - wanted:
        problems.append(f"{code}: {len(held - wanted)} messages the code no longer has: {sorted(held - wanted)[:3]}")
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"{code}: fuzzy: {ids[0]!r}")
        if not all(strings):
            problems.append(f"{code}: not translated: {ids[0]!r}")
            continue
        for translated in strings:
            source = ids[-1] if len(ids) > 1 else ids[0]
            if fields(translated) != fields(source) and fields(translated) != fields(ids[0]):
                problems.append(f"{code}: placeholders differ: {ids[0]!r} -> {translated!r}")
            if numbers(translated) != numbers(source) and numbers(translated) != numbers(ids[0]):
                problems.append(f"{code}: numbers differ: {ids[0]!r} -> {translated!r}")
    return problems


def compiled_problems(code: str) -> list[str]:
    path = mo_path(code)
    if not path.is_file():
        return [f"{code}: {path} is missing: run `python3 scripts/catalogs.py compile`"]
    buffer = io.BytesIO()
    write_mo(buffer, read(po_path(code)))
    buffer.seek(0)
    fresh = gettext.GNUTranslations(buffer)
    with path.open("rb") as handle:
        shipped = gettext.GNUTranslations(handle)
    messages = [{key: text for key, text in found._catalog.items() if key != ""}  # noqa: SLF001 -- the header's
                for found in (fresh, shipped)]                                      # dates are not messages
    if messages[0] != messages[1]:
        return [f"{code}: messages.mo is out of date with messages.po: run `python3 scripts/catalogs.py compile`"]
    return []


def problems() -> list[str]:
    found = pot_problems()
    for code in LANGUAGES:
        if code != DEFAULT:
            found += translation_problems(code) + compiled_problems(code)
    return found
