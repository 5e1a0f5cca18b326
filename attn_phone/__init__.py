"""The phone's page: the class poll and the live lecture as a student's phone shows them, in small server-drawn HTML.

A phone in a hall only answers: it needs a heading, a question, its options or a number box, and later the answer.
Streamlit's whole app (2.7 MB and a server session a phone) was the price of that; here it is one page of a few
kilobytes, a stylesheet and a script with no framework, served by the app's own routes beside Streamlit
(`st.App(routes=...)` in app.py, through attn_ui/views/poll_route.served()). The Lab, the lessons, the projector and
the host's pages stay Streamlit.

- routes.py: the routes (join, the room's page, answers, the held wait, old links) and their checks.
- visitor.py: the phone that asks: its language, its voter and form cookies, a post's origin.
- assets.py: the templates' environment, the stylesheet and script (hashed, gzipped), Streamlit's index page.
- screens.py: what a room shows at one moment, the same for every phone; a student's own answer is a variant.
- text.py: the few marks of Markdown the messages use, as safe HTML.
- templates/ (Jinja2, autoescaped), static/ (phone.css, phone.js).

This room may not import Streamlit (tests/ui/test_rooms.py): it runs in the server's event loop beside it, and a
phone costs no script run.
"""
