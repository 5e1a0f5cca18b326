"""A client that sends an empty one-of-a-few choice (a forged message; once in a full browser run, a stale one after
Back) gets the page it had, never a traceback: every such control on every page is emptied in turn."""

from __future__ import annotations

import pytest
from apptest_helpers import APP, checked
from streamlit.testing.v1 import AppTest

# (page script or None for the Lab, its address): each state shows the choices only it draws
STATES = [
    (None, {}),
    (None, {"heads": "2"}),  # Viewing head
    ("pages/1_Peeking_and_the_causal_mask.py", {}),
    ("pages/2_Padding_mask.py", {}),
    ("pages/4_Many_heads.py", {}),
    ("pages/6_One_row_by_hand.py", {"heads": "2"}),
    ("pages/7_Train_it_yourself.py", {"exp": "heads"}),  # layers too
    ("pages/8_Check_yourself.py", {}),
]


def opened(script: str | None, query: dict[str, str], more: bool = False) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    if more:
        at.session_state["lab.more"] = True
    if script is not None:  # as the sidebar opens a page: the Lab first
        at.run()
    for key, value in query.items():
        at.query_params[key] = value
    (at if script is None else at.switch_page(script)).run()
    return checked(at)


def single_choices(at: AppTest) -> list[str]:
    return [group.key for group in at.button_group if not isinstance(group.value, list)]


def shown(at: AppTest) -> dict[str, object]:
    return {group.key: group.value for group in at.button_group}


CASES = [(script, query, key) for script, query in STATES for key in single_choices(opened(script, query))]


def test_the_cases_cover_every_page_that_draws_such_a_choice():
    keys = {key for _script, _query, key in CASES}
    assert {"lab.heads", "lab.view", "peek.swap", "heads.h", "hand.word", "hand.view", "train.exp", "train.heads",
            "train.layers", "quiz.pick", "app.theme.menu"} <= keys


@pytest.mark.parametrize(("script", "query", "key"), CASES, ids=[f"{s or 'Lab'}-{k}" for s, _q, k in CASES])
def test_an_empty_choice_keeps_the_page_it_had(script, query, key):
    at = opened(script, query)
    before = shown(at)
    next(group for group in at.button_group if group.key == key).set_value(None)
    checked(at.run())
    after = shown(at)
    assert after[key] is not None
    assert after == before


def test_the_labs_d_model_in_more_too():
    at = opened(None, {}, more=True)
    assert "lab.d" in single_choices(at)
    before = shown(at)
    next(group for group in at.button_group if group.key == "lab.d").set_value(None)
    checked(at.run())
    assert shown(at) == before
