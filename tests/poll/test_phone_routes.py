"""The phone's page (attn_phone) over HTTP, in this process, on SQLite and on PostgreSQL: every state a phone shows, an
answer's whole path, the languages, old links, and what a hostile client sends.

The app is attn_phone's routes alone on a Starlette app over the test's Poll (the same routes app.py serves beside
Streamlit); tests/asgi_client.py is a browser of one cookie jar. The browser's own side (the script, two tabs,
JavaScript off, axe) is tests/browser/test_phone_browser.py.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from starlette.applications import Starlette

from attn_lang import _, using
from attn_phone import visitor
from attn_phone.routes import Phones
from attn_poll import Poll
from attn_poll.errors import Busy, Reconnecting
from attn_ui.quiz.poll_questions import POLL_BY_ID
from attn_ui.words import live
from tests.asgi_client import Client

JSON = {"Accept": "application/json"}
TAG = re.compile(r"<[^>]+>")


@pytest.fixture
def app(poll: Poll):
    return Starlette(routes=Phones(lambda: poll).routes())


@pytest.fixture
def phone(app) -> Client:
    return Client(app)


def lecture(poll: Poll, scene: int = 3, revealed: bool = False):
    room = poll.create_room(live.lecture_questions())
    poll.show_scene(room.code, room.host_secret, scene - 1, revealed)
    return room


def words(html: str) -> str:
    """The page's text as a person reads it (hidden variants left out)."""
    html = re.sub(r'<p class="said"[^>]*\bhidden\b[^>]*>.*?</p>', "", html, flags=re.S)
    html = re.sub(r"<(script|style|noscript)[^>]*>.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"</?(strong|em|span|code|sup)\b[^>]*>", "", html)
    return " ".join(unescape(TAG.sub(" ", html)).split())


def send(client: Client, code: str, q: int, r: int, json: bool = True, **fields: str):
    data = {"csrf": client.cookies.get("attn_csrf", ""), "q": str(q), "r": str(r), **fields}
    return client.post(f"/j/{code}/vote", data, headers={**(JSON if json else {}), "Origin": "http://testserver"})


# --- joining --------------------------------------------------------------------------------------------------------


def test_the_join_form_is_a_small_page_without_inline_script(phone):
    page = phone.get("/j")
    assert page.status == 200 and "Join a class poll or a live lecture" in words(page.text)
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert re.findall(r"<script(?![^>]*\bsrc=)", page.text) == []  # the script is a file
    assert "style=" not in page.text and "<style" not in page.text
    assert len(page.body) < 4000


@pytest.mark.parametrize("typed", ["k7q2m9p", "K7Q-2M9P", " k7q2m9p "])
def test_a_typed_code_goes_to_its_room_in_the_projector_s_spelling(phone, typed):
    answer = phone.get(f"/j?code={typed}")
    assert answer.status == 303 and answer.location == "/j/K7Q2M9P"


@pytest.mark.parametrize("typed", ["", "abc", "<script>alert(1)</script>", "x" * 500, "ÄÖÜ1234"])
def test_a_code_that_is_no_code_says_so_and_keeps_the_form(phone, typed):
    from urllib.parse import quote

    answer = phone.get(f"/j?code={quote(typed)}")
    assert answer.status == 400
    assert "That is not a room code" in words(answer.text)
    assert "<script>alert" not in answer.text


def test_a_room_that_is_not_there_says_so_on_the_form(phone):
    answer = phone.get("/j/ZZZZZZZ")
    assert answer.status == 404 and "No room has that code" in words(answer.text)


def test_a_room_page_in_lower_case_goes_to_the_projector_s_spelling(phone, poll):
    room = lecture(poll)
    answer = phone.get(f"/j/{room.code.lower()}")
    assert answer.status == 308 and answer.location == f"/j/{room.code}"


def test_the_cookies_are_httponly_and_samesite_and_secure_over_https(app, poll):
    room = lecture(poll)
    page = Client(app).get(f"/j/{room.code}")
    voter = next(line for line in page.cookies_set if line.startswith("attn_voter="))
    csrf = next(line for line in page.cookies_set if line.startswith("attn_csrf="))
    assert "HttpOnly" in voter and "SameSite=lax" in voter and "Secure" not in voter
    assert "HttpOnly" in csrf and "SameSite=strict" in csrf
    secure = Client(app, scheme="https").get(f"/j/{room.code}")
    assert all("Secure" in line for line in secure.cookies_set)


def test_a_phone_is_one_voter_across_reloads_and_the_room_counts_it_once(phone, poll):
    room = lecture(poll)
    for __ in range(3):
        assert phone.get(f"/j/{room.code}").status == 200
    assert poll.state(room.code).voter_count == 1


def test_no_phone_answer_carries_the_host_secret(phone, poll):
    room = lecture(poll)
    seen = [phone.get(f"/j/{room.code}").text, phone.get(f"/j/{room.code}/wait?since=x").text,
            phone.get(f"/j/{room.code}/now").text, send(phone, room.code, 2, 1, typed="0.5").text]
    assert all(room.host_secret not in text for text in seen)


# --- a live lecture's scene, phase by phase ---------------------------------------------------------------------------


def test_a_number_question_asks_with_its_box_and_sends_with_either_decimal_sign(phone, poll):
    room = lecture(poll, 3)
    page = phone.get(f"/j/{room.code}")
    asked = live.live_question(3)
    text = words(page.text)
    assert "Scene 3 of 27" in text and asked.ask.replace("*", "") in text
    assert 'inputmode="decimal"' in page.text and "0.00 to 1.00" in page.text
    assert "Your answer counts once you send it" in text
    told = send(phone, room.code, 2, 1, typed="0,7").json()
    assert told["sent"] and told["option"] == asked.nearest(0.7) and told["shown"] == "0.70"
    assert poll.my_votes(room.code, phone_voter(phone)) == {(2, 1): asked.nearest(0.7)}
    again = words(phone.get(f"/j/{room.code}").text)
    assert "Sent: 0.70 of the row's weight." in again


def phone_voter(client: Client) -> str:
    return visitor.voter_of(client.cookies["attn_voter"])


@pytest.mark.parametrize(("typed", "note"), [
    ("1.5", "Your answer must be a number from 0.00 to 1.00, so nothing was sent."),
    ("-0.2", "Your answer must be a number from 0.00 to 1.00, so nothing was sent."),
    ("abc", "Your answer must be a number from 0.00 to 1.00, so nothing was sent."),
    ("1e3", "Your answer must be a number from 0.00 to 1.00, so nothing was sent."),
    ("", "Type a number first, then press Send."),
    ("   ", "Type a number first, then press Send."),
])
def test_a_number_that_cannot_count_says_nothing_was_sent(phone, poll, typed, note):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    told = send(phone, room.code, 2, 1, typed=typed).json()
    assert told == {"sent": False, "key": told["key"], "note": note}
    assert poll.my_votes(room.code, phone_voter(phone)) == {}


def test_a_number_off_the_grid_counts_as_its_nearest_step_and_says_so(phone, poll):
    room = lecture(poll, 9)  # percent, steps of 1
    phone.get(f"/j/{room.code}")
    told = send(phone, room.code, 8, 1, typed="28,6").json()
    assert told["sent"] and told["note"] == "Counted as 29, the nearest step to 28,6."


def test_a_changed_answer_replaces_the_first(phone, poll):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    send(phone, room.code, 2, 1, typed="0.2")
    send(phone, room.code, 2, 1, typed="0.7")
    counts = poll.counts(room.code)
    assert counts.total(1) == 1 and counts.rounds[0][live.live_question(3).nearest(0.7)] == 1


def test_closed_revote_revealed_and_ended_each_say_the_student_s_own_answer(phone, poll):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    send(phone, room.code, 2, 1, typed="0.7")
    poll.close_round(room.code, room.host_secret)
    closed = phone.get(f"/j/{room.code}")
    assert "Answers are closed. You answered 0.70 of the row's weight. Talk to your neighbour" in words(closed.text)
    assert re.search(r'<input id="typed"[^>]*disabled', closed.text)
    late = send(phone, room.code, 2, 1, typed="0.5").json()
    assert not late["sent"] and late["key"] == "closed"
    poll.open_revote(room.code, room.host_secret)
    revote = words(phone.get(f"/j/{room.code}").text)
    assert "Your first answer, 0.70 of the row's weight, counts in this vote too." in revote
    poll.close_round(room.code, room.host_secret)
    poll.reveal(room.code, room.host_secret)
    asked = live.live_question(3)
    shown = words(phone.get(f"/j/{room.code}").text)
    verdict = "That counts as right." if asked.right(asked.nearest(0.7)) else "That is off."
    assert f"The answer: {asked.truth_text}. You answered 0.70 of the row's weight. {verdict}" in shown
    assert "Explore this scene in the Lab" in shown
    poll.end_room(room.code, room.host_secret)
    ended = words(phone.get(f"/j/{room.code}").text)
    assert "The lecturer has ended this lecture" in ended
    right = int(asked.right(asked.nearest(0.7)))
    assert f"Your predictions: {right} right of the 1 scene you answered." in ended


def test_a_choice_is_a_button_per_option_and_a_forged_option_counts_nothing(phone, poll):
    room = lecture(poll, 6)
    page = phone.get(f"/j/{room.code}")
    asked = live.live_question(6)
    assert page.text.count('class="option"') == asked.option_count
    for forged in ["99", "-1", "abc", "1.5", "", "0" * 50]:
        told = send(phone, room.code, 5, 1, option=forged).json()
        assert not told["sent"] and told["key"] == "option", forged
    assert send(phone, room.code, 5, 1, option="1").json()["sent"]
    assert 'aria-pressed="true"' in phone.get(f"/j/{room.code}").text


def test_an_answer_to_the_last_round_counts_in_the_revote_of_the_same_question(phone, poll):
    room = lecture(poll, 6)
    phone.get(f"/j/{room.code}")
    poll.close_round(room.code, room.host_secret)
    poll.open_revote(room.code, room.host_secret)
    told = send(phone, room.code, 5, 1, option="2").json()  # the page still showed round 1
    assert told["sent"] and told["r"] == 2


# --- a class poll room ------------------------------------------------------------------------------------------------


def test_a_class_poll_question_with_code_versions_shows_them_as_code(phone, poll):
    question = next(q for q in POLL_BY_ID.values() if q.versions)
    room = poll.create_room([(question.id, question.option_count)])
    lobby = words(phone.get(f"/j/{room.code}").text)
    assert "You are in. The first question appears here when the lecturer starts." in lobby
    poll.next_question(room.code, room.host_secret)
    page = phone.get(f"/j/{room.code}")
    assert page.text.count("<pre><code>") == len(question.versions) + bool(question.code)
    assert send(phone, room.code, 0, 1, option=str(question.answer)).json()["sent"]
    poll.close_round(room.code, room.host_secret)
    poll.reveal(room.code, room.host_secret)
    shown = words(phone.get(f"/j/{room.code}").text)
    assert f"The answer is {live.letter(question.answer)}." in shown and "You voted " in shown


def test_formulas_are_drawn_without_tex(phone, poll):
    question = next(q for q in POLL_BY_ID.values() if "$" in q.prompt)
    room = poll.create_room([(question.id, question.option_count)])
    poll.next_question(room.code, room.host_secret)
    page = phone.get(f"/j/{room.code}").text
    assert "$" not in words(page) and "\\approx" not in page and "≈" in page and "<sup>" in page


# --- the held wait, the script's own page ---------------------------------------------------------------------------


def test_the_wait_gives_every_phone_the_same_room_page_and_the_end_is_each_phone_s_own(app, poll):
    room = lecture(poll, 3)
    first, second = Client(app), Client(app)
    for client in (first, second):
        client.get(f"/j/{room.code}")
    send(first, room.code, 2, 1, typed="0.7")
    poll.close_round(room.code, room.host_secret)
    one, two = (client.get(f"/j/{room.code}/wait?since=old").json() for client in (first, second))
    assert one == two and one["stamp"].endswith(":closed:0") and 'data-phase="closed"' in one["html"]
    assert "0.70" not in one["html"]  # a room's page names nobody's answer: the script writes it in
    same = first.get(f"/j/{room.code}/wait?since={one['stamp']}").json()
    assert same == {"stamp": one["stamp"]}
    poll.end_room(room.code, room.host_secret)
    assert first.get(f"/j/{room.code}/wait?since={one['stamp']}").json()["mine"] is True
    now = first.get(f"/j/{room.code}/now").json()
    assert "Your predictions" in now["html"], now


def test_the_wait_for_a_room_that_is_gone_says_so(phone):
    answer = phone.get("/j/ZZZZZZZ/wait?since=1:voting:0")
    assert answer.status == 404 and "No room has that code" in answer.json()["error"]


def test_the_assets_are_cached_for_a_year_and_sent_zipped(phone):
    page = phone.get("/j").text
    for name in re.findall(r'/j/s/(phone\.[0-9a-f]{10}\.(?:css|js))', page):
        asset = phone.get(f"/j/s/{name}", headers={"Accept-Encoding": "gzip, br"})
        assert asset.status == 200 and asset.headers["content-encoding"] == "gzip"
        assert "immutable" in asset.headers["cache-control"]
    assert phone.get("/j/s/phone.css").status == 404
    assert phone.get("/j/s/..%2F..%2Fetc%2Fpasswd").status == 404


# --- JavaScript off -------------------------------------------------------------------------------------------------


def test_without_javascript_a_post_comes_back_to_the_page_with_what_happened(phone, poll):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    answer = send(phone, room.code, 2, 1, json=False, typed="0,7")
    assert answer.status == 303 and answer.location == f"/j/{room.code}?note=sent"
    page = words(phone.get(answer.location).text)
    assert "Sent." in page and "Sent: 0.70 of the row's weight." in page
    refused = send(phone, room.code, 2, 1, json=False, typed="7")
    assert refused.location == f"/j/{room.code}?note=range"
    assert "Your answer must be a number from 0.00 to 1.00" in words(phone.get(refused.location).text)
    assert "reload the page for the next question" in phone.get(f"/j/{room.code}").text


def test_a_note_in_the_address_is_a_key_never_text(phone, poll):
    room = lecture(poll, 3)
    page = phone.get(f"/j/{room.code}?note=%3Cscript%3Ealert(1)%3C/script%3E")
    assert page.status == 200 and "alert(1)" not in page.text


# --- hostile clients ------------------------------------------------------------------------------------------------


def test_a_post_without_the_page_s_token_or_from_another_site_counts_nothing(app, poll):
    room = lecture(poll, 3)
    phone = Client(app)
    phone.get(f"/j/{room.code}")
    bad = [
        phone.post(f"/j/{room.code}/vote", {"q": "2", "r": "1", "typed": "0.5"}, headers=JSON),
        phone.post(f"/j/{room.code}/vote", {"csrf": "x" * 32, "q": "2", "r": "1", "typed": "0.5"}, headers=JSON),
        phone.post(f"/j/{room.code}/vote", {"csrf": phone.cookies["attn_csrf"], "q": "2", "r": "1", "typed": "0.5"},
                   headers={**JSON, "Origin": "https://evil.example"}),
        Client(app).post(f"/j/{room.code}/vote", {"csrf": "y" * 32, "q": "2", "r": "1", "typed": "0.5"},
                         headers=JSON),
    ]
    assert [answer.status for answer in bad] == [403] * 4
    assert all(answer.json()["sent"] is False for answer in bad)
    assert poll.counts(room.code).total(1) == 0


@pytest.mark.parametrize("body", [b"q=2&r=1&typed=" + b"9" * 5000, b"\xff\xfe" * 10, b"q=two&r=1&typed=1",
                                  b"&".join(b"f%d=1" % i for i in range(50))])
def test_a_body_too_big_unreadable_or_malformed_is_refused_with_a_sentence(phone, poll, body):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    answer = phone.post(f"/j/{room.code}/vote", body, headers=JSON)
    assert answer.status in (400, 403, 413) and answer.json()["note"]
    assert "Traceback" not in answer.text


def test_a_body_that_says_it_is_small_and_streams_more_is_cut(phone, poll):
    room = lecture(poll, 3)
    phone.get(f"/j/{room.code}")
    form = {**JSON, "content-type": "application/x-www-form-urlencoded"}
    answer = phone.request("POST", f"/j/{room.code}/vote", form, chunks=[b"a" * 1500, b"b" * 1500, b"c" * 1500])
    assert answer.status == 413


@pytest.mark.parametrize(("method", "path"), [("GET", "/j/{code}/vote"), ("PUT", "/j/{code}/vote"),
                                              ("POST", "/j/{code}"), ("DELETE", "/j/{code}/wait")])
def test_a_wrong_method_is_refused(phone, poll, method, path):
    room = lecture(poll, 3)
    assert phone.request(method, path.format(code=room.code)).status == 405


def test_a_flood_of_answers_from_one_phone_is_slowed_with_a_sentence_and_nothing_breaks(phone, poll):
    room = lecture(poll, 6)
    phone.get(f"/j/{room.code}")
    told = [send(phone, room.code, 5, 1, option=str(i % 4)).json() for i in range(40)]
    assert sum(answer["sent"] for answer in told) < 40
    assert {answer["key"] for answer in told if not answer["sent"]} == {"limit"}
    assert poll.counts(room.code).total(1) == 1


# --- languages and old links ------------------------------------------------------------------------------------------


def test_the_phone_speaks_its_own_language_by_link_or_by_browser(app, poll):
    room = lecture(poll, 3)
    with using("es"):
        spanish = _("Your prediction")
    by_link = Client(app).get(f"/j/{room.code}?lang=es")
    by_browser = Client(app).get(f"/j/{room.code}", headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"})
    english = Client(app).get(f"/j/{room.code}?lang=xx")
    assert 'lang="es"' in by_link.text and spanish in unescape(by_link.text) and "0,00" in by_link.text
    assert 'lang="es"' in by_browser.text and 'lang="en"' in english.text
    phone = Client(app)
    phone.get(f"/j/{room.code}?lang=es")
    told = phone.post(f"/j/{room.code}/vote?lang=es", {"csrf": phone.cookies["attn_csrf"], "q": "2", "r": "1",
                                                       "typed": "5"}, headers=JSON).json()
    with using("es"):
        assert told["note"] == _("Your answer must be a number from {low} to {high}, so nothing was sent.",
                                 low="0,00", high="1,00")


def test_an_old_join_link_brings_a_phone_to_its_page_and_leaves_the_host_on_streamlit(app, poll):
    room = lecture(poll, 3)
    phone = Client(app)
    moved = phone.get(f"/Class_poll?room={room.code.lower()}&lang=es")
    assert moved.status == 302 and moved.location == f"/j/{room.code}?lang=es"
    host = Client(app)
    host.cookies[f"attn_host_{room.code}"] = "whatever"
    assert "<title>Streamlit</title>" in host.get(f"/Class_poll?room={room.code}").text
    assert "<title>Streamlit</title>" in phone.get(f"/Class_poll?room={room.code}&host=secret").text
    assert "<title>Streamlit</title>" in phone.get("/Class_poll").text
    assert "<title>Streamlit</title>" in phone.get("/Class_poll?room=nonsense").text


# --- trouble ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("error", [Reconnecting("The class poll is reconnecting to its database."),
                                   Busy("The class poll is busy; try again in a moment.")])
def test_storage_trouble_is_a_sentence_with_a_way_to_try_again_and_the_page_recovers(phone, poll, monkeypatch, error):
    room = lecture(poll, 3)

    def broken(*_args, **_kwargs):
        raise error

    with monkeypatch.context() as patched:
        patched.setattr(Poll, "phone_view", broken)
        page = phone.get(f"/j/{room.code}")
        assert page.status == 503 and str(error) in words(page.text) and "Try again" in words(page.text)
        assert "Traceback" not in page.text and "sqlite" not in page.text.lower()
        patched.setattr(Poll, "vote_many", broken)  # the answers' write (a batch, attn_phone/answers.py)
        told = send(phone, room.code, 2, 1, typed="0.5").json()
        assert told == {"sent": False, "key": "storage", "note": str(error)}
    assert phone.get(f"/j/{room.code}").status == 200


def test_an_expired_room_says_so_on_the_join_form(phone, poll, clock):
    room = lecture(poll, 3)
    clock.advance(13 * 3600)
    page = phone.get(f"/j/{room.code}")
    assert page.status == 404 and "This room has expired" in words(page.text)


def test_a_full_room_says_so(phone, poll):
    import dataclasses

    small = dataclasses.replace(poll, limits=dataclasses.replace(poll.limits, max_voters_per_room=1))
    room = lecture(small, 3)
    app = Starlette(routes=Phones(lambda: small).routes())
    assert Client(app).get(f"/j/{room.code}").status == 200
    full = Client(app).get(f"/j/{room.code}")
    assert full.status == 429 and "full" in words(full.text).lower()


def test_an_answer_reads_nothing_before_its_write_once_its_question_is_known(app, poll, monkeypatch):
    """The room's question is read with the first answer to it, then kept: the answers after it are one write each
    (Poll.vote reads the round open now as it writes), and one sent from a page drawn before a revote counts there."""
    room = lecture(poll, 3)
    phones = [Client(app) for _ in range(3)]
    for client in phones:
        client.get(f"/j/{room.code}")
    reads = []
    real = type(poll).state
    monkeypatch.setattr(type(poll), "state", lambda self, code: reads.append(code) or real(self, code))
    for number, client in enumerate(phones):
        assert send(client, room.code, 2, 1, typed=f"0.{number + 2}").json()["sent"] is True
    assert len(reads) == 1, reads
    poll.close_round(room.code, room.host_secret)
    assert send(phones[0], room.code, 2, 1, typed="0.5").json()["key"] == "closed"
    poll.open_revote(room.code, room.host_secret)
    told = send(phones[0], room.code, 2, 1, typed="0.5").json()  # drawn in round 1: the revote takes it
    assert told["sent"] is True and told["r"] == 2
    assert send(phones[1], room.code, 1, 1, typed="0.5").json()["key"] == "closed", "another question's round"
    assert len(reads) == 2, "a question not kept here is read once, to say so"
