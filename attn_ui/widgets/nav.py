"""The sidebar's table of contents: our own labels and icons instead of file names ("app" becomes "Lab")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from attn_lang import N_, _
from attn_ui.quiz.bank import BY_ID
from attn_ui.quiz.pages import PAGE_QUESTIONS
from attn_ui.widgets import join, lang, progress, questions, theme

ROOT = Path(__file__).resolve().parents[2]  # the repository: attn_ui/widgets/nav.py -> ../../..

# (script, label, icon) in reading order; a page whose file is missing is simply not listed.
PAGES = (
    ("app.py", N_("Lab"), ":material/grid_view:"),
    ("pages/1_Peeking_and_the_causal_mask.py", N_("1 · Peeking and the causal mask"), ":material/visibility_off:"),
    ("pages/2_Padding_mask.py", N_("2 · The padding mask"), ":material/space_bar:"),
    ("pages/3_Dropout.py", N_("3 · Dropout on the weights"), ":material/casino:"),
    ("pages/4_Many_heads.py", N_("4 · Many heads"), ":material/view_column:"),
    ("pages/5_Shapes_and_memory.py", N_("5 · Shapes and memory"), ":material/memory:"),
    ("pages/6_One_row_by_hand.py", N_("6 · One row by hand"), ":material/calculate:"),
    ("pages/7_Train_it_yourself.py", N_("7 · Train it yourself"), ":material/model_training:"),
    ("pages/8_Check_yourself.py", N_("Check yourself"), ":material/quiz:"),
    ("pages/9_Lecture_scenes.py", N_("Lecture scenes"), ":material/slideshow:"),
    ("pages/10_Class_poll.py", N_("Class poll"), ":material/how_to_vote:"),
    ("pages/11_Your_lecture.py", N_("Your lecture"), ":material/co_present:"),
)


SCENES_PAGE = "pages/9_Lecture_scenes.py"


def listed_pages() -> tuple[tuple[str, str, str], ...]:
    """The pages whose file exists, in reading order, their labels in the session's language."""
    return tuple((script, _(label), icon) for script, label, icon in PAGES if (ROOT / script).is_file())


def menu_pages() -> tuple[tuple[str, str, str], ...]:
    """The pages a menu offers: all of them, but the Lecture scenes while this session follows a live lecture on a
    phone (their revealed steps hold every answer the room is asked for)."""
    hidden = {SCENES_PAGE} if join.following_lecture() else set()
    return tuple(page for page in listed_pages() if page[0] not in hidden)


def _links() -> None:
    """Each page's link; a page whose questions are all answered wears a mark instead of its icon: a seal when every
    one was right on the first try, a filled circle otherwise (not a tick, which reads as right; Check yourself says
    what the marks mean). No tooltip: a link that gained one between two runs stayed in the sidebar twice in
    Streamlit 1.67, a hidden copy first."""
    answered, right = [], []
    for script, label, icon in menu_pages():
        asked = PAGE_QUESTIONS.get(script)
        done = questions.score(tuple(BY_ID[qid] for qid in asked)) if asked else None
        if done is not None and done.answered == done.total:
            icon = ":material/verified:" if done.right == done.total else ":material/radio_button_checked:"
            short = label.split(" · ")[0] if label[:1].isdigit() else label  # "1", "Check yourself"
            answered.append(short)
            if done.right == done.total:
                right.append(short)
        st.page_link(script, label=label, icon=icon)
    # the marks in words, for a screen reader (Streamlit hides a link's icon from it) and for anyone who wonders
    if right:
        st.caption(_("Answered: {pages}. All right the first time: {right}.", pages=", ".join(answered),
                     right=", ".join(right)))
    elif answered:
        st.caption(_("Answered: {pages}.", pages=", ".join(answered)))


def sidebar_nav() -> None:
    """The sidebar: the app's name, its pages, the language menu and the theme; and, in the page, the note for a
    `lang` the app does not speak or a `theme` it does not know."""
    lang.document_language()
    theme.choose()
    with st.sidebar:
        theme.document_theme()  # a hidden mark: in the sidebar, where it takes no room from a page that must fit 720 px
        progress.keep()  # the answers kept in this browser: loaded once, then saved (hidden, like the mark)
        st.markdown(f"**{_(APP_NAME)}**")
        _links()
        lang.menu()
        theme.menu()
    note = lang.note()
    if note:
        st.info(note, icon=":material/translate:")
    theme_note = theme.note()
    if theme_note:
        st.info(theme_note, icon=":material/contrast:")
    progress.offered_note()


def page_menu(first: Callable[[], None] | None = None) -> None:
    """The pages, the language and the theme as one corner control, for projector mode, where the sidebar is
    hidden. `first`: a control drawn at the top of the menu (the projector switch, where a row has no room for it)."""
    with st.popover(_("Pages"), icon=":material/menu:", key="page-menu"):
        page_items(first)


def page_items(first: Callable[[], None] | None = None) -> None:
    """What the page menu holds, drawn where it is called (another menu that has room for it: the poll's Room)."""
    if first is not None:
        first()
    _links()
    lang.menu(key="app.lang.menu.corner")
    theme.menu(key="app.theme.menu.corner")


APP_NAME = N_("Attention Lab")
