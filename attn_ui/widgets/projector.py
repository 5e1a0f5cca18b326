"""Projector mode: a view key like `row`, so `mode=projector` changes how a page is drawn, never what it computes.

It hides the sidebar, the explanations and the secondary controls, and draws the map, the KPI tiles and the main
controls large enough to read from the back of a hall at 1280x720 (its CSS is declared in widgets/look.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from attn_lang import _
from attn_ui.figures import layout
from attn_ui.widgets import held, lang, look, nav, theme

PROJECTOR = "projector"  # the value of the URL key `mode`
SWITCH_KEY = "lab.projector"  # the Lab's projector switch


def url_value(key: str) -> str | None:
    """The last value of a URL key, or None when the key is absent."""
    values = st.query_params.get_all(key)
    return values[-1] if values else None


def url_mode() -> str:
    """The URL's `mode` value ('' when absent)."""
    return (url_value("mode") or "").strip().lower()


MODE_KEY = "app.projector"  # our own key: widget values are dropped on a page that does not draw the widget
PAGE_SWITCH_KEY = "page.projector"  # the switch of every page without one of its own


def projector_on(key: str = SWITCH_KEY) -> bool:
    """Is projector mode on? One answer for the whole app: a `mode` in the URL wins (a link), else the session.

    A link is recognised by its `mode` key alone, since moving to another page drops the URL's keys and must not
    switch the mode off. The switch `key` is set to the answer before it is drawn, so every page's switch shows
    the same state. On, the URL gets `mode=projector` written
    back, so the address bar reproduces the view on every page.
    """
    mode = url_mode()
    if mode:
        st.session_state[MODE_KEY] = mode == PROJECTOR
    on = bool(st.session_state.get(MODE_KEY, False))
    st.session_state[key] = on
    if on and mode != PROJECTOR:
        st.query_params["mode"] = PROJECTOR
    return on


def is_on() -> bool:
    """Projector mode as this run decided it (projector_on runs first on every page); no side effects."""
    return bool(st.session_state.get(MODE_KEY, False))


FRAGMENT_MODE_KEY = "lab.projector.drawn"  # the mode the Lab's fragment last drew


def whole_page_follows(on: bool) -> None:
    """Inside a fragment that holds a projector switch (the Lab): when the switch changed the mode, the whole page
    runs again once, so what lies outside the fragment (the newcomer line, the join switch) follows it too; else
    a switched-on projector kept the newcomer line above the map and the Lab no longer fitted 720 px."""
    drawn = st.session_state.get(FRAGMENT_MODE_KEY)
    st.session_state[FRAGMENT_MODE_KEY] = on
    if drawn is not None and drawn != on:
        st.rerun(scope="app")


def projector_switch(key: str = SWITCH_KEY) -> None:
    """The switch. Every switch writes the app-wide mode and the URL at once."""
    st.toggle(_("Projector mode"), key=key, **held.start(key, of=bool),
              help=_("Large text, maps and tiles for a lecture hall; hides the explanations."),
              on_change=_write_mode, args=(key,))


def _write_mode(key: str) -> None:
    st.session_state[MODE_KEY] = bool(st.session_state[key])
    if st.session_state[key]:
        st.query_params["mode"] = PROJECTOR
    elif "mode" in st.query_params:
        del st.query_params["mode"]


def page_mode(switch: bool = True) -> bool:
    """Projector mode for a lesson page, Check yourself and the other pages: its CSS, and a switch.

    The switch sits in the sidebar; in projector mode the sidebar is hidden, so it goes in the page's flow instead,
    at the end of the page (look.py), where it never covers content. `switch=False` leaves it to the page, which
    draws it with `page_switch` where it has room (a scene: under its story).
    """
    on = projector_on(key=PAGE_SWITCH_KEY)
    if on:
        look.apply_projector_look()
    if switch:
        page_switch()
    return on


def menu_items() -> None:
    """The projector switch, the pages, the language and the theme, drawn inside a menu of the caller's (the poll's
    Room menu on the projector: its row has no room for a page menu of its own)."""
    nav.page_items(first=lambda: projector_switch(PAGE_SWITCH_KEY))


def page_switch(in_menu: bool = False) -> None:
    """The page's projector switch: in the sidebar, or (projector mode, no sidebar) here, in the page's flow, with the
    page menu beside it; `in_menu`: at the top of the page menu (a row with no room for both: a live lecture's)."""
    if is_on():
        with st.container(key="page-mode", horizontal=True, vertical_alignment="center", gap="small"):
            if in_menu:
                nav.page_menu(first=lambda: projector_switch(PAGE_SWITCH_KEY))
            else:
                projector_switch(PAGE_SWITCH_KEY)
                nav.page_menu()
    else:
        with st.sidebar:
            projector_switch(PAGE_SWITCH_KEY)


SCENES_PAGE = "pages/9_Lecture_scenes.py"


def scene_to_return_to(raw: str | None, count: int) -> str:
    """The scene number a link's `scene` names, as the address keeps it ('' for none or one out of range)."""
    raw = (raw or "").strip()
    return raw if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= count else ""


def back_to_scene(raw: str | None, count: int) -> str:
    """"Back to scene n" when the page was opened from a lecture scene (its link carries `scene=n`), so the
    lecturer returns to the sequence, its answer showing, without the browser's Back. Drawn where it is called:
    the top of the page, where a phone shows it first. Returns the scene number kept in the address ('' for none)."""
    raw = scene_to_return_to(raw, count)
    if raw:
        query = {"scene": raw, "reveal": "1", **({"mode": PROJECTOR} if is_on() else {}), **lang.url_view(),
                 **theme.url_view()}
        st.page_link(SCENES_PAGE, label=_("Back to scene {number}", number=int(raw)), icon=":material/slideshow:",
                     query_params=query)
    return raw


def view_keys(row: int | None, projector: bool) -> dict[str, str]:
    """The Lab's view keys for the URL: the selected row (1-based) and the mode."""
    return {"row": "" if row is None else str(row + 1), "mode": PROJECTOR if projector else ""}


def map_style(projector: bool, scene: bool = False, under_link: bool = False) -> layout.MapStyle:
    """The map's style: the Lab's, or projected (on a scene's board; in the Lab, shorter under a Back to scene line)."""
    if not projector:
        return layout.LAB
    if scene:
        return layout.SCENE_PROJECTOR
    return layout.PROJECTOR_UNDER_LINK if under_link else layout.PROJECTOR


@dataclass(frozen=True)
class LabLayout:
    """Where the Lab's parts go: in projector mode the KPI tiles get their own column beside the map."""

    controls: Any
    notes: Any
    tiles: Any
    panel: Any  # the map, its row sentence, the legend and the share row
    projector: bool


def lab_layout(projector: bool) -> LabLayout:
    if projector:
        look.apply_projector_look()
        controls, board, tiles = st.columns([1.0, 2.75, 1.15], gap="medium")
        return LabLayout(controls, board.container(), tiles, board.container(key="lab-panel"), True)
    controls, board = st.columns([1.05, 3.05], gap="medium")
    top = board.container(key="lab-top")  # the notes, then the tiles, above the map (look.py: a phone reorders)
    return LabLayout(controls, top, top, board.container(key="lab-panel"), False)
