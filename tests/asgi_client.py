"""A small HTTP client for an ASGI app in this process: requests in, status, headers and body out, with a cookie
jar of one browser. (Starlette's TestClient needs a package the app does not use.)"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    cookies_set: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self):
        return json.loads(self.body)

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


def run(coroutine):
    """Run a coroutine on an event loop of its own, in a thread of its own (pytest's may already run one)."""
    box = {}

    def target() -> None:
        box["value"] = asyncio.run(coroutine)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    return box["value"]


class Client:
    def __init__(self, app, host: str = "testserver", scheme: str = "http") -> None:
        self.app, self.host, self.scheme = app, host, scheme
        self.cookies: dict[str, str] = {}

    def request(self, method: str, url: str, headers: dict[str, str] | None = None, body: bytes = b"",
                chunks: list[bytes] | None = None) -> Answer:
        return run(self._request(method, url, headers or {}, body, chunks))

    def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", url, headers)

    def post(self, url: str, data: dict[str, str] | bytes, headers: dict[str, str] | None = None) -> Answer:
        body = data if isinstance(data, bytes) else urlencode(data).encode()
        sent = {"content-type": "application/x-www-form-urlencoded", "content-length": str(len(body)),
                **(headers or {})}
        return self.request("POST", url, sent, body)

    async def _request(self, method, url, headers, body, chunks) -> Answer:
        parts = urlsplit(url)
        sent = {"host": self.host, **{key.lower(): value for key, value in headers.items()}}
        if self.cookies and "cookie" not in sent:
            sent["cookie"] = "; ".join(f"{key}={value}" for key, value in self.cookies.items())
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": self.scheme, "path": parts.path, "raw_path": parts.path.encode(),
                 "query_string": parts.query.encode(), "root_path": "", "server": (self.host, 80),
                 "client": ("127.0.0.1", 50000),
                 "headers": [(key.encode(), value.encode()) for key, value in sent.items()]}
        pieces = list(chunks) if chunks is not None else [body]
        messages = [{"type": "http.request", "body": piece, "more_body": i < len(pieces) - 1}
                    for i, piece in enumerate(pieces)]
        out: dict = {"body": b"", "headers": {}, "set": []}

        async def receive():
            if messages:
                return messages.pop(0)
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                out["status"] = message["status"]
                for key, value in message.get("headers", []):
                    name, text = key.decode().lower(), value.decode()
                    if name == "set-cookie":
                        out["set"].append(text)
                    out["headers"][name] = text
            elif message["type"] == "http.response.body":
                out["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        for line in out["set"]:
            cookie = SimpleCookie()
            cookie.load(line)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return Answer(out["status"], out["headers"], out["body"], out["set"])


def visible_text(html: str) -> str:
    """A page's text as a person reads it: tags, scripts and hidden variants left out, spaces collapsed."""
    import re
    from html import unescape

    html = re.sub(r'<p class="said"[^>]*\bhidden\b[^>]*>.*?</p>', "", html, flags=re.S)
    html = re.sub(r"<(script|style|noscript)[^>]*>.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"</?(strong|em|span|code|sup)\b[^>]*>", "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


class Phone:
    """A student's phone on the phone's page (attn_phone) of one room, over a Poll: a browser of its own."""

    def __init__(self, poll, code: str, lang: str = "") -> None:
        from starlette.applications import Starlette

        from attn_phone.routes import Phones

        self.poll = poll
        self.client = Client(Starlette(routes=Phones(lambda: poll).routes()))
        self.code = code
        self.query = f"?lang={lang}" if lang else ""
        self.html = ""
        self.open()

    def served_anew(self) -> None:
        """The same browser (its cookies) on a process that starts now: nothing of the room kept in the app."""
        from starlette.applications import Starlette

        from attn_phone.routes import Phones

        self.client.app = Starlette(routes=Phones(lambda: self.poll).routes())

    def open(self) -> str:
        """Load the page (a reload, or the next question for a phone without its script); its visible text."""
        self.html = self.client.get(f"/j/{self.code}{self.query}").text
        return self.text

    @property
    def text(self) -> str:
        return visible_text(self.html)

    def _round(self) -> tuple[str, str]:
        import re

        found = re.search(r'data-q="(-?\d+)" data-r="(\d+)"', self.html)
        return (found[1], found[2]) if found else ("-1", "0")

    def send(self, **fields: str) -> dict:
        """Post an answer as the page's script does (the round the page shows); the reply, then the page again."""
        q, r = self._round()
        data = {"csrf": self.client.cookies.get("attn_csrf", ""), "q": q, "r": r, **fields}
        told = self.client.post(f"/j/{self.code}/vote{self.query}", data,
                                headers={"Accept": "application/json", "Origin": "http://testserver"}).json()
        self.open()
        return told

    def number(self, typed: str) -> dict:
        return self.send(typed=typed)

    def choose(self, option: int) -> dict:
        return self.send(option=str(option))

    def links(self) -> list[str]:
        import re
        from html import unescape

        return [unescape(href) for href in re.findall(r'<a[^>]*href="([^"]*)"', self.html)]
