"""A student's phone in a class poll room (and, for a live lecture's room, the scene of the moment: live_phone).

The phone is a fragment without a timer: a tap reruns it alone. It learns that the room moved from the browser's
check (PHONE_JS, asking poll_route's held HTTP route) or, where no route is served, from a timed fragment (watch).
Tabs of one browser are one voter: a vote in one tab is told to the others through the browser's own
BroadcastChannel, so a second tab shows it without asking the server.

Session state used here (besides poll_parts' keys):
    poll.stamp         the phone's change stamp (Poll.phone_stamp) when the phone was last drawn
    poll.drawn         when the phone was last drawn (time.monotonic)
    poll.joined        the room this session has joined as a student
    poll.vote.<q>.<r>  a student's radio for question q, round r (seeded from the database once; the user owns it)
    poll.db.poll.vote.<q>.<r>  the vote the database held in the last phone run (a refused vote returns to it)
"""

from __future__ import annotations

import time

import streamlit as st

from attn_lang import _
from attn_poll import Phase, RoomExpired, RoomNotFound, StorageError
from attn_poll.errors import PollError
from attn_ui.views import live_phone, poll_parts, poll_route, poll_service
from attn_ui.words import live, poll_words

STAMP_KEY = "poll.stamp"
DRAWN_KEY = "poll.drawn"
JOINED_KEY = "poll.joined"
VOTE_PREFIX = "poll.vote."
SHOWN_VOTE_PREFIX = "poll.db."  # + the radio's key: the vote the database held in the last phone run
PHONE_EVERY_S = 2.0  # a phone needs the new question or the reveal soon, not the counts: half the load


def _cast(code: str, voter: str, question_index: int, round_number: int, key: str) -> None:
    """The radio's callback: the vote counts in the round open at the moment of the tap.

    A phone learns of a new round only on its next timed run, so a tap may come from the screen of a round
    that just closed while the revote of the same question is open: that tap is a vote in the revote. A
    refused vote sets the radio back to what the database holds, so the pick on screen is the vote that counts.
    """
    option = st.session_state.get(key)
    if option is None:
        return
    if isinstance(option, bool) or not isinstance(option, int):  # a client sent a value that is no option
        st.session_state[poll_parts.NOTE_KEY] = _("That is not one of this question's options, so no vote was "
                                                  "counted.")
        st.session_state[key] = st.session_state.get(SHOWN_VOTE_PREFIX + key)
        return

    def work() -> None:
        now = poll_service.poll().state(code)
        same_question = now.phase is Phase.VOTING and now.question_index == question_index
        poll_service.poll().vote(code, voter, question_index, now.round_number if same_question else round_number,
                                 option)

    poll_parts.call(work)
    if st.session_state.get(poll_parts.NOTE_KEY):
        st.session_state[key] = st.session_state.get(SHOWN_VOTE_PREFIX + key)


# In a process that serves the route (app.py's st.App), a phone's browser asks that plain HTTP route (poll_route)
# whether the room moved, with the stamp its fragment was drawn with: the route holds the request until the stamp
# differs (at most HOLD_S), so a change arrives within poll_route.CHECK_S. The browser clicks the fragment's hidden
# Refresh button only when the answer differs from what is drawn (or the route fails: the fragment then shows why and is
# asked again). An answer that came at once and changed nothing (a room gone for good, a process full of held requests,
# a hidden page) waits PHONE_JS_EVERY_MS before the next question. Before the fragment's stamp is drawn (a page that has
# just opened) it looks for it every 250 ms: a 2-second pause there made a phone's first move take up to 2 s more. An
# answer that is not the route's JSON (something in front of the app that passes only Streamlit's own paths answered
# instead) makes the browser press Refresh every PHONE_JS_EVERY_MS: the phone follows as the timed fragment would, at
# its cost. The mark's third part is this voter's own stamp (their last vote): when it changes, the tab tells the
# browser's other tabs of the room (BroadcastChannel "attn-phone"), and they press Refresh too.
# The check names the page's language (`&lang=`, the document's, set by lang.document_language). When a live lecture
# moves to a scene's question, the route's answer carries that scene's heading and question in it (`ask`: runs of
# plain text): unless the phone is drawn again within ASK_CARD_AFTER_MS (a small class: no flash), the browser shows
# them in a card of its own over the whole page, built with textContent alone (never as HTML), and takes the card
# away once the fragment is drawn again with its answer box (its mark, drawn last, changes; a widget's code loading
# for the first time is awaited up to 1.5 s) or after ASK_CARD_MS. No card over another page (the Lab, the join
# page: no mark of the room there), in a language the page no longer speaks, or for a phone already drawn again;
# showing it takes the focus from the last scene's box, so Enter cannot send that. The student reads the question
# while 150 phones' fragments are drawn; the answer box follows.
PHONE_JS = """
<script id="attn-phone">
if (!window.__attnPhone) {
  window.__attnPhone = true;
  const ASK_CARD_MS = 15000, ASK_CARD_AFTER_MS = 200, ASK_CARD_SETTLE_MS = 1500;
  let askedFor = null, askedAt = 0, mine = null;
  const tabs = "BroadcastChannel" in window ? new BroadcastChannel("attn-phone") : null;
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));
  const press = () => {  // the fragment's hidden Refresh button: true when there was one to press
    const refresh = document.querySelector(".st-key-poll-refresh button");
    if (refresh) refresh.click();
    return !!refresh;
  };
  const drawnNow = () => {
    const mark = document.querySelectorAll(".st-key-poll-stamp code");
    return mark.length < 3 ? null : [mark[0].textContent, mark[1].textContent, mark[2].textContent];
  };
  let card = null;  // the scene's question shown before the fragment is drawn again: {node, drawn, at, movedAt}
  const answerBoxDrawn = () => !!document.querySelector(
    '.st-key-poll-phone [data-testid="stTextInput"] input, .st-key-poll-phone [data-testid="stRadio"]');
  const hideCard = () => {
    if (card) card.node.remove();
    card = null;
  };
  const showCard = (ask, drawn, url) => {
    const shown = drawnNow();  // drawn again meanwhile, or no longer this room's phone (the Lab, the join page): none
    if (!shown || shown[0] !== drawn || shown[1] !== url) return;
    hideCard();
    const typing = document.activeElement;  // Enter behind the card must not send the last scene's box
    if (typing && typing !== document.body && typing.blur) typing.blur();
    const look = getComputedStyle(document.querySelector(".stApp") || document.body);
    const node = document.createElement("div");
    node.id = "attn-ask";
    node.setAttribute("role", "status");
    Object.assign(node.style, {position: "fixed", inset: "0", zIndex: "1000010", overflowY: "auto",
      padding: "4.5rem 1rem 1rem", background: look.backgroundColor, color: look.color, fontSize: "1.0625rem",
      lineHeight: "1.6"});
    const inner = document.createElement("div");
    inner.style.maxWidth = "46rem";
    inner.style.margin = "0 auto";
    node.appendChild(inner);
    const line = (runs) => {
      const p = document.createElement("p");
      p.style.margin = "0 0 0.5rem";
      for (const [text, how] of runs) {
        const piece = document.createElement(how === "b" ? "strong" : how === "i" ? "em" : "span");
        piece.textContent = text;
        p.appendChild(piece);
      }
      return p;
    };
    inner.appendChild(line(ask.heading));
    inner.appendChild(line(ask.ask));
    const wait = line([[ask.wait, "i"]]);
    wait.style.opacity = "0.8";
    inner.appendChild(wait);
    document.body.appendChild(node);
    card = {node, drawn, at: Date.now(), movedAt: null};
  };
  setInterval(() => {  // the card goes once the phone is drawn again with its answer box (the mark comes last; a
    if (!card) return;  // widget's code may still be loading, so the box is awaited up to ASK_CARD_SETTLE_MS), or
    const shown = drawnNow(), now = Date.now();  // when the phone is gone from the page, or after ASK_CARD_MS
    if (!shown || now - card.at > ASK_CARD_MS) { hideCard(); return; }
    if (shown[0] === card.drawn) return;
    if (card.movedAt === null) card.movedAt = now;
    if (answerBoxDrawn() || now - card.movedAt > ASK_CARD_SETTLE_MS) hideCard();
  }, 50);
  if (tabs) {
    tabs.onmessage = (event) => {  // another tab of this browser voted: show it here too
      const shown = drawnNow();
      if (shown && event.data && event.data.url === shown[1] && event.data.mine !== shown[2]) press();
    };
    setInterval(() => {  // this tab's own vote went in (its voter stamp moved): tell the others
      const mark = drawnNow();
      if (!mark) return;
      if (mine !== null && mine[0] === mark[1] && mine[1] !== mark[2]) tabs.postMessage({url: mark[1], mine: mark[2]});
      mine = [mark[1], mark[2]];
    }, 250);
  }
  (async () => {
    for (;;) {
      const mark = drawnNow();
      if (document.hidden) { await pause(2000); continue; }
      if (!mark) { await pause(250); continue; }  // not drawn yet (a page just opened): look again soon
      const [drawn, url] = mark;
      if (askedFor === drawn && Date.now() - askedAt < 6000) { await pause(250); continue; }  // a refresh is on its way
      const began = Date.now();
      let now, ask = null, ours = true;
      const lang = document.documentElement.lang || "";
      try {
        const asking = url + "?since=" + encodeURIComponent(drawn) + "&lang=" + encodeURIComponent(lang);
        const answer = await fetch(asking, {cache: "no-store"});
        ours = (answer.headers.get("content-type") || "").startsWith("application/json");
        const told = ours && answer.ok ? await answer.json() : null;
        now = !ours ? "no route" : told ? told.stamp : "error " + answer.status;
        ask = told && told.ask ? told.ask : null;
      } catch (error) { now = "offline"; }
      if (!ours) {  // not the route's answer (a proxy in front passes only Streamlit's paths): redraw on a timer
        await pause(2000);
        press();
        continue;
      }
      const shown = drawnNow();
      const current = shown ? shown[0] : drawn;  // the fragment may have been drawn again while the request was held
      if (now !== current && press()) {
        askedFor = current; askedAt = Date.now();
        // the card, if the page is still this room's phone in the language asked in, and not drawn again by then
        if (ask && shown && shown[1] === url && (document.documentElement.lang || "") === lang) {
          setTimeout(() => showCard(ask, current, url), ASK_CARD_AFTER_MS);
        }
      }
      await pause(now === current && Date.now() - began < 1000 ? 2000 : 50);
    }
  })();
}
</script>
"""
PHONE_JS_EVERY_MS = 2000  # written into PHONE_JS (a constant, as every st.html body is); equals PHONE_EVERY_S
ASK_CARD_MS = 15000  # written into PHONE_JS: the longest the card with a scene's question stays without a redraw
ASK_CARD_AFTER_MS = 200  # written into PHONE_JS: a phone drawn again within this never shows the card (no flash)


def _mark(code: str, stamp: str, mine: object = "") -> None:
    """What the browser's check compares against: the stamp this drawing shows, where to ask for the current one, and
    this voter's own stamp (for the browser's other tabs); with the hidden button it presses when they differ. Only in
    a process that serves the route. The check itself (PHONE_JS) is drawn by student_face, outside the fragment: once a
    page run, not again on every redraw."""
    if not poll_route.available():
        return
    with st.container(key="poll-stamp"):  # as text (escaped by Markdown), never as HTML: the script reads it
        st.markdown(f"`{stamp}` `{poll_route.stamp_url(st.context.url, code)}` `{mine}`")
        st.button("Refresh", key="poll.refresh")


def _trouble(error: PollError) -> str:
    """The mark of a phone drawn with an error: a room gone for good is what the route answers too (no more
    refreshes); anything else differs from every answer, so the browser asks for a refresh again soon."""
    return "error 404" if isinstance(error, RoomNotFound | RoomExpired) else "trouble"


def phone(code: str, voter: str) -> None:
    """A student's phone: the question and the options, the vote, and the reveal when it comes.

    A fragment without a timer: a tap reruns it alone. watch() reruns the page when the room changed; or, served by
    the route (poll_route), the browser's check (PHONE_JS) presses the fragment's hidden Refresh button."""
    st.session_state[DRAWN_KEY] = time.monotonic()
    if st.session_state.get(JOINED_KEY) != code:
        __, error = poll_service.attempt(lambda: poll_service.poll().join(code, voter))
        if error is not None:
            st.session_state[STAMP_KEY] = None  # watch() tries again
            _mark(code, _trouble(error))
            poll_parts.show_problem(error)
            return
        st.session_state[JOINED_KEY] = code
    view, error = poll_service.attempt(lambda: poll_service.poll().phone_view(code, voter))
    if error is not None:
        st.session_state[STAMP_KEY] = None
        _mark(code, _trouble(error))
        poll_parts.show_problem(error)
        return
    st.session_state[STAMP_KEY] = view.stamp
    if live.scene_of(view.state.question_id) is not None:  # a live lecture: the scene on the projector, on the phone
        live_phone.lecture_phone(code, voter, view)
    else:
        question_of_room(code, voter, view)
    # last: the browser's check takes the mark's change to mean that the whole phone is drawn again (PHONE_JS)
    _mark(code, poll_route.stamp_text(*view.stamp[:3]), view.stamp[3] if len(view.stamp) > 3 else "")


def question_of_room(code: str, voter: str, view) -> None:
    """A class poll room's question on the phone (not a lecture's scene)."""
    state = view.state
    where = _("Room {code}", code=state.code)
    if state.question_index is not None:
        where = _("Room {code} · Question {number} of {count}", code=state.code, number=state.question_index + 1,
                  count=state.question_count)
    if state.round_number > 1:
        where = _("{where} · {round}", where=where, round=poll_words.round_name(state.round_number))
    st.caption(where)
    poll_parts.show_note()
    if state.phase is Phase.ENDED:
        st.info(_("The lecturer has ended this room. Thank you for voting."), icon=":material/done_all:")
        return
    question = poll_parts.question_or_none(state.question_id)
    if state.phase is Phase.LOBBY or question is None:
        st.info(_("You are in. The first question appears here when the lecturer starts."), icon=":material/login:")
        return
    with st.container(key="poll-question"):
        poll_parts.show_question(question)
    key = f"{VOTE_PREFIX}{state.question_index}.{state.round_number}"
    held = st.session_state.get(SHOWN_VOTE_PREFIX + key)
    if st.session_state.get(key) not in (None, *range(question.option_count)):  # a value no option has
        st.session_state[key] = view.my_vote
    if key not in st.session_state or (view.my_vote != held and st.session_state[key] == held):
        # From the database only when the radio is new (a reload, a new round) or the vote changed elsewhere
        # (another tab) while the radio still shows the old one. Never on every timed run: a tap arriving
        # while one is in flight was overwritten by the older database value, and the next request carried
        # that value instead of the tap, so the vote was never cast.
        st.session_state[key] = view.my_vote
    st.session_state[SHOWN_VOTE_PREFIX + key] = view.my_vote
    voting = state.phase is Phase.VOTING
    st.radio(_("Your vote"), list(range(question.option_count)), key=key, index=None, disabled=not voting,
             format_func=lambda i: _("{name}. {option}", name=question.option_name(i), option=_(question.options[i]))
             if not question.versions else _(question.options[i]),
             on_change=_cast, args=(code, voter, state.question_index, state.round_number, key))
    mine = "" if view.my_vote is None else question.option_name(view.my_vote)
    if voting and view.carried:
        st.markdown(_("Your first vote, **{mine}**, counts in this round too. Tap another option to change it.",
                      mine=mine))
    elif voting:
        st.markdown(_("Your vote: **{mine}**. You can change it until voting closes.", mine=mine) if mine else
                    _("Tap an option to vote. You can change your vote until voting closes."))
    elif state.phase is Phase.CLOSED:
        told = _("You voted {mine}.", mine=mine) if mine else _("You did not vote in this round.")
        st.info(_("Voting is closed. {told} Talk to your neighbour: why did each of you pick your answer?",
                  told=told), icon=":material/forum:")
    else:
        st.markdown(_("You voted **{mine}**.", mine=mine) if mine else _("You did not vote in the last round."))
        poll_parts.show_reveal(question)


def watch(code: str, voter: str) -> None:
    """An idle phone's poll: one cheap stamp (two indexed reads) and nothing drawn while nothing changed. When
    the room moved on, or this voter voted in another tab, the page is drawn again; storage trouble is a note."""
    drawn = st.session_state.get(DRAWN_KEY)
    if isinstance(drawn, float) and time.monotonic() - drawn < PHONE_EVERY_S / 2:
        return  # the phone was drawn in this very run (a full run draws both): nothing to check yet
    stamp, error = poll_service.attempt(lambda: poll_service.poll().phone_stamp(code, voter))
    if isinstance(error, StorageError):
        st.session_state[STAMP_KEY] = None  # draw the phone again once the database is back
        poll_parts.show_problem(error)
        return
    if error is not None or stamp != st.session_state.get(STAMP_KEY):
        st.rerun(scope="app")


def student_face(code: str, problem: str = "") -> None:
    poll_parts.show_problem(problem)
    voter = poll_service.voter_id()
    with st.container(key="poll-phone"):
        st.fragment(phone)(code, voter)
    if poll_route.available():  # with the route, the browser asks it (PHONE_JS) instead of a timer
        st.html(PHONE_JS, unsafe_allow_javascript=True)  # its loop outlives the element; it starts once a window
    else:
        st.fragment(watch, run_every=PHONE_EVERY_S)(code, voter)
