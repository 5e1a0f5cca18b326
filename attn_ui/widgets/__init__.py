"""The Streamlit pieces: state and URL, controls, panels, the page frame, the look."""
