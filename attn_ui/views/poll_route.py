"""The rooms' held checks and the phone's page, as plain HTTP routes beside Streamlit: "has this room moved?" with no
script run.

`streamlit run app.py` (Community Cloud, the image, deploy/) serves the app as an `st.App` with these routes:

- the phone's page (attn_phone: `/j`, `/j/<CODE>` and its answers and held wait), always;
- `GET /_attn/room/<CODE>/board`, held by a lecturer's board (board_check) until the room's whole stamp moves (a host
  action, a vote, a phone joining): the board redraws then, not on a timer;
- `GET /_attn/room/<CODE>/stamp`, the same on the room's stamp less its activity (a host action or the clock): what
  the phone's page follows, for a script or a person.

A check is held (a long poll): a GET that says `?since=<the stamp the page was drawn with>` is answered at once when
the room's stamp differs, and otherwise held until it does, for at most HOLD_S. The held requests of one room share
one database read every CHECK_S (Watch), however many wait on it, and all wake at once when it moves. A write made in
this same process (a host action, a vote, a join) nudges the room's loop to read at once (Poll.on_moved). A GET
without `since` is answered at once. ATTN_LAB_STAMP_ROUTE=0 leaves the two held checks out (the boards keep their
one-second timer: a bench's baseline); ATTN_LAB_BOARD_ROUTE=0 the boards' alone.

Nothing here keeps the poll's state in Python: the Poll is the pages' own (poll_service, one engine and pool a
process) and every answer comes from a query, so each replica behind the proxy answers for every room. Watch holds
only the last read of a room for the requests waiting in this process, for at most CHECK_S.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import time
from collections.abc import Callable
from types import MappingProxyType
from urllib.parse import quote, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from attn_phone.routes import Phones
from attn_poll import Poll, PollError
from attn_poll.room_values import stamp_text
from attn_poll.store import DatabaseError
from attn_ui.views import poll_service

ROUTE_ENV = "ATTN_LAB_STAMP_ROUTE"  # "1" in a process that serves the route (served()); "0" asks for none
BOARD_ROUTE_ENV = "ATTN_LAB_BOARD_ROUTE"  # "0": no boards' route, the boards keep their timer (a bench's baseline)
PATH = "/_attn/room/{code}/stamp"
BOARD_PATH = "/_attn/room/{code}/board"
NO_STORE = MappingProxyType({"Cache-Control": "no-store"})
HOLD_S = 20.0  # the longest a request is held; under the proxy's `timeout server 60s` (deploy/haproxy.cfg)
CHECK_S = 0.1  # how often a room with held requests is read again: a scene change reaches the browsers within this
ALIVE_S = 1.0  # how often a held request asks whether its browser is still there
MAX_HELD = 2000  # held requests in one process; past it a request is answered at once (its browser asks in 2 s)
MAX_SINCE = 64  # a stamp is "version:phase:expired:activity", about 20 characters; a longer `since` is no stamp of ours


def read_stamp(code: str, poll: Callable[[], Poll] | None = None) -> str:
    """The room's whole stamp, "version:phase:expired:activity" (Poll.board_stamp, one indexed read); PollError or
    DatabaseError when there is none. A phone hears of its first three parts (room_view), a board of all four."""
    return stamp_text(*(poll or poll_service.process_poll)().board_stamp(code))


def room_view(stamp: str) -> str:
    """What a phone follows: "version:phase:expired", the stamp less the room's activity (joins and votes)."""
    return ":".join(stamp.split(":", 3)[:3])


def board_view(stamp: str) -> str:
    """What a projector's board follows: the whole stamp, votes and joins included."""
    return stamp


def refusal(error: PollError | DatabaseError) -> JSONResponse:
    """Why there is no stamp: 404 an unknown, malformed or expired code, 503 the database is away."""
    if isinstance(error, PollError):
        return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
    return JSONResponse({"error": "database unavailable"}, status_code=503, headers=dict(NO_STORE))


def answer(value: str) -> JSONResponse:
    return JSONResponse({"stamp": value}, headers=dict(NO_STORE))


def stamp(request: Request, view: Callable[[str], str] = room_view) -> JSONResponse:
    """The room's stamp now, read for this request alone."""
    try:
        return answer(view(read_stamp(request.path_params.get("code", ""))))
    except (PollError, DatabaseError) as error:
        return refusal(error)


def server_exiting() -> bool:
    """Has the server been told to stop? Under `streamlit run`, uvicorn's handler of SIGTERM and SIGINT is its
    Server's handle_exit, which sets that Server's should_exit; uvicorn then waits for every open request before
    it exits (Streamlit sets no graceful timeout), so a held request must end at once or a restart waits HOLD_S."""
    server = getattr(signal.getsignal(signal.SIGTERM), "__self__", None)
    return bool(getattr(server, "should_exit", False))


def listen_to_hosts(nudge: Callable[[str], None]) -> None:
    """Ask the process's Poll (the pages' own) to tell `nudge` of each host action it commits."""
    poll_service.process_poll().on_moved(nudge)


class Followed:
    """One room as the requests held on it in this process see it: the outcome of its last read (when that read
    started, the stamp or the error), and for each view of it (room_view, board_view) the event its waiters sleep on
    until that view's outcome differs: a vote wakes the boards, not the phones."""

    __slots__ = ("started", "value", "error", "changed", "poked", "waiters")

    def __init__(self) -> None:
        self.started = -math.inf
        self.value: str | None = None
        self.error: PollError | DatabaseError | None = None
        self.changed: dict[Callable[[str], str], asyncio.Event] = {}
        self.poked = asyncio.Event()  # a write of this process on the room: read it now, not at the next check
        self.waiters = 0

    def event(self, view: Callable[[str], str]) -> asyncio.Event:
        return self.changed.setdefault(view, asyncio.Event())

    def record(self, started: float, value: str | None, error: PollError | DatabaseError | None) -> None:
        before, after = (self.value, type(self.error), str(self.error)), (value, type(error), str(error))
        self.started, self.value, self.error = started, value, error
        for view in tuple(self.changed):
            if _seen(view, before) != _seen(view, after):
                self.wake(view)

    def wake(self, view: Callable[[str], str] | None = None) -> None:
        """Wake the waiters of one view (None: of every view)."""
        for each in ((view,) if view is not None else tuple(self.changed)):
            changed = self.changed.pop(each, None)
            if changed is not None:
                changed.set()


def _seen(view: Callable[[str], str], outcome: tuple) -> tuple:
    """A read's outcome (stamp, error type, error text) as the waiters of one view see it."""
    return (None if outcome[0] is None else view(outcome[0]), *outcome[1:])


class Watch:
    """The reads of the requests held in this process. A request shares a room's read that started after the moment
    it names; while requests are held on a room, one loop (follow) reads it every CHECK_S and wakes them all at once
    when its stamp moves, so a room costs one database read every CHECK_S however many phones wait on it, and a
    held request sleeps until the move instead of waking at every check."""

    def __init__(self, read: Callable[[str], str] = read_stamp, clock: Callable[[], float] = time.monotonic,
                 exiting: Callable[[], bool] = server_exiting,
                 listen: Callable[[Callable[[str], None]], None] | None = listen_to_hosts) -> None:
        self.read = read
        self.clock = clock
        self.exiting = exiting
        self.listen = listen  # called once, with nudge: after that, a host action of this process nudges its room
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reads: dict[str, tuple[float, asyncio.Future]] = {}
        self.rooms: dict[str, Followed] = {}
        self.held = 0

    def nudge(self, code: str) -> None:
        """From any thread (a host page's run that moved the room): the room's loop reads it now, without waiting for
        its next check. Only a hint: what the requests hear is still read from the database."""
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
                loop.call_soon_threadsafe(self._poke, code)

    def _poke(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None:
            room.poked.set()

    def _read(self, code: str, started_after: float) -> tuple[float, asyncio.Future]:
        entry = self.reads.get(code)
        if entry is None or entry[0] < started_after:
            if len(self.reads) > 4 * MAX_HELD:  # rooms nobody waits on any more (a flood of made-up codes)
                old = self.clock() - 4 * CHECK_S
                self.reads = {key: value for key, value in self.reads.items() if value[0] >= old}
            entry = (self.clock(), asyncio.ensure_future(run_in_threadpool(self.read, code)))
            self.reads[code] = entry
        return entry

    async def stamp(self, code: str, started_after: float) -> str:
        future = self._read(code, started_after)[1]
        if future.done():  # the read a woken phone shares is over: no shield (a future and two callbacks) for it
            return future.result()
        return await asyncio.shield(future)

    async def follow(self, code: str, room: Followed, check_s: float) -> None:
        """Read the room every check_s while requests are held on it; wake them when the outcome moves, or when the
        server is told to stop."""
        try:
            while room.waiters > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(room.poked.wait(), check_s)
                room.poked.clear()
                if self.exiting():
                    room.wake()
                    continue
                started, future = self._read(code, self.clock())
                try:
                    room.record(started, await asyncio.shield(future), None)
                except (PollError, DatabaseError) as error:
                    room.record(started, None, error)
        finally:
            if self.rooms.get(code) is room:
                del self.rooms[code]

    def _join(self, code: str, check_s: float) -> Followed:
        room = self.rooms.get(code)
        if room is None:  # its loop starts after this request has joined it, so it finds a waiter
            room = self.rooms[code] = Followed()
            asyncio.ensure_future(self.follow(code, room, check_s))
        room.waiters += 1
        return room

    async def until_moved(self, request: Request, code: str, since: str, hold_s: float = HOLD_S,
                          check_s: float = CHECK_S, alive_s: float = ALIVE_S,
                          view: Callable[[str], str] = room_view, streamed: bool = False) -> str:
        """The room's stamp as `view` sees it as soon as it differs from `since`, or after `hold_s` or when the server
        is told to stop (then it may equal `since`). Whether the browser is still there is asked every alive_s.
        A stream's wait (`streamed`) does not count against MAX_HELD: the streams have their own cap (the phone's
        MAX_STREAMS), and a stream told at once would only ask again."""
        arrived = self.clock()
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            if self.listen is not None:
                with contextlib.suppress(PollError, DatabaseError):  # no database yet: the loop's checks still come
                    await run_in_threadpool(self.listen, self.nudge)
        value = view(await self.stamp(code, arrived - check_s))  # a read shared with the room's other requests
        if value != since:  # confirmed by a read that started after the request came, or a newer page would
            value = view(await self.stamp(code, arrived))  # hear of an older stamp and refresh for nothing
        if value != since or (self.held >= MAX_HELD and not streamed):
            return value
        held = 0 if streamed else 1
        self.held += held
        room = self._join(code, check_s)
        try:
            while self.clock() - arrived < hold_s:
                if room.started >= arrived:  # only a read that began after this request came speaks for it
                    if room.error is not None:
                        raise room.error
                    if room.value is not None and view(room.value) != since:
                        return view(room.value)
                left = hold_s - (self.clock() - arrived)
                woken = False
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, min(alive_s, left))):  # no task of its own, as wait_for makes
                        await room.event(view).wait()
                    woken = True
                # a move woke it: the room is looked at first (the answer goes out now, and a browser that has gone
                # finds out when it is written to); only a quiet alive_s asks whether the browser is still there
                if self.exiting() or (not woken and await request.is_disconnected()):
                    break
        finally:
            room.waiters -= 1
            self.held -= held
        return view(room.value) if room.started >= arrived and room.value is not None else value


def held_stamp(watch: Watch) -> Callable:
    """The phones' endpoint: `?since=` a stamp holds the request until the room moves (see the module's text)."""

    async def endpoint(request: Request) -> JSONResponse:
        code = request.path_params.get("code", "")
        since = request.query_params.get("since")
        if since is None or len(since) > MAX_SINCE:
            return await run_in_threadpool(stamp, request)
        try:
            return answer(await watch.until_moved(request, code, since))
        except (PollError, DatabaseError) as error:
            return refusal(error)

    return endpoint


def held_board(watch: Watch) -> Callable:
    """The projectors' endpoint: as the phones', on the whole stamp, so a host page's board hears of every vote and
    every phone that joins as well as of every host action (and of nothing else: no count leaves the server here)."""

    async def endpoint(request: Request) -> JSONResponse:
        code = request.path_params.get("code", "")
        since = request.query_params.get("since")
        if since is None or len(since) > MAX_SINCE:
            return await run_in_threadpool(stamp, request, board_view)
        try:
            return answer(await watch.until_moved(request, code, since, view=board_view))
        except (PollError, DatabaseError) as error:
            return refusal(error)

    return endpoint


def served() -> list[Route]:
    """What app.py's st.App adds to Streamlit's own routes: the phone's page, the rooms' held checks with the Watch
    their held requests share (one per process, made here, never at import), and the mark that this process serves
    the checks (available()). ATTN_LAB_STAMP_ROUTE=0 leaves the checks out (the boards keep their one-second timer; a
    bench's baseline), and ATTN_LAB_BOARD_ROUTE=0 the boards' alone; the phone's page is always served."""
    phones = Phones(poll_service.process_poll,
                    lambda request, code, since, **more: watch.until_moved(request, code, since, **more),
                    exiting=server_exiting)
    watch = Watch(read=lambda code: read_stamp(code, phones.poll))  # the phones' kept Poll: a room with held
    # requests is read ten times a second
    if os.environ.get(ROUTE_ENV) == "0":
        return phones.routes()
    os.environ[ROUTE_ENV] = "1"
    routes = [*phones.routes(), Route(PATH, held_stamp(watch), methods=["GET"])]
    if os.environ.get(BOARD_ROUTE_ENV) != "0":
        os.environ[BOARD_ROUTE_ENV] = "1"
        routes.append(Route(BOARD_PATH, held_board(watch), methods=["GET"]))
    return routes


def available() -> bool:
    """Does this process serve the route (app.py's st.App, through served())?"""
    return os.environ.get(ROUTE_ENV) == "1"


def board_available() -> bool:
    """Does this process serve the boards' route?"""
    return available() and os.environ.get(BOARD_ROUTE_ENV) == "1"


def stamp_url(page_url: str | None, code: str, what: str = "stamp") -> str:
    """The route's address for a room ("stamp": the phones', "board": the projectors'), on the app's own base path (no
    host: the browser asks its own server)."""
    path = urlsplit(page_url or "").path.replace("/~/+", "")
    base = path.rsplit("/", 1)[0]
    return f"{base}/_attn/room/{quote(code, safe='')}/{what}"
