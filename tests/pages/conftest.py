"""What the class poll's and the live lecture's AppTest tests share: a temp SQLite file the app opens, and a Poll on it
(students other than the one on the page vote through it, as other app processes would)."""

from __future__ import annotations

import pytest

from attn_poll import Poll, open_store


@pytest.fixture
def db_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'poll.sqlite3'}"
    monkeypatch.setenv("ATTN_LAB_DATABASE_URL", url)
    return url


@pytest.fixture
def poll(db_url) -> Poll:
    return Poll(open_store(db_url))
