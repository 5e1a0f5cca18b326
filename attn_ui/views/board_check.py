"""A projector's live count without a timer: the board is drawn again when a vote, a phone joining or a host action
moved the room, and never for nothing.

A host page's board (a live lecture's count and spread, its join screen's phone count, the class poll's counts) is a
fragment. Where app.py serves the held routes (poll_route.available()), the fragment has no timer: it draws a hidden
mark (the room's whole stamp as it drew it, "version:phase:expired:activity", and the board route's address) and a
hidden Refresh button, and a constant script in the browser (BOARD_JS) holds one request on the board route with
that stamp. The route answers as soon as the room's stamp differs (a vote or a join in the same process nudges the
route at once), and the script presses Refresh, at most once every BOARD_GAP_MS while the fragment is drawn again: a
class answering at once is counted in steps of a quarter second, and an idle board costs one request every 20 s and a
redraw every five minutes.
Without the route (AppTest, a proxy that passes only Streamlit's own paths) the fragment keeps its timer of
BOARD_EVERY_S; a script whose request is answered by something other than the route presses Refresh every second.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attn_ui.views import poll_route

BOARD_EVERY_S = 1.0  # the board's timer where no route is served: a count at most this old
BOARD_GAP_MS = 250  # written into BOARD_JS: the shortest time between two redraws of a board that votes keep moving
BOARD_IDLE_MS = 300_000  # written into BOARD_JS: a board nothing moved is drawn again this often, so that its host
# page tells the room it is still there (poll_service.touch: a lobby no host touched for Limits.idle_close_s closes)
MARK_KEY = "board-stamp"
REFRESH_KEY = "board.refresh"

BOARD_JS = """
<script id="attn-board">
if (!window.__attnBoard) {
  window.__attnBoard = true;
  const GAP_MS = 250, NO_ROUTE_MS = 1000, IDLE_MS = 300000;
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  const drawnNow = () => {
    const mark = document.querySelectorAll(".st-key-board-stamp code");
    return mark.length < 2 ? null : [mark[0].textContent, mark[1].textContent];
  };
  const running = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute("data-test-script-state") === "running";
  };
  const press = () => {
    const refresh = document.querySelector(".st-key-board-refresh button");
    if (refresh) refresh.click();
    return !!refresh;
  };
  (async () => {
    let pressedFor = null, pressedAt = Date.now();
    for (;;) {
      const shown = drawnNow();
      if (!shown) { await pause(250); continue; }
      const [drawn, url] = shown;
      if (pressedFor === drawn && Date.now() - pressedAt < 6000) { await pause(40); continue; }  // being drawn
      const gap = GAP_MS - (Date.now() - pressedAt);
      if (gap > 0) await pause(gap);
      let now, ours = true;
      try {
        const answer = await fetch(url + "?since=" + encodeURIComponent(drawn), {cache: "no-store"});
        ours = (answer.headers.get("content-type") || "").startsWith("application/json");
        const told = ours && answer.ok ? await answer.json() : null;
        now = told ? told.stamp : "error " + answer.status;
      } catch (error) { now = "offline"; }
      if (!ours) {  // not the route's answer: a timer, as the fragment keeps without the route
        await pause(NO_ROUTE_MS);
        if (press()) { pressedFor = drawn; pressedAt = Date.now(); }
        continue;
      }
      // a run under way (this page's own press, a rerun of the whole page) draws the board itself: a press now
      // would ask for a fragment that run replaces, and go unanswered
      for (let waited = 0; running() && waited < 5000; waited += 50) await pause(50);
      const again = drawnNow();
      if (!again) continue;
      if (now !== again[0] && press()) { pressedFor = again[0]; pressedAt = Date.now(); continue; }
      if (Date.now() - pressedAt > IDLE_MS && press()) {  // a quiet lobby's host page still says it is there
        pressedFor = null; pressedAt = Date.now(); continue;
      }
      if (now === "offline" || now.startsWith("error")) await pause(2000);
    }
  })();
}
</script>
<style>.st-key-board-stamp, .st-key-board-refresh, [data-testid="stElementContainer"]:has(#attn-board)
{ display: none !important; }</style>
"""


def live(board: Callable[..., None], *args: object) -> None:
    """Draw `board(*args)` as a fragment that is drawn again when the room moves: woken by the held route where it is
    served (the board then calls mark() last), else on a timer. The script is drawn once a page run."""
    if poll_route.board_available():
        st.html(BOARD_JS, unsafe_allow_javascript=True)  # its loop outlives the element; it starts once a window
        st.fragment(board)(*args)
    else:
        st.fragment(board, run_every=BOARD_EVERY_S)(*args)


def mark(code: str, stamp: tuple) -> None:
    """What the browser's check compares against: the room's whole stamp as this drawing shows it, and the board
    route's address; with the hidden button it presses. Last in the fragment: drawn means the whole board is. A board
    drawn with an error marks ("trouble",), a stamp the route never answers with: it is drawn again once the route
    answers."""
    if not poll_route.board_available() or not stamp:
        return
    with st.container(key=MARK_KEY):  # as text (escaped by Markdown), never as HTML: the script reads it
        st.markdown(f"`{poll_route.stamp_text(*stamp)}` `{poll_route.stamp_url(st.context.url, code, 'board')}`")
    st.button("Refresh", key=REFRESH_KEY)
