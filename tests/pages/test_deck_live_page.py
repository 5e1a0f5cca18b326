"""Go live on Your lecture through AppTest, on SQLite and PostgreSQL: the lecturer's own deck opens a room that keeps
its scenes, phones answer a number and a choice, the count, the spread and the reveal show as on Lecture scenes, a
discussion has no count to show, the badge's menu offers the CSV, and a room that runs another lecture (another
deck, or this deck since edited) is not driven from here. The phones' side in full: tests/poll/test_deck_live.py."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attn_core.deck import Deck, DeckScene, read_link, to_link
from attn_core.settings import Settings
from attn_poll import Phase
from attn_ui.views import live_open
from attn_ui.words import live
from tests.apptest_helpers import checked as ok
from tests.apptest_helpers import open_page as page
from tests.apptest_helpers import param, texts
from tests.asgi_client import Phone

DECK_PAGE = "pages/11_Your_lecture.py"
TRICKY = "Tom & <Jerry> *run* fast"
DECK = Deck("Week 3", (
    DeckScene(Settings(causal=True, padded=(5, 6), heads=2), "weight", 3, 2),
    DeckScene(Settings(sentence=TRICKY), "most", 2),
    DeckScene(Settings(), "discuss", prompt="Why a mask?"),
))




def go_live(deck: Deck = DECK) -> tuple[AppTest, str, str]:
    lecturer = page(DECK_PAGE, deck=to_link(deck), scene="1")
    ok(lecturer.button(key="live.go").click().run())
    code, secret = lecturer.session_state["poll.host"]
    assert param(lecturer, "room") == code and "host" not in lecturer.query_params
    ok(lecturer.button(key="live.join.key").click().run())  # the join screen comes first; J puts it away
    return lecturer, code, secret


def next_step(lecturer: AppTest) -> AppTest:
    return ok(lecturer.button(key="scenes.next").click().run())


def test_a_deck_goes_live_and_the_room_answers_it(poll):
    lecturer, code, secret = go_live()
    assert [spec for __, spec in poll.question_list(code)] == list(live_open.specs_of(DECK))
    state = poll.state(code)
    assert (state.question_id, state.phase) == ("deck:1", Phase.VOTING)
    ann, bob = Phone(poll, code), Phone(poll, code)
    assert "What weight does it give key 2" in ann.text
    ann.number("0.47")
    bob.number("0.9")
    ok(lecturer.run())
    assert "2 of 2 answered" in texts(lecturer)
    ok(lecturer.button(key="live.close").click().run())
    assert "live_room.spread.en" in [chart.key for chart in lecturer.get("plotly_chart")]
    assert "2 answers · median 0.685" in texts(lecturer)
    next_step(lecturer)  # the reveal: the room's spread beside the answer
    assert poll.state(code).phase is Phase.REVEALED
    assert "1 of 2 within 0.05 of it (50%)" in texts(lecturer)

    next_step(lecturer)  # scene 2, a choice among the lecturer's own words
    assert poll.state(code).question_index == 1
    ann.open()
    bob.open()
    ann.choose(2)
    bob.choose(0)
    ok(lecturer.button(key="live.close").click().run())
    shown = texts(lecturer)
    assert "**C.** \\<Jerry\\> · 1" in shown, "the bars name the options, the words escaped"
    next_step(lecturer)
    assert "1 of 2 right (50%)" in texts(lecturer)

    next_step(lecturer)  # scene 3, a discussion: nothing to count, nothing to close
    assert poll.state(code).question_index == 2 and "Nothing to answer" in ann.open()
    assert not [b for b in lecturer.button if b.key == "live.close"] and "of 2 answered" not in texts(lecturer)
    next_step(lecturer)
    assert poll.state(code).phase is Phase.REVEALED
    assert [chart.key for chart in lecturer.get("plotly_chart")] == ["lab.map"], "the map, and no spread"

    assert lecturer.get("download_button"), "the lecture's CSV is in the badge's menu"
    ok(lecturer.button(key="live.end").click().run())
    ok(lecturer.button(key="live.end.now").click().run())
    assert "This live lecture has ended." in texts(lecturer)
    assert "Your predictions: 2 right of the 2 scenes you answered." in ann.open()
    assert secret not in texts(lecturer)


def test_a_room_of_another_lecture_is_not_driven_from_this_deck(poll):
    lecturer, code, secret = go_live()
    lecturer.query_params["deck"] = to_link(Deck(DECK.title, DECK.scenes[:2]))  # edited since Go live
    lecturer.query_params["scene"] = "2"
    ok(lecturer.run())
    assert f"Room {code} runs another lecture" in texts(lecturer) and poll.state(code).question_index == 0
    assert any(b.key == "live.go" for b in lecturer.button), "the edited deck can go live in a room of its own"
    built_in = poll.create_room(live.lecture_questions())
    deck_page = page(DECK_PAGE, deck=to_link(DECK), scene="1", room=built_in.code, host=built_in.host_secret)
    assert f"Room {built_in.code} runs another lecture" in texts(deck_page)
    assert poll.state(built_in.code).question_index is None
    scenes = page("pages/9_Lecture_scenes.py", room=code, host=secret, scene="2")
    assert f"Room {code} runs another lecture" in texts(scenes) and poll.state(code).question_index == 0


def test_a_deck_whose_grid_no_room_takes_says_which_scene(poll):
    huge = Deck("", (DeckScene(Settings(sentence=" ".join(["w"] * 16), heads=4, d_model=24), "scores"),))
    lecturer = page(DECK_PAGE, deck=to_link(huge), scene="1")
    ok(lecturer.button(key="live.go").click().run())
    assert "Scene 1 asks for a number from a grid of 2,049 answers; a live room takes at most 2,001." in \
        texts(lecturer)
    assert "room" not in lecturer.query_params and "poll.host" not in lecturer.session_state


def test_the_class_poll_page_sends_a_deck_s_host_back_to_the_deck(poll):
    lecturer, code, secret = go_live()
    next_step(lecturer)
    next_step(lecturer)  # scene 2's question
    host = page("pages/10_Class_poll.py", room=code, host=secret)
    assert "This room is a live lecture of your own scenes" in texts(host)
    assert not [b for b in host.button if b.label in ("Start", "Next question", "Close voting")], "no poll controls"
    back = [link.proto for link in host.get("page_link") if "scene 2" in link.proto.label]
    assert len(back) == 1 and "Your_lecture" in back[0].page
    query = dict(part.split("=", 1) for part in back[0].query_string.split("&"))
    assert query["room"] == code and query["scene"] == "2"
    assert live_open.specs_of(read_link(query["deck"])) == live_open.specs_of(DECK), "the room's deck, scene for scene"
    deck = page(DECK_PAGE, **query, host=secret)  # (its host link: a fresh AppTest is another browser)
    assert poll.state(code).question_index == 1 and f"Room {code} runs another lecture" not in texts(deck)
    assert "Which word does row 2" in texts(deck) and any(b.key == "live.close" for b in deck.button)
