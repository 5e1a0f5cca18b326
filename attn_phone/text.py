"""The app's few marks of Markdown as safe HTML, for a page drawn without Streamlit (and without its KaTeX).

The messages and questions a phone shows use a small part of Markdown: **bold**, *italic*, `code`, paragraphs, and
in a few class-poll questions a formula between dollar signs with `^{...}`, `\\approx` and `\\infty`. Everything is
escaped first; only those marks become tags, so text from anywhere (a message, a translator's catalog) is shown as
text, never run as HTML. A backslash before an ASCII punctuation sign keeps the sign as text, as in Markdown: a
lecturer's own words come so (attn_ui/words/escape.md_escape), and show as typed.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from markupsafe import Markup, escape

TEX_WORDS = MappingProxyType({r"\approx": "≈", r"\infty": "∞", r"\cdot": "·", r"\times": "×", r"\le": "≤",
                              r"\ge": "≥"})
CODE = re.compile(r"`([^`]+)`")
BOLD = re.compile(r"\*\*(.+?)\*\*")
ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
FORMULA = re.compile(r"\$([^$]+)\$")
POWER = re.compile(r"\^\{([^{}]*)\}|\^(\S)")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before an ASCII punctuation sign (Markdown's escape)
KEPT = 0xE000  # an escaped sign waits as a private-use character (never in our text: a deck refuses them) until the end
KEPT_SIGN = re.compile(f"[{chr(KEPT + 0x21)}-{chr(KEPT + 0x7E)}]")


def formula(tex: str) -> str:
    """A formula as HTML (already escaped): e^{0.34} -> e<sup>0.34</sup>, \\approx -> ≈, TeX's decimal comma {,} -> a
    comma."""
    text = str(escape(tex.replace("{,}", ",")))
    for word, sign in TEX_WORDS.items():
        text = text.replace(word, sign)
    return POWER.sub(lambda found: f"<sup>{found[1] if found[1] is not None else found[2]}</sup>", text)


def inline(markdown: str) -> Markup:
    """One run of Markdown as HTML: escaped signs kept aside, code spans (their insides stay as typed), then formulas,
    bold, italic; the escaped signs come back as text."""
    markdown = ESCAPED.sub(lambda found: chr(KEPT + ord(found[1])), markdown)
    pieces = []
    at = 0
    for found in CODE.finditer(markdown):
        pieces.append(_marks(markdown[at:found.start()]))
        pieces.append(f"<code>{escape(found[1])}</code>")
        at = found.end()
    pieces.append(_marks(markdown[at:]))
    return Markup(KEPT_SIGN.sub(lambda found: str(escape(chr(ord(found[0]) - KEPT))), "".join(pieces)))


def _marks(text: str) -> str:
    parts = []
    at = 0
    for found in FORMULA.finditer(text):
        parts.append(str(escape(text[at:found.start()])))
        parts.append(f'<span class="formula">{formula(found[1])}</span>')
        at = found.end()
    parts.append(str(escape(text[at:])))
    html = "".join(parts)
    html = BOLD.sub(r"<strong>\1</strong>", html)
    return ITALIC.sub(r"<em>\1</em>", html)


def paragraphs(markdown: str) -> Markup:
    """Markdown of one or more paragraphs (split on blank lines) as <p> elements."""
    blocks = [block.strip() for block in re.split(r"\n\s*\n", markdown or "") if block.strip()]
    return Markup("".join(f"<p>{inline(block)}</p>" for block in blocks))
