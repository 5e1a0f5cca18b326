"""The class poll on screen: open a room, the host's controls and projector board, a student's phone.

The URL picks the face: no room -> open a room (and join one by its code); `?room=CODE&host=SECRET` -> the host;
`?room=CODE` -> a student. The host secret stays in the address bar: a reload, or the page reconnecting after an
app restart, must find the controls again (Streamlit keeps nothing else across those). So the host page asks
for full screen before projecting, which hides the address bar. The projector board and the phone are
fragments that poll the database on a timer, so counts, new
questions and the reveal arrive without a reload. Every poll call goes through poll_service.attempt: an error
becomes its sentence, never a traceback.

Session state used here (besides poll_service's and join's keys):
    poll.note          a message from a button or a vote (a callback) to show in the next run
    poll.open.note     why "Open a room" was refused, shown beside that button
    poll.join.note     why the typed code was refused, shown beside the Join button
    poll.typed         the join form's text box (its own key: poll-code styles the host's big room code)
    poll.stamp         the phone's change stamp (Poll.phone_stamp) when the phone was last drawn
    poll.drawn         when the phone was last drawn (time.monotonic)
    poll.joined        the room this session has joined as a student
    poll.pick.<id>     the question checkboxes of "Open a room"
    poll.vote.<q>.<r>  a student's radio for question q, round r (seeded from the database once; the user owns it)
    poll.db.poll.vote.<q>.<r>  the vote the database held in the last phone run (a refused vote returns to it)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from attn_lang import _
from attn_poll import NotHost, Phase, PollError, ProjectorView, RoomExpired, RoomNotFound, RoomState, StorageError
from attn_poll.codes import normalise_room_code
from attn_ui.quiz.bank import SECTIONS
from attn_ui.quiz.poll_questions import POLL_BY_ID, POLL_QUESTIONS, PollQuestion
from attn_ui.views import live_view, poll_route, poll_service
from attn_ui.widgets import join, lang, look, projector
from attn_ui.widgets.nav import sidebar_nav
from attn_ui.widgets.page import lab_button
from attn_ui.words import live, poll_words

NOTE_KEY = "poll.note"
JOINED_KEY = "poll.joined"
PICK_PREFIX = "poll.pick."
VOTE_PREFIX = "poll.vote."
UNKNOWN_OPTION = "That is not one of this question's options, so no vote was counted."
SHOWN_VOTE_PREFIX = "poll.db."  # + the radio's key: the vote the database held in the last phone run
BOARD_EVERY_S = 1.0  # the projector's counts are at most this old (plus one query), well inside the 2 s asked
PHONE_EVERY_S = 2.0  # a phone needs the new question or the reveal soon, not the counts: half the load
QR_PIXELS = (300, 230)  # the QR code's width in projector mode and on a laptop screen
OPEN_NOTE_KEY = "poll.open.note"
JOIN_NOTE_KEY = "poll.join.note"
TYPED_KEY = "poll.typed"
STAMP_KEY = "poll.stamp"
DRAWN_KEY = "poll.drawn"
# The room code: as large as off the projector and larger on it. The app-wide projector rule for paragraphs
# (main-area p, !important) would otherwise outrank the code's own rule, so these selectors carry more classes.
CODE_CSS = """<style>
[data-testid="stMain"] .st-key-poll-join .st-key-poll-code p { font-size: 2.4rem !important;
  line-height: 1.1 !important; }
</style>"""
CODE_PROJECTOR_CSS = """<style>
[data-testid="stMain"] .st-key-poll-join .st-key-poll-code p { font-size: 4rem !important; }
</style>"""


@dataclass(frozen=True)
class Face:
    kind: str  # "open", "host" or "student"
    code: str = ""  # the canonical room code (host and student)
    secret: str = ""  # the host secret (host only)
    problem: str = ""  # why the URL could not be used as it is ("" when it could)


def frame(switch: bool = True) -> None:
    """The page's frame. `switch=False`: the face draws the projector switch itself (the host: in its tools row,
    which saves the board a row of its 720 px)."""
    lang.choose()
    st.set_page_config(page_title=_("Class poll · Attention Lab"), page_icon=":material/how_to_vote:", layout="wide")
    look.apply_look()
    look.apply_poll_look()
    sidebar_nav()
    projector.page_mode(switch=switch)  # the app-wide mode and its CSS, on every face of the poll
    st.title("Class poll")


def face() -> Face:
    """Which face the URL asks for. A host secret in the URL moves into the session and out of the address bar."""
    room = projector.url_value("room")
    host = projector.url_value("host")
    if room is None:
        problem = "A host link needs its room code as well." if host is not None else ""
        return Face("open", problem=problem)
    try:
        code = normalise_room_code(room)
    except PollError as error:
        return Face("open", problem=str(error))
    if host is not None:
        state, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, host))
        if isinstance(error, NotHost):
            return Face("student", code, problem=str(error))
        if isinstance(error, StorageError):
            return Face("host", code, host)  # host_face shows the note and tries again by itself
        if error is not None:
            return Face("open", problem=str(error))
        poll_service.remember_host(state.code, host)
        return Face("host", state.code, host)
    secret = poll_service.host_secret_for(code)
    if secret:
        return Face("host", code, secret)
    __, error = poll_service.attempt(lambda: poll_service.poll().state(code))
    if isinstance(error, RoomNotFound | RoomExpired):  # a mistyped or old code: offer to type it again
        return Face("open", problem=str(error))
    return Face("student", code)  # storage trouble: the phone shows the note and retries by itself


# --- shared pieces -------------------------------------------------------------------------------------------


show_problem = poll_service.show_problem


def show_note(key: str = NOTE_KEY) -> None:
    """The message a callback left for this run (a refused vote, a host action the phase does not allow)."""
    note = st.session_state.pop(key, None)
    if isinstance(note, str) and note:
        st.warning(note, icon=":material/info:")


def _call(work: Callable[[], object]) -> None:
    """Run a poll call from a callback; its error waits in the session for the next run to show."""
    __, error = poll_service.attempt(work)
    st.session_state[NOTE_KEY] = str(error) if error else None


def question_or_none(question_id: str | None) -> PollQuestion | None:
    return POLL_BY_ID.get(question_id or "")


def show_question(question: PollQuestion) -> None:
    st.markdown(question.prompt)
    if question.code:
        st.code(question.code, language="python", wrap_lines=True)
    for start in range(0, len(question.versions), 2):
        pair = range(start, min(start + 2, len(question.versions)))
        for column, index in zip(st.columns(2), pair, strict=False):
            with column:
                st.markdown(f"**{question.options[index]}**")
                st.code(question.versions[index], language="python", wrap_lines=True)


def show_reveal(question: PollQuestion, folded: bool = False) -> None:
    """The right option, why it is right, why each wrong one fails, and the Lab link. folded (the projector):
    the reasons wait in an expander under the answer, so the board stays inside one 1280x720 screen."""
    name = question.option_name(question.answer)
    right = "" if question.versions else f" {question.options[question.answer]}"
    st.success(f"**The answer is {name}.**{right}", icon=":material/check_circle:")
    whys = [(index, why) for index, why in enumerate(question.whys) if why]
    if folded:  # the lecturer opens the reasons when the room is ready for them
        label = f"Why {name}, and why not the others?" if whys else f"Why {name}?"
        with st.expander(label):
            _reasons(question, whys)
    else:
        _reasons(question, whys)
    if question.lab is not None:
        settings, __ = question.lab.settings()
        lab_button(settings, question.lab.label, **question.lab.view)


def _reasons(question: PollQuestion, whys: list[tuple[int, str]]) -> None:
    st.markdown(question.explanation)
    for index, why in whys:
        st.markdown(f"**Why not {question.option_name(index)}?** {why}")


# --- no room: open one, or join one by its code ----------------------------------------------------------------


def _join_typed() -> None:
    typed = st.session_state.get(TYPED_KEY, "")
    try:
        st.query_params["room"] = normalise_room_code(typed)
    except PollError as error:
        st.session_state[JOIN_NOTE_KEY] = str(error)


def _open_room() -> None:
    picked = [q for q in POLL_QUESTIONS if st.session_state.get(PICK_PREFIX + q.id)]
    if not picked:
        st.session_state[OPEN_NOTE_KEY] = "Pick at least one question for the room."
        return
    openers = poll_service.opener_keys()
    room, error = poll_service.attempt(
        lambda: poll_service.poll().create_room([(q.id, q.option_count) for q in picked], openers=openers))
    if error is not None:
        st.session_state[OPEN_NOTE_KEY] = str(error)
        return
    poll_service.remember_host(room.code, room.host_secret)
    join.remember(room.code)
    st.query_params.clear()
    st.query_params["room"] = room.code
    st.query_params["host"] = room.host_secret  # the private host link: reloads and restarts keep the controls


def open_face(problem: str = "") -> None:
    show_problem(problem)
    show_note()
    with st.container(border=True, key="poll-join-form"):
        st.markdown("**Join a room.** Type the code shown on the projector.")
        st.text_input("Room code", key=TYPED_KEY, max_chars=40, placeholder="For example 7KD3Q9X")
        st.button("Join", key="poll.join", icon=":material/login:", on_click=_join_typed)
        show_note(JOIN_NOTE_KEY)
    st.subheader("Open a room", anchor=False)
    st.markdown("For the lecturer. Pick the questions to ask, in the order below. Students vote on their "
                "phones; the projector shows the count for each option, not the answer, until you reveal it.")
    for section in SECTIONS:
        questions = [q for q in POLL_QUESTIONS if q.section == section.id]
        with st.expander(section.title):  # a fixed label: a label that changed would close the expander
            for question in questions:
                st.checkbox(question.prompt, key=PICK_PREFIX + question.id)
    picked = sum(bool(st.session_state.get(PICK_PREFIX + q.id)) for q in POLL_QUESTIONS)
    st.button(f"Open a room with {picked} questions" if picked != 1 else "Open a room with 1 question",
              key="poll.open", type="primary", icon=":material/how_to_vote:", disabled=not picked,
              on_click=_open_room)
    show_note(OPEN_NOTE_KEY)  # beside the button that was pressed, not at the top of a long page


# --- the host ----------------------------------------------------------------------------------------------------


def _host_link(code: str, secret: str) -> str:
    return f"{join.join_url(st.context.url, code)}&host={secret}"


def host_controls(code: str, secret: str, state: RoomState) -> None:
    """One row of buttons: each is enabled only in the phase that allows it."""
    service = poll_service.poll
    act = functools.partial
    phase = state.phase
    first = state.question_index is None
    with st.container(key="poll-controls", horizontal=True, gap="small", vertical_alignment="center"):
        st.button("Start the first question" if first else "Next question", key="poll.next", type="primary",
                  icon=":material/skip_next:", disabled=phase not in (Phase.LOBBY, Phase.REVEALED)
                  or not state.has_next_question, on_click=_call,
                  args=(act(lambda: service().next_question(code, secret)),))
        st.button("Close voting", key="poll.close", icon=":material/stop_circle:",
                  disabled=phase is not Phase.VOTING, on_click=_call,
                  args=(act(lambda: service().close_round(code, secret)),))
        st.button("Vote again", key="poll.revote", icon=":material/replay:",
                  disabled=not (phase is Phase.CLOSED and state.round_number == 1), on_click=_call,
                  args=(act(lambda: service().open_revote(code, secret)),),
                  help="After a talk with a neighbour: a second round of the same question.")
        st.button("Reveal the answer", key="poll.reveal", icon=":material/visibility:",
                  disabled=phase is not Phase.CLOSED, on_click=_call,
                  args=(act(lambda: service().reveal(code, secret)),))
        with st.popover("End the room", icon=":material/logout:", disabled=phase is Phase.ENDED):
            st.markdown("Students can no longer vote. The counts stay readable until the room expires.")
            st.button("End the room now", key="poll.end", on_click=_call,
                      args=(act(lambda: service().end_room(code, secret)),))


def _export(code: str, secret: str) -> str:
    csv_text, error = poll_service.attempt(lambda: poll_service.poll().export_csv(code, secret))
    return csv_text if error is None else f"error\n{error}\n"


def host_tools(code: str, secret: str) -> None:
    with st.container(key="poll-tools", horizontal=True, gap="small", vertical_alignment="center"):
        # Eager data (one query per host rerun, not per board refresh): served over HTTP, it survives a failover.
        st.download_button("Counts as CSV", _export(code, secret), file_name=f"poll-{code}.csv",
                           mime="text/csv", icon=":material/download:", key="poll.csv", on_click="ignore")
        with st.popover("Private host link", icon=":material/key:"):
            st.markdown("This page's address controls the room. Keep it to yourself, and press F11 (full screen) "
                        "before you project, so the back row cannot read it from the address bar.")
            st.code(_host_link(code, secret), language=None, wrap_lines=True)
        projector.page_switch()  # last in the row on the projector (look.py), in the sidebar off it


def join_panel(link: join.JoinLink, big: bool) -> None:
    """The code, link and QR code. The count of students in is the board's (live), not repeated here."""
    with st.container(key="poll-join"):
        st.markdown("**Join on your phone**")
        st.markdown(f"`{link.short}`")
        with st.container(key="poll-code"):
            st.markdown(f"**{link.code}**")
        join.show_qr(link, QR_PIXELS[0] if big else QR_PIXELS[1])


def _status(state: RoomState) -> str:
    """The board's first line, with the one live count of students in the room."""
    joined = f"{poll_words.students_word(state.voter_count)} in the room"
    if state.phase is Phase.LOBBY:
        return f"Waiting to start · {joined}"
    where = poll_words.question_line(state.question_index, state.question_count)
    words = {Phase.VOTING: f"{poll_words.round_name(state.round_number)} · open",
             Phase.CLOSED: f"{poll_words.round_name(state.round_number)} · closed",
             Phase.REVEALED: "The answer", Phase.ENDED: "This room has ended"}[state.phase]
    return f"{where} · {words} · {joined}"


def counts_block(view: ProjectorView, question: PollQuestion) -> None:
    """A bar per option per round, side by side after a revote; marked right or wrong only after the reveal.

    The bars carry the letters only (the question above lists the options once), so two rounds fit at 1280x720."""
    counts = view.counts
    revealed = view.state.phase is Phase.REVEALED
    names = [question.option_name(i) for i in range(question.option_count)]
    columns = st.columns(len(counts.rounds)) if len(counts.rounds) > 1 else [st.container()]
    for round_number, (column, tally) in enumerate(zip(columns, counts.rounds, strict=True), start=1):
        with column.container(key=f"poll-round-{round_number}"):
            total = sum(tally)
            st.markdown(f"**{poll_words.round_name(round_number)}** · {poll_words.votes_word(total)}")
            for index, count in enumerate(tally):
                label = poll_words.bar_label(names[index], "", count, total,
                                             right=(index == question.answer) if revealed else None)
                st.progress(poll_words.share(count, total), text=label)
            st.caption(poll_words.counts_sentence(round_number, names, tally))


def board(code: str, version: int, secret: str = "") -> None:
    """The projector's live part: status, question, counts. Polls the database every second; when the room moved
    on elsewhere (another host tab), the whole page is drawn again so its buttons and side panel follow."""
    if secret:
        poll_service.touch(code, secret)
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(code))
    if error is not None:
        show_problem(error)
        return
    if view.state.version != version:
        st.rerun(scope="app")
    with st.container(key="poll-status"):
        st.markdown(f"**{_status(view.state)}**")
    if view.counts is None:
        st.markdown("Students can join now. Press **Start the first question** when the room is ready.")
        return
    question = question_or_none(view.counts.question_id)
    if question is None:
        st.error("This question is no longer in the app's question bank.", icon=":material/error:")
        return
    with st.container(key="poll-question"):
        show_question(question)
        if not question.versions:
            st.markdown("\n".join(f"- **{question.option_name(i)}.** {text}" for i, text in
                                   enumerate(question.options)))
    counts_block(view, question)


def host_face(code: str, secret: str, problem: str = "") -> None:
    big = projector.is_on()  # frame() decided it; the switch is drawn in the tools row
    if big:
        look.apply_poll_projector_look()
    if big:
        st.html(CODE_PROJECTOR_CSS)
    else:
        st.html(CODE_CSS)
    show_problem(problem)
    show_note()
    state, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, secret))
    if error is not None:
        show_problem(error)
        projector.page_switch()
        retry_soon()
        return
    link = join.remember(state.code)
    if live.scene_of(state.question_id) is not None:
        st.info("This room is a live lecture: it follows the Lecture scenes page, and is run from there.",
                icon=":material/cast_connected:")
        number = live.scene_of(state.question_id)
        st.page_link(projector.SCENES_PAGE, label=f"Back to the lecture, scene {number}", icon=":material/slideshow:",
                     query_params={"scene": str(number), "room": code, "host": secret})
        return
    host_controls(code, secret, state)
    lobby = state.phase is Phase.LOBBY  # nothing to count yet: the join code gets the room
    answer = question_or_none(state.question_id) if state.phase is Phase.REVEALED else None
    side, main = st.columns([1.25, 1] if lobby else [1, 2.3], gap="medium")
    with side:
        if answer is None:
            join_panel(link, big)
        else:  # nobody votes now: the answer takes the join code's place, beside the counts
            with st.container(key="poll-answer"):
                show_reveal(answer, folded=True)
    with main:
        st.fragment(board, run_every=BOARD_EVERY_S)(code, state.version, secret)
    host_tools(code, secret)


def retry_soon() -> None:
    """After a storage error on the first run: try again every few seconds and redraw the page once it works."""

    def check() -> None:
        __, error = poll_service.attempt(lambda: poll_service.poll())
        if error is None:
            st.rerun()

    st.fragment(check, run_every=PHONE_EVERY_S)()


# --- a student ---------------------------------------------------------------------------------------------------


def _cast(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    """The radio's callback: the vote counts in the round open at the moment of the tap.

    A phone learns of a new round only on its next timed run, so a tap may come from the screen of a round
    that just closed while the revote of the same question is open: that tap is a vote in the revote. A
    refused vote sets the radio back to what the database holds, so the pick on screen is the vote that counts.
    """
    option = st.session_state.get(key)
    if option is None:
        return
    if isinstance(option, bool) or not isinstance(option, int):  # a client sent a value that is no option
        st.session_state[NOTE_KEY] = UNKNOWN_OPTION
        st.session_state[key] = st.session_state.get(SHOWN_VOTE_PREFIX + key)
        return

    def work() -> None:
        now = poll_service.poll().state(code)
        same_question = now.phase is Phase.VOTING and now.question_index == question_index
        poll_service.poll().vote(code, voter, question_index, now.round_number if same_question else round_number,
                                 option)

    _call(work)
    if st.session_state.get(NOTE_KEY):
        st.session_state[key] = st.session_state.get(SHOWN_VOTE_PREFIX + key)


# In a process that serves the route (app.py's st.App), a phone's browser asks that plain HTTP route (poll_route)
# whether the room moved, with the stamp its fragment was drawn with: the route holds the request until the stamp
# differs (at most HOLD_S), so a change arrives within poll_route.CHECK_S. The browser clicks the fragment's hidden
# Refresh button only when the answer differs from what is drawn (or the route fails: the fragment then shows why and is
# asked again). An answer that came at once and changed nothing (a room gone for good, a process full of held requests,
# a hidden page) waits PHONE_JS_EVERY_MS before the next question. Before the fragment's stamp is drawn (a page that has
# just opened) it looks for it every 250 ms: a 2-second pause there made a phone's first move take up to 2 s more. An
# answer that is not the route's JSON (something in front of the app that passes only Streamlit's own paths answered
# instead) makes the browser press Refresh every PHONE_JS_EVERY_MS: the phone follows as the timed fragment would, at
# its cost.
PHONE_JS = """
<script id="attn-phone">
if (!window.__attnPhone) {
  window.__attnPhone = true;
  let askedFor = null, askedAt = 0;
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  const press = () => {  // the fragment's hidden Refresh button: true when there was one to press
    const refresh = document.querySelector(".st-key-poll-refresh button");
    if (refresh) refresh.click();
    return !!refresh;
  };
  const drawnNow = () => {
    const mark = document.querySelectorAll(".st-key-poll-stamp code");
    return mark.length < 2 ? null : [mark[0].textContent, mark[1].textContent];
  };
  (async () => {
    for (;;) {
      const mark = drawnNow();
      if (document.hidden) { await pause(2000); continue; }
      if (!mark) { await pause(250); continue; }  // not drawn yet (a page just opened): look again soon
      const [drawn, url] = mark;
      if (askedFor === drawn && Date.now() - askedAt < 6000) { await pause(250); continue; }  // a refresh is on its way
      const began = Date.now();
      let now, ours = true;
      try {
        const answer = await fetch(url + "?since=" + encodeURIComponent(drawn), {cache: "no-store"});
        ours = (answer.headers.get("content-type") || "").startsWith("application/json");
        now = !ours ? "no route" : answer.ok ? (await answer.json()).stamp : "error " + answer.status;
      } catch (error) { now = "offline"; }
      if (!ours) {  // not the route's answer (a proxy in front passes only Streamlit's paths): redraw on a timer
        await pause(2000);
        press();
        continue;
      }
      const shown = drawnNow();
      const current = shown ? shown[0] : drawn;  // the fragment may have been drawn again while the request was held
      if (now !== current) {
        if (press()) { askedFor = current; askedAt = Date.now(); }
      }
      await pause(now === current && Date.now() - began < 1000 ? 2000 : 50);
    }
  })();
}
</script>
"""
PHONE_JS_EVERY_MS = 2000  # written into PHONE_JS (a constant, as every st.html body is); equals PHONE_EVERY_S


def _mark(code: str, stamp: str) -> None:
    """What the browser's check compares against: the stamp this drawing shows, and where to ask for the current one;
    with the hidden button it presses when they differ. Only in a process that serves the route. The check itself
    (PHONE_JS) is drawn by student_face, outside the fragment: once a page run, not again on every redraw."""
    if not poll_route.available():
        return
    with st.container(key="poll-stamp"):  # as text (escaped by Markdown), never as HTML: the script reads it
        st.markdown(f"`{stamp}` `{poll_route.stamp_url(st.context.url, code)}`")
        st.button("Refresh", key="poll.refresh")


def _trouble(error: PollError) -> str:
    """The mark of a phone drawn with an error: a room gone for good is what the route answers too (no more
    refreshes); anything else differs from every answer, so the browser asks for a refresh again soon."""
    return "error 404" if isinstance(error, RoomNotFound | RoomExpired) else "trouble"


def phone(code: str, voter: str) -> None:
    """A student's phone: the question and the options, the vote, and the reveal when it comes.

    A fragment without a timer: a tap reruns it alone. watch() reruns the page when the room changed; or, served by
    the route (poll_route), the browser's check (PHONE_JS) presses the fragment's hidden Refresh button."""
    st.session_state[DRAWN_KEY] = time.monotonic()
    if st.session_state.get(JOINED_KEY) != code:
        __, error = poll_service.attempt(lambda: poll_service.poll().join(code, voter))
        if error is not None:
            st.session_state[STAMP_KEY] = None  # watch() tries again
            _mark(code, _trouble(error))
            show_problem(error)
            return
        st.session_state[JOINED_KEY] = code
    view, error = poll_service.attempt(lambda: poll_service.poll().phone_view(code, voter))
    if error is not None:
        st.session_state[STAMP_KEY] = None
        _mark(code, _trouble(error))
        show_problem(error)
        return
    st.session_state[STAMP_KEY] = view.stamp
    state = view.state
    _mark(code, poll_route.stamp_text(*view.stamp[:3]))
    if live.scene_of(state.question_id) is not None:  # a live lecture: the scene on the projector, on the phone
        st.caption(f"Room {state.code} · live lecture")
        if state.phase is Phase.ENDED:
            live_view.phone_ended(code, voter)
        else:
            live_view.phone_scene(code, voter, state, view.my_vote)
        return
    st.caption(f"Room {state.code}" + ("" if state.question_index is None else
                                        " · " + poll_words.question_line(state.question_index, state.question_count))
               + (f" · {poll_words.round_name(state.round_number)}" if state.round_number > 1 else ""))
    show_note()
    if state.phase is Phase.ENDED:
        st.info("The lecturer has ended this room. Thank you for voting.", icon=":material/done_all:")
        return
    question = question_or_none(state.question_id)
    if state.phase is Phase.LOBBY or question is None:
        st.info("You are in. The first question appears here when the lecturer starts.", icon=":material/login:")
        return
    with st.container(key="poll-question"):
        show_question(question)
    key = f"{VOTE_PREFIX}{state.question_index}.{state.round_number}"
    held = st.session_state.get(SHOWN_VOTE_PREFIX + key)
    if st.session_state.get(key) not in (None, *range(question.option_count)):  # a value no option has
        st.session_state[key] = view.my_vote
    if key not in st.session_state or (view.my_vote != held and st.session_state[key] == held):
        # From the database only when the radio is new (a reload, a new round) or the vote changed elsewhere
        # (another tab) while the radio still shows the old one. Never on every timed run: a tap arriving
        # while one is in flight was overwritten by the older database value, and the next request carried
        # that value instead of the tap, so the vote was never cast.
        st.session_state[key] = view.my_vote
    st.session_state[SHOWN_VOTE_PREFIX + key] = view.my_vote
    voting = state.phase is Phase.VOTING
    st.radio("Your vote", list(range(question.option_count)), key=key, index=None, disabled=not voting,
             format_func=lambda i: f"{question.option_name(i)}. {question.options[i]}" if not question.versions
             else question.options[i], on_change=_cast, args=(code, voter, state.question_index,
                                                             state.round_number, key))
    mine = "" if view.my_vote is None else question.option_name(view.my_vote)
    if voting:
        st.markdown(f"Your vote: **{mine}**. You can change it until voting closes." if mine else
                    "Tap an option to vote. You can change your vote until voting closes.")
    elif state.phase is Phase.CLOSED:
        told = f"You voted {mine}." if mine else "You did not vote in this round."
        st.info(f"Voting is closed. {told} Talk to your neighbour: why did each of you pick your answer?",
                icon=":material/forum:")
    else:
        st.markdown(f"You voted **{mine}**." if mine else "You did not vote in the last round.")
        show_reveal(question)


def watch(code: str, voter: str) -> None:
    """An idle phone's poll: one cheap stamp (two indexed reads) and nothing drawn while nothing changed. When
    the room moved on, or this voter voted in another tab, the page is drawn again; storage trouble is a note."""
    drawn = st.session_state.get(DRAWN_KEY)
    if isinstance(drawn, float) and time.monotonic() - drawn < PHONE_EVERY_S / 2:
        return  # the phone was drawn in this very run (a full run draws both): nothing to check yet
    stamp, error = poll_service.attempt(lambda: poll_service.poll().phone_stamp(code, voter))
    if isinstance(error, StorageError):
        st.session_state[STAMP_KEY] = None  # draw the phone again once the database is back
        show_problem(error)
        return
    if error is not None or stamp != st.session_state.get(STAMP_KEY):
        st.rerun(scope="app")


def student_face(code: str, problem: str = "") -> None:
    show_problem(problem)
    voter = poll_service.voter_id()
    with st.container(key="poll-phone"):
        st.fragment(phone)(code, voter)
    if poll_route.available():  # with the route, the browser asks it (PHONE_JS) instead of a timer
        st.html(PHONE_JS, unsafe_allow_javascript=True)  # its loop outlives the element; it starts once a window
    else:
        st.fragment(watch, run_every=PHONE_EVERY_S)(code, voter)
