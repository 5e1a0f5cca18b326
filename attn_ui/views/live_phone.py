"""A student's phone in a live lecture: the scene's question, the answer box, after the reveal the answer and the Lab
link, and at the end a recap of the student's predictions.

The question is the projector's, word for word, in the phone's own language. A number is typed (either decimal sign:
"0,69" and "0.69" are the same answer) and sent; an answer outside the question's range is refused with a sentence
saying nothing was sent. While the lecture runs, the phone shows no way to the Lecture scenes page, whose revealed
steps hold every answer (follow_lecture, nav.sidebar_nav).

Session state used here:
    live.phone.note     a message from the phone's last answer, shown in the next run
    live.answer.<q>.<r>  a phone's number box or radio for scene position q, round r
    live.phone.room     the lecture room this phone follows while it runs (the sidebar leaves the scenes out)
"""

from __future__ import annotations

import re

import streamlit as st

from attn_lang import _, _n, current_language, using
from attn_poll import Phase, PhoneView, RoomState
from attn_ui.views import poll_service
from attn_ui.widgets import join, lang, projector
from attn_ui.widgets.page import lab_button
from attn_ui.words import live, poll_words
from attn_ui.words.scenes import SCENES

NOTE_KEY = "live.phone.note"
ANSWER_PREFIX = "live.answer."
FOLLOW_KEY = join.FOLLOW_KEY


@st.cache_resource(show_spinner=False, max_entries=256)
def cached_question(number: int, lang_code: str) -> live.Live:
    """Scene `number`'s live question in one language (frozen), built once a server: every phone draws it at each
    scene change."""
    return live.live_question(number)


@st.cache_resource(show_spinner=False, max_entries=256)
def cached_scene_text(number: int, lang_code: str):
    """Scene `number`'s words in one language (frozen), built once a server."""
    return live.scene_text(number)


EMPHASIS = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")  # the only Markdown a title or a question uses: **words**, *word*


def text_runs(markdown: str) -> list[list[str]]:
    """A line of Markdown as runs of plain text, each [text, "b" (bold) or "i" (italic) or ""]: what a script can draw
    with textContent alone, never as HTML."""
    runs, at = [], 0
    for found in EMPHASIS.finditer(markdown):
        if found.start() > at:
            runs.append([markdown[at:found.start()], ""])
        runs.append([found[1], "b"] if found[1] is not None else [found[2], "i"])
        at = found.end()
    if at < len(markdown):
        runs.append([markdown[at:], ""])
    return runs


def scene_heading(number: int, title: str) -> str:
    return _("**Scene {number} of {count} · {title}**", number=number, count=len(SCENES), title=title)


def announcement(number: int, lang_code: str) -> dict:
    """What a phone's browser draws the moment the held route tells it the room moved to scene `number` (poll_route),
    before its fragment is drawn again with the answer box: the scene's heading and question as the phone words them,
    in `lang_code` (a supported code), as text runs."""
    with using(lang_code):
        asked, words = cached_question(number, lang_code), cached_scene_text(number, lang_code)
        return {"scene": number, "heading": text_runs(scene_heading(number, words.title)), "ask": text_runs(asked.ask),
                "wait": _("The answer box follows in a moment.")}


def question(number: int) -> live.Live:
    return cached_question(number, current_language())


def scene_text(number: int):
    return cached_scene_text(number, current_language())


def follow_lecture(code: str, state: RoomState | None) -> None:
    """Remember whether this phone follows a live lecture that still runs (state: the room's, when it is one)."""
    if state is not None and state.phase is not Phase.ENDED:
        st.session_state[FOLLOW_KEY] = code
    elif st.session_state.get(FOLLOW_KEY) == code:
        st.session_state.pop(FOLLOW_KEY, None)


def _note(text: str | None) -> None:
    st.session_state[NOTE_KEY] = text or None


def _show_note() -> bool:
    note = st.session_state.pop(NOTE_KEY, None)
    if isinstance(note, str) and note:
        st.warning(note, icon=":material/info:")
        return True
    return False


def _vote(code: str, voter: str, question_index: int, round_number: int, option: int) -> None:
    """Count the answer in the round open at the moment it arrives (a revote of the same scene takes it)."""
    now = poll_service.poll().state(code)
    same = now.phase is Phase.VOTING and now.question_index == question_index
    poll_service.poll().vote(code, voter, question_index, now.round_number if same else round_number, option)


def _act(work) -> None:
    __, error = poll_service.attempt(work)
    _note(str(error) if error else None)


def _send_number(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    asked = question(question_index + 1)
    typed = st.session_state.get(key)
    if typed is None or (isinstance(typed, str) and not typed.strip()):
        _note(_("Type a number first, then press Send."))
        return
    value = live.read_typed(typed)
    option = None if value is None else asked.nearest(value)
    if option is None:
        _note(_("Your answer must be a number from {low} to {high}, so nothing was sent.", low=asked.options[0],
                high=asked.options[-1]))
        return
    _act(lambda: _vote(code, voter, question_index, round_number, option))
    if st.session_state.get(NOTE_KEY) is None:
        if abs(asked.values[option] - value) > asked.step * 1e-6:
            _note(_("Counted as {counted}, the nearest step to {typed}.", counted=asked.options[option],
                    typed=poll_words.typed_code(typed.strip())))
        st.session_state[key] = asked.options[option]  # the box shows what counts, as the language writes it


def _send_choice(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    asked = question(question_index + 1)
    option = st.session_state.get(key)
    if option is None:
        return
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option < asked.option_count:
        _note(_("That is not one of this question's options, so nothing was sent."))
        st.session_state[key] = None
        return
    _act(lambda: _vote(code, voter, question_index, round_number, option))


def _option_label(asked: live.Live, option: object) -> str:
    """"A. Nothing …" for an option; a value that is no option (a forged client) is shown as it came."""
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < asked.option_count:
        return _("{letter}. {option}", letter=live.letter(option), option=asked.options[option])
    return str(option)


def lecture_phone(code: str, voter: str, view: PhoneView) -> None:
    """A lecture room on the phone: the scene of the moment, or, once the lecture has ended, the recap."""
    state = view.state
    follow_lecture(code, state)
    st.caption(_("Room {code} · lecture ended", code=state.code) if state.phase is Phase.ENDED else
               _("Room {code} · live lecture", code=state.code))
    if state.phase is Phase.ENDED:
        phone_ended(code, voter)
    else:
        phone_scene(code, voter, state, view.my_vote, view.carried)


def phone_scene(code: str, voter: str, state: RoomState, my_vote: int | None, carried: bool = False) -> None:
    """A scene's question on a student's phone, the answer box, and after the reveal the answer and the Lab link."""
    number = live.scene_of(state.question_id)
    asked = question(number)
    scene = SCENES[number - 1]
    words = scene_text(number)
    noted = _show_note()
    # the scene and its question in one element: every phone of the room draws them at once (bench/phone_redraw.py)
    st.markdown(scene_heading(number, words.title) + "\n\n" + asked.ask)
    key = f"{ANSWER_PREFIX}{state.question_index}.{state.round_number}"
    voting = state.phase is Phase.VOTING
    if asked.kind == "number":
        if key not in st.session_state:
            st.session_state[key] = "" if my_vote is None else asked.options[my_vote]
        label = _("Your prediction ({unit})", unit=asked.unit_name) if asked.unit_name else _("Your prediction")
        with st.form(key=f"live-form-{state.question_index}-{state.round_number}", border=False,
                     enter_to_submit=True):
            st.text_input(label, key=key, max_chars=20, disabled=not voting,
                          placeholder=_("{low} to {high}", low=asked.options[0], high=asked.options[-1]))
            st.form_submit_button(_("Send"), icon=":material/send:", type="primary", disabled=not voting,
                                  on_click=_send_number, args=(code, voter, state.question_index, state.round_number,
                                                               key))
    else:
        if key not in st.session_state or st.session_state[key] not in (None, *range(asked.option_count)):
            st.session_state[key] = my_vote
        st.radio(_("Your answer"), list(range(asked.option_count)), key=key, index=None, disabled=not voting,
                 format_func=lambda i: _option_label(asked, i), on_change=_send_choice,
                 args=(code, voter, state.question_index, state.round_number, key))
    mine = None if my_vote is None else asked.say(my_vote)
    if voting:
        if mine and carried:
            st.markdown(_("Your first answer, **{mine}**, counts in this vote too. Send another to change it.",
                          mine=mine))
        elif mine:
            st.markdown(_("Sent: **{mine}**. You can change it until the lecturer shows the answers.", mine=mine))
        elif not noted:
            st.markdown(_("Your answer counts once you send it; you can change it until the answers are shown.")
                        if asked.kind == "number" else
                        _("Your answer counts once you tap it; you can change it until the answers are shown."))
    elif state.phase is Phase.CLOSED:
        told = _("You answered {mine}.", mine=mine) if mine else _("You did not answer this round.")
        st.info(_("Answers are closed. {told} Talk to your neighbour: why did you each answer as you did?", told=told),
                icon=":material/forum:")
    else:
        _revealed(asked, words.answer, mine, my_vote, code, scene)


def _revealed(asked: live.Live, answer_text: str, mine: str | None, my_vote: int | None, code: str, scene) -> None:
    if mine is None:
        said = _("You did not answer.")
    elif asked.right(my_vote):
        said = _("You answered **{mine}**. That counts as right.", mine=mine)
    else:
        said = _("You answered **{mine}**. That is off.", mine=mine)
    st.success(_("**The answer: {truth}.** {said}", truth=asked.truth_text, said=said), icon=":material/check_circle:")
    st.markdown(answer_text)
    view = {**projector.view_keys(None if scene.row is None else scene.row - 1, False), "room": code,
            **lang.url_view()}
    lab_button(scene.settings, _("Explore this scene in the Lab"), **view)


def recap(code: str, voter: str) -> None:
    """A student's predictions against the answers, scene by scene (their last round of each)."""
    mine, error = poll_service.attempt(lambda: poll_service.poll().my_votes(code, voter))
    if error is not None:
        poll_service.show_problem(error)
        return
    lines = live.recap_lines(mine)
    if not lines:
        st.markdown(_("You did not answer any scene in this lecture."))
        return
    right = sum(line.right for line in lines)
    st.markdown(_n("**Your predictions: {right} right of the {count} scene you answered.**",
                   "**Your predictions: {right} right of the {count} scenes you answered.**", len(lines),
                   right=right))
    st.table([{_("Scene"): line.number, _("You"): line.mine, _("Answer"): line.truth, "": "✓" if line.right else "✗"}
              for line in lines])


def phone_ended(code: str, voter: str) -> None:
    st.info(_("The lecturer has ended this lecture. Here is how your predictions went."), icon=":material/done_all:")
    recap(code, voter)
