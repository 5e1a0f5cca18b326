"""The pseudo-language of the tests: each message accented, about 40% longer, and bracketed, so that a browser test
can tell translated text from text that never went through a catalog, and can see whether longer words still fit.

What a page needs intact stays intact: `{placeholders}`, Markdown marks, `code spans`, links' addresses, Streamlit's
`:material/icon:` names and HTML entities.
"""

from __future__ import annotations

import re
from types import MappingProxyType

OPEN, CLOSE = "⟦", "⟧"
ACCENTED = MappingProxyType(str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥǫŕšţúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ",
))
KEPT = re.compile(r"(\{[^{}]*\}|`[^`]*`|\]\([^)]*\)|:material/[a-z_]+:|&[a-z]+;|<[^<>]+>|https?://\S+|\\.|\n)")
BLOCK = re.compile(r"^(\s*(?:#{1,6} |[-*>] |\d+\. )?)")  # a heading's or a list item's mark stays first
VOWELS = re.compile(r"([aeiouAEIOU])")


def pseudo(template: str) -> str:
    """The pseudo-language's version of one message."""
    if not template.strip():
        return template
    lead = BLOCK.match(template).group(1)
    parts = KEPT.split(template[len(lead):])
    out = []
    for index, part in enumerate(parts):
        if index % 2:  # a kept piece
            out.append(part)
        else:  # plain words: every vowel doubled (about 40% longer), every letter accented
            out.append(VOWELS.sub(r"\1\1", part).translate(ACCENTED))
    return f"{lead}{OPEN}{''.join(out)}{CLOSE}"
