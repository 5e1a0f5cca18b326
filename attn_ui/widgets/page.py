"""The frame every lesson page shares: set-up, a heading with its reading time, a Try-it box, a Lab link, and the
links at the end of a lesson (Next; in a Lab opened by a Try-it link, Back to the lesson)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attn_core import Settings
from attn_core.query import read_lesson
from attn_lang import N_, _, _n
from attn_ui.widgets import lang, projector
from attn_ui.widgets.join import join_switch
from attn_ui.widgets.lab_link import lab_button
from attn_ui.widgets.look import apply_look
from attn_ui.widgets.nav import ROOT, listed_pages, sidebar_nav


def lesson_page(title: str, question: str, minutes: int, switch: bool = True) -> None:
    """Page set-up and heading: the title, the question the page answers, how long it takes to read. `switch=False`:
    the page draws its projector switch itself (projector.page_switch), where it has room."""
    lang.choose()
    st.set_page_config(page_title=_("{page} · Attention Lab", page=_(title)), page_icon=":material/school:",
                       layout="wide")
    apply_look()
    sidebar_nav()
    projector.page_mode(switch)  # one switch for the whole app: its CSS on every page, its switch in the sidebar
    st.title(_(title))
    st.caption(_n("{question} · about {count} minute", "{question} · about {count} minutes", minutes,
                  question=_(question)))
    join_switch()  # only once this browser has opened a class poll room: its join code, for any page


LESSON_VIEW_KEY = "lesson"  # the Lab's view key naming the lesson whose Try-it opened it (attn_core.query)


def lesson_number(page_file: str) -> str:
    """A lesson page's number, from its file name (pages/3_Dropout.py -> "3")."""
    return Path(page_file).name.split("_", 1)[0]


def try_it(task: str, settings: Settings, page_file: str, label: str = N_("Open the Lab in this state"),
           **view: str) -> None:
    """The closing task of a lesson page, with a link that sets the Lab up for it (view keys such as row=3); the
    link names the lesson (`lesson`), so the Lab can lead back to it. `task` and `label` are English messages
    marked with N_ where they are written; they are translated here."""
    with st.container(border=True):
        st.markdown(_("**Try it.** {task}", task=_(task)))
        lab_button(settings, _(label), **view, **{LESSON_VIEW_KEY: lesson_number(page_file)})


def _lessons() -> dict[str, tuple[str, str]]:
    """Lesson number -> (script, label), for the listed lesson pages."""
    return {lesson_number(script): (script, label) for script, label, __ in listed_pages()
            if script.startswith("pages/") and lesson_number(script).isdigit()}


def lesson_end(page_file: str) -> None:
    """The end of a lesson: a link to the next page in reading order."""
    _next_link(Path(page_file).resolve().relative_to(ROOT).as_posix())


def _next_link(script: str) -> None:
    pages = listed_pages()
    scripts = [page[0] for page in pages]
    if script in scripts and scripts.index(script) + 1 < len(pages):
        following, label, __ = pages[scripts.index(script) + 1]
        st.page_link(following, label=_("Next: {label}", label=label), icon=":material/arrow_forward:")


def lesson_view() -> dict[str, str]:
    """The Lab's `lesson` view key as its URL has it, to keep in the address while the Lab is used."""
    number, __ = read_lesson(st.query_params.get(LESSON_VIEW_KEY), max(map(int, _lessons()), default=0))
    return {LESSON_VIEW_KEY: str(number)} if number else {}


def back_to_lesson() -> None:
    """In the Lab: "Back to the lesson" (and its Next), only when a lesson's Try-it link opened it."""
    lessons = _lessons()
    number, note = read_lesson(st.query_params.get(LESSON_VIEW_KEY), max(map(int, lessons), default=0))
    if note:
        st.caption(note)
    if str(number) not in lessons:
        return
    script, label = lessons[str(number)]
    with st.container(horizontal=True, key="lab-lesson-links", gap="medium"):
        st.page_link(script, label=_("Back to the lesson: {label}", label=label), icon=":material/arrow_back:")
        _next_link(script)


def newcomer_line() -> None:
    """On the Lab, for someone who arrives there first: one line saying where to start, and a link to lesson 1.
    Not when a lesson's Try-it, a scene or a live lecture opened the Lab (the way back is shown instead), nor on the
    projector."""
    lessons = _lessons()
    if "1" not in lessons or st.query_params.get(LESSON_VIEW_KEY) or st.query_params.get("room") \
            or st.query_params.get("scene") or projector.is_on() \
            or projector.url_mode() == projector.PROJECTOR:
        return
    script, label = lessons["1"]
    with st.container(horizontal=True, key="lab-newcomer", gap="small", vertical_alignment="center"):
        st.markdown(_("New here? Each lesson takes about five minutes and sends you back here to try it."))
        # Translators: {label} is lesson 1's name in the menu, its number included ("1 · Peeking and the causal mask")
        st.page_link(script, label=_("Start here: {label}", label=label), icon=":material/school:")
