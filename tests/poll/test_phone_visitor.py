"""The phone's language as its request tells it (attn_phone/visitor.choose_language): the address's `lang=` first,
however it is spelled, then the browser's Accept-Language, then English; a request with no query parses none."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from attn_phone.visitor import choose_language


def request(query: bytes, accept: str = "") -> Request:
    headers = [(b"accept-language", accept.encode())] if accept else []
    return Request({"type": "http", "method": "GET", "path": "/j/ABC234/vote", "query_string": query,
                    "headers": headers})


@pytest.mark.parametrize(("query", "accept", "chosen"), [
    (b"", "", ("en", False)),
    (b"", "es-ES,es;q=0.9", ("es", False)),
    (b"", "fr-FR, es;q=0.5", ("es", False)),
    (b"lang=es", "en-GB", ("es", True)),
    (b"note=sent&lang=ES", "", ("es", True)),
    (b"%6Cang=es", "", ("es", True)),  # a key spelled with an escape is still `lang`
    (b"lang=xx", "es", ("es", False)),  # a language the app does not speak: the browser's
    (b"slang=es", "", ("en", False)),
    (b"q=1", "es", ("es", False))])
def test_the_address_then_the_browser_then_english(query, accept, chosen):
    assert choose_language(request(query, accept)) == chosen
