"""Everything that shows the core: Plotly figure builders (no st.*) and the shared Streamlit pieces."""
