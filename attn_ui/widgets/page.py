"""The frame every lesson page shares: set-up, a heading with its reading time, a Try-it box, a Lab link."""

from __future__ import annotations

import streamlit as st

from attn_core import Settings
from attn_ui.widgets import projector
from attn_ui.widgets.join import join_switch
from attn_ui.widgets.look import apply_look
from attn_ui.widgets.nav import sidebar_nav
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
