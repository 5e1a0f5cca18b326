"""The phone's busiest requests answered ahead of Streamlit's middleware.

In a hall every phone posts its answers and keeps one stream open, and each of those requests used to pass through
Streamlit's whole middleware stack: the path check for its static files, the signed session cookie, the gzip wrapper
and the exception layer, each wrapping every chunk a stream sends. None of them does anything for these routes:

- POST /j/<CODE>/vote: reads a form of under 2 KB, answers a small JSON; no file, no session, nothing to zip;
- GET /j/<CODE>/events: a stream of server-sent events, which the gzip layer lets through unzipped anyway;
- GET /j/s/<name>: the stylesheet and script, zipped once when the process starts (assets.py), looked up by exact name.

So `Ahead` (a plain ASGI middleware that app.py puts first, through st.App's `middleware=`) hands a request that fully
matches one of these routes straight to it. Everything else, including a wrong method on those paths, goes on
through Streamlit's stack exactly as before: the phone's pages and held waits keep their gzip, and Streamlit's own
routes do not see this layer but for one prefix test. An error in a route still reaches Starlette's outer error
layer, which stands before every middleware, so a phone gets a plain 500, never a trace.

Measured with bench/phone_request_cost.py and bench/phone_load.py (docs/lecture.md, "Ahead of the middleware").
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

AHEAD = ("/j/{code}/vote", "/j/{code}/events", "/j/s/{name}")  # the routes a hall calls thousands of times
PREFIX = "/j/"


class Ahead:
    def __init__(self, app: ASGIApp, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        self.routes = [route for route in routes if isinstance(route, Route) and route.path in AHEAD]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PREFIX):
            for route in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    await route.handle(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def ahead_of_streamlit(routes: Iterable[BaseRoute]) -> Middleware:
    """The middleware for st.App(middleware=[...]): `routes` are the ones given to st.App(routes=...)."""
    return Middleware(Ahead, routes=list(routes))
