"""The store on both databases: where it writes, SQLite's settings, the schema at start, load and faults."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.schema import DDL

import attn_poll
from attn_poll import Busy, Poll, Reconnecting, SchemaTooNew, open_store, resolve_url
from attn_poll.schema import SCHEMA_VERSION, meta, metadata
from attn_poll.schema import questions as questions_table
from attn_poll.schema import rooms as rooms_table
from attn_poll.store import URL_ENV, Store, default_sqlite_path

REPO = Path(__file__).resolve().parents[2]
VOTERS = 150
QUESTIONS_FOR_LOAD = (("masks.causal", 4),)
# A server that drops connections is PostgreSQL's fault; SQLite has no server (its faults are the lock tests).
POSTGRES_ONLY = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


# --- where and how -------------------------------------------------------------------------------------


def test_the_default_database_is_a_sqlite_file_outside_the_app(monkeypatch, tmp_path):
    monkeypatch.delenv(URL_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert resolve_url() == f"sqlite:///{tmp_path / 'cache' / 'attn-lab' / 'poll.sqlite3'}"
    assert REPO not in default_sqlite_path().parents
    monkeypatch.setenv(URL_ENV, "postgresql+psycopg://someone@db/poll")
    assert resolve_url() == "postgresql+psycopg://someone@db/poll"
    assert resolve_url("sqlite:///given.sqlite3") == "sqlite:///given.sqlite3"  # e.g. from Streamlit secrets


def test_the_cache_folder_falls_back_to_the_temp_folder(monkeypatch, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path / "temp"))
    assert default_sqlite_path() == tmp_path / "temp" / "attn-lab" / "poll.sqlite3"


def test_every_sqlite_connection_has_wal_and_a_busy_timeout(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    connections = [store.engine.connect() for _ in range(3)]  # three pooled connections, each set up apart
    try:
        for connection in connections:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        for connection in connections:
            connection.close()
        store.engine.dispose()


def test_attn_poll_never_imports_streamlit():
    code = "import sys, attn_poll, attn_poll.qr; assert 'streamlit' not in sys.modules, 'streamlit imported'"
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def poll_sources() -> list[Path]:
    return sorted((REPO / "attn_poll").glob("*.py"))


@pytest.mark.parametrize("path", poll_sources(), ids=lambda p: p.name)
def test_raw_sql_is_a_fixed_string_and_module_globals_are_constants(path):
    """text()/exec_driver_sql only with a literal (values go in as bind parameters); no mutable module state."""
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        sql = node.args[0]
        if name in ("text", "exec_driver_sql"):
            assert isinstance(sql, ast.Constant), f"{path.name}:{node.lineno}: SQL that is not a fixed string"
        if name == "execute" and isinstance(sql, ast.JoinedStr):  # a PRAGMA takes no bind parameter
            formats = [part.format_spec for part in sql.values if isinstance(part, ast.FormattedValue)]
            assert all(isinstance(spec, ast.JoinedStr) and spec.values[0].value == "d" for spec in formats), (
                f"{path.name}:{node.lineno}: only whole numbers ({{x:d}}) may be formatted into SQL")
    module = __import__(f"attn_poll.{path.stem}" if path.stem != "__init__" else "attn_poll", fromlist=["_"])
    mutable = {name: type(value).__name__ for name, value in vars(module).items()
               if not name.startswith("__") and isinstance(value, dict | list | set | bytearray)}
    assert not mutable, f"{path.name} keeps mutable module state: {mutable}"


# --- the schema -------------------------------------------------------------------------------------


def schema_rows(store: Store) -> list:
    return store.read(lambda c: c.execute(select(meta.c.name, meta.c.value)).all())


def test_the_schema_is_made_once_however_often_it_is_asked_for(store, open_test_store):
    assert store.ensure_schema() == SCHEMA_VERSION
    assert open_test_store().ensure_schema() == SCHEMA_VERSION
    assert schema_rows(store) == [("schema_version", SCHEMA_VERSION)]


def test_two_processes_starting_at_once_make_the_schema_once(database):
    barrier = threading.Barrier(2)
    stores, errors = [], []

    def start() -> None:
        barrier.wait()
        try:
            stores.append(open_store(database.url, schema=database.schema))
        except Exception as error:  # noqa: BLE001  reported below, with the other thread's result
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert not errors, errors
        assert len(stores) == 2 and schema_rows(stores[0]) == [("schema_version", SCHEMA_VERSION)]
        names = stores[0].read(lambda c: sorted(c.dialect.get_table_names(c, schema=database.schema)))
        assert names == sorted(table.name for table in metadata.sorted_tables)
    finally:
        for store in stores:
            store.engine.dispose()


def test_a_version_2_database_is_upgraded_with_its_rooms_kept(store):
    """A database made before version 3 (no rooms.activity, no questions.left_phase) gains both columns, and its rooms
    and votes carry on: a lecture served while the app is updated keeps going."""
    poll = Poll(store)
    room = poll.create_room(QUESTIONS_FOR_LOAD)
    poll.next_question(room.code, room.host_secret)
    poll.vote(room.code, "phone-a", 0, 1, 2)

    def downgrade(connection) -> None:
        connection.execute(DDL("ALTER TABLE %(fullname)s DROP COLUMN activity").against(rooms_table))
        connection.execute(DDL("ALTER TABLE %(fullname)s DROP COLUMN left_phase").against(questions_table))
        connection.execute(update(meta).values(value=2))

    store.write(downgrade)
    assert store.ensure_schema() == SCHEMA_VERSION == 3
    assert schema_rows(store) == [("schema_version", SCHEMA_VERSION)]
    before = poll.board_stamp(room.code)
    assert before[3] == 0  # the column's default for the rooms already there
    poll.vote(room.code, "phone-b", 0, 1, 1)
    assert poll.board_stamp(room.code)[3] == 2  # phone-b joined and voted
    assert poll.counts(room.code).rounds == ((0, 1, 1, 0),)


def test_a_newer_schema_is_not_touched(store):
    store.write(lambda c: c.execute(update(meta).values(value=SCHEMA_VERSION + 1)))
    with pytest.raises(SchemaTooNew, match="newer version"):
        store.ensure_schema()


# --- load ---------------------------------------------------------------------------------------------


def test_150_voters_within_seconds_lose_no_vote(store):
    """Every voter joins, votes and half of them change their mind, all within about three seconds."""
    poll = Poll(store)
    room = poll.create_room(QUESTIONS_FOR_LOAD)
    poll.next_question(room.code, room.host_secret)
    barrier = threading.Barrier(VOTERS)
    began = time.monotonic()

    def student(number: int) -> None:
        barrier.wait()
        time.sleep(number * 2.0 / VOTERS)  # spread over 2 s, as a room does after "vote now"
        poll.join(room.code, f"phone-{number}")
        poll.vote(room.code, f"phone-{number}", 0, 1, number % 4)
        if number % 2:
            poll.vote(room.code, f"phone-{number}", 0, 1, (number + 1) % 4)

    with ThreadPoolExecutor(max_workers=VOTERS) as pool:
        list(pool.map(student, range(VOTERS)))  # list(): re-raises any student's error here
    took = time.monotonic() - began
    expected = [0, 0, 0, 0]
    for number in range(VOTERS):
        expected[(number + 1) % 4 if number % 2 else number % 4] += 1
    view = poll.projector_view(room.code)
    assert view.counts.rounds == (tuple(expected),) and view.state.voter_count == VOTERS
    assert took < 15, f"150 voters took {took:.1f} s"


# --- faults -------------------------------------------------------------------------------------------


def test_a_held_sqlite_write_lock_makes_voters_wait_not_fail(tmp_path):
    path = tmp_path / "p.sqlite3"
    poll = Poll(open_store(f"sqlite:///{path}"))
    room = poll.create_room(QUESTIONS_FOR_LOAD)
    poll.next_question(room.code, room.host_secret)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process holds the one write lock
    release = threading.Timer(0.8, lambda: other.execute("COMMIT"))
    release.start()
    began = time.monotonic()
    poll.vote(room.code, "phone-a", 0, 1, 1)
    assert time.monotonic() - began >= 0.7  # it waited for the lock and then voted
    release.join()
    other.close()
    assert poll.counts(room.code).rounds[0][1] == 1
    poll.store.engine.dispose()


def test_a_lock_held_too_long_is_a_busy_message_not_database_is_locked(tmp_path):
    path = tmp_path / "p.sqlite3"
    poll = Poll(open_store(f"sqlite:///{path}", sqlite_busy_timeout_ms=50, busy_deadline_s=0.3))
    room = poll.create_room(QUESTIONS_FOR_LOAD)
    poll.next_question(room.code, room.host_secret)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(Busy, match="very busy right now") as raised:
            poll.vote(room.code, "phone-a", 0, 1, 1)
        assert "locked" not in str(raised.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
    poll.vote(room.code, "phone-a", 0, 1, 1)
    assert poll.counts(room.code).rounds[0][1] == 1
    poll.store.engine.dispose()


@POSTGRES_ONLY
def test_a_killed_idle_connection_is_replaced_unseen(database, store, kill_connections):
    poll = Poll(store)
    room = poll.create_room(QUESTIONS_FOR_LOAD)
    poll.next_question(room.code, room.host_secret)
    poll.vote(room.code, "phone-a", 0, 1, 1)
    assert kill_connections() >= 1
    poll.vote(room.code, "phone-b", 0, 1, 1)  # pre-ping finds the dead connection and opens a new one
    assert poll.counts(room.code).rounds == ((0, 2, 0, 0),)


@POSTGRES_ONLY
def test_a_connection_killed_mid_transaction_is_retried_once(database, store, kill_connections):
    attempts = []

    def work(connection):
        attempts.append(connection.execute(select(func.pg_backend_pid())).scalar_one())
        if len(attempts) == 1:
            kill_connections()
        return connection.execute(select(func.count()).select_from(meta)).scalar_one()

    assert store.read(work) == 1
    assert len(attempts) == 2 and attempts[0] != attempts[1]


@POSTGRES_ONLY
def test_a_connection_that_keeps_dying_says_reconnecting(database, store, kill_connections):

    def work(connection):
        kill_connections()
        return connection.execute(select(1)).scalar_one()

    with pytest.raises(Reconnecting, match="reconnecting"):
        store.read(work)
    assert store.read(lambda c: c.execute(select(1)).scalar_one()) == 1  # and then it comes back


def test_a_database_that_is_down_says_reconnecting():
    store = Store(attn_poll.store.make_engine("postgresql+psycopg://nobody:x@127.0.0.1:9/none"))
    with pytest.raises(Reconnecting, match="reconnecting"):
        store.ensure_schema()
    store.engine.dispose()
