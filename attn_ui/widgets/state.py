"""Where the Lab's state lives: one Settings in session state, mirrored into the URL.

The flow is one way. On every run the Lab asks `current_settings()`: a new link (a URL whose keys differ
from the ones we last wrote) wins; otherwise the Settings kept for this session wins (so moving to a lesson
page and back keeps everything). After the widgets are read, `remember()` stores the new Settings and
writes the URL, so the address bar always reproduces what is on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from attn_core import QUERY_KEYS, Settings, compute, settings_from_query
from attn_core.training.choices import TrainChoice

SETTINGS_KEY = "lab.settings"  # the Settings on screen, kept across pages
WRITTEN_KEY = "lab.written"  # the query we last wrote, to tell our own URL from a new link
VIEW_KEYS = ("row", "mode")  # view-only keys, not part of the maths: selected row, projector mode


@dataclass(frozen=True)
class Incoming:
    """What the Lab starts a run from."""

    settings: Settings
    notes: tuple[str, ...]
    from_link: bool  # True when the URL brought new settings: the widgets must be set to them


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
    and may stop the run; a stopped or failed run raises, so nothing half-trained is ever cached.
    """
    last = None
    for last in choice.progress():
        if _live is not None and not _live.publish(last):
            raise RunStopped(choice)
    return last.result


def url_params() -> dict[str, list[str]]:
    """The address bar's keys with all their values (a key may be repeated)."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def core_params(params: Mapping[str, list[str]]) -> dict[str, list[str]]:
    return {key: value for key, value in params.items() if key in QUERY_KEYS}


def current_settings() -> Incoming:
    params = core_params(url_params())
    stored = st.session_state.get(SETTINGS_KEY)
    written = st.session_state.get(WRITTEN_KEY)
    if stored is not None and (not params or params == written):
        return Incoming(stored, (), from_link=False)
    settings, notes = settings_from_query(params)
    return Incoming(settings, tuple(notes), from_link=True)


def remember(settings: Settings, view: Mapping[str, str] | None = None) -> None:
    """Keep the settings for this session and write them (and the view keys) to the URL."""
    st.session_state[SETTINGS_KEY] = settings
    query = settings.to_query()
    st.session_state[WRITTEN_KEY] = {key: [value] for key, value in query.items()}
    wanted = {**query, **{k: v for k, v in (view or {}).items() if v}}
    current = {key: values[-1] for key, values in url_params().items() if key in (*QUERY_KEYS, *VIEW_KEYS)}
    if current != wanted:
        for key in list(st.query_params):
            if key in QUERY_KEYS or key in VIEW_KEYS:
                del st.query_params[key]
        st.query_params.update(wanted)


def url_row(length: int) -> int | None:
    """The selected query row from the URL's `row` key (1-based there, 0-based here); None when unusable."""
    values = st.query_params.get_all("row")
    text = values[-1].strip() if values else ""
    if text.isdigit() and text.isascii() and 1 <= int(text) <= length:
        return int(text) - 1
    return None
