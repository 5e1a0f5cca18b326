"""The sidebar's table of contents: our own labels and icons instead of file names ("app" becomes "Lab")."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parents[2]  # the repository: attn_ui/widgets/nav.py -> ../../..

# (script, label, icon) in reading order; a page whose file is missing is simply not listed.
PAGES = (
    ("app.py", "Lab", ":material/grid_view:"),
    ("pages/1_Peeking_and_the_causal_mask.py", "1 · Peeking and the causal mask", ":material/visibility_off:"),
    ("pages/2_Padding_mask.py", "2 · The padding mask", ":material/space_bar:"),
    ("pages/3_Dropout.py", "3 · Dropout on the weights", ":material/casino:"),
    ("pages/4_Many_heads.py", "4 · Many heads", ":material/view_column:"),
    ("pages/5_Shapes_and_memory.py", "5 · Shapes and memory", ":material/memory:"),
    ("pages/6_One_row_by_hand.py", "6 · One row by hand", ":material/calculate:"),
    ("pages/7_Train_it_yourself.py", "7 · Train it yourself", ":material/model_training:"),
    ("pages/8_Check_yourself.py", "Check yourself", ":material/quiz:"),
    ("pages/9_Lecture_scenes.py", "Lecture scenes", ":material/slideshow:"),
    ("pages/10_Class_poll.py", "Class poll", ":material/how_to_vote:"),
)


def listed_pages() -> tuple[tuple[str, str, str], ...]:
    """The pages whose file exists, in reading order."""
    return tuple(page for page in PAGES if (ROOT / page[0]).is_file())


def sidebar_nav() -> None:
    with st.sidebar:
        st.markdown("**Attention Lab**")
        for script, label, icon in listed_pages():
            st.page_link(script, label=label, icon=icon)
