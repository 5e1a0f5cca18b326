"""What the class poll's and the live lecture's AppTest tests share: a database the app opens (a temp SQLite file, and
PostgreSQL in a schema of the test's own when ATTN_TEST_DATABASE_URL is set), and a Poll on it (students other than
the one on the page vote through it, as other app processes would)."""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from attn_poll import Poll, open_store
from attn_ui.views.poll_service import SCHEMA_ENV


@pytest.fixture(params=("sqlite", "postgresql"))
def db_url(request, tmp_path, monkeypatch) -> str:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'poll.sqlite3'}"
        monkeypatch.setenv("ATTN_LAB_DATABASE_URL", url)
        monkeypatch.delenv(SCHEMA_ENV, raising=False)
        yield url
        return
    url = os.environ.get("ATTN_TEST_DATABASE_URL", "").strip()
    if not url:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("REQUIRE_POSTGRES=1 but ATTN_TEST_DATABASE_URL is not set", pytrace=False)
        pytest.skip("ATTN_TEST_DATABASE_URL is not set (`bash scripts/test_postgres.sh` prints one)")
    schema = f"page_test_{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("ATTN_LAB_DATABASE_URL", url)
    monkeypatch.setenv(SCHEMA_ENV, schema)
    yield url
    from attn_ui.views import poll_service

    poll_service._poll_for.clear()  # the app's engine on this schema: its pool goes with the test
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))  # our own generated name
    finally:
        engine.dispose()


@pytest.fixture
def poll(db_url) -> Poll:
    return Poll(open_store(db_url, schema=os.environ.get(SCHEMA_ENV) or None))
