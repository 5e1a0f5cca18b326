"""The phones' cheap check, as a plain HTTP route beside Streamlit: "has this room moved?" with no script run.

An idle phone of the class poll (and of a live lecture) must find out within 2 s that the room moved on. As a
Streamlit fragment on a timer that costs a script run every 2 s per phone (about 8 to 10 ms of server CPU, most of
it Streamlit's own). `serve.py` starts the app as an `st.App` with this route, `GET /_attn/room/<CODE>/stamp`,
which answers with the room's stamp (Poll.room_stamp: one indexed read) as JSON. The phone's page then polls
the route from the browser (poll_view.PHONE_JS) and reruns its fragment only when the stamp differs from the one
it was drawn with. Started as `streamlit run app.py` (Community Cloud) there is no route, and phones keep the
timed fragment.

Nothing here keeps state in Python: the Poll is the pages' own (poll_service, one engine and pool a process) and
every answer is a query, so each replica behind the proxy answers for every room.
"""

from __future__ import annotations

import os
from types import MappingProxyType
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from attn_poll import PollError
from attn_poll.store import DatabaseError
from attn_ui.views import poll_service

ROUTE_ENV = "ATTN_LAB_STAMP_ROUTE"  # "1" in a process started by serve.py: the pages may rely on the route
PATH = "/_attn/room/{code}/stamp"
NO_STORE = MappingProxyType({"Cache-Control": "no-store"})


def stamp(request: Request) -> JSONResponse:
    """The room's stamp, or why there is none (404 an unknown or malformed code, 503 the database is away)."""
    code = request.path_params.get("code", "")
    try:
        version, phase, expired = poll_service.process_poll().room_stamp(code)
    except PollError as error:
        return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
    except DatabaseError:
        return JSONResponse({"error": "database unavailable"}, status_code=503, headers=dict(NO_STORE))
    return JSONResponse({"stamp": stamp_text(version, phase, expired)}, headers=dict(NO_STORE))


def routes() -> list[Route]:
    return [Route(PATH, stamp, methods=["GET"])]


def available() -> bool:
    """Was this process started with the route (serve.py)?"""
    return os.environ.get(ROUTE_ENV) == "1"


def stamp_text(version: int, phase: str, expired: bool) -> str:
    """The stamp as the route writes it, for the page to embed what it was drawn with."""
    return f"{version}:{phase}:{int(expired)}"


def stamp_url(page_url: str | None, code: str) -> str:
    """The route's address for a room, on the app's own base path (no host: the browser asks its own server)."""
    path = urlsplit(page_url or "").path.replace("/~/+", "")
    base = path.rsplit("/", 1)[0]
    return f"{base}/_attn/room/{quote(code, safe='')}/stamp"
