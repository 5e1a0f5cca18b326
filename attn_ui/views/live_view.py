"""The live lecture: Go live on Lecture scenes, and the room predicts every scene on their phones.

Go live opens a class-poll room with one question per scene (attn_ui/words/live.py) and puts its code and host
secret in the scenes page's address (`room`, `host`), so Next, Back, a reload and the browser's Back all keep the
controls. Every run of the host's scenes page moves the room to the scene on screen, its answer shown or not
(Poll.show_scene): phones follow within their poll interval, on any replica, because the room lives in the
database. Phones are the class poll's student face (pages/10_Class_poll.py?room=CODE): for a scene's question it
calls phone_scene here instead of the quiz question.

Session state used here:
    live.note          a message from Go live or a phone's answer, shown in the next run
    live.answer.<q>.<r>  a phone's number box or radio for scene position q, round r
    live.checked       the room this session checked is a lecture room (once per session, not per run)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

import streamlit as st

from attn_poll import NotHost, Phase, PollError, ProjectorView, RoomState
from attn_poll.codes import normalise_room_code
from attn_ui.figures import layout, live_charts
from attn_ui.views import poll_service
from attn_ui.widgets import join, panels, projector
from attn_ui.widgets.page import lab_button
from attn_ui.words import live, poll_words
from attn_ui.words.scenes import SCENES

NOTE_KEY = "live.note"
ANSWER_PREFIX = "live.answer."
CHECKED_KEY = "live.checked"
BOARD_EVERY_S = 1.0  # the projector's count of answers is at most this old
SPREAD_HEIGHT = (150, 220)  # px of the spread chart: on the projector beside a revealed board, and off it
UNDER_CURVES_HEIGHT = 110  # px on the projector under a training scene's curves, which take most of the board
QR_WIDTH = (200, 180)  # the first scene's QR code, on the projector and off it
WHAT_GO_LIVE_DOES = ("**Go live** opens a room for this lecture: students scan the code once, each scene's question "
                     "then appears on their phones, and the room's predictions are shown when you reveal.")


@dataclass(frozen=True)
class Host:
    """A live lecture this page controls."""

    code: str
    secret: str
    state: RoomState
    link: join.JoinLink

    @property
    def ended(self) -> bool:
        return self.state.phase is Phase.ENDED


@st.cache_resource(show_spinner=False, max_entries=64)
def cached_question(number: int) -> live.Live:
    """Scene `number`'s live question (frozen), built once a server: every phone draws it at each scene change."""
    return live.live_question(number)


@st.cache_resource(show_spinner=False, max_entries=64)
def cached_scene_text(number: int):
    """Scene `number`'s words (frozen), built once a server."""
    return live.scene_text(number)


def _note(text: str | None) -> None:
    st.session_state[NOTE_KEY] = text or None


def show_note() -> None:
    note = st.session_state.pop(NOTE_KEY, None)
    if isinstance(note, str) and note:
        st.warning(note, icon=":material/info:")


# --- the lecturer --------------------------------------------------------------------------------------------


def _write_room(code: str, secret: str) -> None:
    """Room and host secret into the address in one write (one history entry), keeping the scene and the mode."""
    kept = {key: st.query_params.get_all(key)[-1] for key in st.query_params if key not in ("room", "host")}
    st.query_params.from_dict({**kept, "room": code, "host": secret})


def _go_live(number: int, revealed: bool) -> None:
    openers = poll_service.opener_keys()
    room, error = poll_service.attempt(
        lambda: poll_service.poll().create_room(live.lecture_questions(), openers=openers))
    if error is not None:
        _note(str(error))
        return
    poll_service.remember_host(room.code, room.host_secret)
    st.session_state[CHECKED_KEY] = room.code
    __, error = poll_service.attempt(
        lambda: poll_service.poll().show_scene(room.code, room.host_secret, number - 1, revealed))
    _note(str(error) if error else None)
    _write_room(room.code, room.host_secret)


def _is_lecture(code: str) -> bool:
    """Is this room a lecture (its first question a scene's)? Asked once a session."""
    if st.session_state.get(CHECKED_KEY) == code:
        return True
    counts, error = poll_service.attempt(lambda: poll_service.poll().counts(code, 0))
    ok = error is None and counts is not None and live.scene_of(counts.question_id) is not None
    if ok:
        st.session_state[CHECKED_KEY] = code
    return ok


def host(number: int, revealed: bool) -> Host | None:
    """The live lecture the address controls, moved to scene `number` (revealed or not); None when not live.

    A link with a wrong or missing host secret gets a note and the plain scenes page, never control."""
    room, secret = projector.url_value("room"), projector.url_value("host")
    if room is None and secret is None:
        return None
    if room is None or secret is None:
        st.warning("A live lecture's link needs both its room code and its host secret; this page shows the scenes "
                   "without the room.", icon=":material/link_off:")
        return None
    try:
        code = normalise_room_code(room)
    except PollError as error:
        st.warning(str(error), icon=":material/link_off:")
        return None
    state, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, secret))
    if isinstance(error, NotHost):
        st.warning("This link does not control that room, so the scenes run without it.", icon=":material/key_off:")
        return None
    if error is not None:
        poll_service.show_problem(error)
        return None
    if not _is_lecture(code):
        st.warning("That room is a class poll, not a live lecture: run it from the Class poll page.",
                   icon=":material/how_to_vote:")
        return None
    poll_service.remember_host(code, secret)
    link = join.JoinLink(code, join.join_url(st.context.url, code))  # not remembered: no extra join switch here
    if state.phase is not Phase.ENDED and (state.question_index != number - 1 or
                                           (state.phase is Phase.REVEALED) != revealed):
        moved, error = poll_service.attempt(
            lambda: poll_service.poll().show_scene(code, secret, number - 1, revealed))
        if error is not None:
            poll_service.show_problem(error)
        else:
            state = moved
    poll_service.touch(code, secret)
    return Host(code, secret, state, link)


def live_button(live_host: Host | None, number: int, revealed: bool) -> None:
    """In the scene's links row: Go live, or the live badge (room code) and the lecture's menu."""
    if live_host is None:
        st.button("Go live", key="live.go", icon=":material/cast:", on_click=_go_live, args=(number, revealed),
                  help="Opens a room: the room follows the scenes on their phones and predicts each one.")
        return
    # The badge is the menu's own label: one control, so the links row keeps to one line on the projector.
    badge = f"{'Ended' if live_host.ended else 'Live'} · room {live_host.code}"
    with st.popover(badge, icon=":material/cast_connected:", key="live-badge"):
        st.markdown(f"Students join at `{live_host.link.short}` with the code **{live_host.code}**.")
        st.markdown("This page's address controls the room: keep it to yourself, and go full screen (F11) "
                    "before you project.")
        st.code(_host_link(live_host), language=None, wrap_lines=True)
        # Eager data: one query per host run (not per board refresh), served over HTTP, so a failover keeps it.
        st.download_button("The lecture as CSV", _lecture_csv(live_host), file_name=f"lecture-{live_host.code}.csv",
                           mime="text/csv", icon=":material/download:", key="live.csv", on_click="ignore")
        if not live_host.ended:
            st.button("End the lecture", key="live.end", icon=":material/logout:", on_click=_act,
                      args=(lambda: poll_service.poll().end_room(live_host.code, live_host.secret),))


def _host_link(live_host: Host) -> str:
    page = (st.context.url or "").split("?", 1)[0]
    return f"{page}?{urlencode({'room': live_host.code, 'host': live_host.secret})}"


def _lecture_csv(live_host: Host) -> str:
    rows, error = poll_service.attempt(lambda: poll_service.poll().export_rows(live_host.code, live_host.secret))
    if error is not None:
        return f"error\n{error}\n"
    return live.lecture_csv([(row.question_id, row.rounds) for row in rows])


def _act(work: Callable[[], object]) -> None:
    __, error = poll_service.attempt(work)
    _note(str(error) if error else None)


def join_block(live_host: Host | None, number: int, revealed: bool) -> None:
    """On the first scene, under its question: the QR code and the link, for the room to scan once."""
    if live_host is None or live_host.ended or number != 1 or revealed:
        return
    big = projector.is_on()
    with st.container(key="live-join", horizontal=True, gap="medium", vertical_alignment="center", wrap=False):
        join.show_qr(live_host.link, QR_WIDTH[0] if big else QR_WIDTH[1])
        st.markdown(f"**Scan to follow the lecture**, or go to `{live_host.link.short}`  \nRoom code "
                    f"**{live_host.code}**")


def waiting_board(live_host: Host) -> None:
    """Before the reveal, in the board's place: the live count, then the spread when the lecturer shows it."""
    if live_host.ended:
        st.info("This live lecture has ended; its answers stay in the CSV (Live lecture menu).",
                icon=":material/done_all:")
        return
    st.fragment(room_board, run_every=BOARD_EVERY_S)(live_host.code, live_host.secret, False)


def revealed_board(live_host: Host) -> None:
    """Beside the revealed board: the room's spread, the true value marked."""
    if not live_host.ended:
        st.fragment(room_board, run_every=BOARD_EVERY_S)(live_host.code, live_host.secret, True)


def room_board(code: str, secret: str, revealed: bool) -> None:
    """The live part: how many answered; once the lecturer shows it (or reveals), the spread. Buttons close the
    answers and open a second round, as in the class poll."""
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(code))
    if error is not None:
        poll_service.show_problem(error)
        return
    state = view.state
    number = live.scene_of(state.question_id)
    if number is None or view.counts is None or not view.counts.rounds:
        return
    question = cached_question(number)
    tally = view.counts.rounds[-1]
    show_note()
    with st.container(key="live-status"):
        st.markdown(f"**{live.status_line(state.round_number, state.phase.value, sum(tally), state.voter_count)}**")
    if question.kind == "choice" and not revealed:  # the phones list the options; the room sees them here too
        st.markdown("  \n".join(f"**{live.letter(i)}.** {text}" for i, text in enumerate(question.options)))
    if state.phase in (Phase.CLOSED, Phase.REVEALED):
        spread_block(question, view, state.phase is Phase.REVEALED)
    with st.container(key="live-controls", horizontal=True, gap="small"):
        if state.phase is Phase.VOTING:
            st.button("Show the answers", key="live.close", icon=":material/bar_chart:", on_click=_act,
                      args=(lambda: poll_service.poll().close_round(code, secret),),
                      help="Closes the round and shows the room's spread, not the answer.")
        if state.phase is Phase.CLOSED and state.round_number == 1:
            st.button("Vote again", key="live.revote", icon=":material/replay:", on_click=_act,
                      args=(lambda: poll_service.poll().open_revote(code, secret),),
                      help="After a talk with a neighbour: a second round of the same scene.")


def spread_block(question: live.Live, view: ProjectorView, revealed: bool) -> None:
    """Every round's spread (a revote beside the first), the true value marked after the reveal."""
    rounds = view.counts.rounds
    big = projector.is_on()
    columns = st.columns(len(rounds)) if len(rounds) > 1 else [st.container()]
    for round_number, (column, tally) in enumerate(zip(columns, rounds, strict=True), start=1):
        with column.container(key=f"live-round-{round_number}"):
            if len(rounds) > 1:
                st.markdown(f"**{poll_words.round_name(round_number)}**")
            st.markdown(live.spread_sentence(question, tally, revealed))  # a caption is hidden on the projector
            if sum(tally) or revealed:
                height = SPREAD_HEIGHT[0] if big else SPREAD_HEIGHT[1]
                if big and SCENES[question.number - 1].training:
                    height = UNDER_CURVES_HEIGHT
                figure = live_charts.spread_figure(question, tally, revealed, height=height)
                panels.chart(figure, key=f"live.spread.{round_number}", config=layout.still_config(),
                             max_height=height)


# --- a student's phone ------------------------------------------------------------------------------------------


def _vote(code: str, voter: str, question_index: int, round_number: int, option: int) -> None:
    """Count the answer in the round open at the moment it arrives (a revote of the same scene takes it)."""
    now = poll_service.poll().state(code)
    same = now.phase is Phase.VOTING and now.question_index == question_index
    poll_service.poll().vote(code, voter, question_index, now.round_number if same else round_number, option)


def _send_number(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    question = cached_question(question_index + 1)
    value = st.session_state.get(key)
    if value is None:
        _note("Type a number first, then press Send.")
        return
    option = question.nearest(value) if isinstance(value, int | float) else None
    if option is None:
        _note(f"Your answer must be a number from {question.options[0]} to {question.options[-1]}; nothing was "
              "sent.")
        return
    _act(lambda: _vote(code, voter, question_index, round_number, option))
    step = question.values[1] - question.values[0]
    if st.session_state.get(NOTE_KEY) is None and abs(question.values[option] - value) > step * 1e-6:
        _note(f"Counted as {question.options[option]}, the nearest step to {value:g}.")
        st.session_state[key] = question.values[option]


def _send_choice(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    question = cached_question(question_index + 1)
    option = st.session_state.get(key)
    if option is None:
        return
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < question.option_count:
        _note("That is not one of this question's options, so nothing was sent.")
        st.session_state[key] = None
        return
    _act(lambda: _vote(code, voter, question_index, round_number, option))


def _option_label(question: live.Live, option: object) -> str:
    """"A. Nothing …" for an option; a value that is no option (a forged client) is shown as it came."""
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < question.option_count:
        return f"{live.letter(option)}. {question.options[option]}"
    return str(option)


def phone_scene(code: str, voter: str, state: RoomState, my_vote: int | None) -> None:
    """A scene's question on a student's phone, the answer box, and after the reveal the answer and the Lab link."""
    number = live.scene_of(state.question_id)
    question = cached_question(number)
    scene = SCENES[number - 1]
    words = cached_scene_text(number)
    show_note()
    st.markdown(f"**Scene {number} of {len(SCENES)} · {words.title}**")
    st.markdown(question.ask)
    key = f"{ANSWER_PREFIX}{state.question_index}.{state.round_number}"
    voting = state.phase is Phase.VOTING
    if question.kind == "number":
        if key not in st.session_state:
            st.session_state[key] = None if my_vote is None else question.values[my_vote]
        low, high = question.values[0], question.values[-1]
        step = question.values[1] - question.values[0]
        with st.form(key=f"live-form-{state.question_index}-{state.round_number}", border=False,
                     enter_to_submit=True):
            st.number_input(f"Your prediction{f' ({question.unit_name})' if question.unit_name else ''}", min_value=low,
                            max_value=high, step=step, key=key, format=f"%.{question.decimals}f",
                            disabled=not voting, placeholder=f"{question.options[0]} to {question.options[-1]}")
            st.form_submit_button("Send", icon=":material/send:", type="primary", disabled=not voting,
                                  on_click=_send_number, args=(code, voter, state.question_index, state.round_number,
                                                               key))
    else:
        if key not in st.session_state or st.session_state[key] not in (None, *range(question.option_count)):
            st.session_state[key] = my_vote
        st.radio("Your answer", list(range(question.option_count)), key=key, index=None, disabled=not voting,
                 format_func=lambda i: _option_label(question, i), on_change=_send_choice,
                 args=(code, voter, state.question_index, state.round_number, key))
    mine = None if my_vote is None else question.say(my_vote)
    if voting:
        how = "send it" if question.kind == "number" else "tap it"
        st.markdown(f"Sent: **{mine}**. You can change it until the lecturer shows the answers." if mine else
                    f"Your answer counts once you {how}; you can change it until the answers are shown.")
    elif state.phase is Phase.CLOSED:
        told = f"You answered {mine}." if mine else "You did not answer this round."
        st.info(f"Answers are closed. {told} Talk to your neighbour: why did you each answer as you did?",
                icon=":material/forum:")
    else:
        if my_vote is None and state.round_number == 2:  # no answer in the revote: the first vote's stands
            votes, __ = poll_service.attempt(lambda: poll_service.poll().my_votes(code, voter))
            my_vote = (votes or {}).get((state.question_index, 1))
            mine = None if my_vote is None else f"{question.say(my_vote)} in the first vote"
        _revealed(question, words.answer, mine, my_vote, code, scene)


def _revealed(question: live.Live, answer_text: str, mine: str | None, my_vote: int | None, code: str,
              scene) -> None:
    verdict = "" if my_vote is None else (" That counts as right." if question.right(my_vote) else
                                           " That is off.")
    said = f"You answered **{mine}**.{verdict}" if mine else "You did not answer."
    st.success(f"**The answer: {question.truth_text}.** {said}", icon=":material/check_circle:")
    st.markdown(answer_text)
    view = {**projector.view_keys(None if scene.row is None else scene.row - 1, False), "room": code}
    lab_button(scene.settings, "Explore this scene in the Lab", **view)


def recap(code: str, voter: str) -> None:
    """A student's predictions against the answers, scene by scene (their last round of each)."""
    mine, error = poll_service.attempt(lambda: poll_service.poll().my_votes(code, voter))
    if error is not None:
        poll_service.show_problem(error)
        return
    lines = live.recap_lines(mine)
    if not lines:
        st.markdown("You did not answer any scene in this lecture.")
        return
    right = sum(line.right for line in lines)
    st.markdown(f"**Your predictions: {right} of {len(lines)} right.**")
    st.table([{"Scene": line.number, "You": line.mine, "Answer": line.truth, "": "✓" if line.right else "✗"}
              for line in lines])


def phone_ended(code: str, voter: str) -> None:
    st.info("The lecturer has ended this lecture. Here is how your predictions went.", icon=":material/done_all:")
    recap(code, voter)
