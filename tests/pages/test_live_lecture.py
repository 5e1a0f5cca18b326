"""The live lecture through AppTest, on SQLite and PostgreSQL: a lecturer goes live on Lecture scenes, two phones
follow three scenes (two numbers, one choice), the reveal shows the spread with the true value, a revote that keeps
the answers not changed, a student explores a scene in the Lab and comes back, the lecture's CSV and a student's
recap; the host secret in no address after the first run and in no menu; the join screen; forged links and values no
widget sends get a sentence, never a traceback."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attn_poll import Phase
from attn_ui.views import live_view, poll_view
from attn_ui.words import live, live_room
from attn_ui.words.scenes import SCENES, scene_words
from tests.apptest_helpers import checked as ok
from tests.apptest_helpers import open_page as page
from tests.apptest_helpers import param, texts
from tests.asgi_client import Phone

SCENES_PAGE = "pages/9_Lecture_scenes.py"
POLL_PAGE = "pages/10_Class_poll.py"




def go_live(**query: str) -> tuple[AppTest, str, str]:
    lecturer = page(SCENES_PAGE, **query)
    assert any(b.label == "Go live" for b in lecturer.button)
    ok(lecturer.button(key="live.go").click().run())
    code, secret = lecturer.session_state["poll.host"]
    assert param(lecturer, "room") == code and "host" not in lecturer.query_params, "no secret in the address"
    return lecturer, code, secret


def phone(poll, code: str) -> Phone:
    """A student's phone: the phone's page (attn_phone) over the lecture's database."""
    return Phone(poll, code)


def next_step(lecturer: AppTest) -> AppTest:
    return ok(lecturer.button(key="scenes.next").click().run())


def hide_join(lecturer: AppTest) -> AppTest:
    return ok(lecturer.button(key="live.join.key").click().run())


def everything_drawn(at: AppTest) -> str:
    """Every text of the page, popovers and expanders included (AppTest draws them all), and every widget's label
    and help: where a secret must never be."""
    found = [texts(at)]
    for kind in ("button", "download_button", "page_link", "toggle", "text_input", "radio", "selectbox"):
        for element in at.get(kind):
            proto = getattr(element, "proto", element)
            found += [str(getattr(proto, name, "")) for name in ("label", "help", "query_string", "page")]
    return "\n".join(found)


def test_a_lecture_runs_three_scenes_with_two_phones(poll):
    lecturer, code, secret = go_live()
    assert live_view.join_showing  # the join screen first: the room scans once
    assert "Join the lecture on your phone" in texts(lecturer) and f"**{code}**" in texts(lecturer)
    assert lecturer.get("image"), "the QR code"
    hide_join(lecturer)
    assert "Join the lecture on your phone" not in texts(lecturer)
    ann, bob = phone(poll, code), phone(poll, code)
    asked = scene_words(SCENES[0]).question
    assert asked.replace("*", "") in ann.text and asked in texts(lecturer), "the projector and the phone ask alike"

    # scene 1, a number: 5 is right (a count, no tolerance), 3 is not
    ann.number("5")
    bob.number("3")
    assert "Sent: 5 right guesses." in ann.text
    ok(lecturer.run())
    assert "2 of 2 answered" in texts(lecturer)
    assert not lecturer.get("plotly_chart"), "the spread waits until the lecturer shows it"
    ok(lecturer.button(key="live.close").click().run())
    assert lecturer.get("plotly_chart") and "median 4 right guesses" in texts(lecturer)
    assert "right (" not in texts(lecturer), "the spread is shown without the answer"
    ok(lecturer.button(key="live.revote").click().run())  # a second round, as in the class poll
    assert "Your first answer, 5 right guesses, counts in this vote too" in ann.open()
    bob.open()
    bob.number("5")
    next_step(lecturer)  # Next: the reveal
    assert poll.state(code).phase is Phase.REVEALED
    # round 2 counts Ann's kept answer and Bob's changed one
    assert "**Second vote:** 2 of 2 right (100%) · 1 changed their answer" in texts(lecturer)  # medians: at the close
    assert "**First vote:** 1 of 2 right (50%)" in texts(lecturer)  # round 1 beside it
    assert "The answer: 5 right guesses. You answered 5 right guesses. That counts as right." in ann.open()

    # a student explores scene 1 in the Lab and comes back with one tap, to the phone's page
    lab_link = next(link for link in ann.links() if link.startswith("/?"))
    assert f"room={code}" in lab_link
    lab = page("app.py", room=code, scene="1")
    back = [link.proto for link in lab.get("page_link") if link.proto.label == "Back to the lecture"]
    assert len(back) == 1 and back[0].query_string == f"room={code}" and "Class_poll" in back[0].page
    # (the Class poll page sends a student's room on to the phone's page: tests/pages/test_poll_page.py)

    # scene 2, a number; the phones follow without a tap; a decimal comma or point reads the same
    next_step(lecturer)
    assert poll.state(code).question_index == 1
    assert scene_words(SCENES[1]).question.replace("*", "") in ann.open()
    bob.open()
    ann.number("0")  # no word sees the one after it

    # scene 6, a choice: the lecturer's own page jumps there (its address moved)
    lecturer.query_params["scene"] = "6"
    ok(lecturer.run())
    assert poll.state(code).question_index == 5
    options = live.live_question(6).options
    assert "A. Nothing: its weights stay as they were" in ann.open()
    bob.open()
    assert all(f"**{live.letter(i)}.** {text}" in texts(lecturer) for i, text in enumerate(options)), \
        "the projector lists the options the phones offer"
    ann.choose(0)
    bob.choose(1)
    next_step(lecturer)
    assert "1 of 2 right (50%)" in texts(lecturer)

    # Back keeps the phones in step: the answer is hidden again
    ok(lecturer.button(key="scenes.back").click().run())
    assert poll.state(code).phase is Phase.CLOSED
    assert "Answers are closed" in ann.open()

    # the CSV: a row per round asked, the options in full, no voter
    rows = poll.export_rows(code, secret)
    csv_text = live_room.lecture_csv([live_room.Asked(r.question_id, r.rounds, r.changed, r.added) for r in rows])
    download = lecturer.get("download_button")
    assert download, "the lecture's CSV is offered"
    assert csv_text.count("\n") == 1 + 2 + 1 + 1  # header, scene 1 twice (a revote), scene 2, scene 6
    assert ann.client.cookies["attn_voter"] not in csv_text and "A: Nothing: its weights stay as they were" in \
        csv_text

    # no secret anywhere the lecturer's screen draws, menus included
    assert secret not in everything_drawn(lecturer)

    # the end: the board says so, and each student sees a recap
    ok(lecturer.button(key="live.end").click().run())  # asks first, and says what it keeps
    assert poll.state(code).phase is not Phase.ENDED
    assert "End the lecture for everyone?" in texts(lecturer) and "lecture's CSV until the room expires" in \
        texts(lecturer)
    ok(lecturer.button(key="live.end.keep").click().run())
    assert poll.state(code).phase is not Phase.ENDED and "End the lecture for everyone?" not in texts(lecturer)
    ok(lecturer.button(key="live.end").click().run())
    ok(lecturer.button(key="live.end.now").click().run())
    assert poll.state(code).phase is Phase.ENDED
    assert "This live lecture has ended." in texts(lecturer)
    recap = ann.open()
    assert "Your predictions: 3 right of the 3 scenes you answered." in recap  # scenes 1 (5), 2 (0), 6 (A)
    assert "lecture ended" in recap and "live lecture" not in recap
    # scene 1 right in the revote, scene 6 (B) wrong
    assert "Your predictions: 1 right of the 2 scenes you answered." in bob.open()


def test_the_host_link_is_taken_once_and_the_browser_keeps_the_rights(poll):
    room = poll.create_room(live.lecture_questions())
    lecturer = page(SCENES_PAGE, room=room.code, host=room.host_secret, scene="3")
    assert poll.state(room.code).question_index == 2, "the host link controls the room"
    ok(lecturer.run())  # the browser dropped host= in place; the next run drops the server's copy
    assert "host" not in lecturer.query_params and param(lecturer, "room") == room.code
    next_step(lecturer)
    assert poll.state(room.code).phase is Phase.REVEALED, "still the host, with no secret in the address"
    assert room.host_secret not in everything_drawn(lecturer)
    # another browser with the room's code alone gets the scenes, not the room
    stranger = page(SCENES_PAGE, room=room.code, scene="5")
    assert f"This browser does not control room {room.code}" in texts(stranger)
    assert poll.state(room.code).question_index == 2


def test_the_join_screen_comes_back_at_any_scene_without_moving_the_lecture(poll):
    lecturer, code, __ = go_live()
    hide_join(lecturer)
    next_step(lecturer)
    next_step(lecturer)  # scene 2's question
    before = poll.state(code)
    ok(lecturer.button(key="live.join.key").click().run())  # the J key
    assert "Join the lecture on your phone" in texts(lecturer)
    assert "0 phones in the room" in texts(lecturer)
    phone(poll, code)
    ok(lecturer.run())
    assert "1 phone in the room" in texts(lecturer)
    assert poll.state(code).question_index == before.question_index and poll.state(code).phase is before.phase
    ok(lecturer.button(key="live.join").click().run())  # the badge's control hides it
    assert "Join the lecture on your phone" not in texts(lecturer)
    ok(lecturer.button(key="live.join").click().run())
    next_step(lecturer)  # moving the lecture puts it away
    assert "Join the lecture on your phone" not in texts(lecturer) and poll.state(code).phase is Phase.REVEALED


def test_a_forged_or_half_link_gets_no_control(poll):
    room = poll.create_room(live.lecture_questions())
    forged = page(SCENES_PAGE, room=room.code, host="x" * 32, scene="3")
    assert f"does not control room {room.code}" in texts(forged)
    assert poll.state(room.code).question_index is None
    half = page(SCENES_PAGE, host="y" * 32)
    assert "needs its room code as well" in texts(half)
    bad = page(SCENES_PAGE, room="<b>?!", host="y")
    assert not bad.exception
    quiz_room = poll.create_room([("causal-why", 4)])
    other = page(SCENES_PAGE, room=quiz_room.code, host=quiz_room.host_secret)
    assert "not a live lecture" in texts(other)


def test_a_number_outside_the_question_says_nothing_was_sent(poll):
    lecturer, code, __ = go_live()
    ann = phone(poll, code)
    for typed in ("9", "-3", "1e9", "five", "<b>5</b>", "9" * 300, "\x00", "nan", "inf", "-inf", "1_0", "٣٣"):
        told = ann.number(typed)
        assert told["note"] == "Your answer must be a number from 0 to 5, so nothing was sent." or \
            told.get("key") == "big", typed
        assert "Sent:" not in ann.text, "no promise beside a refusal"
    assert ann.number("")["note"] == "Type a number first, then press Send."
    assert poll.counts(code).rounds == ((0, 0, 0, 0, 0, 0),)


def test_a_decimal_comma_and_a_decimal_point_count_the_same(poll):
    lecturer, code, __ = go_live(scene="3")
    ann, bob = phone(poll, code), phone(poll, code)
    ann.number("0,70")
    bob.number("0.7")
    question = live.live_question(3)
    assert poll.counts(code).rounds[0][question.nearest(0.7)] == 2


def test_a_phone_in_a_running_lecture_has_no_way_to_the_scenes(poll):
    lecturer, code, secret = go_live()
    ann = phone(poll, code)
    assert not any("Lecture_scenes" in link for link in ann.links())
    lab = page("app.py", room=code)  # the Lab, opened from the phone's reveal
    assert not any("Lecture_scenes" in link.proto.page for link in lab.get("page_link"))


def test_a_student_s_old_link_and_a_typed_code_go_to_the_phone_s_page(poll):
    lecturer, code, __ = go_live()
    typed = page(POLL_PAGE)
    typed.text_input(key="poll.typed").set_value(code.lower())
    ok(typed.button(key="poll.join").click().run())
    assert param(typed, "room") == code
    assert f"(/j/{code})" in texts(typed) and any(element.proto.body.strip() == poll_view.PHONE_GO_JS.strip()
                                                   for element in typed.get("html")), "on to the phone's page"


def step_of(at: AppTest) -> tuple[str, bool]:
    return param(at, "scene"), "reveal" in at.query_params


def test_one_driver_a_second_host_page_follows_the_room_and_moves_it_only_when_pressed(poll):
    """A tablet opens the host link (no scene in it) while the projector is at scene 5 with answers in: the room stays
    at scene 5, its round open. Each page moves the room only when pressed; the other follows on its next run; a
    press on a page that had not seen the other's move follows instead of pulling the room back."""
    projector, code, secret = go_live(scene="5")
    hide_join(projector)
    poll.vote(code, "s1", 4, 1, 3)
    before = poll.state(code)
    tablet = page(SCENES_PAGE, room=code, host=secret)  # scene 1 by its address
    assert step_of(tablet) == ("5", False), "the tablet shows the room where it is"
    after = poll.state(code)
    assert (after.question_index, after.phase, after.version) == (4, Phase.VOTING, before.version)
    next_step(tablet)  # the tablet reveals scene 5
    assert (poll.state(code).question_index, poll.state(code).phase) == (4, Phase.REVEALED)
    ok(projector.run())  # the projector's next run (its board saw the version move) follows
    assert step_of(projector) == ("5", True)
    next_step(projector)  # and the projector drives again: scene 6
    assert poll.state(code).question_index == 5
    next_step(tablet)  # the tablet had not seen scene 6: its Next follows the room instead of moving it
    state = poll.state(code)
    assert (state.question_index, state.phase) == (5, Phase.VOTING)
    assert step_of(tablet) == ("6", False)
    reloaded = page(SCENES_PAGE, room=code, host=secret, scene="2", reveal="1")  # an old address, opened again
    assert step_of(reloaded) == ("6", False) and poll.state(code).version == state.version
