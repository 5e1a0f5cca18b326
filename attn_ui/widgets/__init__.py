"""The shared Streamlit pieces: state and URL, controls, a quiz question, panels, the page frame, the look."""

from attn_ui.widgets import untrusted

untrusted.install()  # a widget value no widget can read is read as no value, never a traceback
