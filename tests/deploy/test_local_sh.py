"""deploy/local.sh: a bad setting stops it at once with a message naming it (before anything starts), and
HAProxy and PostgreSQL are supervised as the replicas are: killed, each comes back (compose's restart policy)."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from tests.deploy import local_deploy
from tests.deploy.conftest import require_proxy

BACK_WITHIN_S = 30.0


@pytest.mark.parametrize(("name", "value", "says"), [
    ("ATTN_RESPAWN_DELAY", "3.0", "ATTN_RESPAWN_DELAY must be a whole number from 0 to 3600, not '3.0'"),
    ("ATTN_RESPAWN_DELAY", "-1", "ATTN_RESPAWN_DELAY must be a whole number"),
    ("ATTN_PROXY_PORT", "http", "ATTN_PROXY_PORT must be a whole number from 1 to 65535, not 'http'"),
    ("ATTN_PG_PORT", "70000", "ATTN_PG_PORT must be a whole number from 1 to 65535"),
    ("ATTN_APP_PORTS", "8511 8512", "ATTN_APP_PORTS needs three ports"),
    ("ATTN_APP_PORTS", "8511 x 8513", "ATTN_APP_PORTS must be a whole number"),
    ("ATTN_APP_PORTS", "8500 8512 8513", "the ports must all differ"),
    ("ATTN_START_TIMEOUT", "2m", "ATTN_START_TIMEOUT must be a whole number"),
    ("ATTN_TLS_PORT", "44x", "ATTN_TLS_PORT must be a whole number"),
    ("PYTHON", "/nonexistent/python", "PYTHON=/nonexistent/python cannot import streamlit"),
])
def test_a_bad_setting_stops_local_sh_with_a_message(name, value, says, tmp_path):
    env = {**os.environ, "ATTN_PROXY_PORT": "8500", "ATTN_RUN_DIR": str(tmp_path / "run"), name: value}
    ran = subprocess.run(["bash", str(local_deploy.LOCAL_SH)], env=env, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    assert says in ran.stderr, ran.stderr
    assert ran.stdout == "" and not (tmp_path / "run").exists(), "it started something before checking"


def test_haproxy_and_postgresql_are_restarted_like_the_replicas():
    require_proxy()
    with local_deploy.start_local(respawn_delay=1) as deployment:
        old = int((deployment.run_dir / "haproxy.pid").read_text())
        os.kill(old, signal.SIGKILL)
        deadline = time.monotonic() + BACK_WITHIN_S
        while True:
            now = int((deployment.run_dir / "haproxy.pid").read_text())
            if now != old and "haproxy started again" in deployment.output():
                try:
                    if set(deployment.server_states().values()) == {"UP"}:
                        break
                except OSError:
                    pass
            assert deployment.alive() and time.monotonic() < deadline, deployment.log_tail()
            time.sleep(0.2)
        assert deployment.fresh_visit() in local_deploy.REPLICAS.values()

        postmaster = int((deployment.run_dir / "pg" / "data" / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGKILL)
        deadline = time.monotonic() + BACK_WITHIN_S
        while "PostgreSQL started again" not in deployment.output():
            assert deployment.alive() and time.monotonic() < deadline, deployment.log_tail()
            time.sleep(0.2)
        from attn_poll import Poll, open_store

        room = Poll(open_store(deployment.database_url)).create_room([("causal-why", 3)])
        assert room.code  # the restarted database takes writes
