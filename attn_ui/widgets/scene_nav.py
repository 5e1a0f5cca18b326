"""Back, where we are, Next: stepping through the lecture scenes."""

from __future__ import annotations

import streamlit as st


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
