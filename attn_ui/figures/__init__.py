"""Figure builders: a Result in, a Plotly figure (or its dict) out. Pure: no streamlit."""
