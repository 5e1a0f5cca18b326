"""Self-test of the browser harness on a throwaway page (tests/browser/fixtures/hello_app.py)."""

from __future__ import annotations

from collections.abc import Iterator

import harness
import numpy as np
import pytest

HELLO_APP = "tests/browser/fixtures/hello_app.py"
UPPER = np.triu(np.ones((6, 6), dtype=bool), k=1)  # True where the causal mask blocks


@pytest.fixture(scope="module")
def hello_server() -> Iterator[harness.Server]:
    with harness.start_server(HELLO_APP) as running:
        yield running


def heatmap_z(page) -> np.ndarray:
    (trace,) = harness.plotly_data(page)
    assert trace["type"] == "heatmap"
    return np.array(trace["z"], dtype=float)  # (T, T), None -> nan


def test_toggle_changes_heatmap(hello_server, page):
    errors = harness.collect_page_errors(page)
    harness.open_app(page, hello_server)
    harness.assert_no_exception(page)
    expected = np.arange(36).reshape(6, 6) / 35

    np.testing.assert_allclose(heatmap_z(page), expected)
    assert harness.metrics(page) == {"Masked cells": "0"}

    for clicks in range(1, 4):  # on, off, on: each rerun must be waited for, not raced
        harness.toggle(page, "Causal mask").click()
        harness.wait_for_app(page)
        causal = clicks % 2 == 1
        assert harness.switch(page, "Causal mask").is_checked() == causal
        z = heatmap_z(page)
        np.testing.assert_array_equal(np.isnan(z), UPPER if causal else np.zeros_like(UPPER))
        np.testing.assert_allclose(z[~np.isnan(z)], expected[~np.isnan(z)])
        assert harness.metrics(page) == {"Masked cells": "15" if causal else "0"}

    harness.assert_no_exception(page)
    assert errors == []


def test_new_page_sets_viewport(hello_server, new_page):
    small = new_page(400, 700)
    harness.open_app(small, hello_server)
    assert small.evaluate("() => [window.innerWidth, window.innerHeight]") == [400, 700]
    assert len(harness.plotly_data(small)) == 1


def test_server_reports_cpu_and_log(hello_server):
    assert hello_server.alive()
    assert hello_server.cpu_seconds() > 0
    assert f"127.0.0.1:{hello_server.port}" in hello_server.log_tail()


def test_start_server_rejects_missing_script(tmp_path):
    with pytest.raises(harness.ServerError, match="no Streamlit script"):
        harness.start_server("missing.py", cwd=tmp_path)


def test_start_server_reports_early_exit_with_log():
    with pytest.raises(harness.ServerError, match=r"(?s)exited.*No such option"):
        harness.start_server(HELLO_APP, extra_args=["--no-such-flag"])
