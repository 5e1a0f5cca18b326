"""The Spanish catalog keeps to docs/glossary.md: no rejected variant of a glossary term in any msgstr, no decimal
point in a number written in the text, and no plural word after a count that can be 1.

- The glossary's Spanish table has a "rejected" column: each variant in backticks is a word a translator must not
  use for that idea ("palabra clave" for attention's key, "rellenar" for padding, "la softmax", "precisión" for
  accuracy ...). A msgstr that holds one, as a whole word in any case, outside code spans and placeholders, fails
  and is named. `ALLOWED` lists the (variant, msgid) pairs where the variant is right after all, with the reason.
- Numbers written in a msgstr take the decimal comma; a point between digits is allowed inside code (backticks),
  in a placeholder's format (`{total:.2f}`), as a thousands separator (1.000.000) and in `FORCED`, the few the
  English message imposes (each with its reason; an entry no longer needed fails, so it is removed).
- Plural forms: in a `msgid_plural` message the form for 1 agrees with 1 wherever the English forms differ; in an
  ordinary message a count is not followed by a plural participle where the English word after it does not
  change with the count ("{answered} respondidas" says "1 respondidas": write "respondidas: {answered}").
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

import pytest

from tests.lang.catalog_checks import po_path, read

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
CODE_SPAN = re.compile(r"`[^`]*`")
PLACEHOLDER = re.compile(r"%?\{[A-Za-z_][\w.\[\]]*(?:![rsa])?(?::[^{}]*)?\}")  # {row}, {total:.2f}, %{z:.3f}
BRACES = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")  # any brace group: placeholders and LaTeX groups alike
DECIMAL_POINT = re.compile(r"\d\.\d")
THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?![\d.,])")  # 1.000.000, as Babel groups Spanish

# (rejected variant, msgid) -> why the variant is right in that message. Empty: every variant is wrong everywhere.
ALLOWED: dict[tuple[str, str], str] = {}

# msgid's beginning -> (the text with a decimal point the msgstr keeps, why)
FORCED: dict[str, tuple[tuple[str, ...], str]] = {
    "\n**The row with nothing to look at.**": (
        ("versión 2.4", "la 2.5"),
        "PyTorch's version numbers, not decimals"),
}


@cache
def rejected() -> dict[str, tuple[str, str]]:
    """Every rejected variant of the glossary's Spanish table -> (the English term, the Spanish term)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Spanish (`es`)", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    column = next(i for i, name in enumerate(header) if name.startswith("rejected"))
    found = {}
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        for variant in re.findall(r"`([^`]+)`", cells[column]):
            found[variant] = (cells[0], cells[1])
    return found


@cache
def catalog():
    return read(po_path("es"))


def messages() -> list[tuple[str | tuple[str, str], tuple[str, ...]]]:
    """(msgid, its msgstr forms) of every message of the Spanish catalog."""
    return [(message.id, message.string if isinstance(message.string, tuple) else (message.string,))
            for message in catalog() if message.id]


def first_id(msgid) -> str:
    return msgid[0] if isinstance(msgid, tuple) else msgid


def prose(text: str) -> str:
    """The words a person reads: no code spans, no placeholders or brace groups."""
    return BRACES.sub(" ", CODE_SPAN.sub(" ", text))


def variant_pattern(variant: str) -> re.Pattern:
    words = r"\s+".join(re.escape(word) for word in variant.split())
    return re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)


def rejected_uses(pairs) -> list[str]:
    found = []
    for variant, (english, spanish) in rejected().items():
        pattern = variant_pattern(variant)
        for msgid, strings in pairs:
            if (variant, first_id(msgid)) in ALLOWED:
                continue
            if any(pattern.search(prose(string)) for string in strings):
                found.append(f"{first_id(msgid)!r} uses {variant!r}: the glossary says {english} → {spanish}")
    return found


def test_the_glossary_rejects_the_variants_the_course_must_not_use():
    variants = rejected()
    for wanted in ("palabra clave", "rellenar", "la softmax", "precisión", "veces más", "anchura", "difusión",
                   "vía", "móvil"):
        assert wanted in variants, f"docs/glossary.md no longer rejects {wanted!r}"


def test_no_spanish_message_uses_a_rejected_variant():
    assert rejected_uses(messages()) == []


def test_the_rejected_variant_check_finds_one():
    made_up = [("One column per key word", ("Una columna por cada Palabra\nClave",)),
               ("Pad it", ("Rellena la palabra",)), ("before the softmax", ("antes de `la softmax`",))]
    found = rejected_uses(made_up)
    assert any("'One column per key word' uses 'palabra clave'" in line for line in found)
    assert any("'Pad it' uses 'rellena'" in line for line in found)
    assert not any("before the softmax" in line for line in found), "code is not prose"


def decimal_points(msgid, string: str) -> list[str]:
    """The numbers with a decimal point that a person reads in `string`."""
    for start, (kept, __) in FORCED.items():
        if first_id(msgid).startswith(start):
            for text in kept:
                string = string.replace(text, " ")
    text = THOUSANDS.sub(" ", PLACEHOLDER.sub(" ", CODE_SPAN.sub(" ", string)))
    return [text[max(0, found.start() - 20): found.end() + 20] for found in DECIMAL_POINT.finditer(text)]


def test_numbers_in_spanish_text_take_the_decimal_comma():
    found = [f"{first_id(msgid)[:70]!r}: …{where}…" for msgid, strings in messages() for string in strings
             for where in decimal_points(msgid, string)]
    assert found == []


def test_every_forced_decimal_point_is_still_needed():
    stale = []
    for start, (kept, __) in FORCED.items():
        strings = [string for msgid, forms in messages() if first_id(msgid).startswith(start) for string in forms]
        if not strings or not all(text in string for string in strings for text in kept):
            stale.append(start)
    assert stale == [], "the English message changed: drop these from FORCED, and write the numbers with a comma"


def test_the_decimal_check_finds_a_point_and_leaves_code_and_thousands():
    assert decimal_points("x", "la lista [0.34; 0,05]")
    assert not decimal_points("x", "`p = 0.1` y {total:.2f} y 1.000.000 bytes y 0,5")


WORD_AFTER = re.compile(r"(\{[^{}]+\})\s+([^\W\d]+)")
PLURAL_PARTICIPLE = re.compile(r"(?:adas|idas|ados|idos)$")


def words_after(text: str) -> dict[str, str]:
    return {field: word for field, word in WORD_AFTER.findall(text)}


@cache
def plural_index(n: int) -> int:
    return gettext.c2py(catalog().plural_expr)(n)


def plural_slips(msgid, strings) -> list[str]:
    """Where the form for 1 keeps the plural word after the count that the English makes singular."""
    singular, plural = words_after(msgid[0]), words_after(msgid[1])
    counts = [field for field in singular if field in plural and singular[field] != plural[field]]
    one, many = words_after(strings[plural_index(1)]), words_after(strings[plural_index(2)])
    return [f"{msgid[0]!r}: 1 → {field} {one[field]}" for field in counts
            if field in one and field in many and one[field] == many[field] and many[field].endswith("s")]


def participle_slips(msgid: str, string: str) -> list[str]:
    """A count followed by a plural participle, where the English word after it reads as well with 1."""
    english = words_after(msgid)
    return [f"{msgid!r}: {field} {word}" for field, word in words_after(string).items()
            if PLURAL_PARTICIPLE.search(word) and field in english and not english[field].endswith("s")]


def test_the_form_for_one_agrees_with_one():
    assert plural_index(1) != plural_index(2), "the catalog's Plural-Forms give 1 its own form"
    found = []
    for msgid, strings in messages():
        if isinstance(msgid, tuple):
            found += plural_slips(msgid, strings)
        else:
            found += [slip for string in strings for slip in participle_slips(msgid, string)]
    assert found == []


@pytest.mark.parametrize(("msgid", "strings", "slip"), [
    (("{count} phone", "{count} phones"), ("{count} teléfonos", "{count} teléfonos", "{count} teléfonos"), True),
    (("{count} phone", "{count} phones"), ("{count} teléfono", "{count} teléfonos", "{count} teléfonos"), False),
    ("{answered} answered", ("{answered} respondidas",), True),
    ("{answered} answered", ("respondidas: {answered}",), False),
    ("{cells} cells blocked", ("{cells} celdas bloqueadas",), False),
])
def test_the_plural_check_finds_a_slip(msgid, strings, slip):
    if isinstance(msgid, tuple):
        assert bool(plural_slips(msgid, strings)) is slip
    else:
        assert bool(participle_slips(msgid, strings[0])) is slip
