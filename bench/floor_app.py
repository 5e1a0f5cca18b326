"""The framework's floor: one toggle and one 6x6 Plotly heatmap, default settings, nothing else.

`bench/latency.py` and `bench/breakdown.py` measure this page next to the real app, so the app's cost can be read as
a multiple of what Streamlit + Plotly cost anyway. With ATTN_FLOOR_EXTRA=N in its environment it also draws N plain
captions after the chart (`bench/breakdown.py --floor-extra N`): the framework's price of N more elements a click,
with no work of ours behind them.
"""

import os

import numpy as np
import plotly.graph_objects as go
import streamlit as st

causal = st.toggle("Causal mask")

weights = np.arange(36, dtype=float).reshape(6, 6) / 35  # (T, T)
if causal:
    weights = np.where(np.tril(np.ones((6, 6), dtype=bool)), weights, np.nan)  # (T, T)

st.plotly_chart(go.Figure(go.Heatmap(z=weights)))

for line in range(int(os.environ.get("ATTN_FLOOR_EXTRA", "0"))):
    st.caption(f"Line {line + 1}")
