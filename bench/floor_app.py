"""The framework's floor: one toggle and one 6x6 Plotly heatmap, default settings, nothing else.

`bench/latency.py` measures this page next to the real app, so the app's cost can be read as a
multiple of what Streamlit + Plotly cost anyway.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

causal = st.toggle("Causal mask")

weights = np.arange(36, dtype=float).reshape(6, 6) / 35  # (T, T)
if causal:
    weights = np.where(np.tril(np.ones((6, 6), dtype=bool)), weights, np.nan)  # (T, T)

st.plotly_chart(go.Figure(go.Heatmap(z=weights)))
