"""The floor of a phone's redraw: a fragment with what the browser's check needs and nothing else.

`bench/phone_redraw.py --floor` serves this page beside the app: the stamp's container with its text and the hidden
Refresh button, as attn_ui/views/poll_view._mark draws them, in a fragment the Refresh press reruns. What a phone
redraw costs above this is the app's own drawing and its database reads; this much is Streamlit's run itself.
"""

import streamlit as st


@st.fragment
def phone() -> None:
    with st.container(key="poll-stamp"):
        st.markdown("`1:voting:0` `/_attn/room/FLOOR/stamp`")
        st.button("Refresh", key="poll.refresh")


phone()
