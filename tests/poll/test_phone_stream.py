"""The phone's stream (attn_phone/routes.py, `GET /j/<CODE>/events`): one response a phone for as long as its page is
open, an event at each move of the room. Driven here through the route's own response, with a wait that reads the
room (the process's Watch is tests/poll/test_poll_route.py's; a real browser on the stream is
tests/browser/test_phone_browser.py's)."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.requests import Request

from attn_lang import _, using
from attn_phone import routes
from attn_phone.routes import Phones
from attn_poll import Poll
from attn_ui.words import live
from tests.asgi_client import Client, run


def lecture(poll: Poll, scene: int = 3):
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, scene - 1, False)
    return room


def request(code: str, since: str = "", last: str | None = None, lang: str = "") -> Request:
    query = "&".join(part for part in (f"since={since}" if since else "", f"lang={lang}" if lang else "") if part)
    headers = [(b"last-event-id", last.encode())] if last is not None else []

    async def receive():
        await asyncio.sleep(3600)  # the browser stays; a test ends the stream itself
        return {"type": "http.disconnect"}

    return Request({"type": "http", "method": "GET", "path": f"/j/{code}/events", "root_path": "", "scheme": "http",
                    "query_string": query.encode(), "headers": headers, "path_params": {"code": code},
                    "server": ("testserver", 80), "client": ("127.0.0.1", 1)}, receive)


def phones_over(poll: Poll, exiting=lambda: False) -> Phones:
    """Phones whose wait answers at once with the room's stamp (a held wait is Watch's; here, what the stream does
    with each answer)."""

    async def wait(request, code, since, **more):
        if request.url.path.endswith("/events"):
            assert more.get("streamed") is True, "a stream's wait does not count against the held requests' cap"
        else:
            assert "streamed" not in more
        await asyncio.sleep(0.01)
        return phones._stamp(code)

    phones = Phones(lambda: poll, wait, exiting=exiting)
    return phones


def events(phones: Phones, req: Request, count: int, moves=()) -> tuple[object, list[bytes]]:
    """The response, and its first `count` chunks; `moves[i]` (a function) runs after chunk i."""

    async def main():
        response = await phones.events(req)
        chunks = []
        if not hasattr(response, "body_iterator"):
            return response, chunks
        stream = response.body_iterator
        try:
            for index in range(count):
                chunks.append(await asyncio.wait_for(anext(stream), 10))
                if index < len(moves):
                    moves[index]()
        finally:
            await stream.aclose()
        return response, chunks

    return run(main())


def parsed(chunk: bytes) -> dict:
    fields = dict(line.split(": ", 1) for line in chunk.decode().strip().split("\n"))
    if "data" in fields:
        fields["data"] = json.loads(fields["data"])
    return fields


@pytest.fixture(autouse=True)
def short_floor(monkeypatch):
    monkeypatch.setattr(routes, "STREAM_FLOOR_S", 0.01)


def test_a_stream_sends_the_room_now_then_each_move_the_same_bytes_as_the_wait(poll):
    room = lecture(poll)
    phones = phones_over(poll)
    response, chunks = events(phones, request(room.code, since="old"), 3,
                              moves=(lambda: None, lambda: poll.close_round(room.code, room.host_secret)))
    assert response.status_code == 200 and response.media_type == "text/event-stream"
    assert response.headers["cache-control"] == "no-store" and response.headers["x-accel-buffering"] == "no"
    assert chunks[0] == f"retry: {routes.RETRY_MS}\n\n".encode()
    now, moved = parsed(chunks[1]), parsed(chunks[2])
    assert now["id"] == now["data"]["stamp"] and now["id"].endswith(":voting:0")
    assert 'data-phase="voting"' in now["data"]["html"]
    assert moved["id"].endswith(":closed:0") and 'data-phase="closed"' in moved["data"]["html"]
    waited = Client(Starlette_of(phones)).get(f"/j/{room.code}/wait?since=old", headers={"Accept": "application/json"})
    assert waited.json() == moved["data"], "a stream's event and a held wait's answer are one text"
    assert phones.streams == 0, "a closed stream is counted out"


def Starlette_of(phones: Phones):  # noqa: N802 (a small factory read as a type)
    from starlette.applications import Starlette

    return Starlette(routes=phones.routes())


def test_a_stream_opened_again_starts_from_the_last_event_it_had(poll):
    room = lecture(poll)
    phones = phones_over(poll)
    __, first = events(phones, request(room.code, since="old"), 2)
    stamp = parsed(first[1])["id"]
    poll.close_round(room.code, room.host_secret)
    __, again = events(phones, request(room.code, since="old", last=stamp), 2)
    assert parsed(again[1])["id"].endswith(":closed:0"), "Last-Event-ID, not the address's since, says where it was"
    __, quiet = events(phones, request(room.code, last=parsed(again[1])["id"]), 2)
    assert quiet[1] == b": still here\n\n", "nothing moved: a comment keeps the connection, no page is sent"


def test_a_stream_in_a_language_speaks_it(poll):
    room = lecture(poll)
    __, chunks = events(phones_over(poll), request(room.code, since="old", lang="es"), 2)
    html = parsed(chunks[1])["data"]["html"]
    with using("es"):
        assert _("Room {code} · live lecture", code=room.code) in html
    assert f"Room {room.code}" not in html


def test_the_end_of_a_lecture_tells_each_phone_to_ask_for_its_own_recap(poll):
    room = lecture(poll)
    poll.end_room(room.code, room.host_secret)
    __, chunks = events(phones_over(poll), request(room.code, since="old"), 2)
    assert parsed(chunks[1])["data"] == {"stamp": parsed(chunks[1])["id"], "mine": True}


def test_a_room_that_is_not_there_is_a_404_not_a_stream(poll):
    response, chunks = events(phones_over(poll), request("ZZZZZZZ", since="x"), 1)
    assert response.status_code == 404 and chunks == []
    assert "No room has that code" in json.loads(response.body)["error"]


def test_a_room_that_goes_while_streamed_ends_with_a_gone_event(poll, monkeypatch):
    room = lecture(poll)
    phones = phones_over(poll)
    from attn_poll import RoomNotFound

    def vanish():
        async def gone(*args, **more):
            raise RoomNotFound("No room has that code.")

        phones.wait = gone

    __, chunks = events(phones, request(room.code, since="old"), 3, moves=(lambda: None, vanish))
    assert chunks[2].startswith(b"event: gone\ndata: ") and "No room" in parsed(chunks[2])["data"]["error"]


def test_past_its_limit_a_process_refuses_a_stream_and_the_page_holds_the_wait_instead(poll, monkeypatch):
    room = lecture(poll)
    phones = phones_over(poll)
    monkeypatch.setattr(routes, "MAX_STREAMS", 0)
    response, chunks = events(phones, request(room.code, since="x"), 1)
    assert response.status_code == 503 and chunks == []


def test_a_stopping_server_ends_every_stream_at_once(poll):
    room = lecture(poll)
    stopping = {"now": False}
    phones = phones_over(poll, exiting=lambda: stopping["now"])

    async def main():
        response = await phones.events(request(room.code, since="old"))
        stream = response.body_iterator
        seen = [await anext(stream), await anext(stream)]
        stopping["now"] = True
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(stream), 5)
        return seen

    assert len(run(main())) == 2
    assert phones.streams == 0


def test_the_route_is_served_beside_the_wait(poll):
    paths = [route.path for route in Phones(lambda: poll).routes()]
    assert "/j/{code}/events" in paths and "/j/{code}/wait" in paths
