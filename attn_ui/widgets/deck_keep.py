"""The lecturer's deck kept in her own browser (localStorage), so that nothing she made is lost: a reload, a Lab opened
in a new tab, the next morning, a deck too long for an address.

One script-only component (like progress.py's store: a constant script, data passed as JSON, never markup). On the
Your lecture page's first run in a session it sends back what the browser holds (the deck's file text, or "" for
none: always an answer, so the page knows when it may add the Lab's view), and after each change the page asks it to
keep the deck's file text again. What the browser holds is input like any other: it is read with attn_core.deck's
strict reader, and garbage reads as nothing kept.

A deck the address brings (a colleague's link) does not replace the kept one until the lecturer changes it; while the
two differ the page offers the kept one back (`offered`).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from attn_core.deck import MAX_FILE_BYTES, Deck, DeckError, read_json

LOADED_KEY = "deck.keep.loaded"  # the browser has answered this session
ARRIVED_KEY = "deck.keep.arrived"  # what it answered (a Deck, or None for nothing kept), until the page takes it
SAVE_KEY = "deck.keep.save"  # the deck's file text to keep at the next draw ("" forgets it)
OFFERED_KEY = "deck.keep.offered"  # the kept deck, when the address brought another one
MOUNT_KEY = "deck.keep.store"  # its container (st-key-attn-progress-deck) is hidden by look.py

KEEP_JS = r"""
export default function (component) {
  const { data, setStateValue } = component;
  if (!data) return;
  const KEY = "attn-lab.deck.v1";
  let kept = "";
  try { kept = window.localStorage.getItem(KEY) || ""; } catch (e) { kept = ""; }
  if (data.load) { setStateValue("saved", kept); return; }
  if (typeof data.save !== "string" || data.save === kept) return;
  try {
    if (data.save === "") window.localStorage.removeItem(KEY); else window.localStorage.setItem(KEY, data.save);
  } catch (e) { /* storage full, blocked or private: the deck is not kept, the page still works */ }
}
"""
STORE = st.components.v2.component("attn_deck_keep", js=KEEP_JS)


def loaded() -> bool:
    return bool(st.session_state.get(LOADED_KEY))


def keep() -> None:
    """Every run of the page: ask once for the kept deck (`take_arrived` hands it over on the next run), then keep the
    deck each time the page asks to (`save`)."""
    data: dict[str, Any] = {} if loaded() else {"load": True}
    if loaded() and SAVE_KEY in st.session_state:
        data["save"] = st.session_state.pop(SAVE_KEY)
    with st.container(key="attn-progress-deck"):
        STORE(key=MOUNT_KEY, data=data, default={"saved": None}, on_saved_change=_arrived)


def read_kept(raw: Any) -> Deck | None:
    """The kept deck, or None for nothing kept or anything that is not a deck of this version."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_FILE_BYTES:
        return None
    try:
        return read_json(raw)
    except DeckError:
        return None


def _arrived() -> None:
    """The browser's answer (a callback, before the run): kept for the page to take."""
    value = st.session_state.get(MOUNT_KEY)
    saved = value.get("saved") if value is not None else None
    if saved is None or loaded():
        return
    st.session_state[LOADED_KEY] = True
    st.session_state[ARRIVED_KEY] = read_kept(saved)


def take_arrived() -> tuple[bool, Deck | None]:
    """(whether the browser's answer came since the last call, the deck it keeps or None)."""
    if ARRIVED_KEY not in st.session_state:
        return False, None
    return True, st.session_state.pop(ARRIVED_KEY)


def save(text: str) -> None:
    """Keep this file text (a deck's, or "" to forget) at the page's next draw."""
    st.session_state[SAVE_KEY] = text
    st.session_state.pop(OFFERED_KEY, None)  # the lecturer's own change: what the browser keeps is now this deck


def offer(deck: Deck) -> None:
    st.session_state[OFFERED_KEY] = deck


def offered() -> Deck | None:
    found = st.session_state.get(OFFERED_KEY)
    return found if isinstance(found, Deck) else None


def forget_offer() -> None:
    st.session_state.pop(OFFERED_KEY, None)
