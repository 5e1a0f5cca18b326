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

A page that asks predict-first questions (`questions`) keeps their answers in its address too (`answer`), so a reload
keeps them; Back and Forward bring back exactly what their entry holds, a link without `answer` (the sidebar) keeps
the session's answers.

One Back leaves a page. The browser made one history entry when the page was opened; whatever the page writes on
that navigation run (the session's state the link did not carry, a key it dropped) replaces that entry in place
(`write_address(..., replace=True)`, history.replaceState from a constant script) instead of pushing a second one,
as Streamlit does with every `st.query_params` write outside a Back or Forward run. A change made on the page pushes
one entry, so Back undoes it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.session_state_proxy import get_session_state

from attn_core import Settings, settings_from_query
from attn_core.query import ANSWERS_KEY, PAGE_ANSWERS_KEY, unused_key_notes
from attn_core.settings import FIELD_BY_NAME
from attn_lang import _, number
from attn_ui.quiz.bank import BY_ID
from attn_ui.widgets import lang, projector, theme
from attn_ui.widgets import questions as quiz
from attn_ui.widgets.state import SETTINGS_KEY, history_navigation, url_params
from attn_ui.words.explain import listed

KEPT = ("mode", "lang", "theme")  # other features' keys that every page keeps in its address


def arrive(memory_key: str) -> dict[str, list[str]]:
    """The address on a navigation run, all values of each key; remembered under `memory_key` (key -> last value)
    as what the browser shows, for write_address to compare with."""
    params = url_params()
    st.session_state[memory_key] = {key: values[-1] for key, values in params.items() if values}
    return params


def kept() -> dict[str, str]:
    """The KEPT keys as this run has them: projector mode as the session has it (its switch may have just turned it
    off), the language and the theme picked. Not the values the page arrived with: those would bring back a mode
    switched off."""
    mode = {"mode": projector.PROJECTOR} if projector.is_on() else {}
    return {**mode, **lang.url_view(), **theme.url_view()}


def write_address(wanted: Mapping[str, str], memory_key: str, replace: bool = False) -> None:
    """Write `wanted`, plus the KEPT keys as their owners have them now, in one message (one history entry), when it
    differs from what the browser shows (remembered under `memory_key`). `replace` (a navigation run: the browser has
    just made this page's entry) rewrites that entry in place instead of adding one; so does a change of the answers
    alone (ANSWER_KEYS): an answer is not a place to go back to, so one Back after answering leaves the page (the
    browser keeps the answer: progress.py). Start again asks for a new entry (quiz.PUSH_KEY), so Back undoes it."""
    last = st.session_state.get(memory_key)
    last = last if isinstance(last, dict) else {}
    wanted = {**wanted, **kept()}
    if last != wanted:
        changed = {key for key in {*last, *wanted} if last.get(key) != wanted.get(key)}
        pushed = st.session_state.pop(quiz.PUSH_KEY, False)
        if replace or (changed <= ANSWER_KEYS and not pushed):
            replace_in_place(wanted)
        else:
            st.query_params.from_dict(wanted)
        st.session_state[memory_key] = wanted


ANSWER_KEYS = frozenset({PAGE_ANSWERS_KEY, ANSWERS_KEY})  # the keys that hold answers (a lesson's, Check yourself's)


# One constant script a window: each marker (a new one for every replacement) rewrites the current history entry's
# query once, and only on the page that drew it. A marker left over from an earlier run (Streamlit removes it at the
# end of the next run) is never applied twice, so it cannot undo a change pushed since. The marker is an empty
# container whose key carries a run id and the query in hex (a key becomes a class name of letters, digits and -).
REPLACE_JS = """
<script id="attn-replace">
if (!window.__attnReplace) {
  window.__attnReplace = new Set();
  const prefix = "st-key-attn-replace-";
  const apply = () => {
    for (const mark of document.querySelectorAll(`[class*="${prefix}"]`)) {
      const name = [...mark.classList].find((name) => name.startsWith(prefix));
      const [run, hex] = name.slice(prefix.length).split("-");
      if (!run || window.__attnReplace.has(run)) continue;
      window.__attnReplace.add(run);
      const query = decodeURIComponent((hex || "").replace(/../g, "%$&"));
      if (location.search.replace(/^\\?/, "") === query) continue;
      history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
  };
  new MutationObserver(apply).observe(document.body, {subtree: true, childList: true});
  apply();
}
</script>
<style>[data-testid="stLayoutWrapper"]:has(> [class*="st-key-attn-replace-"]),
[class*="st-key-attn-replace-"] { display: none !important; }</style>
"""
MARK = "attn-replace"


def replace_in_place(wanted: Mapping[str, str]) -> None:
    """Make the browser's current history entry show `wanted` (history.replaceState), without a new entry. The query
    is written as Streamlit writes it (urlencode), so a later write of the same address is no change."""
    query = urlencode(dict(wanted), doseq=True)
    with st.container(key=f"{MARK}-{uuid.uuid4().hex}-{query.encode().hex()}"):
        st.html(REPLACE_JS, unsafe_allow_javascript=True)
    _set_quietly(wanted, query)


def _set_quietly(wanted: Mapping[str, str], query: str) -> None:
    """The server's copy of the address, as the browser shows it once the script above has run: set without the
    message an `st.query_params` write sends, since that message is what makes Streamlit push an entry. (Streamlit's
    own quiet setters; the run's query string is what the session and AppTest keep as the address.)"""
    with get_session_state().query_params() as params:
        params.clear_with_no_forward_msg(preserve_embed=True)
        for key, value in wanted.items():
            params.set_with_no_forward_msg(key, value)
    ctx = get_script_run_ctx()
    if ctx is not None:
        ctx.query_string = query


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
    questions: tuple[str, ...] = ()  # the bank's ids of the predict-first questions the page asks (`answer`)

    @property
    def _base_key(self) -> str:
        return f"{self.namespace}.address.base"

    @property
    def _url_key(self) -> str:
        return f"{self.namespace}.address.url"

    @property
    def _arrived_key(self) -> str:
        return f"{self.namespace}.address.arrived"  # this run is a navigation run: its write replaces the entry

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
        state[self._arrived_key] = False
        if self._marker() in state and not history_navigation():
            return Start(state.get(self._base_key, self.default), [])  # a click: the widgets own the state
        state[self._arrived_key] = True
        params = arrive(self._url_key)
        own = {*self.keys, *(extra.key for extra in self.extras), *KEPT}
        if self.questions:
            own.add(PAGE_ANSWERS_KEY)
        notes = unused_key_notes(params, own)
        notes += self._restore_answers(params)
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

    def _restore_answers(self, params: Mapping[str, list[str]]) -> list[str]:
        """The page's answers from the address: exactly what it says on Back or Forward (absent: unanswered); a link
        without `answer` (the sidebar, a lesson's Next) keeps the session's."""
        if not self.questions or (PAGE_ANSWERS_KEY not in params and not history_navigation()):
            return []
        raw = (params.get(PAGE_ANSWERS_KEY) or [None])[-1]
        return quiz.restore(tuple(BY_ID[qid] for qid in self.questions), raw, PAGE_ANSWERS_KEY)

    def remember(self, settings: Settings, **extras: Any) -> None:
        """Write the page's state to its address, in one message, when it changed: one history entry a change, and
        none for what a navigation run writes (it replaces the entry the browser made)."""
        full, default = settings.to_query_full(), self.default.to_query_full()
        wanted = {key: full[key] for key in self.keys if full[key] != default[key]}
        for extra in self.extras:
            value = extras[extra.key]
            if value != extra.default(settings):
                wanted[extra.key] = extra.write(value)
        answered = quiz.address_value(tuple(BY_ID[qid] for qid in self.questions)) if self.questions else ""
        if answered:
            wanted[PAGE_ANSWERS_KEY] = answered
        write_address(wanted, self._url_key, replace=bool(st.session_state.get(self._arrived_key)))
