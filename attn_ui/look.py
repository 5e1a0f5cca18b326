"""The app's own CSS: spacing and sizes only. A constant string: no user text ever goes in here."""

import streamlit as st

CSS = """
<style>
.block-container { padding-top: 2.2rem !important; padding-bottom: 2rem !important; }
[data-testid="stHeading"] h1 { padding: 0 0 0.1rem 0 !important; font-size: 1.9rem !important; }
[data-testid="stMetric"] { padding: 0 !important; }
[data-testid="stMetric"] > div { padding: 0.3rem 0.75rem 0.2rem !important; }
[data-testid="stMetricValue"] > div { line-height: 1.25 !important; }
[data-testid="stMetricValue"] { font-size: 1.6rem !important; }
[data-testid="stMetricLabel"] p { font-size: 0.92rem !important; }
[data-testid="stMetricLabel"] *, [data-testid="stMetricValue"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  word-break: normal !important; overflow-wrap: normal !important;
}
/* phones: the KPI tiles stay three to a row instead of one */
@media (max-width: 640px) {
  .st-key-kpis [data-testid="stColumn"] {
    min-width: calc(33% - 0.6rem) !important; flex: 1 1 calc(33% - 0.6rem) !important;
  }
  .st-key-kpis [data-testid="stHorizontalBlock"] { flex-wrap: wrap !important; gap: 0.4rem !important; }
}
</style>
"""


def apply_look() -> None:
    st.html(CSS)
