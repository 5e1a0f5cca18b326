"""The class poll's host: the controls, the projector board (status, question, counts) and the join panel.

The host secret is never drawn (host_access): this browser holds it in the session and a cookie, and "Copy the host
link" takes it to another device without showing it. The board is a fragment drawn again when a vote, a phone joining or
a host action moved the room (board_check).
"""

from __future__ import annotations

import functools

import streamlit as st

from attn_core.deck import Deck, DeckError, fits_link, to_link
from attn_lang import _
from attn_poll import Phase, ProjectorView, RoomState
from attn_ui.quiz.poll_questions import PollQuestion
from attn_ui.views import board_check, host_access, poll_parts, poll_service
from attn_ui.widgets import join, lang, panels, poll_look, projector
from attn_ui.words import live, live_room, poll_words, room_questions

RETRY_EVERY_S = 2.0
DECK_PAGE = "pages/11_Your_lecture.py"  # where a lecturer's own deck is presented and run live
QR_PIXELS = (300, 230)  # the QR code's width in projector mode and on a laptop screen
# The room code: as large as off the projector and larger on it. The app-wide projector rule for paragraphs
# (main-area p, !important) would otherwise outrank the code's own rule, so these selectors carry more classes.
CODE_CSS = """<style>
[data-testid="stMain"] .st-key-poll-join .st-key-poll-code p { font-size: 2.4rem !important;
  line-height: 1.1 !important; }
</style>"""
CODE_PROJECTOR_CSS = """<style>
[data-testid="stMain"] .st-key-poll-join .st-key-poll-code p { font-size: 4rem !important; }
</style>"""


def deck_lecture(code: str, state: RoomState) -> None:
    """A lecturer's own deck, live: it is run from the Your lecture page, which the link opens on the deck its room
    keeps (its scenes, not its title) at the room's scene."""
    st.info(_("This room is a live lecture of your own scenes: it follows the Your lecture page, and is run from "
              "there."), icon=":material/cast_connected:")
    listed, error = poll_service.attempt(lambda: poll_service.poll().question_list(code))
    try:
        deck = Deck("", tuple(room_questions.read_spec(spec) for __, spec in listed or ()))
    except DeckError:  # a scene that no longer reads: the phones and the lecture's page say so
        return
    if error is None and deck.scenes and fits_link(deck) and state.question_index is not None:
        number = state.question_index + 1
        st.page_link(DECK_PAGE, label=_("Back to the lecture, scene {number}", number=number),
                     icon=":material/slideshow:",
                     query_params={"deck": to_link(deck), "scene": str(number), "room": code, **lang.url_view()})


def host_controls(code: str, secret: str, state: RoomState) -> None:
    """One row of buttons: each is enabled only in the phase that allows it."""
    service = poll_service.poll
    act = functools.partial
    phase = state.phase
    first = state.question_index is None
    version = state.version  # every button acts from the room as this page shows it: another host page's move wins
    with st.container(key="poll-controls", horizontal=True, gap="small", vertical_alignment="center"):
        st.button(_("Start the first question") if first else _("Next question"), key="poll.next", type="primary",
                  icon=":material/skip_next:", disabled=phase not in (Phase.LOBBY, Phase.REVEALED)
                  or not state.has_next_question, on_click=poll_parts.call,
                  args=(act(lambda: service().next_question(code, secret, version)),))
        st.button(_("Close voting"), key="poll.close", icon=":material/stop_circle:",
                  disabled=phase is not Phase.VOTING, on_click=poll_parts.call,
                  args=(act(lambda: service().close_round(code, secret, version)),))
        st.button(_("Vote again"), key="poll.revote", icon=":material/replay:",
                  disabled=not (phase is Phase.CLOSED and state.round_number == 1), on_click=poll_parts.call,
                  args=(act(lambda: service().open_revote(code, secret, version)),),
                  help=_("After a talk with a neighbour: a second round of the same question. Every first vote "
                         "counts again unless its student changes it."))
        st.button(_("Reveal the answer"), key="poll.reveal", icon=":material/visibility:",
                  disabled=phase is not Phase.CLOSED, on_click=poll_parts.call,
                  args=(act(lambda: service().reveal(code, secret, version)),))
        end = act(lambda: service().end_room(code, secret, version))
        if projector.is_on():  # one row on the projector: the room's tools, its end and the pages share one menu
            with st.popover(_("Room and pages"), icon=":material/menu:", key="poll-room-menu"):
                host_tools(code, secret, in_row=False)
                _end_button(end, phase)
                st.divider()
                projector.menu_items()
        else:
            with st.popover(_("End the room"), icon=":material/logout:", disabled=phase is Phase.ENDED):
                _end_button(end, phase)


def _end_button(end, phase: Phase) -> None:
    """End the room, after saying what ending keeps."""
    if phase is Phase.ENDED:
        st.markdown(_("This room has ended. Its counts stay readable until it expires."))
        return
    st.markdown(_("Students can no longer vote. The counts stay readable until the room expires."))
    st.button(_("End the room now"), key="poll.end", icon=":material/logout:", on_click=poll_parts.call, args=(end,))


def _export(code: str, secret: str) -> str:
    csv_text, error = poll_service.attempt(lambda: poll_service.poll().export_csv(code, secret))
    return csv_text if error is None else f"error\n{error}\n"


def host_tools(code: str, secret: str, in_row: bool = True) -> None:
    """The counts as CSV and the host link to copy: a row under the board (with the projector switch in the sidebar),
    or (in_row=False) stacked in the projector's Room menu."""
    with st.container(key="poll-tools", horizontal=in_row, gap="small", vertical_alignment="center"):
        # Eager data (one query per host rerun, not per board refresh): served over HTTP, it survives a failover.
        st.download_button(_("Counts as CSV"), _export(code, secret), file_name=f"poll-{code}.csv",
                           mime="text/csv", icon=":material/download:", key="poll.csv", on_click="ignore")
        host_access.copy_button("poll.copy")
        if in_row:
            projector.page_switch()  # in the sidebar off the projector


def join_panel(link: join.JoinLink, big: bool) -> None:
    """The code, link and QR code. The count of students in is the board's (live), not repeated here."""
    with st.container(key="poll-join"):
        st.markdown(_("**Join on your phone**"))
        st.markdown(f"`{link.short}`")
        with st.container(key="poll-code"):
            st.markdown(f"**{link.code}**")
        join.show_qr(link, QR_PIXELS[0] if big else QR_PIXELS[1])


def _status(state: RoomState) -> str:
    """The board's first line, with the one live count of students in the room."""
    joined = poll_words.students_in(state.voter_count)
    if state.phase is Phase.LOBBY:
        return _("Waiting to start · {joined}", joined=joined)
    round_name = poll_words.round_name(state.round_number)
    words = {Phase.VOTING: _("{round} · open", round=round_name),
             Phase.CLOSED: _("{round} · closed", round=round_name),
             Phase.REVEALED: _("The answer"), Phase.ENDED: _("This room has ended")}[state.phase]
    return _("Question {number} of {count} · {phase} · {joined}", number=state.question_index + 1,
             count=state.question_count, phase=words, joined=joined)


def counts_block(view: ProjectorView, question: PollQuestion) -> None:
    """A bar per option per round, side by side after a revote; marked right or wrong only after the reveal. A second
    round counts every student once: a first vote not changed counts again.

    The bars carry the letters only (the question above lists the options once), so two rounds fit at 1280x720."""
    counts = view.counts
    revealed = view.state.answer_shown  # revealed, or ended after the reveal
    names = [question.option_name(i) for i in range(question.option_count)]
    if len(counts.rounds) > 1:  # over both rounds, so that each round's heading keeps to one line
        with st.container(key="poll-changed"):
            st.markdown(live_room.changed_line(counts.changed, counts.added))
    columns = st.columns(len(counts.rounds)) if len(counts.rounds) > 1 else [st.container()]
    for round_number, (column, tally) in enumerate(zip(columns, counts.rounds, strict=True), start=1):
        with column.container(key=f"poll-round-{round_number}"):
            total = sum(tally)
            st.markdown(_("**{round}** · {votes}", round=poll_words.round_name(round_number),
                          votes=poll_words.votes_word(total)))
            for index, count in enumerate(tally):
                right = revealed and index == question.answer
                label = poll_words.bar_label(names[index], "", count, total, right=right if revealed else None)
                panels.share_bar(poll_words.share(count, total), label,
                                 ("right" if right else "off") if revealed else "open",
                                 key=f"poll-{round_number}-{index}")
            st.caption(poll_words.counts_sentence(round_number, names, tally))


def board(code: str, version: int, secret: str = "") -> None:
    """The projector's live part: status, question, counts, drawn again when the room moved (board_check); when the
    room moved on elsewhere (another host tab), the whole page is drawn again so its buttons and side panel follow."""
    if secret:
        poll_service.touch(code, secret)
    view, error = poll_service.attempt(lambda: poll_service.poll().projector_view(code))
    if error is not None:
        poll_parts.show_problem(error)
        board_check.mark(code, ("trouble",))
        return
    if view.state.version != version:
        st.rerun(scope="app")
    _board(view)
    board_check.mark(code, view.stamp)  # last: drawn means the whole board is


def _board(view: ProjectorView) -> None:
    with st.container(key="poll-status"):
        st.markdown(f"**{_status(view.state)}**")
    if view.counts is None:
        st.markdown(_("Students can join now. Press **Start the first question** when the room is ready."))
        return
    question = poll_parts.question_or_none(view.counts.question_id)
    if question is None:
        st.error(_("This question is no longer in the app's question bank."), icon=":material/error:")
        return
    with st.container(key="poll-question"):
        poll_parts.show_question(question)
        if not question.versions:
            st.markdown("\n".join(_("- **{name}.** {option}", name=question.option_name(i), option=_(text))
                                  for i, text in enumerate(question.options)))
    counts_block(view, question)


def host_face(code: str, secret: str, problem: str = "") -> None:
    big = projector.is_on()  # frame() decided it; the switch is drawn in the tools row
    if big:
        poll_look.apply_poll_projector_look()
        st.html(CODE_PROJECTOR_CSS)
    else:
        st.html(CODE_CSS)
    poll_parts.show_problem(problem)
    poll_parts.show_note()
    state, error = poll_service.attempt(lambda: poll_service.poll().verify_host(code, secret))
    if error is not None:
        poll_parts.show_problem(error)
        projector.page_switch()
        retry_soon()
        return
    host_access.keep(state.code, secret)
    link = join.remember(state.code)
    if live.scene_of(state.question_id) is not None:
        st.info(_("This room is a live lecture: it follows the Lecture scenes page, and is run from there."),
                icon=":material/cast_connected:")
        number = live.scene_of(state.question_id)
        st.page_link(projector.SCENES_PAGE, label=_("Back to the lecture, scene {number}", number=number),
                     icon=":material/slideshow:",
                     query_params={"scene": str(number), "room": code, **lang.url_view()})
        return
    if room_questions.deck_of(state.question_id) is not None:
        deck_lecture(code, state)
        return
    host_controls(code, secret, state)
    lobby = state.phase is Phase.LOBBY  # nothing to count yet: the join code gets the room
    answer = poll_parts.question_or_none(state.question_id) if state.answer_shown else None
    side, main = st.columns([1.25, 1] if lobby else [1, 2.3], gap="medium")
    with side:
        if state.phase is Phase.ENDED:  # no join code: nobody joins an ended room
            with st.container(key="poll-ended"):
                st.markdown(_("**This room has ended.** Its counts stay here and in the CSV until it expires."))
        if answer is not None:  # nobody votes now: the answer takes the join code's place, beside the counts
            with st.container(key="poll-answer"):
                poll_parts.show_reveal(answer, folded=True)
        elif state.phase is not Phase.ENDED:
            join_panel(link, big)
    with main:
        board_check.live(board, code, state.version, secret)
    if not big:
        host_tools(code, secret)


def retry_soon() -> None:
    """After a storage error on the first run: try again every few seconds and redraw the page once it works."""

    def check() -> None:
        __, error = poll_service.attempt(lambda: poll_service.poll())
        if error is None:
            st.rerun()

    st.fragment(check, run_every=RETRY_EVERY_S)()
