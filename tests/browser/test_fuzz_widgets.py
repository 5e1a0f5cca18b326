"""No value a client can send makes a traceback, on any page.

A client can send any widget any value over the websocket, not only what the page's own frontend would send
(STREAMLIT-NOTES: a radio hands the page the raw string for an unknown option). This test speaks Streamlit's
own protocol (bench/load_poll.py's ProtocolSession, the protocol bench/load.py speaks) to a real server and
opens every page, every face of the Class poll (open, host, student while voting), and a live lecture's
(a phone on a number scene and on a choice scene, the lecturer's scenes page with its room). It reads every widget
the page drew and sends each one, one at a time, values of every other type, unknown options, empty, huge and
markup values; then all widgets at once with each value. After every run: no exception element, the run
finished. At the end: no traceback in the server log, and the page still answers a plain run with its widgets.
On the Class poll the student then casts a real vote, and the database counts exactly that one.

Streamlit 1.67 alone does not survive a wrong-typed value or malformed JSON: it reads the value with the
widget's deserializer before any page code runs and keeps it, so every later run of that session raises.
attn_ui/widgets/untrusted.py reads such a value as no value; the last test sends malformed JSON on its own.

Runs on SQLite, and on PostgreSQL when ATTN_TEST_DATABASE_URL is set (REQUIRE_POSTGRES=1: must be), where only the
Class poll's faces run again: no other page reaches the database. Bounded:
one server per database, a fixed list of values, a time limit per run; about a minute and a half on this machine.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
import re
import sys
import uuid
from pathlib import Path

import harness
import pytest
from sqlalchemy import create_engine, text
from streamlit.proto.WidgetStates_pb2 import WidgetState

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "bench"))
sys.path.insert(0, str(REPO_ROOT))

import load  # noqa: E402  (bench/load.py: ws_url, SUCCESS)
from load_poll import ProtocolSession  # noqa: E402

from attn_poll import Poll, open_store  # noqa: E402
from attn_ui.words import live  # noqa: E402


def run_apart(coroutine):
    """asyncio.run() in a thread of its own: a pytest worker that ran a Playwright test before has an event loop
    running in its main thread (Playwright's sync API), where asyncio.run() refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


HUGE = "x" * 50_000
MARKUP = "**bold** <b>tag</b> <script>alert(1)</script> [link](javascript:alert(1)) $x^2$ :red[red] {{x}} %s"
BAD_JSON = "{not json"
STRINGS = ("", "Z. not an option", "<script>x</script>", MARKUP, HUGE, "\x00\ufffd\U0001f600")
# (field, value): every kind a WidgetState can carry, with values out of every range.
VALUES: tuple[tuple[str, object], ...] = (
    *(("string_value", v) for v in STRINGS),
    ("int_value", -(2**62)), ("int_value", 2**62), ("int_value", 0),
    ("double_value", math.nan), ("double_value", math.inf), ("double_value", -1e308),
    ("bool_value", True), ("trigger_value", True),
    ("string_array_value", ["", "nope", MARKUP, HUGE]), ("string_array_value", []),
    ("int_array_value", [-1, 10**9, 2**62]), ("double_array_value", [math.nan, 1e308]),
    ("json_value", BAD_JSON), ("json_value", '{"selection": {"points": [{"x": 1e9, "y": "<b>"}]}}'),
    ("json_value", "[]"), ("bytes_value", b"\x00\xff"),
)
# One widget at a time, each of these values: a page's first widget of a kind gets the even ones, its second the odd
# ones, and so on, so every value reaches every kind of widget on every page (a widget's deserializer is its kind's),
# and every value also reaches every widget at once below (VALUES). After SPLIT_AFTER pairs of one kind (the Lab's
# many sliders), a widget gets a quarter of them: this fuzz was the suite's slowest test (161 s on SQLite).
SPLIT_AFTER = 3
PER_WIDGET = (("string_value", "Z. not an option"), ("string_value", ""), ("string_value", MARKUP),
              ("int_value", 2**62), ("double_value", math.nan), ("string_array_value", ["nope"]),
              ("json_value", BAD_JSON), ("bool_value", True))
PAGES = sorted(p.stem.split("_", 1)[1] for p in (REPO_ROOT / "pages").glob("*.py"))  # the names Streamlit serves
UNSET_VALUES = (("string_value", MARKUP), ("bool_value", True), ("json_value", '{"a": 1}'), ("int_value", 7))


def session_keys() -> list[str]:
    """Every session-state key the app names (each `*_KEY` string constant of attn_ui), for a client that sends a
    widget state under such a name: a crafted message, since a real one only names element ids."""
    import importlib
    import pkgutil

    import attn_ui

    keys = set()
    for info in pkgutil.walk_packages(attn_ui.__path__, prefix="attn_ui."):
        module = importlib.import_module(info.name)
        keys |= {value for name, value in vars(module).items() if name.endswith("_KEY") and isinstance(value, str)}
    return sorted(keys)


RUN_TIMEOUT_S = 60
TOTAL_TIMEOUT_S = 420  # the whole fuzz of one database, whatever happens


def state(widget_id: str, field: str, value) -> WidgetState:
    widget = WidgetState(id=widget_id)
    if field in ("string_array_value", "int_array_value", "double_array_value"):
        getattr(widget, field).data.extend(value)
    else:
        setattr(widget, field, value)
    return widget


@pytest.fixture(params=("sqlite", "postgresql"))
def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'poll.sqlite3'}"
        return
    url = harness.postgres_url()
    # The app reads the public schema of this database; empty the poll's tables first and after.
    yield url
    drop_poll_tables(url)


def drop_poll_tables(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        for table in ("poll_votes", "poll_voters", "poll_questions", "poll_openers", "poll_rooms", "poll_meta"):
            connection.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))  # our own fixed names
    engine.dispose()


async def fuzz_face(url: str, query: str, page: str, problems: list[str]) -> ProtocolSession:
    """Every widget of one page or face, every value; returns the session (still open) for the last checks."""
    session = ProtocolSession(url, query=query, page_name=page)
    await session.__aenter__()
    where = f"{page or 'Lab'}?{query}"

    async def check(widget_states, what: str) -> dict:
        try:
            drawn = await session.run(widget_states, timeout=RUN_TIMEOUT_S)
        except TimeoutError:
            problems.append(f"{where}: {what}: no answer within {RUN_TIMEOUT_S} s")
            return {}
        problems.extend(f"{where}: {what}: {e[:300]}" for e in drawn.exceptions)
        if drawn.statuses[-1] not in load.SUCCESS:
            problems.append(f"{where}: {what}: the run ended with status {drawn.statuses[-1]}")
        return drawn.widgets()

    widgets = await check((), "first run")
    if not widgets:
        problems.append(f"{where}: no widget drawn")
    seen = dict(widgets)
    turns: dict[str, int] = {}  # per kind of widget, how many of it have had their values
    for widget_id, (kind, _element, _fragment) in list(seen.items()):
        turn = turns[kind] = turns.get(kind, -1) + 1
        for field, value in PER_WIDGET[turn % 2 :: 2] if turn < 2 * SPLIT_AFTER else PER_WIDGET[turn % 4 :: 4]:
            await check([state(widget_id, field, value)], f"{kind} <- {field} {str(value)[:30]!r}")
    for field, value in VALUES:  # every widget at once, so one value can meet another
        ids = list(seen)
        now = await check([state(i, field, value) for i in ids], f"all widgets <- {field} {str(value)[:30]!r}")
        seen.update(now)
    for field, value in UNSET_VALUES:  # widget ids that are session keys, set or not (poll.host on a phone, say)
        await check([state(key, field, value) for key in session_keys()], f"session keys <- {field}")
    return session


def test_no_widget_value_makes_a_traceback_on_any_page(database_url, tmp_path):
    env_url = database_url
    if env_url.startswith("postgresql"):
        drop_poll_tables(env_url)
    poll = Poll(open_store(env_url))
    host_room = poll.create_room([("causal-why", 3), ("code-order", 4)])
    vote_room = poll.create_room([("causal-why", 3)])
    poll.next_question(vote_room.code, vote_room.host_secret)
    # Live lectures: the lecturer's Lecture scenes page with its room (Go live's badge, Show the answers, Vote
    # again), and a student's address on the Class poll page (a page that sends the browser to the phone's page,
    # attn_phone, whose forms tests/poll/test_phone_routes.py sends what no form would).
    lectures = {}
    for scene in (2, 6):
        lectures[scene] = poll.create_room(live.lecture_questions())
        poll.show_scene(lectures[scene].code, lectures[scene].host_secret, scene - 1, False)
    os.environ["ATTN_LAB_DATABASE_URL"] = env_url  # the server inherits it
    try:
        server = harness.start_server("app.py", cwd=REPO_ROOT)
    finally:
        os.environ.pop("ATTN_LAB_DATABASE_URL")
    problems: list[str] = []
    voter = uuid.uuid4().hex  # the URL voter token of a client without the XSRF cookie
    faces = [("", ""), *((page, "") for page in PAGES),
             ("Class_poll", f"room={host_room.code}&host={host_room.host_secret}"),
             ("Class_poll", f"room={vote_room.code}&v={voter}"),
             *(("Class_poll", f"room={room.code}&v={voter}") for room in lectures.values()),
             ("Lecture_scenes", f"scene=2&room={lectures[2].code}&host={lectures[2].host_secret}")]
    if env_url.startswith("postgresql"):  # only the poll's and the lecture's faces reach the database
        faces = [(page, query) for page, query in faces if "room=" in query]

    async def main() -> None:
        url = load.ws_url(server)
        for page, query in faces:
            session = await fuzz_face(url, query, page, problems)
            try:
                # A fuzzed button may have moved the session to another page (the Lab link, say): come back to
                # this one as a browser does, in the same session, and check it still works.
                session.page_hash, session.page_name, session.query = "", page, query
                after = await session.run((), timeout=RUN_TIMEOUT_S)
                if after.exceptions or (not after.widgets() and "&v=" not in query):  # a student's: no widget
                    problems.append(f"{page}?{query}: no valid page afterwards: {after.exceptions[:1]}")
                    continue
            finally:
                await session.__aexit__(None, None, None)

    try:
        run_apart(asyncio.wait_for(main(), TOTAL_TIMEOUT_S))
        log = server.log_path.read_text(errors="replace")
    finally:
        server.stop()
    assert not problems, "\n".join(problems[:30])
    log = without_refused_component_states(log)
    assert "Traceback" not in log and "Error" not in log, log[-3000:]
    counts = poll.counts(vote_room.code).rounds[0]
    assert counts == (0, 0, 0), f"the garbage counted no vote: {counts}"


def test_malformed_json_is_read_as_no_value_in_its_session_and_no_other(tmp_path):
    os.environ["ATTN_LAB_DATABASE_URL"] = f"sqlite:///{tmp_path / 'poll.sqlite3'}"
    try:
        server = harness.start_server("app.py", cwd=REPO_ROOT)
    finally:
        os.environ.pop("ATTN_LAB_DATABASE_URL")

    async def main() -> tuple[list[str], list[str]]:
        url = load.ws_url(server)
        async with ProtocolSession(url) as prankster, ProtocolSession(url) as classmate:
            widget_id = next(iter((await prankster.run()).widgets()))
            await prankster.run([state(widget_id, "json_value", BAD_JSON)])
            broken = (await prankster.run()).exceptions
            first = await classmate.run()
            again = await classmate.run([state(next(iter(first.widgets())), "bool_value", True)])
            return broken, first.exceptions + again.exceptions

    try:
        broken, other = run_apart(asyncio.wait_for(main(), 120))
    finally:
        server.stop()
    assert not broken, f"the sender's own session goes on: {broken}"
    assert not other, f"another session is untouched: {other}"


REFUSED_COMPONENT_STATE = "Failed to deserialize component state from frontend"


def without_refused_component_states(log: str) -> str:
    """The server's log without Streamlit's own record (with its traceback) of a component state that is not JSON:
    the progress store (attn_ui/widgets/progress.py) is a component, fuzzed like every widget; Streamlit logs the
    refused value and the store reads it as nothing saved, which the page's checks above prove."""
    records = re.split(r"(?m)^(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", log)
    return "".join(record for record in records if REFUSED_COMPONENT_STATE not in record)
