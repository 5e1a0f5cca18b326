"""The class poll's own CSS: its room code, its rounds' bars and its QR code, and the poll board at 1280x720 for
the back row. Constant strings only, as in look.py (the app's CSS), beside which it lives.
"""

import streamlit as st

ROUNDS = '[class*="st-key-poll-round-"]'  # the counts of one round (poll_view.counts_block)

POLL_CSS = """
<style>
.st-key-poll-code p { font-size: 2.4rem !important; font-weight: 800 !important; letter-spacing: 0.12em;
  line-height: 1.1 !important; font-family: "Source Code Pro", ui-monospace, monospace !important; }
[class*="st-key-poll-round-"] [data-testid="stProgress"] [role="progressbar"] > div { height: 0.9rem !important; }
.st-key-poll-join img { image-rendering: pixelated; }
</style>
"""


def _poll_projector_css() -> str:
    """The poll board at 1280x720 for the back row: everything read from afar at 22 px or more (the board's text at
    22.4 px)."""
    board = f":is(.st-key-poll-question, .st-key-poll-status, .st-key-poll-join, .st-key-poll-answer, {ROUNDS})"
    return f"""
<style>
{board} :is(p, li) {{ font-size: 1.4rem !important; line-height: 1.3 !important; }}
.st-key-poll-code p {{ font-size: 4rem !important; }}
{ROUNDS} [data-testid="stProgress"] [role="progressbar"] > div {{ height: 1.1rem !important; }}
/* a bar beside its label, not under it: the counts of four options in two rounds fit under a long question */
{ROUNDS} [data-testid="stProgress"] {{ display: flex !important; flex-direction: row !important;
  align-items: center !important; gap: 0.6rem !important; }}
{ROUNDS} [data-testid="stProgress"] > div:first-child {{ flex: 0 0 64% !important; }}
{ROUNDS} [data-testid="stProgress"] [role="progressbar"] {{ flex: 1 1 auto !important; }}
/* the page's title is kept for a screen reader, not drawn on the board (the code and the question say what it is),
   so the voting board and its tools row fit 720 px */
[data-testid="stElementContainer"]:has(> [data-testid="stHeading"] h1) {{ position: absolute !important;
  width: 1px !important; height: 1px !important; overflow: hidden !important; clip-path: inset(50%) !important; }}
/* a round's heading, bars and sentence closer together: the voting board then fits 720 px with its tools row */
{ROUNDS} {{ gap: 0.4rem !important; }}
/* the board's own parts (status, question, the rounds) a little closer too: a long language's board fits 720 px */
[data-testid="stVerticalBlock"]:has(> [data-testid="stLayoutWrapper"] > .st-key-poll-status) {{
  gap: 0.6rem !important; }}
/* the round's sentence says what its bars' labels say: kept for a screen reader, not drawn on the projector, where
   two rounds side by side wrapped it onto two lines below the fold */
{ROUNDS} [data-testid="stCaptionContainer"] {{ position: absolute !important; width: 1px !important;
  height: 1px !important; overflow: hidden !important; clip-path: inset(50%) !important; white-space: nowrap; }}
/* the buttons are the lecturer's, not the back row's: one row of them in a longer language */
[data-testid="stMain"] :is(.st-key-poll-controls, .st-key-poll-tools) button p {{ font-size: 1.05rem !important; }}
.st-key-poll-question [data-testid="stCode"] code {{ font-size: 1.3rem !important; }}
[data-testid="stMain"] [data-testid="stAlert"] p {{ font-size: 1.45rem !important; }}
</style>
"""


POLL_PROJECTOR_CSS = _poll_projector_css()


def apply_poll_look() -> None:
    st.html(POLL_CSS)


def apply_poll_projector_look() -> None:
    st.html(POLL_PROJECTOR_CSS)
