"""The theme, chosen in the app: light, dark, or the device's own setting (system, the default).

Streamlit 1.67 has no call that sets the theme from Python (streamlit/streamlit#14172 asks for one), and its app
menu, where a viewer could pick one, is hidden here (`toolbarMode = "minimal"`). What it does have: the two themes of
.streamlit/config.toml, between which it switches by the device's `prefers-color-scheme`, and which it looks up
again when the browser says that setting changed or after printing (its own "afterprint" listener). So the choice
is made where Streamlit makes it: a constant script (THEME_JS) answers the page's `prefers-color-scheme` query with
the chosen theme and asks Streamlit to look again. Every colour then follows as with the device's setting: the
widgets, the charts' theme, and our CSS's `light-dark()` (look.py). "System" gives the device's answer back.

The choice is kept as the language is (lang.py): a link's `theme` wins; otherwise the menu's choice lasts the session
and is written back into the address, so a copied link, a reload and Back keep it; "system" is the default and is
left out of the address. An unknown value gets a note and the session's choice.

Session state used here:
    app.theme        the theme picked in a link or the menu ("system" when none)
    app.theme.menu   the menu's own value
"""

from __future__ import annotations

from types import MappingProxyType

import streamlit as st

from attn_core.query import quoted
from attn_lang import N_, _
from attn_ui.widgets import held
from attn_ui.widgets.marks import follow_mark_script

URL_KEY = "theme"
PICKED_KEY = "app.theme"
MENU_KEY = "app.theme.menu"
SYSTEM = "system"
THEMES = ("light", "dark", SYSTEM)  # the menu's order; the URL's values
# translated where the menu draws them
NAMES = MappingProxyType({"light": N_("Light"), "dark": N_("Dark"), SYSTEM: N_("System")})
UNKNOWN = N_("`theme` is `light`, `dark` or `system`; {value} was ignored.")


def _url_value() -> str | None:
    values = st.query_params.get_all(URL_KEY)
    return values[-1] if values else None


def _read(raw: str | None) -> str | None:
    text = (raw or "").strip().lower()
    return text if text in THEMES else None


def choose() -> str:
    """This run's theme: a link's, else the session's, else the device's ("system"). A theme picked earlier in the
    session is written back into an address that lost it (another page's link)."""
    raw = _url_value()
    found = _read(raw)
    if found is not None:
        st.session_state[PICKED_KEY] = found
    picked = st.session_state.get(PICKED_KEY)
    picked = picked if picked in THEMES else SYSTEM
    if picked != SYSTEM and raw != picked and (raw is None or found is not None):
        st.query_params[URL_KEY] = picked
    elif picked == SYSTEM and found == SYSTEM:
        del st.query_params[URL_KEY]  # the default is left out of the address
    return picked


def url_view() -> dict[str, str]:
    """The `theme` key for a page that writes its whole address: the picked theme, or nothing (the device's)."""
    picked = st.session_state.get(PICKED_KEY)
    return {URL_KEY: picked} if picked in THEMES and picked != SYSTEM else {}


def note() -> str | None:
    """The friendly note for a `theme` in the link that names no theme."""
    raw = _url_value()
    if raw is None or _read(raw) is not None:
        return None
    return _(UNKNOWN, value=quoted(raw[:40]))


# The page's answer to `prefers-color-scheme` follows the marked container of the session's theme (document_theme):
# one constant script, installed once a window. While a theme is chosen, window.matchMedia answers that query with
# it (a MediaQueryList whose `matches` says the choice); each change dispatches "afterprint", after which Streamlit
# looks up its light or dark theme again. A page without the mark (between two runs) keeps the last choice.
THEME_JS = follow_mark_script("attn-theme", "theme", r"""
  const state = {chosen: "system"};
  const real = window.matchMedia.bind(window);
  const scheme = /prefers-color-scheme\s*:\s*(dark|light)/;
  window.matchMedia = (query) => {
    const list = real(query);
    const asked = state.chosen === "system" ? null : scheme.exec(String(query));
    if (!asked) return list;
    const matches = asked[1] === state.chosen;
    return new Proxy(list, {get: (target, name) => {
      if (name === "matches") return matches;
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    }});
  };
  const apply = (chosen) => {
    if (chosen === state.chosen) return;
    state.chosen = chosen;
    document.documentElement.dataset.attnTheme = chosen;
    window.dispatchEvent(new Event("afterprint"));
  };
""")


def document_theme() -> None:
    """Mark the session's theme on the page, for THEME_JS to apply."""
    picked = st.session_state.get(PICKED_KEY)
    with st.container(key=f"attn-theme-{picked if picked in THEMES else SYSTEM}"):
        st.html(THEME_JS, unsafe_allow_javascript=True)


def _picked(key: str) -> None:
    chosen = st.session_state.get(key)
    if chosen not in THEMES:
        return
    st.session_state[PICKED_KEY] = chosen
    if chosen == SYSTEM:
        if URL_KEY in st.query_params:
            del st.query_params[URL_KEY]
    else:
        st.query_params[URL_KEY] = chosen


def menu(key: str = MENU_KEY) -> None:
    """Light, Dark or System (the device's setting), kept in the address like the language."""
    picked = st.session_state.get(PICKED_KEY)
    st.session_state[key] = picked if picked in THEMES else SYSTEM
    held.one_of(_("Theme"), THEMES, key=key, format_func=lambda name: _(NAMES[name]),
                         on_change=_picked, args=(key,),
                         help=_("Light or dark colours on this device; System follows the device's own setting."))
