"""Where the rooms live: an SQLAlchemy engine, transactions that retry, and the schema made at start.

SQLite by default (a file in the user's cache folder, never next to the app), PostgreSQL when
ATTN_LAB_DATABASE_URL (or the url argument) says so. Nothing here caches a result: every read is a query.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, exc, insert, select, text, update
from sqlalchemy.schema import DDL, CreateSchema

from attn_lang import N_, _
from attn_poll import schema as tables
from attn_poll.errors import Busy, Reconnecting, SchemaTooNew

URL_ENV = "ATTN_LAB_DATABASE_URL"
DatabaseError = exc.SQLAlchemyError  # what a page catches when the database itself fails, without importing SQLAlchemy
SQLITE_BUSY_TIMEOUT_MS = 5_000  # how long SQLite itself waits for the one writer before saying "locked"
BUSY_DEADLINE_S = 15.0  # our retries on top of that; after this a student sees a Busy message
POOL_SIZE = 15  # connections a process keeps to its database at most; size PostgreSQL's max_connections by it
WRITE_OPTION = "attn_poll_write"  # execution option: this transaction writes (SQLite takes the write lock at BEGIN)
RECONNECTING = N_("The class poll lost its connection to the database and is reconnecting; try again in a moment.")
BUSY = N_("The class poll is very busy right now; try again in a second.")


def _add_columns_v2(connection: Connection) -> None:
    """Version 1 -> 2: per-voter vote buckets and the room's last host touch (poll_openers is new: create_all).
    %(fullname)s is the table's name as SQLAlchemy quotes it, in the store's schema; FLOAT is a double in both."""
    connection.execute(DDL("ALTER TABLE %(fullname)s ADD COLUMN vote_tokens FLOAT").against(tables.voters))
    connection.execute(DDL("ALTER TABLE %(fullname)s ADD COLUMN tokens_at FLOAT").against(tables.voters))
    connection.execute(DDL("ALTER TABLE %(fullname)s ADD COLUMN touched_at FLOAT").against(tables.rooms))


def _add_columns_v3(connection: Connection) -> None:
    """Version 2 -> 3: the room's activity count (joins and votes) and the phase a question was left in."""
    connection.execute(DDL("ALTER TABLE %(fullname)s ADD COLUMN activity INTEGER NOT NULL DEFAULT 0")
                       .against(tables.rooms))
    connection.execute(DDL("ALTER TABLE %(fullname)s ADD COLUMN left_phase VARCHAR(12)").against(tables.questions))


# UPGRADES[v - 1]: version v -> v + 1
UPGRADES: tuple[Callable[[Connection], None], ...] = (_add_columns_v2, _add_columns_v3)

Result = TypeVar("Result")


def default_sqlite_path() -> Path:
    """A file in the user's cache folder (or the temp folder), so the app writes nothing next to its own files."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for folder in (Path(cache) / "attn-lab", Path(tempfile.gettempdir()) / "attn-lab"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder / "poll.sqlite3"
    raise OSError("no writable cache or temp folder for the class poll's database")


def resolve_url(url: str | None = None) -> str:
    """The database to use: the argument (e.g. from Streamlit secrets), else the environment, else SQLite."""
    chosen = url or os.environ.get(URL_ENV, "").strip()
    return chosen or f"sqlite:///{default_sqlite_path()}"


def make_engine(url: str, *, schema: str | None = None, application_name: str = "attn-lab-poll",
                sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Engine:
    """An engine with pre-ping, hidden parameters (no voter hash in an error message) and SQLite's settings."""
    is_sqlite = url.startswith("sqlite")
    connect_args = {} if is_sqlite else {"application_name": application_name, "connect_timeout": 5}
    engine = create_engine(
        url,
        # no ping at checkout (a round trip before every transaction): a connection the server dropped fails its
        # first statement, which invalidates the pool's older connections, and Store._run retries once
        pool_pre_ping=False,
        pool_size=POOL_SIZE,  # kept open once opened: a connection closed after each burst is opened again in the
        max_overflow=0,  # next one (a PostgreSQL backend started, each time 150 phones redraw at once)
        pool_timeout=10,
        hide_parameters=True,
        connect_args=connect_args,
    )
    if is_sqlite:
        _configure_sqlite(engine, int(sqlite_busy_timeout_ms))
    if schema is not None:
        if is_sqlite:
            raise ValueError("a schema name is for PostgreSQL; give SQLite its own file instead")
        engine = engine.execution_options(schema_translate_map={None: schema})
    return engine


def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (below), so pysqlite must not
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {busy_timeout_ms:d}")  # first, so the next line waits too
        cursor.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
        cursor.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; a power cut may lose the last commits
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        # A deferred transaction that reads then writes can fail at once with "locked" (no busy wait);
        # taking the write lock at BEGIN makes writers queue on the busy timeout instead.
        if connection.get_execution_options().get(WRITE_OPTION, False):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")


def _sqlite_busy(error: exc.DBAPIError) -> bool:
    message = str(error.orig).lower()
    return isinstance(error.orig, sqlite3.OperationalError) and ("locked" in message or "busy" in message)


def _connection_lost(error: exc.DBAPIError) -> bool:
    if error.connection_invalidated:
        return True
    is_sqlite = isinstance(error.orig, sqlite3.Error)
    return not is_sqlite and isinstance(error, exc.OperationalError | exc.InterfaceError)


def _serialization_failure(error: exc.DBAPIError) -> bool:
    return getattr(error.orig, "sqlstate", None) in ("40001", "40P01")  # PostgreSQL: retry the transaction


@dataclass(frozen=True)
class Store:
    """An engine plus the transaction rules every poll query goes through."""

    engine: Engine
    schema: str | None = None
    busy_deadline_s: float = BUSY_DEADLINE_S

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def read(self, work: Callable[[Connection], Result]) -> Result:
        return self._run(work, writes=False)

    def write(self, work: Callable[[Connection], Result]) -> Result:
        return self._run(work, writes=True)

    def _run(self, work: Callable[[Connection], Result], *, writes: bool) -> Result:
        """One transaction; retried while SQLite is locked (up to a deadline) and once after a lost connection."""
        deadline = time.monotonic() + self.busy_deadline_s
        reconnected = False
        pause = 0.005
        while True:
            try:
                with self.engine.connect() as connection:
                    connection.execution_options(**{WRITE_OPTION: writes})
                    with connection.begin():
                        return work(connection)
            except exc.TimeoutError as error:  # every pooled connection busy for pool_timeout seconds
                raise Busy(_(BUSY)) from error
            except exc.DBAPIError as error:
                if _sqlite_busy(error) or _serialization_failure(error):
                    if time.monotonic() + pause > deadline:
                        raise Busy(_(BUSY)) from error
                    time.sleep(pause * (1 + secrets.randbelow(100) / 100))  # jitter: writers do not retry in step
                    pause = min(pause * 2, 0.2)
                    continue
                if _connection_lost(error):
                    if reconnected:
                        raise Reconnecting(_(RECONNECTING)) from error
                    reconnected = True
                    continue
                raise

    def lock_for_transaction(self, connection: Connection, purpose: str) -> None:
        """PostgreSQL: one transaction at a time per purpose and schema, until commit. SQLite: BEGIN IMMEDIATE
        already lets only one writer in."""
        if self.dialect == "postgresql":
            key = zlib.crc32(f"attn_poll:{self.schema or 'public'}:{purpose}".encode())
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})

    def ensure_schema(self) -> int:
        """Create or upgrade the tables; safe to call from several processes at once. Returns the version."""
        return self.write(self._ensure_schema)

    def _ensure_schema(self, connection: Connection) -> int:
        # DDL from two processes at once can collide in PostgreSQL's catalogue; one waits for the other.
        self.lock_for_transaction(connection, "schema")
        if self.dialect == "postgresql" and self.schema is not None:
            connection.execute(CreateSchema(self.schema, if_not_exists=True))
        tables.metadata.create_all(connection, checkfirst=True)
        meta = tables.meta
        found = connection.execute(select(meta.c.value).where(meta.c.name == "schema_version")).scalar_one_or_none()
        if found is None:
            connection.execute(insert(meta).values(name="schema_version", value=tables.SCHEMA_VERSION))
            return tables.SCHEMA_VERSION
        if found > tables.SCHEMA_VERSION:
            raise SchemaTooNew(_("The class poll's database was set up by a newer version of the app."))
        for version in range(found, tables.SCHEMA_VERSION):
            UPGRADES[version - 1](connection)
        if found != tables.SCHEMA_VERSION:
            connection.execute(
                update(meta).where(meta.c.name == "schema_version").values(value=tables.SCHEMA_VERSION)
            )
        return tables.SCHEMA_VERSION


def open_store(url: str | None = None, *, schema: str | None = None, application_name: str = "attn-lab-poll",
               sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS, busy_deadline_s: float = BUSY_DEADLINE_S) -> Store:
    """The store for `url` (see resolve_url), with its schema created or upgraded."""
    engine = make_engine(resolve_url(url), schema=schema, application_name=application_name,
                         sqlite_busy_timeout_ms=sqlite_busy_timeout_ms)
    store = Store(engine, schema=schema, busy_deadline_s=busy_deadline_s)
    store.ensure_schema()
    return store
