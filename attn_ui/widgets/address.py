"""A lesson page's address: its own keys, and nothing else, so a reload (a new session) restores the page.

A page declares once what its address holds (`PageAddress`): the Settings keys it shows (read and written with the
Lab's readers and notes), which of them have a widget, and its own keys (`Extra`, each with a reader that refuses
what it cannot use, with a note). Then, per run:

    start = ADDRESS.start()            # before the page's widgets: on a navigation run, the address sets them
    ...draw the widgets (no value= / default=: start() seeds their state)...
    ADDRESS.remember(settings, word=3) # after them: one `from_dict` write when the page's state changed

Who owns the state follows the Lab's rule (attn_ui/widgets/state.py): a navigation run (the page's first run in
this session, a reload, Back or Forward) takes it from the address, a link always wins; any other run was started
by a widget, so the widgets own it and the address is only written. Keys at the page's default are left out; a key
of another page (the Lab's keys on page 6) is dropped with a note. `mode` (projector) is kept on every page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from attn_core import Settings, settings_from_query
from attn_core.query import unused_key_notes
from attn_core.settings import FIELD_BY_NAME
from attn_lang import _, number
from attn_ui.widgets.state import SETTINGS_KEY, history_navigation, url_params
from attn_ui.words.explain import listed

KEPT = ("mode", "lang", "theme")  # other features' keys that every page keeps in its address


def arrive(memory_key: str) -> dict[str, list[str]]:
    """The address on a navigation run, all values of each key; remembered under `memory_key` (key -> last value)
    as what the browser shows, for write_address to compare with."""
    params = url_params()
    st.session_state[memory_key] = {key: values[-1] for key, values in params.items() if values}
    return params


def write_address(wanted: Mapping[str, str], memory_key: str) -> None:
    """Write `wanted`, plus the KEPT keys the address holds, in one message (one history entry), when it differs
    from what the browser shows (remembered under `memory_key`)."""
    last = st.session_state.get(memory_key)
    last = last if isinstance(last, dict) else {}
    wanted = {**wanted, **{key: last[key] for key in KEPT if key in last}}
    if last != wanted:
        st.query_params.from_dict(wanted)
        st.session_state[memory_key] = wanted


@dataclass(frozen=True)
class Extra:
    """One key of a page's own (not a Settings field): its widget, default and reader.

    `read(raw, settings)` gives the value or None, and a note when the raw value was refused; `default` and
    `read` may depend on the page's Settings (a word position on the sentence's length)."""

    key: str
    widget: str  # the widget key, namespaced by the page
    default: Callable[[Settings], Any]
    read: Callable[[str, Settings], tuple[Any, str | None]]
    write: Callable[[Any], str] = str


@dataclass(frozen=True)
class Start:
    base: Settings  # the page's Settings as the address (or the session) gives them; widgets refine them
    notes: list[str]


@dataclass(frozen=True)
class PageAddress:
    namespace: str
    default: Settings  # what the page shows with a bare address
    keys: tuple[str, ...]  # the Settings URL keys this page's address holds
    controls: Mapping[str, str] = field(default_factory=dict)  # Settings field name -> its widget key on the page
    extras: tuple[Extra, ...] = ()
    carry_lab: bool = False  # with no Settings key in the address, start from the Lab's Settings of this session
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # field name -> the values the page offers

    @property
    def _base_key(self) -> str:
        return f"{self.namespace}.address.base"

    @property
    def _url_key(self) -> str:
        return f"{self.namespace}.address.url"

    def _marker(self) -> str:
        """A widget every run of this page draws: absent from session state, the last run was another page's."""
        return next(iter(self.controls.values()), None) or self.extras[0].widget

    def _widget_values(self, settings: Settings) -> dict[str, Any]:
        values = {}
        for name, key in self.controls.items():
            value = getattr(settings, name)
            values[key] = list(value) if name == "padded" else value
        return values

    def start(self) -> Start:
        state = st.session_state
        if self._marker() in state and not history_navigation():
            return Start(state.get(self._base_key, self.default), [])  # a click: the widgets own the state
        params = arrive(self._url_key)
        notes = unused_key_notes(params, {*self.keys, *(extra.key for extra in self.extras), *KEPT})
        given = {key: values for key, values in params.items() if key in self.keys}
        stored = state.get(SETTINGS_KEY)
        if self.carry_lab and not given and stored is not None:
            base = settings_from_query(stored.to_query())[0]  # rebuilt as a Settings of the running code
        else:
            base, fixes = settings_from_query({**self.default.to_query_full(), **given})  # the rest: the page's
            notes += fixes
        for name, offered in self.choices.items():
            if getattr(base, name) not in offered:
                key, fallback = FIELD_BY_NAME[name].key, getattr(self.default, name)
                notes.append(_("This page offers `{key}` = {offered}; it was set to {fallback}.", key=key,
                               offered=listed(number(value) for value in offered), fallback=fallback))
                base = base.replace(**{name: fallback})
        state[self._base_key] = base
        state.update(self._widget_values(base))
        for extra in self.extras:
            raw = (params.get(extra.key) or [None])[-1]
            value, note = extra.read(raw, base) if raw is not None else (None, None)
            if note:
                notes.append(note)
            state[extra.widget] = extra.default(base) if value is None else value
        return Start(base, notes)

    def remember(self, settings: Settings, **extras: Any) -> None:
        """Write the page's state to its address, in one message, when it changed: one history entry a change."""
        full, default = settings.to_query_full(), self.default.to_query_full()
        wanted = {key: full[key] for key in self.keys if full[key] != default[key]}
        for extra in self.extras:
            value = extras[extra.key]
            if value != extra.default(settings):
                wanted[extra.key] = extra.write(value)
        write_address(wanted, self._url_key)
