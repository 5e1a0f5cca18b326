"""Predict-then-reveal questions on screen: one question of the bank, its answer kept across pages, the score.

Every page that asks a question draws it with this module; the Check yourself page (attn_ui/views/quiz_view.py)
adds the sections, the overall score, the reset and the address.

The answers live in session state under our own keys, never only in widgets: Streamlit drops a widget's
value when its page is not drawn, so every pick is copied into `quiz.answers` and the widgets are set
back from it when the page is drawn again.

    quiz.answers  question id -> the current answer (an option index, or a tuple for an ordering question)
    quiz.first    question id -> the first complete answer: the one the score counts
    quiz.skipped  question id -> True: a lesson's prediction skipped on purpose, to see the answer (predict.py). It
                  counts as unanswered, and an answer given after it never as right on the first try
    quiz.undo     what the last "Start again" cleared, for its undo
    quiz.push     the next address write adds a history entry (Start again, its undo); an answer replaces the entry
    quiz.w.<id>   the widget of one question (for an ordering question: the pills of the next line)

The Check yourself page's own keys (quiz.section, quiz.url, quiz.pick) live with that page, in
attn_ui/views/quiz_view.py.

Lesson pages can ask any question of the bank inline with `inline_question(question_id)`.

A reload starts a new session, so the answers are kept in the browser (progress.py: `saved_items`, `merge_saved`)
and also live in the address: Check yourself's holds every question's (`answers`), a lesson page's its own
question's (`answer`), both written by `address_value` and read back by `restore` (the encoding is
attn_core.query's).

The bank's texts are English messages (marked with N_ in attn_ui/quiz/); they are translated here, where they are
drawn. Code (a version, an ordering step) is drawn as it is written.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from attn_core.query import read_answers, write_answers
from attn_lang import _
from attn_ui.quiz.bank import BY_ID, QUESTIONS, VERSION_NAMES
from attn_ui.quiz.model import Question, Tally, feedback, is_complete, is_right, normalise, said, tally
from attn_ui.widgets import held
from attn_ui.widgets.lab_link import lab_button

ANSWERS_KEY = "quiz.answers"
FIRST_KEY = "quiz.first"
SKIPPED_KEY = "quiz.skipped"
UNDO_KEY = "quiz.undo"  # what the last "Start again" cleared (id -> a one-item `answers` value), for its undo
PUSH_KEY = "quiz.push"  # the next address write adds a history entry (Start again: Back undoes it); answers replace
WIDGET_PREFIX = "quiz.w."


def answers() -> dict[str, Any]:
    return st.session_state.setdefault(ANSWERS_KEY, {})


def first_answers() -> dict[str, Any]:
    return st.session_state.setdefault(FIRST_KEY, {})


def skipped() -> dict[str, bool]:
    return st.session_state.setdefault(SKIPPED_KEY, {})


def skip(question_id: str) -> None:
    """Show the answer without a prediction (a button callback). Only a question with no answer yet can be skipped:
    it counts as unanswered, and no later answer counts as right on the first try."""
    if question_id not in first_answers():
        skipped()[question_id] = True


def widget_key(question: Question) -> str:
    return WIDGET_PREFIX + question.id


def record(question: Question, value: Any) -> None:
    """Copy a widget's value into our own keys; the first complete answer is kept for the score."""
    answer = normalise(question, value)
    if answer is None:
        answers().pop(question.id, None)
        return
    answers()[question.id] = answer
    if is_complete(question, answer) and question.id not in skipped():
        first_answers().setdefault(question.id, answer)


def reset(questions: tuple[Question, ...] = QUESTIONS) -> None:
    """Forget the answers to these questions (a button callback: runs before any widget is drawn); what they were is
    kept for `undo_reset` until the next reset."""
    st.session_state[UNDO_KEY] = {qid: raw for qid, raw in saved_items().items() if qid in {q.id for q in questions}}
    st.session_state[PUSH_KEY] = True
    for question in questions:
        answers().pop(question.id, None)
        first_answers().pop(question.id, None)
        skipped().pop(question.id, None)
        st.session_state[widget_key(question)] = None  # None, not a deletion: the browser clears the pick too


def undo_reset() -> None:
    """Bring back what the last reset cleared (a button callback)."""
    cleared = st.session_state.pop(UNDO_KEY, None)
    st.session_state[PUSH_KEY] = True
    if isinstance(cleared, dict):
        merge_saved(cleared, over_held=True)


def can_undo_reset() -> bool:
    return bool(st.session_state.get(UNDO_KEY))


def sync() -> None:
    """Copy every choice widget's value of this run into our keys, so a score drawn above the questions
    already counts the answer just picked. (Ordering questions are recorded by their callbacks.)"""
    for question in QUESTIONS:
        key = widget_key(question)
        if question.kind != "order" and key in st.session_state and _an_option(question, st.session_state[key]):
            record(question, st.session_state[key])


def _an_option(question: Question, value: Any) -> bool:
    """A value a choice widget can hold: None or one of its options' indices. Read before the page draws its widget
    (the sidebar's marks, the store), a crafted value has not been refused by the widget yet: it is left to it."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool)
                             and 0 <= value < len(question.options))


def score(questions: tuple[Question, ...] = QUESTIONS) -> Tally:
    sync()
    return tally(questions, first_answers(), answers())


# --- the answers in the address ----------------------------------------------------------------------------


def _shapes(questions: tuple[Question, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((question.kind, len(question.options)) for question in questions)


def address_value(questions: tuple[Question, ...]) -> str:
    """These questions' answers as one address value ('' when none is answered or skipped); sync() first."""
    sync()
    first, current, skips = first_answers(), answers(), skipped()
    return write_answers(_shapes(questions), {i: first[q.id] for i, q in enumerate(questions) if q.id in first},
                         {i: current[q.id] for i, q in enumerate(questions) if q.id in current},
                         {i for i, q in enumerate(questions) if q.id in skips})


def restore(questions: tuple[Question, ...], raw: str | None, key: str) -> list[str]:
    """Set these questions' answers to what an address value `raw` says (None: unanswered), widgets included, and
    return a note for whatever was refused. Other questions keep theirs."""
    read = read_answers(raw, _shapes(questions), key)
    for index, question in enumerate(questions):
        for store, found in ((first_answers(), read.first), (answers(), read.current)):
            if index in found:
                store[question.id] = found[index]
            else:
                store.pop(question.id, None)
        if index in read.skipped:
            skipped()[question.id] = True
        else:
            skipped().pop(question.id, None)
        shown = read.current.get(index) if question.kind != "order" else None
        st.session_state[widget_key(question)] = shown  # the widget says what the address says
    return read.notes


# --- the answers kept in the browser (progress.py) ---------------------------------------------------------


def saved_items() -> dict[str, str]:
    """Every question with an answer or a skip, by id, each as its own one-item `answers` value: what the browser
    keeps. By id, not by place in the bank, so progress saved before a question was added still reads."""
    sync()
    first, current, skips, items = first_answers(), answers(), skipped(), {}
    for question in QUESTIONS:
        if question.id in first or question.id in current or question.id in skips:
            items[question.id] = write_answers(_shapes((question,)), {0: first[question.id]} if question.id in first
                                               else {}, {0: current[question.id]} if question.id in current else {},
                                               {0} if question.id in skips else set())
    return items


def _state_of(question: Question) -> tuple[Any, Any, bool]:
    return first_answers().get(question.id), answers().get(question.id), question.id in skipped()


def _set_state(question: Question, first: Any, current: Any, skip: bool) -> None:
    for store, value in ((first_answers(), first), (answers(), current)):
        if value is None:
            store.pop(question.id, None)
        else:
            store[question.id] = value
    if skip:
        skipped()[question.id] = True
    else:
        skipped().pop(question.id, None)
    st.session_state[widget_key(question)] = current if question.kind != "order" else None


def merge_saved(items: dict[str, str], over_held: bool = False) -> dict[str, tuple[Any, Any, bool]]:
    """Bring the browser's saved answers into the session (a callback: before any widget is drawn). A question the
    session has not touched takes the saved answer; one the session holds differently (a shared link's answer)
    keeps the student's saved answer, and the link's is returned (id -> first, current, skipped) to be offered.
    Unknown ids and garbled items are skipped: the browser's storage is input like any other. `over_held`: the
    saved answers replace whatever the session holds, and nothing is offered (an undo)."""
    offered = {}
    for question_id, raw in items.items():
        question = BY_ID.get(question_id)
        if question is None or not isinstance(raw, str):
            continue
        read = read_answers(raw[:200], _shapes((question,)), "progress")
        if read.notes:
            continue
        saved = (read.first.get(0), read.current.get(0), 0 in read.skipped)
        held = _state_of(question)
        if held == saved:
            continue
        if held != (None, None, False) and not over_held:
            offered[question.id] = held
        _set_state(question, *saved)
    return offered


def take_offered(offered: dict[str, tuple[Any, Any, bool]]) -> None:
    """Show the answers a link carried instead of the saved ones (a button callback, the student's own choice). Only
    what is on screen changes: a first answer the browser already holds stays the one the score counts, so a link
    never turns a wrong first try into a right one."""
    for question_id, (first, current, skip) in offered.items():
        question = BY_ID.get(question_id)
        if question is None:
            continue
        saved_first, __, saved_skip = _state_of(question)
        if saved_first is not None or saved_skip:
            first, skip = saved_first, saved_skip
        _set_state(question, first, current if current is not None else first, skip)


# --- one question ----------------------------------------------------------------------------------------


def _restore(question: Question) -> None:
    """Set the widget from our keys unless it holds a new pick (a click, recorded further on). Set again even when
    it already shows our answer: the value another page's widget of the same key left behind does not reach this
    page's widget (page 1's question, answered there, came up empty in Check yourself's first section)."""
    key = widget_key(question)
    stored = answers().get(question.id)
    if question.kind != "order" and stored is not None and st.session_state.get(key) in (None, stored):
        st.session_state[key] = stored


def _choice(question: Question, label: str) -> None:
    key, options = widget_key(question), list(range(len(question.options)))
    if question.kind == "code":
        value = st.radio(label, options, key=key, **held.index(key, options, fallback=None), horizontal=True,
                         format_func=lambda i: _(VERSION_NAMES[i]), label_visibility="collapsed")
    else:
        value = st.radio(label, options, key=key, **held.index(key, options, fallback=None),
                         format_func=lambda i: said(question.options[i].text),
                         label_visibility="collapsed")
    record(question, value)


def _order(question: Question) -> tuple[int, ...]:
    stored = answers().get(question.id, ())
    return tuple(stored) if isinstance(stored, tuple) else ()


def _append_line(question: Question) -> None:
    """Pills callback: the tapped line joins the program, and the pills are cleared for the next tap."""
    key = widget_key(question)
    line = st.session_state.get(key)
    if line is not None and line not in _order(question):
        record(question, (*_order(question), line))
    st.session_state[key] = None


def _undo_line(question: Question) -> None:
    record(question, _order(question)[:-1])


def _ordering(question: Question) -> None:
    """Build the program line by line: tap the next line; the program so far shows as code."""
    order = _order(question)
    if order:
        st.code("\n".join(question.options[i].text for i in order), language="python", wrap_lines=True)
    left = [i for i in range(len(question.options)) if i not in order]
    if left:
        tap = _("Tap the line that runs next") if order else _("Tap the line that runs first")
        st.pills(tap, left, key=widget_key(question),
                 format_func=lambda i: f"`{question.options[i].text}`", on_change=_append_line, args=(question,))
    if order:
        st.button(_("Undo the last line"), key=f"quiz.undo.{question.id}", icon=":material/undo:", type="tertiary",
                  on_click=_undo_line, args=(question,))


def _feedback(question: Question) -> None:
    answer = answers().get(question.id)
    if not is_complete(question, answer):
        if question.id in skipped():
            st.caption(_("You skipped this prediction to see the answer: it counts as unanswered until you pick."))
        return
    said = feedback(question, answer)
    if said.correct:
        st.success(said.verdict, icon=":material/check_circle:")
    else:
        st.error(said.verdict, icon=":material/cancel:")
    if said.more:
        st.markdown(said.more)
    if question.kind == "order" and not said.correct:
        st.code(question.right_text, language="python", wrap_lines=True)
    first = first_answers().get(question.id)
    if question.id in skipped():
        st.caption(_("You looked at the answer before predicting, so this question does not count as right on the "
                     "first try."))
    elif first is not None and first != answer:
        if is_right(question, first):
            st.caption(_("The score keeps your first answer, which was right."))
        else:
            st.caption(_("The score keeps your first answer, which was not right."))
    if question.lab is not None:
        settings, __ = question.lab.settings()
        lab_button(settings, _(question.lab.label), **question.lab.view)


def _versions(question: Question) -> None:
    """The code versions two to a row on a wide screen; on a phone the rows stack as A, B, C, D."""
    for start in range(0, len(question.options), 2):
        for column, index in zip(st.columns(2), range(start, min(start + 2, len(question.options))), strict=False):
            with column:
                st.markdown(f"**{_(VERSION_NAMES[index])}**")
                st.code(question.options[index].text, language="python", wrap_lines=True)


def render_question(question: Question, heading: str = "", label: str | None = None) -> None:
    """A question in a box: prompt, code, choices, and feedback as soon as an answer is complete. `heading` and
    `label` are drawn as they are given (translated by the caller); the label defaults to "Your answer"."""
    _restore(question)
    label = _("Your answer") if label is None else label
    prompt = said(question.prompt)
    with st.container(border=True, key=f"quiz-{question.id}"):
        st.markdown(f"**{heading}** {prompt}" if heading else prompt)
        if question.code:
            st.code(question.code, language="python", wrap_lines=True)
        if question.kind == "code":
            _versions(question)
        if question.kind == "order":
            _ordering(question)
        else:
            _choice(question, label)
        _feedback(question)


def inline_question(question_id: str, heading: str | None = None) -> None:
    """Ask one question of the bank on any page; the answer is shared with the Check yourself page. `heading` is
    drawn as it is given (translated by the caller); by default, "Predict first."

    Call it at most once per question on a page (its widget key is `quiz.w.<question_id>`)."""
    if question_id not in BY_ID:
        raise ValueError(f"No question {question_id!r} in the bank; the ids are: {', '.join(BY_ID)}.")
    render_question(BY_ID[question_id], _("Predict first.") if heading is None else heading)
    st.caption(_("Pick before you look: the answer and the reason show at once. "
                 "It also counts on the Check yourself page."))
