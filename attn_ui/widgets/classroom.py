"""For the classroom: projector mode, the export buttons and a link to the view on screen.

Projector mode is a view key like `row`: `mode=projector` in the URL changes how the Lab is drawn, never what
it computes. It hides the sidebar, the explanations and the secondary controls, and draws the map, the KPI
tiles and the main controls large enough to read from the back of a hall at 1280x720.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import streamlit as st

from attn_core import Result, Settings
from attn_ui.figures import layout
from attn_ui.widgets import look, panels
from attn_ui.widgets.panels import map_file_name
from attn_ui.widgets.state import lab_query

PROJECTOR = "projector"  # the value of the URL key `mode`
SWITCH_KEY = "lab.projector"  # the Lab's projector switch
LINK_KEY = "lab.link"  # whether the "Link to this view" popover is open
PNG_HINT = ("The map as a picture: the camera button above its top right corner saves a PNG under the same name. "
            "It keeps the theme's text colour, so export in the light theme for a white slide.")
CLOUD_FRAME = "/~/+"  # Community Cloud serves the app in a frame at <app>/~/+/; links should skip it
SPREADSHEET_TRIGGERS = ("=", "+", "-", "@")  # a cell starting with one of these runs as a formula



# --- projector mode ---------------------------------------------------------------------------------------


def url_value(key: str) -> str | None:
    """The last value of a URL key, or None when the key is absent."""
    values = st.query_params.get_all(key)
    return values[-1] if values else None


def url_mode() -> str:
    """The URL's `mode` value ('' when absent)."""
    return (url_value("mode") or "").strip().lower()


def projector_on(from_link: bool, key: str = SWITCH_KEY) -> bool:
    """Is projector mode on? A new link (or a first visit) takes it from the URL, later runs from the switch."""
    if from_link or key not in st.session_state:
        st.session_state[key] = url_mode() == PROJECTOR
    return bool(st.session_state[key])


def projector_switch(key: str = SWITCH_KEY, write_url: bool = False) -> None:
    """The switch; `write_url` puts the mode in the URL itself (the Lab does that in state.remember)."""
    st.toggle("Projector mode", key=key, help="Large map and tiles for a lecture hall; hides the explanations.",
              on_change=_write_mode if write_url else None, args=(key,) if write_url else None)


def _write_mode(key: str) -> None:
    if st.session_state[key]:
        st.query_params["mode"] = PROJECTOR
    elif "mode" in st.query_params:
        del st.query_params["mode"]


def show_notes(notes: list[str], projector: bool) -> None:
    """Notes about a fixed link: a box as usual, a toast in projector mode (a box would push the map off screen)."""
    if not projector:
        panels.show_notes(notes)
        return
    for note in filter(None, notes):
        st.toast(note, icon=":material/info:", duration="long")


def view_keys(row: int | None, projector: bool) -> dict[str, str]:
    """The Lab's view keys for the URL: the selected row (1-based) and the mode."""
    return {"row": "" if row is None else str(row + 1), "mode": PROJECTOR if projector else ""}


def map_style(projector: bool, scene: bool = False) -> layout.MapStyle:
    if not projector:
        return layout.LAB
    return layout.SCENE_PROJECTOR if scene else layout.PROJECTOR


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
    top = board.container()  # the notes, then the tiles, above the map
    return LabLayout(controls, top, top, board.container(key="lab-panel"), False)


# --- export -----------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    """A word as a spreadsheet cell: a leading =, +, - or @ is quoted so no program runs it as a formula."""
    return "'" + text if text.startswith(SPREADSHEET_TRIGGERS) else text


def weights_csv(result: Result, head: int | None = None) -> str:
    """The weight table of one head (0-based; default: the head in view) as CSV text.

    One row per query word, one column per key word, weights with 6 decimals (blocked cells are 0).
    """
    head = result.view_index if head is None else head
    padded = set(result.settings.padded)
    names = [_cell(label) + (" (PAD)" if pos in padded else "") for pos, label in enumerate(result.labels, 1)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["query \\ key", *names])
    for name, weights in zip(names, result.weights[head], strict=True):
        writer.writerow([name, *(f"{w:.6f}" for w in weights)])
    return buffer.getvalue()


def csv_file_name(settings: Settings) -> str:
    """The same name as the map's PNG, so a slide's picture and its numbers belong together."""
    return map_file_name(settings) + ".csv"


# --- a link to this view ----------------------------------------------------------------------------------


def lab_root(url: str | None) -> str | None:
    """The Lab's address from st.context.url as seen on the Lab: no query, no Community Cloud frame (/~/+)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    path = parts.path.rstrip("/")
    path = path.removesuffix(CLOUD_FRAME)
    return f"{parts.scheme}://{parts.netloc}{path}/"


def view_url(root: str | None, settings: Settings, **view: str) -> str:
    """The full link to the Lab in this state (or just its query string when the root is unknown)."""
    query = urlencode(lab_query(settings, **view))
    return f"{root or ''}{'?' + query if query else ''}"


def share_row(result: Result, view: Mapping[str, str]) -> None:
    """Below the map: the CSV download, where the PNG lives, and the link to this view.

    Both cost a click nothing until they are used: the CSV is written when the button is pressed (deferred
    data), and the link is worked out only while its popover is open (opening it reruns the Lab once).
    """
    settings = result.settings
    with st.container(key="lab-share", horizontal=True, gap="small", vertical_alignment="center"):
        st.download_button(
            "Weights as CSV", functools.partial(weights_csv, result), file_name=csv_file_name(settings),
            mime="text/csv", icon=":material/download:", key="lab.csv", width="stretch", on_click="ignore",
            help=PNG_HINT,
        )
        link = st.popover("Link to this view", icon=":material/link:", width="stretch", key=LINK_KEY,
                          on_change="rerun")
        if link.open:
            with link:
                root = lab_root(st.context.url)
                st.code(view_url(root, settings, **view), language=None, wrap_lines=True)
                if root:
                    st.caption("Point at the box and press its copy button. The link opens the Lab exactly as it "
                               "is now.")
                else:
                    st.caption("Add this to the app's address (after the last /) to open the Lab as it is now.")


# --- lecture scenes ---------------------------------------------------------------------------------------


def _go_to_scene(number: int) -> None:
    st.query_params["scene"] = str(number)


def scene_nav(number: int, count: int) -> None:
    """Back, where we are, Next. A presenter's clicker sends Page Up / Page Down, so those keys work too."""
    back, where, forward = st.columns([1, 1.2, 1], vertical_alignment="center", gap="small")
    back.button("Back", icon=":material/arrow_back:", key="scenes.back", width="stretch", shortcut="PageUp",
                disabled=number <= 1, on_click=_go_to_scene, args=(number - 1,))
    where.markdown(f"**Scene {number} of {count}**", text_alignment="center")
    forward.button("Next", icon=":material/arrow_forward:", icon_position="right", key="scenes.next",
                   width="stretch", shortcut="PageDown", type="primary", disabled=number >= count,
                   on_click=_go_to_scene, args=(number + 1,))
