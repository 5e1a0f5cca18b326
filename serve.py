"""The app with the phones' cheap check: `streamlit run serve.py` (what deploy/ starts for a course).

Streamlit finds the `st.App` below and serves app.py and its pages exactly as `streamlit run app.py` does, plus one
route, `GET /_attn/room/<CODE>/stamp` (attn_ui/views/poll_route.py), that a phone's browser asks instead of rerunning
a script every 2 s: the route holds the request until the room moves (a long poll). Community Cloud starts app.py;
there the phones use their timed fragment.
"""

import os

import streamlit as st

from attn_ui.views.poll_route import ROUTE_ENV, routes

os.environ[ROUTE_ENV] = "1"  # this process serves the route: the pages may rely on it
app = st.App("app.py", routes=routes())
