"""The app's screens, in rooms by kind: figures/ (Plotly builders), words/ (text), quiz/ (the question bank),
widgets/ (the Streamlit pieces). Only widgets/ imports Streamlit; tests/ui/test_rooms.py holds each room to its rule."""
