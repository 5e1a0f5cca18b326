"""deploy/local.sh through its proxy: compression with the cache headers kept, sticky cookies that spread fresh
browsers over all three replicas, and on every replica a deep link, the websocket (the map drawn in Chromium)
and a CSV download.

One deployment for the module (HAProxy, three replicas, PostgreSQL on free loopback ports).
"""

from __future__ import annotations

import gzip
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit

from attn_core import Settings, compute
from attn_ui.words import export
from tests.browser import harness
from tests.deploy import local_deploy
from tests.deploy.conftest import require_browser, require_proxy

WAIT_MS = 60_000
DEEP_LINK = Settings(causal=True, heads=4, view=2)  # /?causal=1&heads=4&view=2
STATIC_JS = Path(streamlit.__file__).parent / "static" / "static" / "js"


@pytest.fixture(scope="module")
def deployment() -> Iterator[local_deploy.Deployment]:
    require_proxy()
    with local_deploy.start_local() as running:
        yield running


def fetch(url: str, **headers: str) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def sessions_per_replica(deployment: local_deploy.Deployment) -> Counter[str]:
    """Total sessions each replica was given so far (HAProxy's `stot`; health checks are not counted)."""
    lines = deployment.haproxy("show stat").splitlines()
    header = lines[0].lstrip("# ").split(",")
    rows = [dict(zip(header, line.split(","), strict=False)) for line in lines[1:] if line]
    return Counter({row["svname"]: int(row["stot"]) for row in rows
                    if row["pxname"] == "replicas" and row["svname"] in local_deploy.REPLICAS.values()})  # fmt: skip


def test_the_plotly_bundle_is_gzipped_and_keeps_its_immutable_cache_headers(deployment):
    bundle = max(STATIC_JS.glob("PlotlyChart.*.js"), key=lambda path: path.stat().st_size)
    url = f"{deployment.url}static/js/{bundle.name}"
    cookie = f"{local_deploy.COOKIE}=a1"  # as a browser sends it after its first page
    headers, body = fetch(url, **{"Accept-Encoding": "gzip", "Cookie": cookie})
    assert headers.get("content-encoding") == "gzip"
    assert gzip.decompress(body) == bundle.read_bytes()
    # gzip -9 ahead of time (deploy/static_gz.lua) is 30 %; HAProxy's own libslz would be 46 %
    assert len(body) < 0.35 * bundle.stat().st_size, f"{len(body)} of {bundle.stat().st_size} bytes"
    cache = headers.get("cache-control", "")
    assert "immutable" in cache and "max-age=31536000" in cache and "private" not in cache, cache
    assert "accept-encoding" in headers.get("vary", "").lower()
    assert "set-cookie" not in headers

    plain_headers, plain = fetch(url, Cookie=cookie)  # a client that cannot gunzip gets the bytes as they are
    assert "content-encoding" not in plain_headers and plain == bundle.read_bytes()


def test_fresh_browsers_spread_over_all_three_replicas_and_a_cookie_sticks(deployment):
    picked = Counter(deployment.fresh_visit() for _ in range(9))  # nine students behind one address
    assert set(picked) == set(local_deploy.REPLICAS.values()), picked
    assert max(picked.values()) <= 5, picked

    before = sessions_per_replica(deployment)
    for _ in range(5):
        headers, _body = fetch(deployment.url, Cookie=f"{local_deploy.COOKIE}=a2")
        assert "set-cookie" not in headers  # the cookie is valid: nothing to change
    grown = sessions_per_replica(deployment) - before
    assert grown == Counter({"app2": 5}), grown


@pytest.mark.browser
@pytest.mark.parametrize("replica", ["a1", "a2", "a3"])
def test_a_deep_link_the_websocket_and_a_csv_download_work_on_every_replica(deployment, replica, tmp_path):
    require_browser()
    from playwright.sync_api import sync_playwright

    expected_csv = export.weights_csv(compute(DEEP_LINK))
    before = sessions_per_replica(deployment)

    def visit() -> None:
        with sync_playwright() as playwright:
            browser = harness.launch_browser(playwright)
            try:
                context = harness.new_context(browser, 1366, 768)
                context.add_cookies([{"name": local_deploy.COOKIE, "value": replica, "url": deployment.url}])
                page = context.new_page()
                errors = harness.collect_page_errors(page)
                query = "&".join(f"{k}={v}" for k, v in DEEP_LINK.to_query().items())
                harness.open_app(page, deployment, query=query, timeout_ms=WAIT_MS)
                harness.assert_no_exception(page)
                assert harness.switch(page, "Causal mask").is_checked()
                assert harness.metrics(page)["Masked cells"] == "15"
                assert len(harness.plotly_data(page)[0]["z"]) == 6  # the map came over the websocket

                with page.expect_download(timeout=WAIT_MS) as info:
                    page.get_by_role("button", name="Weights as CSV").click()
                info.value.save_as(tmp_path / "weights.csv")
                assert (tmp_path / "weights.csv").read_text() == expected_csv
                cookies = {c["name"]: c["value"] for c in context.cookies()}
                assert cookies[local_deploy.COOKIE] == replica  # never redispatched
                assert errors == []
            finally:
                browser.close()

    local_deploy.in_own_thread(visit)
    grown = sessions_per_replica(deployment) - before
    pinned = local_deploy.REPLICAS[replica]
    assert set(grown) == {pinned}, f"requests reached {dict(grown)}, all should have gone to {pinned}"
