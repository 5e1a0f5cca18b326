"""The phone's page: plain HTTP routes beside Streamlit, served by app.py's st.App (see attn_phone/__init__.py).

    GET  /j                  the join form (a code typed in comes back as /j?code=..., and goes to its room)
    GET  /j/<CODE>           the room's page for this phone: joins the room, draws where it is
    POST /j/<CODE>/vote      an answer (a form's post; JSON back to the page's script, a redirect without one)
    GET  /j/<CODE>/events    the room as a stream (server-sent events): an event at each move, its new stamp and the
                             room's page; what the page's script follows (one response a phone, not one a move)
    GET  /j/<CODE>/wait      held until the room moves (?since=<stamp>&lang=): the new stamp and the room's page (the
                             script's fallback where a stream cannot be kept, and a plain check for any client)
    GET  /j/<CODE>/now       this phone's page now (the recap at the end; after a bfcache restore)
    GET  /j/s/<name>         the page's stylesheet and script (their hash in the name: cached for a year)
    GET  /Class_poll         old join links (?room=CODE) bring a phone to /j/CODE; a host's page is Streamlit's

Every answer is built from the database and the request alone: several app processes behind a proxy serve one room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import MappingProxyType
from urllib.parse import parse_qs, urlencode

from markupsafe import Markup, escape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from attn_lang import LANGUAGES, PSEUDO, _, language_for, supported, using
from attn_lang.languages import language
from attn_phone import screens
from attn_phone.answers import POLL_KEPT_S, STORAGE_DOWN, Answers, kept_for
from attn_phone.assets import asset_of, streamlit_index, template_environment
from attn_phone.visitor import (
    CSRF_COOKIE,
    HOST_COOKIE_PREFIX,
    ROOM_COOKIE,
    VOTER_COOKIE,
    choose_language,
    cookie_token,
    is_secure,
    same_origin,
    set_cookie,
    voter_of,
)
from attn_poll import DatabaseError, Phase, Poll, PollError, RoomExpired, RoomNotFound
from attn_poll.codes import CODE_LENGTH, normalise_room_code
from attn_poll.errors import LimitReached, RoomEnded
from attn_poll.room_values import stamp_text
from attn_ui.words import live
from attn_ui.words.room_questions import SceneUnreadable

HERE = Path(__file__).parent
MAX_BODY = 2048  # an answer's form is under 200 bytes
MAX_FIELDS = 8
NO_STORE = MappingProxyType({"Cache-Control": "no-store"})
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'self'")
PAGE_HEADERS = MappingProxyType({**NO_STORE, "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "same-origin"})
SENT_NOTES = ("sent", "closed", "range", "empty", "option", "limit", "storage", "stale")
MAX_STAMP = 64  # a stamp is "version:phase:expired", about 15 characters; a longer one is no stamp of ours
MAX_STREAMS = 3000  # open streams in one process; past it a phone is told 503 and its script holds /wait instead
STREAM_HOLD_S = 20.0  # a stream's wait between two writes: an idle room gets a comment this often, which keeps the
# proxy's `timeout server 60s` (deploy/haproxy.cfg) from closing it and finds a phone that has gone (its write fails)
STREAM_FLOOR_S = 1.0  # a wait that came back sooner with nothing new (the process holds all it may) pauses this long
RETRY_MS = 2000  # what a browser waits before it opens a dropped stream again (it sends the last stamp it had)
STREAM_HEADERS = MappingProxyType({**NO_STORE, "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff"})


class Phones:
    """The phone's routes over one Poll. `poll()` gives the process's Poll (the pages' own); `wait(request, code,
    since, hold_s=, alive_s=)` holds a request until the room's stamp differs (poll_route.Watch.until_moved);
    `exiting()` says the server is stopping."""

    def __init__(self, poll: Callable[[], Poll], wait: Callable[..., Awaitable[str]] | None = None,
                 root: str = "", exiting: Callable[[], bool] = lambda: False) -> None:
        self.poll = kept_for(poll, POLL_KEPT_S)
        self.wait = wait
        self.exiting = exiting  # the server has been told to stop: a stream ends at once, or a restart waits for it
        self.root = root
        self.environment = template_environment()
        self.css = asset_of(HERE / "static" / "phone.css", "text/css; charset=utf-8")
        self.js = asset_of(HERE / "static" / "phone.js", "text/javascript; charset=utf-8")
        self.assets = {self.css.name: self.css, self.js.name: self.js}
        # a room's page per (code, stamp, language, chosen, base): drawn once a move, in the event loop's own future,
        # however many phones wake for it at once (only the last 512 moves are kept; nothing here is the room's state)
        self.rendered: dict[tuple, asyncio.Future] = {}
        self.streams = 0  # open streams in this process
        self.answers = Answers(self.poll)  # counts an answer (attn_phone/answers.py)

    # --- the pieces ---------------------------------------------------------------------------------------

    def base(self, request: Request) -> str:
        return request.scope.get("root_path", "").rstrip("/") + self.root

    def _langs(self, request: Request, lang: str) -> list[dict]:
        path = request.url.path
        kept = {key: value for key, value in request.query_params.items() if key not in ("lang", "note", "code")}
        return [{"code": code, "name": language(code).name, "current": code == lang,
                 "href": f"{path}?{urlencode({**kept, 'lang': code})}"} for code in supported()]

    def document(self, request: Request, lang: str, main_html: Markup | None = None, join: dict | None = None,
                 csrf: str = "") -> str:
        with using(lang):
            return self.environment.get_template("page.html").render(
                lang=lang, title=_("Class poll · Attention Lab"), brand=_("Attention Lab"), main_html=main_html,
                join=join, langs=self._langs(request, lang), langs_label=_("Language"),
                static={"css": f"{self.base(request)}/j/s/{self.css.name}",
                        "js": f"{self.base(request)}/j/s/{self.js.name}"}, csrf=csrf)

    def room_main(self, request: Request, screen: screens.Screen, lang: str, *, mine: int | None = None,
                  carried: bool = False, csrf: str = "", note: str = "", recap: dict | None = None) -> Markup:
        which = screens.pick(screen, mine, carried)
        facts = {"right": screen.right, "options": len(screen.say)}
        known = mine is not None and 0 <= mine < len(screen.say)
        typed = screen.shown[mine] if screen.kind == "number" and known else ""
        my = {"option": mine, "carried": carried, "say": screen.say[mine] if known else "", "shown": typed}
        with using(lang):
            return Markup(self.environment.get_template("room.html").render(
                screen=screen, facts=json.dumps(facts, ensure_ascii=False, separators=(",", ":")), which=which,
                mine=mine, mine_words=screen.say[mine] if which != "none" else "", csrf=csrf, note=note,
                typed=typed, recap=recap, my=json.dumps(my, ensure_ascii=False, separators=(",", ":")),
                vote_action=f"{self.base(request)}/j/{screen.code}/vote",
                offline=_("Not sent: this phone could not reach the app. Check the connection, then send again."),
                noscript=_("This page asks for the next question by itself when its script runs; without it, "
                           "reload the page for the next question.")))

    def join_form(self, request: Request, lang: str, problem: str = "", typed: str = "", status: int = 200,
                  chosen: bool = False) -> Response:
        last = request.cookies.get(ROOM_COOKIE, "")
        try:
            last = normalise_room_code(last) if last and not problem else ""
        except PollError:
            last = ""
        typed = typed or last
        with using(lang):
            join = {"heading": _("Join a class poll or a live lecture"), "problem": problem, "typed": typed[:20],
                    "label": _("Room code"),
                    "hint": _("The code on the projector: {length} letters and digits.", length=CODE_LENGTH),
                    "button": _("Join"), "action": f"{self.base(request)}/j", "lang": lang if chosen else "",
                    "last": _("Return to room {code}", code=last) if last else "",
                    "last_href": self.room_url(request, last, lang if chosen else None) if last else "",
                    "host_label": _("Open a room as a lecturer"),
                    "host_href": f"{self.base(request)}/Class_poll" + (f"?lang={lang}" if chosen else "")}
        return Response(self.document(request, lang, join=join), status_code=status, media_type="text/html",
                        headers=dict(PAGE_HEADERS))

    def screen_of(self, request: Request, state, lang: str, chosen: bool) -> screens.Screen:
        stamp = stamp_text(state.version, str(state.phase), False)  # a room read is not expired (else RoomExpired)
        return screens.screen(state, stamp, lang, root=self.base(request), lang_in_link=chosen)

    # --- the routes ----------------------------------------------------------------------------------------

    async def join(self, request: Request) -> Response:
        lang, chosen = choose_language(request)
        typed = request.query_params.get("code")
        if typed is None:
            return self.join_form(request, lang, chosen=chosen)
        try:
            with using(lang):
                code = normalise_room_code(typed)
        except PollError as error:
            return self.join_form(request, lang, str(error), typed, 400, chosen)
        return RedirectResponse(self.room_url(request, code, lang if chosen else None), status_code=303,
                                headers=dict(NO_STORE))

    def room_url(self, request: Request, code: str, lang: str | None, **more: str) -> str:
        query = urlencode({**({"lang": lang} if lang else {}), **more})
        return f"{self.base(request)}/j/{code}" + (f"?{query}" if query else "")

    def _voter_cookies(self, request: Request) -> tuple[str, str, bool, bool]:
        voter, csrf = cookie_token(request, VOTER_COOKIE), cookie_token(request, CSRF_COOKIE)
        return (voter or secrets.token_urlsafe(24), csrf or secrets.token_urlsafe(24), voter is None, csrf is None)

    async def page(self, request: Request) -> Response:
        lang, chosen = choose_language(request)
        typed = request.path_params.get("code", "")
        try:
            with using(lang):
                code = normalise_room_code(typed)
        except PollError as error:
            return self.join_form(request, lang, str(error), typed, 404, chosen)
        if code != typed:  # a code typed in lower case, with a dash: the address says it as the projector does
            return RedirectResponse(self.room_url(request, code, lang if chosen else None), status_code=308)
        voter_token, csrf, new_voter, new_csrf = self._voter_cookies(request)
        note_key = request.query_params.get("note", "")
        try:
            main = await run_in_threadpool(self._page_main, request, code, voter_of(voter_token), lang, chosen, csrf,
                                           note_key)
            response = Response(self.document(request, lang, main, csrf=csrf), media_type="text/html",
                                headers=dict(PAGE_HEADERS))
        except (RoomNotFound, RoomExpired) as error:
            return self.join_form(request, lang, str(error), code, 404, chosen)
        except PollError as error:
            response = self.trouble(request, lang, str(error), 429 if isinstance(error, LimitReached) else 503)
        except DatabaseError:
            response = self.trouble(request, lang, self._storage(lang), 503)
        if isinstance(response, Response) and response.status_code == 200 and request.cookies.get(ROOM_COOKIE) != code:
            response.set_cookie(ROOM_COOKIE, code, max_age=12 * 3600, path="/j", httponly=True, samesite="lax",
                                secure=is_secure(request))
        if new_voter:  # on a page that failed too: the phone is the same voter when it tries again
            set_cookie(response, request, VOTER_COOKIE, voter_token, "lax")
        if new_csrf:
            set_cookie(response, request, CSRF_COOKIE, csrf, "strict")
        return response

    def _storage(self, lang: str) -> str:
        with using(lang):
            return _(STORAGE_DOWN)

    def trouble(self, request: Request, lang: str, text: str, status: int) -> Response:
        with using(lang):
            heading, again = _("Class poll"), _("Try again")
        main = Markup(f'<main id="phone" data-kind="trouble" tabindex="-1"><h1>{escape(heading)}</h1>'
                      f'<p class="note" role="alert">{escape(text)}</p>'
                      f'<p><a class="button" href="{escape(str(request.url))}">{escape(again)}</a></p></main>')
        return Response(self.document(request, lang, main), status_code=status, media_type="text/html",
                        headers={**PAGE_HEADERS, "Retry-After": "3"})

    def _page_main(self, request: Request, code: str, voter: str, lang: str, chosen: bool, csrf: str,
                   note_key: str) -> Markup:
        poll = self.poll()
        with using(lang):
            with contextlib.suppress(RoomEnded):  # an ended room takes nobody new; its voters still see their recap
                poll.join(code, voter)
            view = poll.phone_view(code, voter)
            screen = self.screen_of(request, view.state, lang, chosen)
            recap = None
            if view.state.phase is Phase.ENDED and screen.live:
                recap = screens.recap(poll.my_votes(code, voter), lang, poll.question_list(code))
            note = self.sent_note(note_key, view.state) if note_key in SENT_NOTES else ""
            return self.room_main(request, screen, lang, mine=view.my_vote, carried=view.carried, csrf=csrf,
                                  note=note, recap=recap)

    def sent_note(self, key: str, state) -> str:
        """The sentence a phone without JavaScript sees after its post (the key is one of SENT_NOTES)."""
        if key == "sent":
            return _("Sent.")
        if key == "range":
            asked = _question(state, _lang_now())
            if asked is not None and asked.kind == "number":
                return _("Your answer must be a number from {low} to {high}, so nothing was sent.",
                         low=asked.options[0], high=asked.options[-1])
        return {"closed": _("This round is closed, so your vote was not counted."),
                "empty": _("Type a number first, then press Send."),
                "option": _("That is not one of this question's options, so nothing was sent."),
                "limit": _("Too many answers at once: wait a moment, then send again."),
                "storage": _(STORAGE_DOWN),
                "stale": _("This page was open too long to send from. It has been loaded again: send your answer "
                           "once more.")}.get(key, "")

    async def now(self, request: Request) -> Response:
        """This phone's page now, as JSON for the script: {stamp, html} (or {error})."""
        lang, chosen = choose_language(request)
        voter_token = cookie_token(request, VOTER_COOKIE)
        try:
            with using(lang):
                code = normalise_room_code(request.path_params.get("code", ""))
            if voter_token is None:
                raise RoomNotFound("")
            main = await run_in_threadpool(self._page_main, request, code, voter_of(voter_token), lang, chosen, "",
                                           "")
        except RoomNotFound:
            return JSONResponse({"reload": True}, headers=dict(NO_STORE))
        except PollError as error:
            return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
        except DatabaseError:
            return JSONResponse({"error": self._storage(lang)}, status_code=503, headers=dict(NO_STORE))
        return JSONResponse({"html": str(main)}, headers=dict(NO_STORE))

    async def held(self, request: Request) -> Response:
        """Held until the room moves past `since`; then its new stamp and its page (the same for every phone of the
        room in this language: made once, see rendered)."""
        lang, chosen = choose_language(request)
        since = request.query_params.get("since", "")[:64]
        try:
            with using(lang):
                code = normalise_room_code(request.path_params.get("code", ""))
            if self.wait is None:
                stamp = await run_in_threadpool(self._stamp, code)
            else:
                stamp = await self.wait(request, code, since)
        except PollError as error:
            with using(lang):
                return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
        except DatabaseError:
            return JSONResponse({"error": self._storage(lang)}, status_code=503, headers=dict(NO_STORE))
        if stamp == since:
            return JSONResponse({"stamp": stamp}, headers=dict(NO_STORE))
        try:
            told = await self._told(request, code, stamp, lang, chosen)
        except PollError as error:
            with using(lang):
                return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
        except DatabaseError:
            return JSONResponse({"error": self._storage(lang)}, status_code=503, headers=dict(NO_STORE))
        return Response(told, media_type="application/json", headers=dict(NO_STORE))

    async def _told(self, request: Request, code: str, stamp: str, lang: str, chosen: bool) -> bytes:
        """What every phone of the room in this language hears of a move, as JSON: {stamp, html}, or {stamp, mine}
        at the end (every phone's recap is its own). Drawn and encoded once a move, in the event loop's own future,
        however many phones wake for it at once; a failed one is tried again by the next phone."""
        key = (code, stamp, lang, chosen, self.base(request))
        made = self.rendered.get(key)
        if made is None or (made.done() and made.exception() is not None):
            if len(self.rendered) > 512:
                for old in list(self.rendered)[:256]:
                    del self.rendered[old]
            made = self.rendered[key] = asyncio.ensure_future(self._draw_told(request, code, stamp, lang, chosen))
        return made.result() if made.done() else await asyncio.shield(made)

    async def _draw_told(self, request: Request, code: str, stamp: str, lang: str, chosen: bool) -> bytes:
        html = await run_in_threadpool(self._room_html, request, code, lang, chosen)
        told = {"stamp": stamp, "mine": True} if html is None else {"stamp": stamp, "html": html}
        return json.dumps(told, ensure_ascii=False, separators=(",", ":")).encode()

    async def events(self, request: Request) -> Response:
        """The room as a stream of server-sent events, one response a phone for as long as its page is open: at each
        move an event `id: <stamp>` with {stamp, html} (or {stamp, mine}), the same bytes for every phone of the room
        in this language; between moves a comment every STREAM_HOLD_S. A browser that loses the stream opens it again
        after RETRY_MS with the last stamp it had (Last-Event-ID), so nothing is missed. A room that is gone or a
        database that is down ends the stream with a `gone` event; past MAX_STREAMS the answer is 503 (the script
        then holds /wait)."""
        lang, chosen = choose_language(request)
        since = (request.headers.get("last-event-id") or request.query_params.get("since") or "")[:MAX_STAMP]
        try:
            with using(lang):
                code = normalise_room_code(request.path_params.get("code", ""))
            if self.wait is None or self.streams >= MAX_STREAMS:
                return JSONResponse({"error": "busy"}, status_code=503, headers=dict(NO_STORE))
            await run_in_threadpool(self._stamp, code)  # a room that is not there is told now, as a 404
        except PollError as error:
            with using(lang):
                return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
        except DatabaseError:
            return JSONResponse({"error": self._storage(lang)}, status_code=503, headers=dict(NO_STORE))
        return StreamingResponse(self._stream(request, code, since, lang, chosen), media_type="text/event-stream",
                                 headers=dict(STREAM_HEADERS))

    async def _stream(self, request: Request, code: str, since: str, lang: str, chosen: bool):
        self.streams += 1
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            while True:
                try:
                    asked = time.monotonic()
                    stamp = await self.wait(request, code, since, hold_s=STREAM_HOLD_S, alive_s=STREAM_HOLD_S,
                                            streamed=True)
                    if stamp == since:
                        if self.exiting() or await request.is_disconnected():
                            return
                        if time.monotonic() - asked < STREAM_FLOOR_S:  # not held: no spin
                            await asyncio.sleep(STREAM_FLOOR_S)
                        yield b": still here\n\n"
                        continue
                    told = await self._told(request, code, stamp, lang, chosen)
                except PollError as error:
                    with using(lang):  # never across a yield: the language is the context's, and a yield leaves it
                        said = str(error)
                    yield _event("gone", json.dumps({"error": said}, ensure_ascii=False).encode())
                    return
                except DatabaseError:
                    yield _event("gone", json.dumps({"error": self._storage(lang)}, ensure_ascii=False).encode())
                    return
                yield b"id: " + stamp.encode() + b"\ndata: " + told + b"\n\n"
                since = stamp
        finally:
            self.streams -= 1

    def _stamp(self, code: str) -> str:
        version, phase, expired = self.poll().room_stamp(code)[:3]
        return stamp_text(version, phase, expired)

    def _room_html(self, request: Request, code: str, lang: str, chosen: bool) -> str | None:
        with using(lang):
            state = self.poll().state(code)
            screen = self.screen_of(request, state, lang, chosen)
            if state.phase is Phase.ENDED and screen.live:
                return None
            return str(self.room_main(request, screen, lang))

    async def vote(self, request: Request) -> Response:
        lang, __ = choose_language(request)
        wants_json = "application/json" in request.headers.get("accept", "")
        code_typed = request.path_params.get("code", "")
        try:
            with using(lang):
                code = normalise_room_code(code_typed)
        except PollError as error:
            return JSONResponse({"error": str(error)}, status_code=404, headers=dict(NO_STORE))
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            return self.refused(lang, 413, "big")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return self.refused(lang, 413, "big")
        try:
            fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False,
                              max_num_fields=MAX_FIELDS)
        except (UnicodeDecodeError, ValueError):
            return self.refused(lang, 400, "form")
        value = {key: values[-1] for key, values in fields.items()}
        cookie_csrf, voter_token = cookie_token(request, CSRF_COOKIE), cookie_token(request, VOTER_COOKIE)
        if not same_origin(request) or cookie_csrf is None or voter_token is None or not hmac.compare_digest(
                value.get("csrf", "").encode(), cookie_csrf.encode()):
            if not wants_json and same_origin(request):
                return RedirectResponse(self.room_url(request, code, request.query_params.get("lang"), note="stale"),
                                        status_code=303, headers=dict(NO_STORE))
            return self.refused(lang, 403, "stale")
        try:
            position = int(value.get("q", ""))
            int(value.get("r", ""))  # the round the page showed: a form without one is no form of ours (the answer
        except ValueError:           # counts in the round open now on its question, read as it is written)
            return self.refused(lang, 400, "form")
        outcome = await self.answers.count(code, voter_of(voter_token), lang, position, value.get("option"),
                                           value.get("typed"))
        if wants_json:
            return JSONResponse(outcome, status_code=200, headers=dict(NO_STORE))
        return RedirectResponse(self.room_url(request, code, request.query_params.get("lang"),
                                              note=outcome.get("key", "sent")), status_code=303, headers=dict(NO_STORE))

    def refused(self, lang: str, status: int, why: str) -> JSONResponse:
        with using(lang):
            text = {"big": _("That answer is too long to be one of this question's answers, so nothing was sent."),
                    "form": _("That answer could not be read, so nothing was sent."),
                    "stale": _("This page was open too long to send from. Reload it and send your answer once "
                               "more.")}[why]
        return JSONResponse({"sent": False, "note": text, "key": why}, status_code=status, headers=dict(NO_STORE))

    async def asset(self, request: Request) -> Response:
        found = self.assets.get(request.path_params.get("name", ""))
        if found is None:
            return Response("Not found", status_code=404, media_type="text/plain", headers=dict(NO_STORE))
        headers = {"Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff",
                   "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(found.zipped, media_type=found.media, headers={**headers, "Content-Encoding": "gzip"})
        return Response(found.body, media_type=found.media, headers=headers)

    async def old_link(self, request: Request) -> Response:
        """/Class_poll?room=CODE from a QR code printed before: a phone goes to /j/CODE. The room's host (its cookie,
        or a host link) and every other use of the page get Streamlit's own page."""
        room = request.query_params.get("room")
        if room is not None and "host" not in request.query_params:
            try:
                code = normalise_room_code(room)
            except PollError:
                code = None
            if code is not None and f"{HOST_COOKIE_PREFIX}{code}" not in request.cookies:
                lang = language_for(request.query_params.get("lang"))
                return RedirectResponse(self.room_url(request, code, lang), status_code=302, headers=dict(NO_STORE))
        return FileResponse(streamlit_index(), headers={"Cache-Control": "no-cache"})

    def routes(self) -> list[Route]:
        return [Route("/j", self.join, methods=["GET"]),
                Route("/j/s/{name}", self.asset, methods=["GET"]),
                Route("/j/{code}", self.page, methods=["GET"]),
                Route("/j/{code}/vote", self.vote, methods=["POST"]),
                Route("/j/{code}/wait", self.held, methods=["GET"]),
                Route("/j/{code}/events", self.events, methods=["GET"]),
                Route("/j/{code}/now", self.now, methods=["GET"]),
                Route("/Class_poll", self.old_link, methods=["GET"])]


def _event(name: str, data: bytes) -> bytes:
    return b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"


def _question(state, lang: str) -> live.Live | None:
    """The room's current question if it is a lecture's and reads (a stale spec: None, the page says why)."""
    try:
        found = screens.asked(state, lang)
    except SceneUnreadable:
        return None
    return None if found is None else found.question


def _lang_now() -> str:
    from attn_lang import current_language

    return current_language()


__all__ = ["LANGUAGES", "PSEUDO", "Phones"]
