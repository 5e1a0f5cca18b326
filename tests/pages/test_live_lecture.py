"""The live lecture through AppTest, on a temp SQLite file: a lecturer goes live on Lecture scenes, two phones
follow three scenes (two numbers, one choice), the reveal shows the spread with the true value, a revote, a
student explores a scene in the Lab and comes back, the lecture's CSV and a student's recap; forged links and
values no widget sends get a sentence, never a traceback."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attn_poll import Phase
from attn_ui.words import live
from tests.apptest_helpers import open_page as page
from tests.apptest_helpers import texts

SCENES_PAGE = "pages/9_Lecture_scenes.py"
POLL_PAGE = "pages/10_Class_poll.py"


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def param(at: AppTest, key: str) -> str:
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else value


def go_live(**query: str) -> tuple[AppTest, str, str]:
    lecturer = page(SCENES_PAGE, **query)
    assert "Go live" in texts(lecturer) or any(b.label == "Go live" for b in lecturer.button)
    ok(lecturer.button(key="live.go").click().run())
    return lecturer, param(lecturer, "room"), param(lecturer, "host")


def phone(code: str, token: str) -> AppTest:
    return page(POLL_PAGE, room=code, v=token)


def send_number(at: AppTest, value: float) -> AppTest:
    at.number_input[0].set_value(value)
    send = next(b for b in at.button if b.label == "Send")
    return ok(send.click().run())


def next_step(lecturer: AppTest) -> AppTest:
    return ok(lecturer.button(key="scenes.next").click().run())


def test_a_lecture_runs_three_scenes_with_two_phones(poll):
    lecturer, code, secret = go_live()
    assert "Scan to follow the lecture" in texts(lecturer) and code in texts(lecturer)
    ann, bob = phone(code, "a" * 20), phone(code, "b" * 20)
    assert "How many of the 5 next words" in texts(ann)  # scene 1's question, with no tap

    # scene 1, a number: 5 is right (a count, no tolerance), 3 is not
    send_number(ann, 5)
    send_number(bob, 3)
    assert "Sent: **5 right guesses**" in texts(ann)
    ok(lecturer.run())
    assert "2 of 2 answered" in texts(lecturer)
    assert not lecturer.get("plotly_chart"), "the spread waits until the lecturer shows it"
    ok(lecturer.button(key="live.close").click().run())
    assert lecturer.get("plotly_chart") and "median 4 right guesses" in texts(lecturer)
    assert "right (" not in texts(lecturer), "the spread is shown without the answer"
    ok(lecturer.button(key="live.revote").click().run())  # a second round, as in the class poll
    ok(bob.run())
    send_number(bob, 5)
    next_step(lecturer)  # Next: the reveal
    assert poll.state(code).phase is Phase.REVEALED
    assert "1 answer · median 5 right guesses · 1 of 1 right (100%)" in texts(lecturer)  # round 2: Bob again
    assert "2 answers · median 4 right guesses · 1 of 2 right (50%)" in texts(lecturer)  # round 1 beside it
    ok(ann.run())
    assert ("The answer: 5 right guesses.** You answered **5 right guesses in the first vote**. That counts as "
            "right.") in texts(ann)

    # a student explores scene 1 in the Lab and comes back with one tap
    lab_link = next(link for link in ann.get("page_link") if link.proto.label == "Explore this scene in the Lab")
    assert f"room={code}" in lab_link.proto.query_string
    lab = page("app.py", room=code, scene="1")
    back = [link.proto for link in lab.get("page_link") if link.proto.label == "Back to the lecture"]
    assert len(back) == 1 and back[0].query_string == f"room={code}" and "Class_poll" in back[0].page

    # scene 2, a number; the phones follow without a tap
    next_step(lecturer)
    assert poll.state(code).question_index == 1
    ok(ann.run())
    ok(bob.run())
    assert "With the causal mask on, how many right guesses are left?" in texts(ann)
    send_number(ann, 1)

    # scene 6, a choice, by a slide's link (a jump)
    lecturer.query_params["scene"] = "6"
    ok(lecturer.run())
    ok(ann.run())
    ok(bob.run())
    assert "A. Nothing: its weights stay as they were" in ann.radio[0].options
    ok(ann.radio[0].set_value(0).run())
    ok(bob.radio[0].set_value(1).run())
    next_step(lecturer)
    assert "1 of 2 right (50%)" in texts(lecturer)

    # Back keeps the phones in step: the answer is hidden again
    ok(lecturer.button(key="scenes.back").click().run())
    assert poll.state(code).phase is Phase.CLOSED
    ok(ann.run())
    assert "Answers are closed" in texts(ann)

    # the CSV: a row per round asked, no voter
    csv_text = live.lecture_csv([(row.question_id, row.rounds) for row in poll.export_rows(code, secret)])
    download = lecturer.get("download_button")
    assert download, "the lecture's CSV is offered"
    assert csv_text.count("\n") == 1 + 2 + 1 + 1  # header, scene 1 twice (a revote), scene 2, scene 6
    assert "a" * 20 not in csv_text

    # the end: each student's recap
    poll.end_room(code, secret)
    ok(ann.run())
    recap = texts(ann)
    assert "Your predictions: 3 of 3 right." in recap  # scene 1 (5), scene 2 (1), scene 6 (A)
    ok(bob.run())
    assert "Your predictions: 1 of 2 right." in texts(bob)  # scene 1 right in the revote, scene 6 (B) wrong


def test_a_forged_or_half_link_gets_no_control(poll):
    room = poll.create_room(live.lecture_questions())
    forged = page(SCENES_PAGE, room=room.code, host="x" * 32, scene="3")
    assert "does not control that room" in texts(forged)
    assert poll.state(room.code).question_index is None
    half = page(SCENES_PAGE, room=room.code)
    assert "needs both its room code and its host secret" in texts(half)
    bad = page(SCENES_PAGE, room="<b>?!", host="y")
    assert not bad.exception
    quiz_room = poll.create_room([("causal-why", 4)])
    other = page(SCENES_PAGE, room=quiz_room.code, host=quiz_room.host_secret)
    assert "not a live lecture" in texts(other)


def test_values_no_widget_sends_get_a_sentence(poll):
    lecturer, code, _ = go_live()
    ann = phone(code, "c" * 20)
    for value in (1e9, -3):
        ann.session_state["live.answer.0.1"] = value
        send = next(b for b in ann.button if b.label == "Send")
        ok(send.click().run())  # Streamlit may drop an out-of-range value before the callback: either way, a sentence
        assert "must be a number from 0 to 5" in texts(ann) or "Type a number first" in texts(ann)
    ann.session_state["live.answer.0.1"] = None
    ok(next(b for b in ann.button if b.label == "Send").click().run())
    assert "Type a number first" in texts(ann)
    assert poll.counts(code).rounds == ((0, 0, 0, 0, 0, 0),)
    lecturer.query_params["scene"] = "6"
    ok(lecturer.run())
    ok(ann.run())
    assert poll.state(code).question_index == 5, texts(lecturer)
    assert "A. Nothing: its weights stay as they were" in ann.radio[0].options
    assert poll.counts(code).rounds == ((0, 0, 0, 0),)
