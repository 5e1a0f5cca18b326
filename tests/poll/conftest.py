"""Every poll test runs on both databases: SQLite in a temp file and PostgreSQL from ATTN_TEST_DATABASE_URL.

PostgreSQL tests get a schema of their own (dropped afterwards), so pytest-xdist workers can share one database.
Without the URL they skip, except under REQUIRE_POSTGRES=1 (CI), where a missing server is a failure.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import create_engine, text

from attn_poll import Poll, Store, open_store

BACKENDS = ("sqlite", "postgresql")
START = 1_800_000_000.0  # the fake clock's first reading: a fixed Friday in 2027


@dataclass(frozen=True)
class Database:
    backend: str
    url: str
    schema: str | None  # PostgreSQL: this test's own schema
    application_name: str  # PostgreSQL: lets a test find (and kill) its own connections


class FakeClock:
    """time.time for the rules, moved by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def postgres_url() -> str:
    url = os.environ.get("ATTN_TEST_DATABASE_URL", "").strip()
    if not url:
        reason = "ATTN_TEST_DATABASE_URL is not set (`bash scripts/test_postgres.sh` starts a server and prints one)"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return url


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path) -> Iterator[Database]:
    tag = uuid.uuid4().hex[:12]
    if request.param == "sqlite":
        yield Database("sqlite", f"sqlite:///{tmp_path / 'poll.sqlite3'}", None, f"poll-test-{tag}")
        return
    url = postgres_url()
    schema = f"poll_test_{tag}"
    yield Database("postgresql", url, schema, f"poll-test-{tag}")
    admin = create_engine(url)
    try:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))  # our own generated name
    finally:
        admin.dispose()


@pytest.fixture
def open_test_store(database) -> Iterator:
    """Open as many stores (engines) on the test's database as a test needs; all disposed at the end."""
    stores: list[Store] = []

    def opener(**kwargs) -> Store:
        store = open_store(database.url, schema=database.schema, application_name=database.application_name,
                           **kwargs)
        stores.append(store)
        return store

    yield opener
    for store in stores:
        store.engine.dispose()


@pytest.fixture
def store(open_test_store) -> Store:
    return open_test_store()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def poll(store, clock) -> Poll:
    return Poll(store, clock=clock)


@pytest.fixture
def kill_connections(database):
    """pg_terminate_backend on every connection this test's stores opened, as a database restart would."""

    def kill() -> int:
        admin = create_engine(postgres_url())
        try:
            with admin.begin() as connection:
                return len(connection.execute(
                    text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :name"),
                    {"name": database.application_name},
                ).all())
        finally:
            admin.dispose()

    return kill
