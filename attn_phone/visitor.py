"""The phone that asks, as its request tells it: its language (the address's `lang=`, else the browser's), its voter
and form tokens (cookies), and whether a post comes from this site's own page. The routes are attn_phone.routes.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from attn_lang import DEFAULT, language_for

VOTER_COOKIE = "attn_voter"  # a random token: this browser's voter in every room (the database keeps a salted hash)
CSRF_COOKIE = "attn_csrf"  # a random token the page's forms repeat (double submit)
ROOM_COOKIE = "attn_room"  # the room this browser's phone page last showed: the join form offers it again (Back)
HOST_COOKIE_PREFIX = "attn_host_"  # + a room's code: the browser that hosts it (attn_ui/views/host_access.py)
VOTER_SALT = b"attn-lab phone voter\x00"
TOKEN = re.compile(r"[A-Za-z0-9_-]{24,64}")
COOKIE_DAYS = 7


def choose_language(request: Request) -> tuple[str, bool]:
    """(the phone's language, whether its address chose it): `lang=` in the address, else the browser's
    Accept-Language (its first language the app speaks), else English."""
    query = request.scope.get("query_string", b"")
    if b"lang" in query or b"%" in query:  # most requests have no query at all: none is parsed for them
        asked = language_for(request.query_params.get("lang"))
        if asked is not None:
            return asked, True
    for part in request.headers.get("accept-language", "")[:200].split(","):
        found = language_for(part.split(";", 1)[0].strip())
        if found is not None:
            return found, False
    return DEFAULT, False


def voter_of(token: str) -> str:
    return "p" + hashlib.sha256(VOTER_SALT + token.encode()).hexdigest()[:40]


def cookie_token(request: Request, name: str) -> str | None:
    value = request.cookies.get(name, "")
    return value if TOKEN.fullmatch(value) else None


def is_secure(request: Request) -> bool:
    forwarded = request.headers.get("x-forwarded-proto", "").split(",", 1)[0].strip()
    return request.url.scheme == "https" or forwarded == "https"


def set_cookie(response: Response, request: Request, name: str, value: str, same_site: str) -> None:
    response.set_cookie(name, value, max_age=COOKIE_DAYS * 86400, path="/", httponly=True, samesite=same_site,
                        secure=is_secure(request))


def same_origin(request: Request) -> bool:
    """A post from this site's own page: its Origin (sent by every browser of today with a POST) names our host."""
    origin = request.headers.get("origin")
    if origin is None:
        return True  # an old browser, or a form without one; the CSRF token still has to match
    return urlsplit(origin).netloc == request.headers.get("host", "")
