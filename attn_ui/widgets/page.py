"""The frame every lesson page shares: set-up, a heading with its reading time, a Try-it box, a Lab link, and the
links at the end of a lesson (Next; in the Lab, Back to the lesson)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attn_core import Settings
from attn_ui.widgets import projector
from attn_ui.widgets.join import join_switch
from attn_ui.widgets.look import apply_look
from attn_ui.widgets.nav import ROOT, listed_pages, sidebar_nav
from attn_ui.words.export import lab_query


def lesson_page(title: str, question: str, minutes: int) -> None:
    """Page set-up and heading: the title, the question the page answers, how long it takes to read."""
    st.set_page_config(page_title=f"{title} · Attention Lab", page_icon=":material/school:", layout="wide")
    apply_look()
    sidebar_nav()
    projector.page_mode()  # one switch for the whole app: its CSS on every page, its switch in the sidebar
    st.title(title)
    st.caption(f"{question} · about {minutes} minutes")
    join_switch()  # only once this browser has opened a class poll room: its join code, for any page


def lab_button(settings: Settings, label: str = "Open this in the Lab", **view: str) -> None:
    """A link that opens the Lab in exactly these settings (the same URL a lecturer can paste)."""
    st.page_link("app.py", label=label, icon=":material/science:", query_params=lab_query(settings, **view))


def try_it(task: str, settings: Settings, label: str = "Open the Lab in this state", **view: str) -> None:
    """The closing task of a lesson page, with a link that sets the Lab up for it (view keys such as row=3)."""
    with st.container(border=True):
        st.markdown(f"**Try it.** {task}")
        lab_button(settings, label, **view)


LESSON_KEY = "student.lesson"  # the lesson page read last (its script, relative to the repository)


def lesson_end(page_file: str) -> None:
    """The end of a lesson: a link to the next page in reading order. It also remembers this lesson, so the Lab
    its Try-it link opens can lead back to it."""
    script = Path(page_file).resolve().relative_to(ROOT).as_posix()
    st.session_state[LESSON_KEY] = script
    _next_link(script)


def _next_link(script: str) -> None:
    pages = listed_pages()
    scripts = [page[0] for page in pages]
    if script in scripts and scripts.index(script) + 1 < len(pages):
        following, label, _ = pages[scripts.index(script) + 1]
        st.page_link(following, label=f"Next: {label}", icon=":material/arrow_forward:")


def back_to_lesson() -> None:
    """In the Lab: "Back to the lesson" (and its Next), when a lesson was read before the Lab was opened."""
    script = st.session_state.get(LESSON_KEY)
    labels = {page: label for page, label, _ in listed_pages()}
    if script not in labels:
        return
    with st.container(horizontal=True, key="lab-lesson-links", gap="medium"):
        st.page_link(script, label=f"Back to the lesson: {labels[script]}", icon=":material/arrow_back:")
        _next_link(script)
