"""Where the Lab's state lives: one Settings in session state, mirrored into the URL.

Who owns the state depends on what started the run, never on comparing the URL with what we wrote:

- A navigation run (the session's first run, Back or Forward, or arriving from another page with keys in the
  address) takes everything from the URL: a link always wins.
- Any other run was started by a widget: the widgets say what is on screen, and the URL is only written.
  The address the browser sent with such a run may lag behind our last write (the write is still on its way
  when the next click leaves), so it is never read then.

`remember()` writes the address once per run, with one message (one history entry), and only when it differs
from the address the browser will show once our previous write has arrived (`lab.url`), so a lagging address
can neither hide a needed write nor cause a needless one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attn_core import QUERY_KEYS, Settings, compute, settings_from_query
from attn_core.query import lab_view_notes, read_row
from attn_core.training.choices import TrainChoice
from attn_core.training.worker import progress_elsewhere

SETTINGS_KEY = "lab.settings"  # the Settings on screen, kept across pages
URL_KEY = "lab.url"  # the address (key -> value) the browser shows once our last write has arrived
VIEW_STATE_KEY = "lab.view_keys"  # the view keys on screen (row, mode), kept like the Settings
SEEN_KEY = "lab.map_seen"  # the map selection already applied, so an old selection never overrides a link
DRAWN_KEY = "lab.causal"  # a widget every Lab run draws: absent means the last run was another page's
MAP_KEY = "lab.map"
PICK_KEY = "lab.row_pick"  # the row picker under a long sentence's map (panels.row_picker)
PICKED_KEY = "lab.row_picked"  # a choice made in it, not yet applied: an event, like a click on the map
VIEW_KEYS = ("row", "mode", "lang", "theme", "scene")  # the Lab's view-only keys: selected row, projector mode,
# language, theme, the scene it came from


@dataclass(frozen=True)
class Incoming:
    """What the Lab starts a run from."""

    settings: Settings
    notes: tuple[str, ...]
    from_link: bool  # True when the URL brought the state: the widgets must be set to it
    view: Mapping[str, str] = field(default_factory=dict)  # the view keys (row, mode) this run starts from


@st.cache_data(max_entries=2_000, show_spinner=False, hash_funcs={Settings: repr})
def cached_compute(settings: Settings):
    """The one cache of the app: a Result per Settings, shared by every session (results are read-only).

    Settings is a frozen dataclass whose repr names every field, so its repr is its key, cheaper than
    Streamlit's generic hashing of the object."""
    return compute(settings)


class RunStopped(Exception):
    """A training run was stopped before its end: nothing is cached."""


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs={TrainChoice: repr})
def cached_training(choice: TrainChoice, _live=None):
    """The second cache, of training Results: a run is a function of its choice and seed, so one finished run
    serves every session (a class pressing Train on the same settings costs one run).

    Called by the run board's worker thread with `_live` (left out of the key), which is told every Progress
    and may stop the run; a stopped or failed run raises, so nothing half-trained is ever cached. The training
    itself happens in a child process (attn_core/training/worker.py), which a stop kills at once.
    """
    last = None
    with contextlib.closing(progress_elsewhere(choice)) as steps:
        for last in steps:
            if _live is not None and not _live.publish(last):
                raise RunStopped(choice)
    return last.result


def url_params() -> dict[str, list[str]]:
    """The address bar's keys with all their values (a key may be repeated)."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def core_params(params: Mapping[str, list[str]]) -> dict[str, list[str]]:
    return {key: value for key, value in params.items() if key in QUERY_KEYS}


def history_navigation() -> bool:
    """Was this run started by the browser's Back or Forward?"""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.is_history_navigation)


def current_settings() -> Incoming:
    params = url_params()
    stored = st.session_state.get(SETTINGS_KEY)
    arrived = DRAWN_KEY not in st.session_state
    if arrived:  # the address bar now shows this run's URL, whatever we wrote on an earlier visit
        st.session_state[URL_KEY] = {key: values[-1] for key, values in params.items() if values}
    if stored is not None and not history_navigation() and not (arrived and core_params(params)):
        # a click in the Lab, or a bare link to it (the sidebar): the session's state
        return Incoming(stored, (), from_link=arrived, view=st.session_state.get(VIEW_STATE_KEY, {}))
    settings, notes = settings_from_query(core_params(params))
    notes += lab_view_notes(params)
    view = {key: values[-1] for key, values in params.items() if key in VIEW_KEYS and values}
    st.session_state[URL_KEY] = {key: values[-1] for key, values in params.items() if values}
    return Incoming(settings, tuple(notes), from_link=True, view=view)


def picked_row(incoming: Incoming, length: int) -> tuple[int | None, list[str]]:
    """The selected query row (0-based) and a note when the link's row cannot be used.

    A click on the map is an event: it counts once, in the run it arrives. After that the row lives on as
    state, so Back, a link or a page switch are never overridden by a selection made earlier."""
    row, note = read_row(incoming.view.get("row"), length)
    chart = st.session_state.get(MAP_KEY)
    points = list(chart.selection.points) if chart else []
    selection = repr(points)
    if incoming.from_link:
        st.session_state[SEEN_KEY] = selection
    elif selection != st.session_state.get(SEEN_KEY):
        st.session_state[SEEN_KEY] = selection
        picked = points[0].get("y") if points else None
        row = int(picked) if isinstance(picked, int | float) and 0 <= int(picked) < length else None
    if PICKED_KEY in st.session_state:  # the row picker's choice: counts once, like a click
        picked = st.session_state.pop(PICKED_KEY)
        if not incoming.from_link:
            row = picked if isinstance(picked, int) and 0 <= picked < length else None
    return row, ([note] if note and incoming.from_link else [])


def remember(settings: Settings, view: Mapping[str, str] | None = None) -> None:
    """Keep the settings for this session and write them (and the view keys) to the URL in one message."""
    st.session_state[SETTINGS_KEY] = settings
    shown_view = {k: v for k, v in (view or {}).items() if v}
    st.session_state[VIEW_STATE_KEY] = shown_view
    wanted = {**settings.to_query(), **shown_view}
    if st.session_state.get(URL_KEY) != wanted:
        st.query_params.from_dict(wanted)  # one page_info message: one history entry, no state in between
        st.session_state[URL_KEY] = wanted  # no Streamlit call between the write and this: never out of step
