"""The class poll's link to its database and to the browser: one shared Poll, who this browser is, and errors
turned into sentences.

- The Poll (an SQLAlchemy engine inside) is one `st.cache_resource` per database URL: every session of this app
  process shares its connection pool. Nothing about a room is kept in Python: every read is a query, so several
  app processes can serve one room.
- The URL comes from Streamlit secrets (`poll_database_url`), else from ATTN_LAB_DATABASE_URL, else SQLite. On
  PostgreSQL, ATTN_LAB_DATABASE_SCHEMA names a schema of its own for the poll's tables (several courses, or test
  runs, in one database); the public schema without it.
- A lecturer's browser is recognised without an account (opener_keys); a phone's by the phone's page (attn_phone).

Session state used here:
    poll.host    (room code, host secret) of the room this session controls, once the host link was checked
    poll.url     the database URL this session uses (secrets or environment, read once)
    poll.touched when this host page last told the database it is still there (time.monotonic)
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import time
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from attn_poll import DatabaseError, Poll, PollError, StorageError, open_store, resolve_url

SECRET_NAME = "poll_database_url"
XSRF_COOKIE = "_streamlit_xsrf"  # Streamlit's own cookie: one random token per browser, set before the page runs
HOST_KEY = "poll.host"
URL_KEY = "poll.url"
BROWSER_SALT = b"attn-lab class poll voter\x00"  # the raw cookie token never leaves this process
STORAGE_DOWN = "The class poll cannot reach its database right now. It is reconnecting; this page retries by itself."

Value = TypeVar("Value")


def database_url() -> str:
    """Secrets first (a deployment's own setting), then the environment, then the SQLite file."""
    try:
        configured = st.secrets.get(SECRET_NAME)
    except (FileNotFoundError, KeyError):  # no secrets file: that is the usual case, not an error
        configured = None
    return resolve_url(configured if isinstance(configured, str) and configured.strip() else None)


SCHEMA_ENV = "ATTN_LAB_DATABASE_SCHEMA"


def _schema() -> str | None:
    name = os.environ.get(SCHEMA_ENV, "").strip()
    return name if name and url_is_postgresql(database_url()) else None


def url_is_postgresql(url: str) -> bool:
    return url.startswith("postgresql")


@st.cache_resource(show_spinner=False, max_entries=4)
def _poll_for(url: str, schema: str | None = None) -> Poll:
    """One Poll per database for the whole app process. A failure is not cached, so the next run tries again."""
    return Poll(open_store(url, schema=schema))


def process_poll() -> Poll:
    """The shared Poll outside any session (the phones' HTTP route): the same engine the pages use."""
    return _poll_for(database_url(), _schema())


def poll() -> Poll:
    """The shared Poll; StorageError (a sentence for the page) when the database cannot be reached. The URL is
    looked up once per session (reading secrets on every idle phone poll cost more than the poll's query)."""
    url = st.session_state.get(URL_KEY)
    if not isinstance(url, str):
        url = st.session_state[URL_KEY] = database_url()
    try:
        return _poll_for(url, _schema())
    except StorageError:
        raise
    except DatabaseError as error:  # e.g. a server that refuses the connection at start
        raise StorageError(STORAGE_DOWN) from error


def attempt(work: Callable[[], Value]) -> tuple[Value | None, PollError | None]:
    """Run a poll call; a PollError (or a storage failure as one) comes back to be shown, never as a traceback."""
    try:
        return work(), None
    except PollError as error:
        return None, error
    except DatabaseError:
        return None, StorageError(STORAGE_DOWN)


# --- who is this browser ------------------------------------------------------------------------------------


def browser_token() -> bytes | None:
    """The random token inside Streamlit's XSRF cookie, or None when there is none.

    Streamlit sets `_streamlit_xsrf` (format "2|mask|masked token|time") on the first request of a browser and
    keeps the same 16 random bytes for as long as the browser keeps the cookie, in every tab. Only the mask
    changes between requests, so unmasking gives the same token in a reload and in a second tab.
    """
    raw = st.context.cookies.get(XSRF_COOKIE) or ""
    parts = raw.strip("\"'").split("|")
    if len(parts) != 4 or parts[0] != "2":
        return None
    try:
        mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
    except ValueError:
        return None
    if len(mask) != 4 or len(masked) < 16:
        return None
    return bytes(byte ^ mask[i % 4] for i, byte in enumerate(masked))


def opener_keys() -> tuple[str, ...]:
    """Who opens a room, for its opening limits: this browser (when it sent the cookie) and the client address.

    The address is st.context.ip_address: the websocket's peer, or, behind a proxy on this machine, what its
    X-Forwarded-For says (uvicorn trusts a proxy on 127.0.0.1 only). Loopback reads as None: one local address."""
    token = browser_token()
    keys = [] if token is None else ["browser:" + hashlib.sha256(BROWSER_SALT + token).hexdigest()]
    keys.append(address_key(st.context.ip_address))
    return tuple(keys)


IPV6_NETWORK_BITS = 64  # what one home, phone or server is given: its addresses are one opener


def address_key(address: object) -> str:
    """The opening limit's key for a client address. An IPv6 address counts as its /64 network: one subscriber,
    phone or server holds a whole /64 and can take a new address from it at will, so a flooder rotating addresses
    inside it stays one opener. An IPv4 address (also one written as IPv6, ::ffff:a.b.c.d) counts as itself. No
    address, or one that does not parse (AppTest gives none), is the one local address."""
    try:
        parsed = ipaddress.ip_address(address) if isinstance(address, str) and address else None
    except ValueError:
        parsed = None
    if parsed is None:
        return "address:local"
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    if isinstance(parsed, ipaddress.IPv6Address):
        network = ipaddress.IPv6Network((parsed, IPV6_NETWORK_BITS), strict=False)
        return f"address:{network}"
    return f"address:{parsed}"


# --- the host -----------------------------------------------------------------------------------------------


def remember_host(code: str, host_secret: str) -> None:
    st.session_state[HOST_KEY] = (code, host_secret)


TOUCHED_KEY = "poll.touched"  # when this session last told the database its host page is still there


def touch(code: str, host_secret: str) -> None:
    """Tell the database the host page is still there (a lobby waiting for its class must not close early), at
    most once per Limits.touch_every_s a session."""
    every = poll().limits.touch_every_s
    last = st.session_state.get(TOUCHED_KEY)
    if isinstance(last, float) and time.monotonic() - last < every:
        return
    __, error = attempt(lambda: poll().touch_host(code, host_secret))
    if error is None:
        st.session_state[TOUCHED_KEY] = time.monotonic()


def host_secret_for(code: str) -> str | None:
    stored = st.session_state.get(HOST_KEY)
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == code:
        return stored[1]
    return None


def show_problem(error: PollError | str | None) -> None:
    """A poll error as a box: storage trouble is a passing note, anything else a plain refusal."""
    if not error:
        return
    if isinstance(error, StorageError):
        st.warning(str(error), icon=":material/sync:")
    else:
        st.error(str(error), icon=":material/error:")
