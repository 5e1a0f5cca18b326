"""The live lecture, the lecturer's side: Go live on Lecture scenes, and the room predicts every scene on their phones.

Go live opens a class-poll room with one question per scene (attn_ui/words/live.py) and puts the room's code in the
scenes page's address (`room`), so Next, Back, a reload and the browser's Back keep the lecture. The host secret
never goes on the screen: the browser that went live (or opened the host link once) holds it (host_access). The
room has one scene and one phase, and only a lecturer's act moves it (Next, Back, a key, the browser's Back on the
page that drives it: live_drive.drive()); a host page opened elsewhere, or reloaded, shows the room where it is, and
two host pages follow each other. Phones follow on any replica, because the room lives in the database. Phones answer
on the phone's page (`/j/CODE`, attn_phone), which shows each scene's question there.

The join screen (join code, QR code, address, phones in the room) fills the board after Go live, and comes back at
any scene from the room's badge or the J key, without moving the lecture; moving the lecture hides it.

Session state used here:
    live.note          a message from Go live or a host action, shown in the next run
    live.checked       the room this session checked runs this page's lecture (live_open)
    live.join.at       (room code, scene, revealed) where the join screen was asked for: it shows until the step moves
    live.end.asked     the room whose End the lecturer pressed once: the menu asks to confirm
    live.link.asked    (room code, scene, revealed) an opened link asked for while the room was elsewhere: offered in
                       the badge's menu as an explicit move
    live-badge         whether the badge's menu is open (closed by its own actions)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from attn_core.deck import Deck
from attn_lang import N_, _, _n, current_language
from attn_poll import NotHost, Phase, PollError, ProjectorView, RoomState
from attn_poll.codes import normalise_room_code
from attn_ui.figures import layout, live_charts
from attn_ui.views import board_check, host_access, live_open, poll_service, scene_nav
from attn_ui.views.live_bars import SPREAD_FONT, SPREAD_HEIGHT, SPREAD_WIDTH, choice_bars
from attn_ui.views.live_drive import ASKED_KEY, drive
from attn_ui.widgets import join, panels, projector
from attn_ui.words import live, live_room, poll_words, room_questions

NOTE_KEY = "live.note"
JOIN_KEY = "live.join.at"
MENU_KEY = "live-badge"  # the badge's menu (a popover): its open state, and its CSS class st-key-live-badge
END_KEY = "live.end.asked"
JOIN_QR = (500, 320)  # the join screen's QR code, on the projector and off it: it must scan from the back row
COLUMNS = (1, 1.5)  # the scene page's story and board
REVEALED_COLUMNS = (1.25, 1.25)  # at a live lecture's reveal the story holds the answer and the room's spread too
WHAT_GO_LIVE_DOES = N_("**Go live** opens a room for this lecture: students scan the code once, each scene's "
                       "question then appears on their phones, and the room's predictions are shown when you reveal.")
# The join screen's address on one line at any length: its font is the column's width shared among its characters
# (Source Code Pro advances 0.6 em a character; 0.62 leaves a hair of room), and never above ADDRESS_MOST_REM
ADDRESS_EM_PER_CHARACTER = 0.62
ADDRESS_MOST_REM = 2.6
ADDRESS_STEP = 2  # characters a size class spans
ADDRESS_LONGEST = 120  # a host name of 90 characters and more


def _address_css() -> str:
    """One rule a size class (address_size): the font that shares the column's width (cqi: a hundredth of the
    container's width) among that many characters, never above ADDRESS_MOST_REM."""
    rules = [f"[data-testid=\"stMain\"] .st-key-live-join-screen .st-key-live-join-address-{size} p {{ font-size: "
             f"min({ADDRESS_MOST_REM}rem, {100 / (ADDRESS_EM_PER_CHARACTER * size):.3f}cqi) !important; }}"
             for size in range(ADDRESS_STEP, ADDRESS_LONGEST + 1, ADDRESS_STEP)]
    return "<style>\n" + "\n".join(rules) + "\n</style>"


ADDRESS_CSS = _address_css()
JOIN_CSS = """
<style>
.st-key-live-join-screen { gap: 0.4rem !important; }
[data-testid="stMain"] .st-key-live-join-screen .st-key-live-join-code p { font-size: 6rem !important;
  font-weight: 800 !important; letter-spacing: 0.12em; line-height: 1.05 !important;
  font-family: "Source Code Pro", ui-monospace, monospace !important; }
.st-key-live-join-screen [class*="st-key-live-join-address-"] { container-type: inline-size; }
[data-testid="stMain"] .st-key-live-join-screen [class*="st-key-live-join-address-"] p { white-space: nowrap !important;
  overflow: hidden; text-overflow: clip; line-height: 1.2 !important; }
[data-testid="stMain"] .st-key-live-join-screen [class*="st-key-live-join-address-"] p code {
  font-size: 1em !important; padding: 0 !important; }
[data-testid="stMain"] .st-key-live-join-screen .st-key-live-join-phones p { font-size: 2rem !important;
  font-weight: 700 !important; }
.st-key-live-join-screen img { image-rendering: pixelated; }
[data-testid="stMain"] .st-key-live-ended p { font-size: 1.6rem !important; }
/* the room's spread: its lines and bar labels at 20 px on the projector (the back row reads labels from 18 px) */
[data-testid="stMain"] :is(.st-key-live-spread, .st-key-live-spread-chart) [data-testid="stMarkdownContainer"] p {
  font-size: 1.25rem !important;
  line-height: 1.3 !important; }
.st-key-live-spread, .st-key-live-spread-chart { gap: 0.35rem !important; }
/* with the room's spread in it, the scene's story keeps its paragraphs closer (its text stays 22 px) */
.st-key-scene-story:has(.st-key-live-spread) { gap: 0.7rem !important; }
</style>
"""


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


def _note(text: str | None) -> None:
    st.session_state[NOTE_KEY] = text or None


def show_note() -> None:
    note = st.session_state.pop(NOTE_KEY, None)
    if isinstance(note, str) and note:
        st.warning(note, icon=":material/info:")


# --- the lecturer --------------------------------------------------------------------------------------------


def _write_room(code: str) -> None:
    """The room into the address in one write (one history entry), keeping the scene, the mode and the language; no
    host secret (a link that brought one has dropped it already)."""
    kept = {key: st.query_params.get_all(key)[-1] for key in st.query_params if key not in ("room", "host")}
    st.query_params.from_dict({**kept, "room": code})


def _go_live(number: int, revealed: bool, deck: Deck | None = None) -> None:
    room, problem = live_open.open_room(deck)
    if room is None:
        _note(problem)
        return
    st.session_state[JOIN_KEY] = (room.code, number, revealed)  # the room joins first
    __, error = poll_service.attempt(
        lambda: poll_service.poll().show_scene(room.code, room.host_secret, number - 1, revealed))
    _note(str(error) if error else None)
    _write_room(room.code)


def host(number: int, revealed: bool, deck: Deck | None = None) -> tuple[Host | None, int, bool]:
    """The live lecture the address names and this browser controls, and the step the page shows: (None, number,
    revealed) when not live. The secret comes from a host link (`host=`, taken once and dropped from the address) or
    from what this browser already holds; without it the page shows the scenes with a note, never control. `deck`:
    the lecturer's own deck this page presents (None: the built-in scenes); the room must run that lecture.

    One driver: the room moves only when this page's lecturer moves it (drive)."""
    room, linked = projector.url_value("room"), projector.url_value("host")
    if room is None:
        if linked is not None:
            st.warning(_("A live lecture's host link needs its room code as well; this page shows the scenes without "
                         "a room."), icon=":material/link_off:")
        return None, number, revealed
    try:
        code = normalise_room_code(room)
    except PollError as error:
        st.warning(str(error), icon=":material/link_off:")
        return None, number, revealed
    secret = linked or host_access.secret_for(code)
    state, error = (None, NotHost("")) if not secret else poll_service.attempt(
        lambda: poll_service.poll().verify_host(code, secret))
    if isinstance(error, NotHost) and linked and host_access.secret_for(code) not in (None, linked):
        secret = host_access.secret_for(code)  # a stale link, but this browser holds the room's own secret
        state, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, secret))
    if isinstance(error, NotHost):
        st.warning(_("This browser does not control room {code}, so the scenes run without it. Its lecturer's host "
                     "link gives control.", code=code), icon=":material/key_off:")
        return None, number, revealed
    if error is not None:
        poll_service.show_problem(error)
        return None, number, revealed
    lecture = live_open.lecture_of(code, deck)
    if lecture == "other":
        st.warning(_("Room {code} runs another lecture, so this page shows its scenes without it. Go live here to "
                     "open a room for this one.", code=code), icon=":material/link_off:")
        return None, number, revealed
    if lecture is None:
        st.warning(_("That room is a class poll, not a live lecture: run it from the Class poll page."),
                   icon=":material/how_to_vote:")
        return None, number, revealed
    host_access.keep(code, secret)
    link = join.JoinLink(code, join.join_url(st.context.url, code))  # not remembered: no extra join switch here
    state, number, revealed = drive(code, secret, state, number, revealed)
    poll_service.touch(code, secret)
    return Host(code, secret, state, link), number, revealed


def join_showing(live_host: Host | None, number: int, revealed: bool) -> bool:
    """Is the join screen up? It belongs to the step where it was asked for: moving the lecture puts it away."""
    if live_host is None or live_host.ended:
        return False
    asked = st.session_state.get(JOIN_KEY)
    return asked == (live_host.code, number, revealed)


def _toggle_join(code: str, number: int, revealed: bool) -> None:
    showing = st.session_state.get(JOIN_KEY) == (code, number, revealed)
    st.session_state[JOIN_KEY] = None if showing else (code, number, revealed)
    _close_menu()


def _go_to_asked(number: int, revealed: bool) -> None:
    """The lecturer's explicit press: the step the opened link asked for (this page's next run moves the room)."""
    st.session_state[ASKED_KEY] = None
    _close_menu()
    scene_nav.write_step(number, revealed)


def _close_menu() -> None:
    """The badge's menu closes on its own action (it would stay open over the join screen it just showed)."""
    st.session_state[MENU_KEY] = False


def _ask_end(code: str | None) -> None:
    st.session_state[END_KEY] = code


def _end(live_host: Host) -> None:
    st.session_state[END_KEY] = None
    _close_menu()
    _act(lambda: poll_service.poll().end_room(live_host.code, live_host.secret,
                                              expected_version=live_host.state.version))


def live_button(live_host: Host | None, number: int, revealed: bool, deck: Deck | None = None) -> None:
    """In the scene's links row: Go live (for `deck`, the lecturer's own, when given), or the live badge (room code)
    and the lecture's menu. Nothing in the menu shows the host secret. Ending the lecture asks first, and says what it
    keeps."""
    if live_host is None:
        st.button(_("Go live"), key="live.go", icon=":material/cast:", on_click=_go_live,
                  args=(number, revealed, deck),
                  help=_("Opens a room: the room follows the scenes on their phones and predicts each one."))
        return
    # The badge is the menu's own label: one control, so the links row keeps to one line on the projector.
    # The room's code alone beside the live icon: one line in every language, beside "Scene n of N".
    badge = _("Ended · {code}", code=live_host.code) if live_host.ended else live_host.code
    told = (_("The live lecture in room {code} has ended: its menu", code=live_host.code) if live_host.ended else
            _("Live lecture in room {code}: its menu", code=live_host.code))
    with st.popover(badge, icon=":material/cast:" if live_host.ended else ":material/cast_connected:", help=told,
                    key=MENU_KEY, on_change="rerun"):
        if st.session_state.get(END_KEY) == live_host.code and not live_host.ended:
            _end_question(live_host)
            return
        asked = st.session_state.get(ASKED_KEY)
        if not live_host.ended and isinstance(asked, tuple) and asked[0] == live_host.code and \
                asked[1:] != (number, revealed):
            st.button(_("Move the lecture to scene {number}, as the link asked", number=asked[1]), key="live.asked",
                      icon=":material/move_down:", on_click=_go_to_asked, args=(asked[1], asked[2]))
        if not live_host.ended:
            showing = join_showing(live_host, number, revealed)
            st.button(_("Hide the join screen (J)") if showing else _("Show the join screen (J)"), key="live.join",
                      icon=":material/qr_code_2:", on_click=_toggle_join, args=(live_host.code, number, revealed))
        st.markdown(_("Students join at `{address}` with the code **{code}**.", address=live_host.link.short,
                      code=live_host.code))
        host_access.copy_button("live.copy")
        # Eager data: one query per host run (not per board refresh), served over HTTP, so a failover keeps it.
        st.download_button(_("The lecture as CSV"), _lecture_csv(live_host), file_name=f"lecture-{live_host.code}.csv",
                           mime="text/csv", icon=":material/download:", key="live.csv", on_click="ignore")
        if not live_host.ended:
            st.button(_("End the lecture…"), key="live.end", icon=":material/logout:", on_click=_ask_end,
                      args=(live_host.code,))


def _end_question(live_host: Host) -> None:
    """End the lecture? What ending does, what it keeps, and a way back."""
    hours = round(poll_service.poll().limits.room_lifetime_s / 3600)
    st.markdown(_n("**End the lecture for everyone?** The phones stop taking answers and show each student a recap "
                   "of their predictions. Every answer stays in the lecture's CSV until the room expires, {count} "
                   "hour after Go live.",
                   "**End the lecture for everyone?** The phones stop taking answers and show each student a recap "
                   "of their predictions. Every answer stays in the lecture's CSV until the room expires, {count} "
                   "hours after Go live.", hours))
    with st.container(horizontal=True, gap="small"):
        st.button(_("End it now"), key="live.end.now", type="primary", icon=":material/logout:", on_click=_end,
                  args=(live_host,))
        st.button(_("Keep it running"), key="live.end.keep", on_click=_ask_end, args=(None,))


def join_key(live_host: Host | None, number: int, revealed: bool) -> None:
    """The J key: a visually hidden button (a button not drawn loses its shortcut), in the scene keys' hidden row."""
    if live_host is None or live_host.ended:
        return
    with st.container(key="scenes-keys-live", horizontal=True):
        st.button(_("Join screen (J)"), key="live.join.key", shortcut="J", on_click=_toggle_join,
                  args=(live_host.code, number, revealed))


def _lecture_csv(live_host: Host) -> str:
    rows, error = poll_service.attempt(lambda: poll_service.poll().export_rows(live_host.code, live_host.secret))
    if error is not None:
        return f"error\n{error}\n"
    return live_room.lecture_csv([live_room.Asked(row.question_id, row.rounds, row.changed, row.added, row.spec)
                                  for row in rows])


def _act(work: Callable[[], object]) -> None:
    __, error = poll_service.attempt(work)
    _note(str(error) if error else None)


@st.cache_resource(show_spinner=False, max_entries=256)
def cached_question(number: int, lang_code: str) -> live.Live:
    """Scene `number`'s live question in one language (frozen), built once a server."""
    return live.live_question(number)


def question(number: int) -> live.Live:
    """Scene `number`'s live question in the language of this run."""
    return cached_question(number, current_language())


def room_live(question_id: str | None, spec: str | None) -> live.Live | None:
    """The room's question in this run's language: a built-in scene's built once a server, a lecturer's own from the
    spec its room keeps (SceneUnreadable when that no longer reads); None for no lecture's."""
    number = live.scene_of(question_id)
    if number is not None:
        return question(number)
    found = room_questions.room_question(question_id, spec)
    return None if found is None else found.question


def address_size(address: str) -> int:
    """The join address's size class: its length in characters, rounded up to ADDRESS_STEP (ADDRESS_CSS has a rule
    for each, up to ADDRESS_LONGEST; a longer address gets the last, and may be cut at the column's edge)."""
    return min(ADDRESS_LONGEST, -(-max(len(address), 1) // ADDRESS_STEP) * ADDRESS_STEP)


def join_screen(live_host: Host, number: int) -> None:
    """The join screen for a hall: the QR code as large as the board allows, the room code, the address on one line,
    and the phones in the room (live). It covers the scene's question and board, never moves the lecture."""
    st.html(JOIN_CSS)
    big = projector.is_on()
    with st.container(key="live-join-screen"):
        qr, words = st.columns([1, 1.35], gap="large", vertical_alignment="center")
        with qr:
            join.show_qr(live_host.link, JOIN_QR[0] if big else JOIN_QR[1])
        with words:
            st.subheader(_("Join the lecture on your phone"), anchor=False)
            st.markdown(_("Scan the code, or go to"))
            st.html(ADDRESS_CSS)
            with st.container(key=f"live-join-address-{address_size(live_host.link.short)}"):
                st.markdown(f"`{live_host.link.short}`")
            st.markdown(_("Room code"))
            with st.container(key="live-join-code"):
                st.markdown(f"**{live_host.code}**")
            board_check.live(_phones, live_host.code)
            st.markdown(_("Press J, or the room's badge, to go back to scene {number}.", number=number))
    projector.page_switch()


def _phones(code: str) -> None:
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(code))
    if error is not None:
        poll_service.show_problem(error)
        return
    with st.container(key="live-join-phones"):
        st.markdown(_n("{count} phone in the room", "{count} phones in the room", view.state.voter_count))
    board_check.mark(code, view.stamp)


def running(live_host: Host | None) -> bool:
    """Is this page a live lecture that has not ended?"""
    return live_host is not None and not live_host.ended


def spread_or_end(live_host: Host, revealed: bool) -> None:
    """Beside a revealed board: the room's spread, or once the lecture has ended, that it has."""
    if live_host.ended:
        ended_board(live_host)
    else:
        spread(live_host, revealed, wide=False)


def columns(live_host: Host | None, revealed: bool) -> tuple[float, float]:
    """The scene page's story and board widths: a wider story at a live lecture's reveal, where the answer and the
    room's spread share it."""
    return REVEALED_COLUMNS if running(live_host) and revealed else COLUMNS


def spread_shown(live_host: Host | None) -> bool:
    """Is the room's spread on the board (the round closed, or the answer shown)? A choice's options then stand in
    its bars, with their counts, instead of in the question's list."""
    return live_host is not None and not live_host.ended and live_host.state.phase in (Phase.CLOSED, Phase.REVEALED)


def count_board(live_host: Host, revealed: bool) -> None:
    """The live part of a host page: before the reveal, how many answered and the round's buttons, drawn again as
    votes come in (board_check); at the reveal nothing to see, but the page still follows a move made elsewhere. Once
    the lecture has ended, that it has (projector mode hides notes, not this)."""
    if live_host.ended:
        ended_board(live_host)
        return
    board_check.live(room_count, live_host.code, live_host.secret, revealed, live_host.state.version)


def ended_board(live_host: Host) -> None:
    with st.container(key="live-ended"):
        st.markdown(_("**This live lecture has ended.** Its answers are in the lecture's CSV (the room's badge); "
                      "every phone shows its student's predictions."))


def room_count(code: str, secret: str, revealed: bool, version: int) -> None:
    """How many answered, and the buttons that close the answers and open a second round, as in the class poll.
    When the room moved (a button here, another host page), the whole page is drawn again, so the story and the
    spread around it follow."""
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(code))
    if error is not None:
        poll_service.show_problem(error)
        board_check.mark(code, ("trouble",))
        return
    state = view.state
    if state.version != version:
        st.rerun(scope="app")
    if not revealed and view.counts is not None and view.counts.rounds and view.counts.option_count:  # a discussion
        _count_and_buttons(code, secret, version, view)  # has nothing to count
    board_check.mark(code, view.stamp)  # last: drawn means the whole board is


def _count_and_buttons(code: str, secret: str, version: int, view: ProjectorView) -> None:
    state = view.state
    show_note()
    with st.container(key="live-status"):
        answered = sum(view.counts.rounds[-1])
        st.markdown(f"**{live_room.status_line(state.round_number, state.phase.value, answered, state.voter_count)}**")
    with st.container(key="live-controls", horizontal=True, gap="small"):
        if state.phase is Phase.VOTING:
            st.button(_("Show the answers"), key="live.close", icon=":material/bar_chart:", on_click=_act,
                      args=(lambda: poll_service.poll().close_round(code, secret, expected_version=version),),
                      help=_("Closes the round and shows the room's spread, not the answer."))
        if state.phase is Phase.CLOSED and state.round_number == 1:
            st.button(_("Vote again"), key="live.revote", icon=":material/replay:", on_click=_act,
                      args=(lambda: poll_service.poll().open_revote(code, secret, expected_version=version),),
                      help=_("After a talk with a neighbour: a second round of the same scene. Every first answer "
                             "counts again unless its student changes it."))


def spread(live_host: Host, revealed: bool, wide: bool, lines: bool = True, chart: bool = True) -> None:
    """The room's spread, once the lecturer showed it (the round closed) or revealed the answer: no vote comes in
    then, so it is drawn with the page, not on every vote. `wide`: it has the board's width, not the story's; `lines`
    and `chart`: its sentences and its bars, which may go to different columns."""
    if not spread_shown(live_host):
        return
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(live_host.code))
    if error is not None:
        poll_service.show_problem(error)
        return
    try:
        asked = room_live(view.state.question_id, view.state.question_spec)
    except room_questions.SceneUnreadable as error:
        st.warning(str(error), icon=":material/error:")
        return
    if asked is None or not asked.option_count or view.counts is None or not view.counts.rounds:
        return
    spread_block(asked, view, revealed, wide, lines, chart)


def spread_block(question: live.Live, view: ProjectorView, revealed: bool, wide: bool = False, lines: bool = True,
                 chart: bool = True) -> None:
    """The room's spread: a line per round (a revote's says how many changed), then a number's answers as bars (both
    rounds one above the other; at the reveal the last round alone, the one that counts, its lines saying how each
    round did), or a choice's options as bars that name them, with each round's count."""
    rounds = view.counts.rounds
    big = projector.is_on()
    st.html(JOIN_CSS)
    with st.container(key="live-spread" if lines else "live-spread-chart"):
        for round_number, tally in enumerate(rounds if lines else (), start=1):
            line = live_room.spread_sentence(question, tally, revealed, short=len(rounds) > 1)
            if len(rounds) > 1:
                line = _("**{round}:** {spread}", round=poll_words.round_name(round_number), spread=line)
            if round_number == 2:
                line = _("{line} · {changed}", line=line, changed=live_room.changed_line(view.counts.changed,
                                                                                    view.counts.added))
            st.markdown(line)  # a caption is hidden on the projector
        if not chart:
            return
        if question.kind == "choice":
            choice_bars(question, rounds, revealed)
        elif any(sum(tally) for tally in rounds) or revealed:
            height = SPREAD_HEIGHT[0 if big else 1][0 if revealed or len(rounds) == 1 else 1]
            figure = live_charts.spread_figure(
                question, rounds, revealed, height=height, font=SPREAD_FONT[0] if big else SPREAD_FONT[1],
                names=[poll_words.round_name(n) for n in range(1, len(rounds) + 1)],
                width=SPREAD_WIDTH[0 if wide else 2 if revealed else 1])
            panels.chart(figure, key=f"live_room.spread.{current_language()}", config=layout.still_config(),
                         max_height=height)
