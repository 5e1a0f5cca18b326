"""The class poll survives its app server restarting mid-round, on PostgreSQL, with real phone pages.

One phone votes, the server is stopped and started again on the same port, the phones (the phone's page, attn_phone)
keep their page and ask again by themselves, and the other two vote: every vote is counted once, none is lost, and
the first phone still shows its vote, also after a reload.
"""

from __future__ import annotations

import os
import subprocess
import time

import harness
import pytest
from test_poll_browser import open_phone, vote

from attn_poll import Poll, open_store

pytestmark = pytest.mark.browser
SLOW_MS = 90_000


@pytest.fixture(scope="module")
def postgres_url() -> str:
    url = os.environ.get("ATTN_TEST_DATABASE_URL")
    if not url:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("REQUIRE_POSTGRES=1 but ATTN_TEST_DATABASE_URL is not set", pytrace=False)
        pytest.skip("no PostgreSQL: set ATTN_TEST_DATABASE_URL (bash scripts/test_postgres.sh)")
    return url


def restart(server: harness.Server) -> None:
    """Stop the server and start it again with the same arguments, so on the same port."""
    server.process.terminate()
    server.process.wait(timeout=10)
    with server.log_path.open("ab") as log:
        server.process = subprocess.Popen(server.args, cwd=harness.REPO_ROOT, stdin=subprocess.DEVNULL, stdout=log,
                                          stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while not harness.healthy(server.port):
        assert server.alive() and time.monotonic() < deadline, f"no restart:\n{server.log_tail()}"
        time.sleep(0.1)


def total(poll: Poll, code: str) -> list[int]:
    return list(poll.counts(code).rounds[0])


def test_votes_before_and_after_a_server_restart_all_count(browser, postgres_url):
    before = os.environ.get("ATTN_LAB_DATABASE_URL")
    os.environ["ATTN_LAB_DATABASE_URL"] = postgres_url  # the server process inherits it
    try:
        with harness.start_server("app.py", cwd=harness.REPO_ROOT) as server:
            poll = Poll(open_store(postgres_url))
            room = poll.create_room([("causal-why", 3)])
            phones = [open_phone(harness.new_context(browser, 390, 844), server, room.code) for _ in range(3)]
            poll.next_question(room.code, room.host_secret)
            for phone in phones:
                phone.locator("button.option").nth(2).wait_for(timeout=SLOW_MS)
            vote(phones[0], "A")
            assert total(poll, room.code) == [1, 0, 0]

            restart(server)
            for phone in phones:  # each phone keeps its question, its options live
                phone.locator("button.option:not(:disabled)").nth(2).wait_for(timeout=SLOW_MS)
            vote(phones[1], "B")
            vote(phones[2], "C")
            deadline = time.monotonic() + 5
            while total(poll, room.code) != [1, 1, 1] and time.monotonic() < deadline:
                time.sleep(0.2)
            assert total(poll, room.code) == [1, 1, 1], "a vote was lost or counted twice across the restart"
            checked = phones[0].locator('button.option[aria-pressed="true"]')
            checked.wait_for(timeout=10_000)
            assert checked.inner_text().startswith("A."), "the first phone still shows its vote after the restart"
            phones[0].reload()
            checked.wait_for(timeout=10_000)
            assert checked.inner_text().startswith("A."), "and after a reload"
    finally:
        if before is None:
            os.environ.pop("ATTN_LAB_DATABASE_URL", None)
        else:
            os.environ["ATTN_LAB_DATABASE_URL"] = before
