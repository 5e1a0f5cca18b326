"""The app's screens, in rooms by kind: figures/ (Plotly builders), words/ (text), quiz/ (the question bank),
widgets/ (the shared Streamlit pieces), views/ (one page's whole feature). Only widgets/ and views/ import
Streamlit, and no widget imports a view; tests/ui/test_rooms.py holds each room to its rule."""
