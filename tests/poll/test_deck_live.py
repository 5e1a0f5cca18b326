"""A lecturer's own deck, live (issue 48, item 3), on SQLite and PostgreSQL: the room keeps each scene with its
question, phones answer a number and a choice through the phone's routes, in their own language, the room's spread,
the lecture's CSV and each student's recap are worded from what the room keeps, a discussion has nothing to answer and
breaks nothing, and a hostile room (a question id past any deck, a stored scene changed by hand) gets a sentence,
never a traceback. The lecturer's page (Go live on Your lecture) is tests/pages/test_deck_live_page.py.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from sqlalchemy import func, inspect, select, update
from sqlalchemy.schema import DDL

from attn_core.deck import Deck, DeckScene
from attn_core.settings import Settings
from attn_lang import _, using
from attn_poll import BadQuestions, Phase, Poll, UnknownOption
from attn_poll.schema import SCHEMA_VERSION, meta, rooms, specs
from attn_ui.words import deck_words, live_room, room_questions
from tests.asgi_client import Phone

TRICKY = "Tom & <Jerry> *run* fast"  # a lecturer's sentence: markup in its words, shown as typed everywhere
DECK = Deck("Week 3", (
    DeckScene(Settings(causal=True, padded=(5, 6), heads=2), "weight", 3, 2, title="<b>One</b> *cell*",
              narration="Look at *the* <i>row</i>."),
    DeckScene(Settings(sentence=TRICKY), "most", 2),
    DeckScene(Settings(), "discuss", prompt="Why <b>mask</b> *now*?", narration="Because `T` matters."),
    DeckScene(Settings(causal=True), "blocked"),
))
WEIGHT, MOST, DISCUSS, BLOCKED = range(4)  # the scenes' positions in the room
FORGED = '{"format":"attn-lab-deck","version":1,"scenes":[{"state":"heads=5","ask":"weight","row":1,"key":1}]}'


def deck_room(poll: Poll, deck: Deck = DECK):
    questions, kept = room_questions.deck_questions(deck)
    return poll.create_room(questions, specs=kept)


def show(poll: Poll, room, position: int, revealed: bool = False):
    return poll.show_scene(room.code, room.host_secret, position, revealed)


def truth(position: int) -> float:
    return DECK.scenes[position].answer().value


def forge(poll: Poll, room, position: int, spec: str) -> None:
    """What a hand in the database (or another version of the app) could leave: a spec that no longer reads."""
    room_id = poll.store.read(lambda c: c.execute(select(rooms.c.id).where(rooms.c.code == room.code)).scalar_one())
    poll.store.write(lambda c: c.execute(update(specs).where(specs.c.room_id == room_id, specs.c.position == position)
                                         .values(spec=spec)))


# --- the room keeps the deck -----------------------------------------------------------------------------------------


def test_a_deck_room_keeps_each_scene_with_its_question(poll):
    room = deck_room(poll)
    listed = poll.question_list(room.code)
    assert [question_id for question_id, __ in listed] == ["deck:1", "deck:2", "deck:3", "deck:4"]
    assert [room_questions.read_spec(spec) for __, spec in listed] == list(DECK.scenes)  # scene for scene
    assert max(len(spec) for __, spec in listed) > 120  # longer than a question id may be: why it has its table
    state = show(poll, room, MOST)
    assert state.question_id == "deck:2" and room_questions.read_spec(state.question_spec) == DECK.scenes[MOST]
    assert state.option_count == 5 and poll.counts(room.code).spec == state.question_spec
    assert poll.phone_view(room.code, "phone-a").state.question_spec == state.question_spec
    assert all(row.spec is not None for row in poll.export_rows(room.code, room.host_secret))


def test_a_class_poll_keeps_no_spec_and_reads_as_before(poll):
    room = poll.create_room((("ask", 3),))
    assert poll.question_list(room.code) == (("ask", None),)
    assert poll.next_question(room.code, room.host_secret).question_spec is None


@pytest.mark.parametrize("kept, message", [
    (("x",), "one spec each"), (("", None), "1 to 10000"), (("x" * 10_001, None), "1 to 10000"),
    ((3, None), "1 to 10000"),
])
def test_specs_that_do_not_fit_open_no_room(poll, kept, message):
    with pytest.raises(BadQuestions, match=message):
        poll.create_room((("deck:1", 3), ("deck:2", 3)), specs=kept)


def test_a_discussion_has_no_options_and_takes_no_vote(poll):
    room = deck_room(poll)
    state = show(poll, room, DISCUSS)
    assert state.phase is Phase.VOTING and state.option_count == 0
    with pytest.raises(UnknownOption):
        poll.vote(room.code, "phone-a", DISCUSS, 1, 0)
    assert poll.counts(room.code).rounds == ((),)


def test_an_existing_database_gains_the_spec_table_and_keeps_its_rooms(store, database):
    """A database made before deck rooms (no poll_question_specs) gets the table at start; its rooms carry on, and its
    schema version stays (an older replica beside a newer one during a deploy still starts)."""
    poll = Poll(store)
    old = poll.create_room((("ask", 3),))
    store.write(lambda c: c.execute(DDL("DROP TABLE %(fullname)s").against(specs)))
    assert store.ensure_schema() == SCHEMA_VERSION
    names = store.read(lambda c: inspect(c).get_table_names(schema=database.schema))
    assert "poll_question_specs" in names
    assert store.read(lambda c: c.execute(select(meta.c.value)).scalar_one()) == SCHEMA_VERSION
    poll.next_question(old.code, old.host_secret)
    poll.vote(old.code, "phone-a", 0, 1, 2)
    assert poll.counts(old.code).rounds == ((0, 0, 1),)
    room = deck_room(poll)
    assert show(poll, room, WEIGHT).question_spec is not None


def test_an_expired_room_takes_its_specs_with_it(poll, clock):
    deck_room(poll)
    clock.advance(poll.limits.room_lifetime_s + poll.limits.purge_after_s + 1)
    deck_room(poll)  # opening a room purges the long-expired ones
    assert poll.store.read(lambda c: c.execute(select(func.count()).select_from(specs)).scalar_one()) == 4


# --- phones ---------------------------------------------------------------------------------------------------------


def test_phones_answer_a_number_and_a_choice_and_the_spread_counts_them(poll):
    room = deck_room(poll)
    show(poll, room, WEIGHT)
    ann, bob, cy = (Phone(poll, room.code) for __ in range(3))
    assert "Scene 1 of 4 · <b>One</b> *cell*" in ann.text, "the lecturer's title as typed, escaped"
    assert "<b>One</b>" not in ann.html and "\\" not in ann.text
    assert "What weight does it give key 2" in ann.text and 'name="typed"' in ann.html
    exact = f"{truth(WEIGHT):.2f}"
    assert ann.number(exact)["sent"] and ann.number(exact)["say"] == exact
    assert bob.number("0.9")["sent"]  # off by far more than the tolerance
    told = cy.number("1.5")
    assert told["sent"] is False and "from 0.00 to 1.00" in told["note"]
    counts = poll.counts(room.code)
    asked = room_questions.room_question("deck:1", counts.spec).question
    found = live_room.spread(asked, counts.rounds[0])
    assert (found.answers, found.right) == (2, 1) and found.median == pytest.approx((round(truth(WEIGHT), 2) + 0.9) / 2)

    show(poll, room, MOST)
    for phone in (ann, bob, cy):
        phone.open()
    assert "Which word does row 2, &, look at most?" in ann.text
    assert all(f"{letter}. {word}" in ann.text for letter, word in zip("ABCDE", TRICKY.split(), strict=True))
    assert "<Jerry>" not in ann.html and "&lt;Jerry&gt;" in ann.html
    assert ann.choose(2)["say"] == "<Jerry>" and bob.choose(0)["sent"] and cy.choose(2)["sent"]
    assert cy.choose(5)["sent"] is False, "past the sentence's words"
    counts = poll.counts(room.code)
    assert counts.rounds == ((1, 0, 2, 0, 0),)
    asked = room_questions.room_question("deck:2", counts.spec).question
    assert (live_room.spread(asked, counts.rounds[0]).right, asked.truth_text) == (2, "<Jerry>")

    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    bob.open()
    assert bob.choose(2)["sent"]
    show(poll, room, MOST, revealed=True)
    ann.open()
    assert "The answer: <Jerry>. You answered <Jerry>. That counts as right." in ann.text

    assert poll.counts(room.code).rounds == ((1, 0, 2, 0, 0), (0, 0, 3, 0, 0))


def test_a_phone_in_spanish_words_the_deck_in_spanish(poll):
    room = deck_room(poll)
    show(poll, room, WEIGHT)
    phone = Phone(poll, room.code, lang="es")
    with using("es"):
        question = deck_words.scene_words(DECK.scenes[WEIGHT]).question.replace("*", "")
        said = _("Your prediction")
    assert question in phone.text and said in phone.text and question != deck_words.QUESTIONS["weight"]
    exact = f"{truth(WEIGHT):.2f}".replace(".", ",")
    told = phone.number(exact)
    assert told["sent"] and told["say"] == exact, "a decimal comma, counted on the same grid"
    show(poll, room, WEIGHT, revealed=True)
    phone.open()
    with using("es"):
        verdict = _("You answered **{mine}**. That counts as right.", mine=exact).replace("*", "")
    assert verdict in phone.text and "Look at *the* <i>row</i>." in phone.text, "the narration, as typed"
    english = Phone(poll, room.code)
    assert "You did not answer." in english.text, "each phone in its own language, one room"


def test_the_reveal_gives_the_answer_the_narration_and_the_lab(poll):
    room = deck_room(poll)
    show(poll, room, WEIGHT, revealed=True)
    phone = Phone(poll, room.code)
    assert f"The answer: {truth(WEIGHT):.2f}." in phone.text and "Look at *the* <i>row</i>." in phone.text
    lab = [link for link in phone.links() if "causal=1" in link]
    assert lab and "row=3" in lab[0] and f"room={room.code}" in lab[0]


def test_a_right_answer_in_the_lecturer_s_words_shows_as_typed(poll):
    marked = Deck("", (DeckScene(Settings(sentence="*run* & <Jerry> fast", causal=True), "most", 1),))
    room = deck_room(poll, marked)
    show(poll, room, 0)
    phone = Phone(poll, room.code)
    assert phone.choose(0)["say"] == "*run*"
    show(poll, room, 0, revealed=True)
    assert "The answer: *run*. You answered *run*. That counts as right." in phone.open()
    assert "<em>run</em>" not in phone.html and "<em>*run*</em>" in phone.html, "the template's italics only"
    assert "A. *run*" in phone.text


# --- a discussion ---------------------------------------------------------------------------------------------------


def test_a_discussion_shows_its_prompt_and_nothing_to_answer(poll):
    room = deck_room(poll)
    show(poll, room, DISCUSS)
    phone = Phone(poll, room.code)
    assert "Scene 3 of 4 · Discuss" in phone.text and "Why <b>mask</b> *now*?" in phone.text
    assert "Nothing to answer on your phone for this scene" in phone.text
    assert "<form" not in phone.html and "<b>mask" not in phone.html
    told = phone.choose(0)
    assert told["sent"] is False and "not one of this question's options" in told["note"]
    assert phone.number("3")["sent"] is False
    waited = phone.client.get(f"/j/{room.code}/wait?since=x", headers={"Accept": "application/json"})
    assert waited.status == 200 and "Nothing to answer" in waited.json()["html"]
    show(poll, room, DISCUSS, revealed=True)
    assert "Because `T` matters." in phone.open() and "<form" not in phone.html


# --- the lecture's record -------------------------------------------------------------------------------------------


def test_the_csv_has_a_row_per_scene_answered_and_none_for_the_discussion(poll):
    room = deck_room(poll)
    show(poll, room, WEIGHT)
    Phone(poll, room.code).number("0.47")
    show(poll, room, MOST)
    Phone(poll, room.code).choose(2)
    show(poll, room, DISCUSS)
    show(poll, room, BLOCKED)
    rows = poll.export_rows(room.code, room.host_secret)
    assert len(rows) == 4
    table = list(csv.DictReader(io.StringIO(live_room.lecture_csv(
        [live_room.Asked(row.question_id, row.rounds, row.changed, row.added, row.spec) for row in rows]))))
    assert [row["scene"] for row in table] == ["1", "2", "4"]
    weight, most, blocked = table
    assert weight["title"] == "<b>One</b> *cell*" and weight["kind"] == "number" and weight["spread"] == "0.47:1"
    assert weight["tolerance"] == "0.05" and weight["true_answer"] == f"{truth(WEIGHT):.2f}"
    assert most["title"] == "Where does it look?" and most["true_answer"] == "<Jerry>" and most["right"] == "1"
    assert most["options"] == "A: Tom | B: & | C: <Jerry> | D: *run* | E: fast"
    assert blocked["answers"] == "0" and blocked["true_answer"] == "15"


def test_a_student_s_recap_words_the_deck(poll):
    room = deck_room(poll)
    show(poll, room, WEIGHT)
    phone = Phone(poll, room.code)
    phone.number("0.9")
    show(poll, room, MOST)
    phone.open()
    phone.choose(2)
    show(poll, room, DISCUSS)
    poll.end_room(room.code, room.host_secret)
    phone.open()
    assert "Your predictions: 1 right of the 2 scenes you answered." in phone.text
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td>", phone.html)
    assert rows == [("1", "0.90", f"{truth(WEIGHT):.2f}"), ("2", "&lt;Jerry&gt;", "&lt;Jerry&gt;")]


# --- hostile rooms --------------------------------------------------------------------------------------------------


def test_a_question_id_past_any_deck_is_no_lecture_s_and_breaks_nothing(poll):
    room = poll.create_room((("deck:999", 3), ("deck:0", 3)), specs=(room_questions.scene_spec(DECK.scenes[0]),
                                                                    None))
    assert room_questions.room_question("deck:999", "x") is None and room_questions.deck_of("deck:01x") is None
    show(poll, room, 0)
    phone = Phone(poll, room.code)
    assert phone.client.get(f"/j/{room.code}").status == 200 and "You are in" in phone.text
    assert phone.choose(1)["sent"] is False
    rows = poll.export_rows(room.code, room.host_secret)
    assert live_room.lecture_csv([live_room.Asked(r.question_id, r.rounds, spec=r.spec) for r in rows]).count("\n") == 1


@pytest.mark.parametrize("spec", [FORGED, "not json", '{"format":"attn-lab-deck","version":1,"scenes":[]}',
                                  '{"format":"attn-lab-deck","version":9,"scenes":[{"state":"","ask":"blocked"}]}'])
def test_a_stored_scene_that_no_longer_reads_gets_a_sentence_everywhere(poll, spec):
    room = deck_room(poll)
    show(poll, room, MOST)
    phone = Phone(poll, room.code)
    phone.choose(2)
    forge(poll, room, MOST, spec)
    # A stored scene is written once, with its room; one that no longer reads is what another version of the app (a
    # process started since) finds. A process that read the scene before keeps it for its answers
    # (attn_phone/answers.py).
    phone.served_anew()
    sentence = "Scene 2 of this lecture cannot be shown"
    page = phone.client.get(f"/j/{room.code}")
    assert page.status == 200 and sentence in phone.open() and "<form" not in phone.html
    told = phone.client.post(f"/j/{room.code}/vote", {"csrf": phone.client.cookies["attn_csrf"], "q": "1", "r": "1",
                                                      "option": "1"},
                             headers={"Accept": "application/json", "Origin": "http://testserver"}).json()
    assert told["sent"] is False and sentence in told["note"]
    waited = phone.client.get(f"/j/{room.code}/wait?since=x", headers={"Accept": "application/json"})
    assert sentence in waited.json()["html"]
    with pytest.raises(room_questions.SceneUnreadable, match=sentence):
        room_questions.room_question("deck:2", spec)
    rows = poll.export_rows(room.code, room.host_secret)
    lecture = live_room.lecture_csv([live_room.Asked(r.question_id, r.rounds, spec=r.spec) for r in rows])
    assert lecture.count("\n") == 1, "no row for a scene the app cannot word"
    poll.end_room(room.code, room.host_secret)
    assert "You did not answer any scene in this lecture." in phone.open()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_step_of_a_deck_draws_on_a_phone(poll, lang):
    room = deck_room(poll)
    phone = Phone(poll, room.code, lang=lang)
    for position in range(len(DECK.scenes)):
        for revealed in (False, True):
            show(poll, room, position, revealed)
            page = phone.client.get(f"/j/{room.code}?lang={lang}")
            assert page.status == 200 and f'data-q="{position}"' in page.text
            assert phone.client.get(f"/j/{room.code}/now?lang={lang}").status == 200
