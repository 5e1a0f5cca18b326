"""The student's progress, kept in their own browser: every answer and the Lab's last state survive a reload, a new
tab, the next day. Nothing is stored on the server: the browser's localStorage holds it, and a small component
(STORE, a `st.components.v2` component with no look of its own) reads and writes it.

How it flows, once per session:

1. Until the saved progress has arrived, the store is drawn with `load`. When the browser holds some, its script
   sends it back (`saved`), which runs the page again; `_arrived` brings the saved answers into the session
   (questions.merge_saved) and, when the Lab shows nothing of its own yet, the Lab's last state. When it holds
   none (a first visit), nothing is sent and no second run is needed: this window's session starts the progress.
2. From then on every run hands the store the answers this session has changed (`touched`: a cumulative set, so
   a run cut short by the next click loses nothing, and a second tab writes only what it changed itself), and the
   script writes them into the saved progress. The Lab's fragment hands its own state, on runs a student's change
   started (a link's state is shown, not saved as the student's own).

A shared link never overwrites the student's progress without asking: where a link's answers differ from the
saved ones, the saved ones stay and a note offers the link's (OFFERED_KEY). The address still carries each page's
state for sharing, as before (address.py); the storage only fills in what the address does not say.

Session state used here:
    progress.loaded    the saved progress has arrived (or the browser had none)
    progress.base      id -> the answer as the browser held it when it arrived
    progress.touched   the ids this session has changed since
    progress.offered   id -> a link's answer that differs from the saved one, offered until taken or dismissed
    progress.lab_back  the Lab's last state was brought back: its note offers the default
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlencode

import streamlit as st

from attn_core import QUERY_KEYS, Settings, settings_from_query
from attn_lang import _, _n
from attn_ui.widgets import questions
from attn_ui.widgets.state import DRAWN_KEY, SETTINGS_KEY, core_params, url_params

LOADED_KEY = "progress.loaded"
BASE_KEY = "progress.base"
TOUCHED_KEY = "progress.touched"
OFFERED_KEY = "progress.offered"
LAB_BACK_KEY = "progress.lab_back"
LAB_WAITING_KEY = "progress.lab_waiting"  # the saved Lab, arrived while an address carried Lab keys: the Lab decides
MOUNT_KEY = "progress.store"  # the store's key; its container's (st-key-attn-progress-*) is hidden by look.py
LAB_MOUNT_KEY = "progress.store.lab"
MAX_SAVED_CHARS = 20_000  # more than 33 answers and a Lab address ever take; anything longer is not ours

# The store's script. `data.load` (until the session has the saved progress) asks for what is saved: when the
# browser holds something, it is sent back (`saved`) and nothing is written until the session has it, so a link's
# answers never overwrite it; when it holds nothing, this window's session is where the progress starts, and no
# second run is needed. `data.answers` (id -> a one-item answers value, or null: cleared) is merged into the saved
# answers; `data.lab` (the Lab's address) replaces the saved one. Storage that is full, blocked or private is
# ignored: the session still works, it is only not kept.
STORE_JS = r"""
export default function (component) {
  const { data, setStateValue } = component;
  if (!data) return;
  const ANSWERS = "attn-lab.progress.v1", LAB = "attn-lab.lab.v1";
  const get = (key) => { try { return window.localStorage.getItem(key); } catch (e) { return null; } };
  const put = (key, text) => { try { window.localStorage.setItem(key, text); } catch (e) { /* not kept */ } };
  if (data.load && !window.__attnProgressFresh) {
    const answers = get(ANSWERS), lab = get(LAB);
    if (answers !== null || lab !== null) {
      if (data.ask) setStateValue("saved", {answers: answers, lab: lab});
      return;
    }
    window.__attnProgressFresh = true;
  }
  if (data.answers && typeof data.answers === "object") {
    let kept = {};
    try {
      const saved = JSON.parse(get(ANSWERS) || "{}");
      const answers = saved && saved.v === 1 ? saved.answers : null;
      if (answers && typeof answers === "object" && !Array.isArray(answers)) kept = answers;
    } catch (e) { kept = {}; }
    let changed = false;
    for (const [id, raw] of Object.entries(data.answers)) {
      if (raw === null) { if (id in kept) { delete kept[id]; changed = true; } }
      else if (kept[id] !== raw) { kept[id] = raw; changed = true; }
    }
    if (changed) put(ANSWERS, JSON.stringify({v: 1, answers: kept}));
  }
  if (typeof data.lab === "string" && get(LAB) !== data.lab) put(LAB, data.lab);
}
"""
STORE = st.components.v2.component("attn_progress", js=STORE_JS)


def keep() -> None:
    """Every page, every run (in the sidebar): load the saved progress once, and save what this session changed."""
    loaded = bool(st.session_state.get(LOADED_KEY))
    data: dict[str, Any] = {} if loaded else {"load": True, "ask": True}
    changes = _changes()
    if changes:
        data["answers"] = changes
    with st.container(key="attn-progress-store"):
        STORE(key=MOUNT_KEY, data=data, default={"saved": None}, on_saved_change=_arrived)


def keep_lab(settings: Settings, own: bool) -> None:
    """In the Lab's fragment, every run: the Lab's state is saved when a student's change made it (`own`)."""
    data: dict[str, Any] = {} if st.session_state.get(LOADED_KEY) else {"load": True}
    if own:
        data["lab"] = urlencode(settings.to_query(), doseq=True)
        st.session_state[LAB_BACK_KEY] = False  # the student has changed it since: the note has done its work
    with st.container(key="attn-progress-lab"):
        STORE(key=LAB_MOUNT_KEY, data=data)


def _changes() -> dict[str, str | None]:
    """The answers this session changed since the saved ones arrived (cleared: None), every one of them each run."""
    items = questions.saved_items()
    base = st.session_state.get(BASE_KEY) or {}
    touched = set(st.session_state.get(TOUCHED_KEY) or ())
    touched |= {qid for qid in {*items, *base} if items.get(qid) != base.get(qid)}
    st.session_state[TOUCHED_KEY] = frozenset(touched)
    return {qid: items.get(qid) for qid in sorted(touched)}


def read_saved(raw: Any) -> dict[str, str]:
    """The saved answers (id -> one-item answers value) from what the browser sent; {} for anything else. The
    browser's storage is input like any other: it may be garbled, edited by hand or written by a newer version."""
    if not isinstance(raw, str) or len(raw) > MAX_SAVED_CHARS:
        return {}
    try:
        saved = json.loads(raw)
    except ValueError:
        return {}
    answers = saved.get("answers") if isinstance(saved, dict) and saved.get("v") == 1 else None
    if not isinstance(answers, dict):
        return {}
    return {qid: value for qid, value in answers.items() if isinstance(qid, str) and isinstance(value, str)}


def _arrived() -> None:
    """The saved progress has arrived (a callback, before any widget is drawn): into the session, once."""
    value = st.session_state.get(MOUNT_KEY)
    saved = value.get("saved") if value is not None else None
    if not isinstance(saved, dict) or st.session_state.get(LOADED_KEY):
        return
    st.session_state[LOADED_KEY] = True
    items = read_saved(saved.get("answers"))
    offered = questions.merge_saved(items)
    st.session_state[BASE_KEY] = {qid: raw for qid, raw in questions.saved_items().items() if items.get(qid) == raw}
    st.session_state[TOUCHED_KEY] = frozenset()  # changes from here on, against what the browser holds
    if offered:
        st.session_state[OFFERED_KEY] = offered
    _bring_back_lab(saved.get("lab"))


def _bring_back_lab(raw: Any) -> None:
    """The Lab's last state, when the session's Lab shows nothing of its own yet (a link's state stays).

    The saved state arrives in a run of its own, which may stop the session's first run before the Lab has read its
    address (measured: 1 reload in about 20 of a Lab link, two CPU hogs beside it, brought the saved Lab back over the
    link's). So while the address carries Lab keys, the saved state waits and the Lab decides (`waiting_lab`): on the
    Lab those keys are the link's state and win; on a lesson page they are the lesson's, and the Lab takes it later."""
    if not isinstance(raw, str) or not raw or len(raw) > MAX_SAVED_CHARS:
        return
    settings, notes = settings_from_query(core_params(parse_qs(raw)))
    if notes or settings == Settings():
        return
    if core_params(url_params()):
        st.session_state[LAB_WAITING_KEY] = settings
        return
    _show_lab(settings)


def waiting_lab() -> None:
    """The Lab, before it reads its address: a saved state that waited is dropped when the address brought the Lab's
    own keys (a link, a reload of one) and brought back otherwise."""
    settings = st.session_state.pop(LAB_WAITING_KEY, None)
    if isinstance(settings, Settings) and not core_params(url_params()):
        _show_lab(settings)


def _show_lab(settings: Settings) -> None:
    shown = st.session_state.get(SETTINGS_KEY)
    if shown is not None and shown != Settings():
        return
    st.session_state[SETTINGS_KEY] = settings
    st.session_state.pop(DRAWN_KEY, None)  # the Lab's next run takes it as arriving: its widgets are set to it
    st.session_state[LAB_BACK_KEY] = True


def _take_offered() -> None:
    offered = st.session_state.pop(OFFERED_KEY, None)
    if isinstance(offered, dict):
        questions.take_offered(offered)


def _keep_saved() -> None:
    st.session_state.pop(OFFERED_KEY, None)


def offered_note() -> None:
    """Where a link's answers differ from the student's saved ones: say so, and let the student choose."""
    offered = st.session_state.get(OFFERED_KEY)
    if not isinstance(offered, dict) or not offered:
        return
    with st.container(border=True, key="progress-offered"):
        st.markdown(_n("This link carries an answer that differs from the one saved in this browser. Your saved "
                       "answer is the one shown; your first answer is the one the score counts either way.",
                       "This link carries {count} answers that differ from the ones saved in this browser. Your saved "
                       "answers are the ones shown; your first answers are the ones the score counts either way.",
                       len(offered)))
        with st.container(horizontal=True, gap="small"):
            st.button(_n("Show the link's answer", "Show the link's answers", len(offered)), key="progress.take",
                      icon=":material/link:", on_click=_take_offered)
            st.button(_("Keep mine"), key="progress.keep", icon=":material/check:", on_click=_keep_saved)


def _lab_default() -> None:
    """The Lab from its defaults (a button callback): its Settings, and an address without them."""
    st.session_state[SETTINGS_KEY] = Settings()
    st.session_state.pop(DRAWN_KEY, None)  # the next run takes it as arriving: the widgets are set to it
    for key in QUERY_KEYS:
        if key in st.query_params:
            del st.query_params[key]
    st.session_state[LAB_BACK_KEY] = False


def lab_back_note() -> None:
    """On the Lab, once its last state was brought back: say so, with the way to the default."""
    if not st.session_state.get(LAB_BACK_KEY):
        return
    with st.container(horizontal=True, vertical_alignment="center", key="progress-lab-back"):
        st.caption(_("The Lab is as you left it last time in this browser."))
        st.button(_("Start from the default"), key="progress.lab.default", icon=":material/restart_alt:",
                  type="tertiary", on_click=_lab_default)
