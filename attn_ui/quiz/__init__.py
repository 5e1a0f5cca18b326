"""The quiz: questions as data, their checks and the grading. Pure: no streamlit, no plotly."""
