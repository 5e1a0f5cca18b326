"""The Class poll page through AppTest, on a temp SQLite file: the three faces, a whole round from the host's and
a student's side, votes counted once per browser, and bad URLs, lost connections and busy locks shown as
sentences on a page that still works.

Students other than the one on the page vote through attn_poll directly, as other app processes would.
"""

from __future__ import annotations

import os
import time

import pytest
from streamlit.testing.v1 import AppTest

from attn_poll import Poll, open_store
from attn_ui.quiz.poll_questions import POLL_BY_ID
from attn_ui.views import poll_view
from attn_ui.views.poll_service import SCHEMA_ENV
from tests import apptest_helpers as helpers
from tests.apptest_helpers import APP, texts

PAGE = "pages/10_Class_poll.py"
QUESTIONS = ("causal-why", "code-order")  # a plain choice and the ordering question, polled as programs


def open_page(**query: str) -> AppTest:
    return helpers.open_page(PAGE, **query)


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def bars(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def new_room(poll: Poll, ids=QUESTIONS):
    return poll.create_room([(qid, POLL_BY_ID[qid].option_count) for qid in ids])


def test_open_a_room_from_the_bank(db_url, poll):
    at = open_page()
    assert at.button(key="poll.open").disabled, "no question picked: nothing to open"
    for qid in QUESTIONS:
        at.checkbox(key=f"poll.pick.{qid}").check()
    ok(at.run())
    at.button(key="poll.open").click()
    ok(at.run())
    code = at.query_params["room"][0] if isinstance(at.query_params["room"], list) else at.query_params["room"]
    assert "host" not in at.query_params, "the host secret is never in the address"
    assert at.session_state["poll.host"][0] == code, "this session hosts the room (a reload: the browser's cookie)"
    state = poll.state(code)
    assert state.question_count == 2 and state.phase == "lobby"
    assert "Waiting to start" in texts(at) and f"**{code}**" in texts(at)
    assert at.button(key="poll.next").label == "Start the first question" and not at.button(key="poll.next").disabled
    assert at.get("image"), "the join QR code is drawn"


def test_host_runs_vote_revote_and_reveal(db_url, poll):
    room = new_room(poll)
    at = open_page(room=room.code, host=room.host_secret)
    assert "Waiting to start" in texts(at)
    at.button(key="poll.next").click()
    ok(at.run())
    for voter, option in (("a", 0), ("b", 2), ("c", 2)):
        poll.vote(room.code, voter, 0, 1, option)
    ok(at.run())
    assert bars(at) == ["**A.** · 1 vote (33%)", "**B.** · 0 votes (0%)", "**C.** · 2 votes (67%)"]
    assert "- **C.** It would copy the answer from the later words" in texts(at), "the options, listed once"
    assert "**right**" not in texts(at), "no right or wrong mark before the reveal"
    assert "First vote, 3 votes in all. A: 1 vote, B: 0 votes, C: 2 votes." in texts(at)
    assert at.button(key="poll.reveal").disabled
    at.button(key="poll.close").click()
    ok(at.run())
    at.button(key="poll.revote").click()
    ok(at.run())
    for voter in "abc":
        poll.vote(room.code, voter, 0, 2, 2)
    ok(at.run())
    shown = bars(at)
    assert len(shown) == 6 and shown[2].endswith("2 votes (67%)") and shown[5].endswith("3 votes (100%)")
    assert "Second vote, 3 votes in all." in texts(at)
    at.button(key="poll.close").click()
    ok(at.run())
    at.button(key="poll.reveal").click()
    ok(at.run())
    assert [b.endswith("· **right**") for b in bars(at)] == [False, False, True] * 2
    assert "**The answer is C.**" in texts(at) and "**Why not A?**" in texts(at)
    at.button(key="poll.next").click()
    ok(at.run())
    assert "Question 2 of 2" in texts(at) and "Program A" in texts(at)
    csv_text = poll.export_csv(room.code, room.host_secret)
    assert csv_text.splitlines()[1:4] == ["1,causal-why,1,A,1", "1,causal-why,1,B,0", "1,causal-why,1,C,2"]


def test_a_student_s_room_is_sent_to_the_phone_s_page(db_url, poll):
    """A student's room is answered on the phone's page (attn_phone; tests/poll/test_phone_routes.py): the app's
    routes send an old link there before Streamlit loads, and this face sends a browser that got here anyway."""
    room = new_room(poll)
    at = open_page(room=room.code)
    assert f"Room {room.code} is answered on its page for phones." in texts(at)
    assert f"(/j/{room.code})" in texts(at), "a link to the phone's page"
    assert any(element.proto.body.strip() == poll_view.PHONE_GO_JS.strip() for element in at.get("html"))
    assert not at.get("radio") and not [b for b in at.button if b.key == "poll.next"]


@pytest.mark.parametrize(("query", "message"), [
    ({"room": "<b>x</b>"}, "That is not a room code"),
    ({"room": ":red[x] $x$"}, "That is not a room code"),
    ({"room": "ZZZZZZZ"}, "No room has that code"),
    ({"host": "abc"}, "A host link needs its room code as well."),
])
def test_bad_links_give_a_sentence_and_the_open_face(db_url, query, message):
    at = open_page(**query)
    assert any(message in box.value for box in at.error), texts(at)
    assert at.text_input(key="poll.typed") is not None, "the page still offers to join or open a room"
    assert "<b>" not in texts(at)


def test_a_forged_host_secret_gets_the_student_face(db_url, poll):
    room = new_room(poll)
    at = open_page(room=room.code, host="<b>forged</b>", v="x" * 20)
    assert any("Only the host link can control this room." in box.value for box in at.error)
    assert not [b for b in at.button if b.key == "poll.next"], "no host control without the secret"
    assert "is answered on its page for phones" in texts(at)


def test_an_expired_room_says_so(db_url):
    past = Poll(open_store(db_url, schema=os.environ.get(SCHEMA_ENV) or None), clock=lambda: time.time() - 13 * 3600)
    room = past.create_room([("causal-why", 3)])
    at = open_page(room=room.code)
    assert any("This room has expired" in box.value for box in [*at.error, *at.warning]), texts(at)


def test_the_join_code_can_be_shown_on_any_page(db_url, poll):
    at = open_page()
    at.checkbox(key="poll.pick.causal-why").check()
    ok(at.run())
    at.button(key="poll.open").click()
    ok(at.run())
    at.switch_page("pages/3_Dropout.py").run()
    ok(at)
    switch = at.toggle(key="poll.showjoin.switch")
    assert switch.value is False and not at.get("image")
    switch.set_value(True)
    ok(at.run())
    assert at.get("image") and any("Room code:" in m.value for m in at.markdown)
    at.switch_page("app.py").run()
    ok(at)
    assert at.toggle(key="poll.showjoin.switch").value is True, "the choice is kept across pages"


def test_pages_without_a_room_show_no_join_switch(db_url):
    at = AppTest.from_file(APP, default_timeout=30)
    ok(at.run())
    assert not [t for t in at.toggle if t.key == "poll.showjoin.switch"]


def test_a_refused_opening_is_said_beside_the_open_button(db_url, poll):
    for _ in range(poll.limits.opens_per_address):  # this address (AppTest has none: loopback) used its openings
        poll.create_room([("causal-why", 3)], openers=("address:local",))
    at = open_page()
    at.checkbox(key="poll.pick.causal-why").check()
    ok(at.run())
    at.button(key="poll.open").click()
    ok(at.run())
    assert not at.query_params.get("room"), "no room was opened"
    top = list(at.main.children.values())  # the page's own elements, in order
    open_at = next(i for i, node in enumerate(top) if getattr(node, "key", None) == "poll.open")
    assert "Too many rooms opened" in str(getattr(top[open_at + 1], "value", "")), "the note is under the button"
    assert not any("Too many rooms" in str(getattr(node, "value", "")) for node in top[:open_at])
