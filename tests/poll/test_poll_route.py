"""The phones' HTTP check (attn_ui/views/poll_route.py), on SQLite and PostgreSQL: the stamp changes with every host
action and with the room's expiry, and a bad code or a lost database is an answer, never a traceback."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.requests import Request

from attn_poll import Poll
from attn_ui.views import poll_route


def run(coroutine):
    """asyncio.run in a thread of its own: a browser test of the same worker (Playwright's sync API) may keep an event
    loop running in this one, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


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


# --- the held check (long poll): a phone's browser asks with the stamp it shows, and hears back when it moved ------

def held_request(code: str, since: str | None, gone: bool = False, lang: str | None = None) -> Request:
    query = b"" if since is None else f"since={since}".encode()
    if lang is not None:
        query += f"&lang={lang}".encode()

    async def receive() -> dict:
        return {"type": "http.disconnect" if gone else "http.request", "body": b"", "more_body": False}

    scope = {"type": "http", "method": "GET", "path": f"/_attn/room/{code}/stamp", "headers": [],
             "query_string": query, "path_params": {"code": code}}
    return Request(scope, receive)


class Room:
    """A made-up room's stamp for the Watch, counting its reads."""

    def __init__(self, value: str = "1:voting:0") -> None:
        self.value, self.reads, self.gone = value, 0, False

    def read(self, code: str) -> str:
        self.reads += 1
        if self.gone:
            raise poll_route.PollError("That room has expired.")
        if code != "ROOM":
            raise poll_route.PollError("There is no room with that code.")
        return self.value


def test_a_held_request_hears_of_the_move_within_one_check():
    room = Room()

    async def scene() -> tuple[str, float]:
        watch = poll_route.Watch(room.read, listen=None)
        waiting = asyncio.ensure_future(watch.until_moved(held_request("ROOM", "1:voting:0"), "ROOM", "1:voting:0",
                                                          hold_s=10, check_s=0.02))
        await asyncio.sleep(0.2)
        assert not waiting.done(), "nothing moved: the request is still held"
        room.value = "2:closed:0"
        moved = time.monotonic()
        value = await waiting
        return value, time.monotonic() - moved

    value, waited = run(scene())
    assert value == "2:closed:0" and waited < 0.5


def test_the_requests_held_on_one_room_share_its_reads():
    room = Room()

    async def class_of(phones: int) -> list[str]:
        watch = poll_route.Watch(room.read, listen=None)
        return await asyncio.gather(*(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                        hold_s=0.3, check_s=0.03) for _ in range(phones)))

    values = run(class_of(100))
    assert values == ["1:voting:0"] * 100, "nothing moved: each held request ends with the same stamp"
    assert room.reads <= 30, f"{room.reads} reads for 100 phones over 10 checks: one read a check, not one a phone"


def test_a_request_that_is_behind_is_answered_at_once_from_a_read_after_it_came():
    room = Room()

    async def ask() -> tuple[str, str]:
        watch = poll_route.Watch(room.read, listen=None)
        first = await watch.until_moved(held_request("ROOM", "0:lobby:0"), "ROOM", "0:lobby:0", hold_s=10)
        room.value = "2:closed:0"  # moved just after the last read: a newcomer must not get the older stamp
        second = await watch.until_moved(held_request("ROOM", "1:voting:0"), "ROOM", "1:voting:0", hold_s=10)
        return first, second

    assert run(asyncio.wait_for(ask(), 5)) == ("1:voting:0", "2:closed:0")


def test_one_move_wakes_every_held_request_of_the_room_from_one_loop_of_reads():
    room = Room()

    async def class_of(phones: int) -> tuple[list[str], int, float, dict]:
        watch = poll_route.Watch(room.read, listen=None)
        held = [asyncio.ensure_future(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                        hold_s=10, check_s=0.02)) for _ in range(phones)]
        await asyncio.sleep(0.3)
        reads_while_held = room.reads
        room.value = "2:closed:0"
        moved = time.monotonic()
        values = await asyncio.wait_for(asyncio.gather(*held), 5)
        waited = time.monotonic() - moved
        await asyncio.sleep(0.1)  # the room's loop ends at its next check
        return values, reads_while_held, waited, dict(watch.rooms)

    values, reads, waited, rooms = run(class_of(150))
    assert values == ["2:closed:0"] * 150 and waited < 0.5
    assert reads <= 2 + 0.3 / 0.02 + 2, f"{reads} reads in 0.3 s held: one a check for the room, not one a phone"
    assert rooms == {}, "no request is held any more, so nothing follows the room"


def test_a_room_that_goes_while_requests_are_held_answers_them_with_why():
    room = Room()

    async def ask() -> Exception | None:
        watch = poll_route.Watch(room.read, listen=None)
        waiting = asyncio.ensure_future(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                          hold_s=10, check_s=0.02))
        await asyncio.sleep(0.1)
        room.gone = True
        try:
            await asyncio.wait_for(waiting, 5)
        except poll_route.PollError as error:
            return error
        return None

    error = run(ask())
    assert error is not None and "expired" in str(error)


def test_a_nudge_reads_the_room_at_once_instead_of_at_the_next_check():
    room = Room()
    nudges = []

    async def scene() -> tuple[str, float]:
        watch = poll_route.Watch(room.read, listen=nudges.append)
        waiting = asyncio.ensure_future(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                          hold_s=30, check_s=10))
        await asyncio.sleep(0.1)
        room.value = "2:closed:0"
        moved = time.monotonic()
        await asyncio.to_thread(nudges[0], "ROOM")  # from a page's thread, as a host action calls it
        return await asyncio.wait_for(waiting, 5), time.monotonic() - moved

    value, waited = run(scene())
    assert value == "2:closed:0" and waited < 1, "read at the nudge, not after the 10 s check"


def test_a_host_action_of_this_process_reaches_its_held_requests_at_once(routed):
    room = routed.create_room([("causal-why", 4)])

    async def lecture() -> tuple[str, float]:
        watch = poll_route.Watch()  # listens to the process's Poll: this test's
        waiting = asyncio.ensure_future(watch.until_moved(held_request(room.code, "0:lobby:0"), room.code,
                                                          "0:lobby:0", hold_s=30, check_s=10))
        await asyncio.sleep(0.3)
        moved = time.monotonic()
        await asyncio.to_thread(routed.next_question, room.code, room.host_secret)
        return await asyncio.wait_for(waiting, 5), time.monotonic() - moved

    value, waited = run(lecture())
    assert value == "1:voting:0" and waited < 1, "the host's own process did not wait for the 10 s check"


def test_a_browser_that_left_is_no_longer_held():
    room = Room()

    async def ask() -> str:
        watch = poll_route.Watch(room.read, listen=None)
        return await watch.until_moved(held_request("ROOM", room.value, gone=True), "ROOM", room.value,
                                       hold_s=30, check_s=0.01, alive_s=0.05)

    began = time.monotonic()
    run(asyncio.wait_for(ask(), 5))
    assert time.monotonic() - began < 1


def test_a_full_process_answers_at_once(monkeypatch):
    room = Room()
    monkeypatch.setattr(poll_route, "MAX_HELD", 0)

    async def ask() -> str:
        watch = poll_route.Watch(room.read, listen=None)
        return await watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value, hold_s=30)

    began = time.monotonic()
    assert run(asyncio.wait_for(ask(), 5)) == room.value and time.monotonic() - began < 1


def test_a_stream_s_wait_is_held_in_a_full_process_and_counts_nothing(monkeypatch):
    """Streams have their own cap (the phone's MAX_STREAMS): a stream told at once would ask again a second later,
    every second, so its wait is held however many held requests the process has."""
    room = Room()
    monkeypatch.setattr(poll_route, "MAX_HELD", 0)
    watch = poll_route.Watch(room.read, listen=None)

    async def ask() -> tuple[str, int]:
        held = asyncio.ensure_future(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                       hold_s=0.3, check_s=0.01, streamed=True))
        await asyncio.sleep(0.1)
        during = watch.held
        return await held, during

    began = time.monotonic()
    value, during = run(asyncio.wait_for(ask(), 5))
    assert value == room.value and time.monotonic() - began >= 0.3, "held for its whole hold, not told at once"
    assert during == 0 and watch.held == 0


@pytest.mark.parametrize("since", [None, "x" * 65])
def test_the_endpoint_without_a_stamp_of_ours_answers_at_once(routed, since):
    room = routed.create_room([("causal-why", 4)])
    endpoint = poll_route.held_stamp(poll_route.Watch())
    response = run(asyncio.wait_for(endpoint(held_request(room.code, since)), 5))
    assert response.status_code == 200 and json.loads(response.body) == {"stamp": "0:lobby:0"}


def test_the_endpoint_holds_then_answers_the_move_and_refuses_a_bad_code(routed):
    room = routed.create_room([("causal-why", 4)])
    endpoint = poll_route.held_stamp(poll_route.Watch())

    async def lecture() -> tuple:
        held = asyncio.ensure_future(endpoint(held_request(room.code, "0:lobby:0")))
        await asyncio.sleep(0.4)
        still = held.done()
        await asyncio.to_thread(routed.next_question, room.code, room.host_secret)
        moved = await asyncio.wait_for(held, 5)
        bad = await asyncio.wait_for(endpoint(held_request("ZZZZZZZ", "0:lobby:0")), 5)
        return still, moved, bad

    still, moved, bad = run(lecture())
    assert not still
    assert moved.status_code == 200 and json.loads(moved.body) == {"stamp": "1:voting:0"}
    assert bad.status_code == 404 and json.loads(bad.body)["error"]


def test_a_server_told_to_stop_is_not_held_up_by_a_held_request():
    room = Room()
    stopping = {"now": False}

    async def ask() -> tuple[bool, str]:
        watch = poll_route.Watch(room.read, listen=None, exiting=lambda: stopping["now"])
        waiting = asyncio.ensure_future(watch.until_moved(held_request("ROOM", room.value), "ROOM", room.value,
                                                          hold_s=30, check_s=0.01))
        await asyncio.sleep(0.1)
        held = not waiting.done()
        stopping["now"] = True
        return held, await asyncio.wait_for(waiting, 1)

    assert run(ask()) == (True, "1:voting:0"), "held until the stop, then answered with the same stamp"


def test_server_exiting_reads_the_signal_handler_of_a_serving_uvicorn(monkeypatch):
    class Server:  # what uvicorn installs while it serves: its Server's bound handle_exit
        should_exit = False

        def handle_exit(self, sig, frame) -> None:
            self.should_exit = True

    server = Server()
    monkeypatch.setattr(poll_route.signal, "getsignal", lambda sig: server.handle_exit)
    assert not poll_route.server_exiting()
    server.handle_exit(15, None)
    assert poll_route.server_exiting()
    monkeypatch.setattr(poll_route.signal, "getsignal", lambda sig: poll_route.signal.SIG_DFL)
    assert not poll_route.server_exiting(), "no uvicorn (AppTest, a plain script): never exiting"


@pytest.mark.parametrize(("before", "board", "paths", "after"), [
    (None, None, 2, "1"), ("1", None, 2, "1"), ("0", None, 0, "0"), (None, "0", 1, "1")])
def test_app_py_serves_the_phone_s_page_always_and_the_held_checks_unless_asked_not_to(monkeypatch, before, board,
                                                                                       paths, after):
    for env, value in ((poll_route.ROUTE_ENV, before), (poll_route.BOARD_ROUTE_ENV, board)):
        if value is None:
            monkeypatch.delenv(env, raising=False)
        else:
            monkeypatch.setenv(env, value)
    served = [route.path for route in poll_route.served()]
    assert served[:8] == ["/j", "/j/s/{name}", "/j/{code}", "/j/{code}/vote", "/j/{code}/wait", "/j/{code}/events",
                          "/j/{code}/now", "/Class_poll"]
    assert served[8:] == [poll_route.PATH, poll_route.BOARD_PATH][:paths]
    assert poll_route.available() is (after == "1")
    assert poll_route.board_available() is (paths == 2)


# --- the projectors' board: woken by every vote and every phone that joins, not by a timer ---------------------------


def board_request(code: str, since: str | None) -> Request:
    request = held_request(code, since)
    request.scope["path"] = f"/_attn/room/{code}/board"
    return request


def test_a_board_hears_of_a_vote_and_of_a_join_a_phone_does_not(routed):
    """A vote moves what a board shows (the count) and nothing a phone shows: the board's held request answers, the
    phone's stays held; the vote's own process nudges the room, so no check interval is waited for."""
    room = routed.create_room([("causal-why", 4)])
    routed.next_question(room.code, room.host_secret)
    watch = poll_route.Watch()
    board, phone = poll_route.held_board(watch), poll_route.held_stamp(watch)
    since_board = poll_route.stamp_text(*routed.board_stamp(room.code))
    since_phone = poll_route.stamp_text(*routed.room_stamp(room.code))

    async def hall() -> tuple:
        board_held = asyncio.ensure_future(board(board_request(room.code, since_board)))
        phone_held = asyncio.ensure_future(phone(held_request(room.code, since_phone)))
        await asyncio.sleep(0.3)
        assert not board_held.done() and not phone_held.done()
        voted = time.monotonic()
        await asyncio.to_thread(routed.vote, room.code, "phone-a", 0, 1, 2)  # joins and votes
        told = await asyncio.wait_for(board_held, 5)
        waited = time.monotonic() - voted
        await asyncio.sleep(0.3)
        phone_still = not phone_held.done()
        phone_held.cancel()
        return told, waited, phone_still

    told, waited, phone_still = run(hall())
    assert told.status_code == 200 and json.loads(told.body)["stamp"] != since_board
    assert json.loads(told.body)["stamp"].startswith(since_phone + ":"), "the board's stamp is the phone's and more"
    assert waited < 0.5 and phone_still


def test_the_board_route_without_a_stamp_answers_at_once_and_refuses_a_bad_code(routed):
    room = routed.create_room([("causal-why", 4)])
    endpoint = poll_route.held_board(poll_route.Watch())
    now = run(asyncio.wait_for(endpoint(board_request(room.code, None)), 5))
    assert json.loads(now.body) == {"stamp": "0:lobby:0:0"}
    bad = run(asyncio.wait_for(endpoint(board_request("<script>", "0:lobby:0:0")), 5))
    assert bad.status_code == 404 and "<script>" not in bad.body.decode()
