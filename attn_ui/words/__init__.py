"""The words: text banks and sentences built from core numbers. Pure: no streamlit, no plotly."""
