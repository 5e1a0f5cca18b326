"""`streamlit run app.py`, as Community Cloud, the image and deploy/ start the app: the Lab's pages and the phones'
HTTP check in one process, and a stop that no held check delays (uvicorn waits for every open request)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import harness

from attn_poll import Poll, open_store


def get(url: str, timeout: float = 30) -> tuple[int, dict | str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            body = answer.read().decode()
            return answer.status, json.loads(body) if "json" in answer.headers.get("content-type", "") else body
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode())


def test_app_py_serves_the_pages_the_route_and_stops_at_once_with_a_check_held(tmp_path):
    with harness.server_with_database(tmp_path, "app.py") as (running, url):
        poll = Poll(open_store(url))
        room = poll.create_room([("causal-why", 4)])
        assert get(running.url + "_stcore/health")[1] == "ok"
        assert get(running.url + "Class_poll")[0] == 200
        stamp_url = f"{running.url}_attn/room/{room.code}/stamp"
        assert get(stamp_url) == (200, {"stamp": "0:lobby:0"})
        assert get(f"{running.url}_attn/room/ZZZZZZZ/stamp")[0] == 404

        held: dict = {}

        def hold() -> None:
            began = time.monotonic()
            try:
                held["answer"] = get(stamp_url + "?since=0:lobby:0")
            except OSError as error:  # the server went while holding: the browser's "offline", asked again later
                held["answer"] = repr(error)
            held["after_s"] = time.monotonic() - began

        waiting = threading.Thread(target=hold, daemon=True)
        waiting.start()
        time.sleep(1.0)
        assert "answer" not in held, "nothing moved: the check is held"
        stopped = time.monotonic()
        running.process.terminate()
        running.process.wait(timeout=10)
        stop_s = time.monotonic() - stopped
        waiting.join(5)
        assert stop_s < 3, f"the server took {stop_s:.1f} s to stop with one check held (HOLD_S is 20)"
        assert held.get("after_s", 99) < 5, held
