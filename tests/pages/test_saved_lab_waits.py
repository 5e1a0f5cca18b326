"""The Lab saved in this browser comes back only where no link's state stands (attn_ui/widgets/progress.py). Its
arrival can run before the Lab has read its address, so with Lab keys in the address it waits for the Lab to decide."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def arrive_then_open_lab(saved: str, address: dict[str, str], lab_address: dict[str, str]) -> tuple[list, list]:
    """The saved Lab arrives on a page with `address`; then the Lab runs with `lab_address`."""

    def script():
        import streamlit as st

        from attn_ui.widgets import progress
        from attn_ui.widgets.state import SETTINGS_KEY

        if "step" not in st.session_state:
            st.session_state["step"] = 1
            progress._bring_back_lab(st.session_state["saved"])
        else:
            progress.waiting_lab()
        shown = st.session_state.get(SETTINGS_KEY)
        st.text(str(shown.to_query()) if shown is not None else "nothing")
        st.text(str(bool(st.session_state.get(progress.LAB_BACK_KEY))))

    at = AppTest.from_function(script)
    at.session_state["saved"] = saved
    at.query_params.update(address)
    at.run()
    first = [t.value for t in at.text]
    for key in list(at.query_params):
        del at.query_params[key]
    at.query_params.update(lab_address)
    at.run()
    assert not at.exception
    return first, [t.value for t in at.text]


@pytest.mark.parametrize(("address", "lab_address", "brought_back"), [
    ({}, {}, True),  # a bare address: the saved Lab at once
    ({"heads": "2"}, {"heads": "2"}, False),  # a Lab link (or its reload): the link's state stays
    ({"causal": "1"}, {}, True),  # a lesson page's own keys; the Lab opened bare later takes it
])
def test_the_saved_lab_never_replaces_a_links_state(address, lab_address, brought_back):
    first, then = arrive_then_open_lab("heads=4&p=0.3", address, lab_address)
    if not address:
        assert first == ["{'heads': '4', 'p': '0.3'}", "True"]
    else:
        assert first == ["nothing", "False"], "it waits while the address holds Lab keys"
    assert then == (["{'heads': '4', 'p': '0.3'}", "True"] if brought_back else ["nothing", "False"])
