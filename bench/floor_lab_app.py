"""The framework's floor for the Lab's elements: what one Lab click sends, drawn from constants by a script that
does no work of its own.

A Lab click reruns the Lab's fragment, which sends 33 elements: 6 layout blocks, 5 switches and buttons (projector,
causal mask, training, re-roll, rescale), 2 segmented controls (heads, PAD chips), a slider, 2 expanders, 7 metric
tiles in their container, the map, 3 captions, and the share row (a container, a download button, a popover).
This page draws the same kinds, in the same order and the same fragment, with fixed labels and values and the floor
app's 6x6 heatmap, and computes nothing. `bench/breakdown.py --floor-lab` and `bench/latency.py --floor-lab` read the
Lab against it: a ratio near 1 means the Lab's own work (its settings, compute, figure, words, address) costs little
beside what Streamlit spends on the elements it must show.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

TILES = ("Sees future?", "Masked cells", "Padding-blocked cells", "Dropped cells", "d_head", "Row sums", "Score tensor")


@st.fragment
def lab() -> None:
    controls, board = st.columns([1.05, 3.05], gap="medium")
    top, panel = board.container(key="lab-top"), board.container(key="lab-panel")
    with controls:
        st.toggle("Projector mode", key="floor.mode")
        causal = st.toggle("Causal mask", key="floor.causal")
        st.segmented_control("Heads", [1, 2, 3, 6], key="floor.heads", default=1, required=True)
        st.caption("d_head = 6 / 1 = **6** per head")
        st.slider("Dropout p", 0.0, 0.9, 0.0, 0.05, key="floor.p")
        with st.container(key="floor-dropout-row", horizontal=True):
            st.toggle("Training", key="floor.train")
            st.button("Re-roll", key="floor.reroll", disabled=True)
        st.toggle("Rescale", key="floor.rescale", value=True)
        st.pills("Tap a word to make it PAD", [1, 2, 3, 4, 5, 6], selection_mode="multi", key="floor.pad")
        st.expander("More", key="floor.more", on_change="rerun")
    with top, st.container(key="kpis-3", horizontal=True):
        for label in TILES:
            st.metric(label, "0", help="A tile.", border=True)
    weights = np.arange(36, dtype=float).reshape(6, 6) / 35  # (T, T)
    if causal:
        weights = np.where(np.tril(np.ones((6, 6), dtype=bool)), weights, np.nan)  # (T, T)
    with panel:
        st.plotly_chart(go.Figure(go.Heatmap(z=weights)), key="floor.map", on_select="rerun",
                        selection_mode="points")
        with st.container(key="map-row"):
            st.caption("Click a cell to explain its row.")
        st.expander("The map as a table", key="floor.table", on_change="rerun")
        st.caption("colour = weight from 0 to 1")
        with st.container(key="lab-share", horizontal=True):
            st.download_button("Weights as CSV", "query,key,weight\n", file_name="weights.csv", key="floor.csv",
                               on_click="ignore")
            st.popover("Link to this view", key="floor.link", on_change="rerun")


lab()
