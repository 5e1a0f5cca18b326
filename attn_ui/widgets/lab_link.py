"""A link that opens the Lab in given settings: drawn by lessons, questions, scenes and the poll. Below the page
frame (page.py) and the sidebar (nav.py), so a question's feedback can draw it without importing either."""

from __future__ import annotations

import streamlit as st

from attn_core import Settings
from attn_lang import _
from attn_ui.words.export import lab_query


def lab_button(settings: Settings, label: str | None = None, **view: str) -> None:
    """A link that opens the Lab in exactly these settings (the same URL a lecturer can paste). `label` is drawn as
    it is given (translated by the caller)."""
    label = _("Open this in the Lab") if label is None else label
    st.page_link("app.py", label=label, icon=":material/science:", query_params=lab_query(settings, **view))
