"""The phones' HTTP check (attn_ui/views/poll_route.py), on SQLite and PostgreSQL: the stamp changes with every host
action and with the room's expiry, and a bad code or a lost database is an answer, never a traceback."""

from __future__ import annotations

import json

import pytest
from starlette.requests import Request

from attn_poll import Poll
from attn_ui.views import poll_route


def ask(code: str) -> tuple[int, dict]:
    scope = {"type": "http", "method": "GET", "path": f"/_attn/room/{code}/stamp", "headers": [],
             "query_string": b"", "path_params": {"code": code}}
    response = poll_route.stamp(Request(scope))
    assert response.headers["cache-control"] == "no-store"
    return response.status_code, json.loads(response.body)


@pytest.fixture
def routed(poll, monkeypatch) -> Poll:
    """The route on this test's database and clock (it opens the configured URL; tests/browser serve it for real)."""
    monkeypatch.setattr(poll_route.poll_service, "process_poll", lambda: poll)
    return poll


def test_the_stamp_follows_every_host_action(routed):
    room = routed.create_room([("causal-why", 4)])
    seen = [ask(room.code)]
    routed.next_question(room.code, room.host_secret)
    seen.append(ask(room.code))
    routed.close_round(room.code, room.host_secret)
    seen.append(ask(room.code))
    assert [status for status, _ in seen] == [200, 200, 200]
    stamps = [body["stamp"] for _, body in seen]
    assert stamps == ["0:lobby:0", "1:voting:0", "2:closed:0"]
    view = routed.phone_view(room.code, "someone")
    assert poll_route.stamp_text(*view.stamp[:3]) == stamps[-1], "the page embeds what the route answers"


def test_the_stamp_changes_when_the_room_expires(routed, clock):
    room = routed.create_room([("causal-why", 4)])
    assert ask(room.code)[0] == 200
    clock.advance(routed.limits.room_lifetime_s + 1)
    status, body = ask(room.code)  # the page's "error 404" mark for a room gone for good: no more refreshes
    assert status == 404 and "expired" in body["error"]


@pytest.mark.parametrize("code", ["ZZZZZZZ", "<script>", "", "x" * 500])
def test_a_bad_code_is_a_404_with_a_sentence(routed, code):
    status, body = ask(code)
    assert status == 404 and body["error"]


def test_the_stamp_url_keeps_the_app_s_base_path():
    assert poll_route.stamp_url("http://h/Class_poll?room=A", "ABC1234") == "/_attn/room/ABC1234/stamp"
    assert poll_route.stamp_url("https://h/lab/Class_poll", "ABC1234") == "/lab/_attn/room/ABC1234/stamp"
    assert poll_route.stamp_url(None, "A/B") == "/_attn/room/A%2FB/stamp"
