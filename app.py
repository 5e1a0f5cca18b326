"""The Lab: the live attention map. This file only wires: widgets -> Settings -> compute -> figures."""

import streamlit as st

from attn_ui import panels, state
from attn_ui.controls import lab_controls
from attn_ui.look import apply_look
from attn_ui.nav import sidebar_nav

st.set_page_config(page_title="Attention Lab", page_icon=":material/grid_view:", layout="wide")
apply_look()
sidebar_nav()


@st.fragment
def lab() -> None:
    incoming = state.current_settings()
    controls, board = st.columns([1.05, 3.05], gap="medium")
    with controls:
        settings, notes = lab_controls(incoming)
    result = state.cached_compute(settings)
    row = panels.selected_row(len(result.tokens), state.url_row(len(result.tokens)))
    with board:
        panels.show_notes([*incoming.notes, *notes])
        panels.kpi_tiles(result, columns=3)
        panels.empty_rows_notice(result)
        panels.attention_panel(result, row)
        panels.legend(result)
    state.remember(settings, view={"row": "" if row is None else str(row + 1)})


st.title("Attention Lab")
lab()
