"""The phone's busiest routes ahead of Streamlit's middleware (attn_phone/ahead.py): a full match of a hot route is
answered by that route alone; everything else (the phone's pages, a wrong method, Streamlit's own paths, a websocket)
goes through the stack as before; an error in a hot route is still a plain 500; app.py installs it over its routes."""

from __future__ import annotations

import asyncio
import runpy
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from attn_phone.ahead import AHEAD, Ahead, ahead_of_streamlit
from attn_ui.views import poll_route
from tests.asgi_client import Client

REPO_ROOT = Path(__file__).resolve().parents[2]


class Stack:
    """Stands for Streamlit's middleware: marks every response that passed through it."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        async def marked(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-stack", b"1")]
            await send(message)

        await self.app(scope, receive, marked)


def said(name: str):
    async def endpoint(request) -> PlainTextResponse:
        if request.path_params.get("code") == "BOOM":
            raise RuntimeError("a secret that must not reach the phone")
        return PlainTextResponse(f"{name} {dict(request.path_params)}")

    return endpoint


ROUTES = [Route("/j", said("join"), methods=["GET"]), Route("/j/s/{name}", said("asset"), methods=["GET"]),
          Route("/j/{code}", said("page"), methods=["GET"]), Route("/j/{code}/vote", said("vote"), methods=["POST"]),
          Route("/j/{code}/wait", said("wait"), methods=["GET"]),
          Route("/j/{code}/events", said("events"), methods=["GET"]),
          Route("/elsewhere", said("elsewhere"), methods=["GET"])]


@pytest.fixture
def client():
    return Client(Starlette(routes=ROUTES, middleware=[ahead_of_streamlit(ROUTES), Middleware(Stack)]))


@pytest.mark.parametrize(("method", "path", "answer"), [
    ("POST", "/j/ABC234/vote", "vote {'code': 'ABC234'}"),
    ("GET", "/j/ABC234/events", "events {'code': 'ABC234'}"),
    ("GET", "/j/s/phone.0123.css", "asset {'name': 'phone.0123.css'}")])
def test_a_hot_route_is_answered_without_the_stack(client, method, path, answer):
    response = client.request(method, path)
    assert (response.status, response.text) == (200, answer)
    assert "x-stack" not in response.headers


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/j", 200), ("GET", "/j/ABC234", 200), ("GET", "/j/ABC234/wait", 200), ("GET", "/elsewhere", 200),
    ("GET", "/j/ABC234/vote", 405), ("POST", "/j/ABC234/events", 405), ("DELETE", "/j/s/phone.css", 405),
    ("GET", "/j/ABC234/vote/more", 404), ("GET", "/nowhere", 404)])
def test_everything_else_goes_through_the_stack_as_before(client, method, path, status):
    response = client.request(method, path)
    assert response.status == status
    assert response.headers.get("x-stack") == "1"


def test_an_error_in_a_hot_route_is_a_plain_500_with_nothing_of_it_shown():
    """Starlette's outer error layer stands before every middleware: it answers 500 in plain words (then raises on,
    for the server's log)."""
    app = Starlette(routes=ROUTES, middleware=[ahead_of_streamlit(ROUTES), Middleware(Stack)])
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/j/BOOM/vote", "raw_path": b"/j/BOOM/vote", "root_path": "",
             "query_string": b"", "headers": [], "scheme": "http", "server": ("testserver", 80)}
    with pytest.raises(RuntimeError):
        asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 500
    body = b"".join(message.get("body", b"") for message in sent[1:])
    assert b"secret" not in body and b"Traceback" not in body


@pytest.mark.parametrize("kind", ["websocket", "lifespan"])
def test_a_websocket_and_the_lifespan_are_the_stack_s(kind):
    passed = []

    async def stack(scope, receive, send) -> None:
        passed.append(scope["type"])

    asyncio.run(Ahead(stack, ROUTES)({"type": kind, "path": "/j/ABC234/events"}, None, None))
    assert passed == [kind]


def test_only_the_named_routes_go_ahead():
    ahead = Ahead(lambda scope, receive, send: None, ROUTES)
    assert sorted(route.path for route in ahead.routes) == sorted(AHEAD)


def test_app_py_puts_it_first_over_the_routes_it_serves(monkeypatch):
    for env in (poll_route.ROUTE_ENV, poll_route.BOARD_ROUTE_ENV):
        monkeypatch.delenv(env, raising=False)
    app = runpy.run_path(str(REPO_ROOT / "app.py"), run_name="app")["app"]
    first = app._user_middleware[0]
    assert first.cls is Ahead
    assert {route.path for route in first.kwargs["routes"]} >= set(AHEAD)
    assert [route.path for route in Ahead(None, first.kwargs["routes"]).routes] == [
        "/j/s/{name}", "/j/{code}/vote", "/j/{code}/events"]
