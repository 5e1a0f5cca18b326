"""Projector mode: a view key like `row`, so `mode=projector` changes how a page is drawn, never what it computes.

It hides the sidebar, the explanations and the secondary controls, and draws the map, the KPI tiles and the main
controls large enough to read from the back of a hall at 1280x720 (its CSS is declared in widgets/look.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from attn_ui.figures import layout
from attn_ui.widgets import look

PROJECTOR = "projector"  # the value of the URL key `mode`
SWITCH_KEY = "lab.projector"  # the Lab's projector switch


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
