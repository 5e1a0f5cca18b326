"""The language of the session: chosen by a link's `lang`, else by the menu (kept for the session), else by the
browser's language (st.context.locale), else English. Every page frame calls choose() before it draws anything.

The choice is this session's alone: in a live lecture each phone reads the scenes in its own language while the
projector reads them in the lecturer's. A link's `lang` wins, as a link's `mode` does; a language picked in the menu
is written back into the address (so a copied link and Back keep it), one picked by the browser is not.

Session state used here:
    app.lang         the language this session draws in (a code of attn_lang.supported())
    app.lang.picked  the language picked in a link or the menu (None: the browser's)
    app.lang.menu    the menu's own value
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attn_core.query import quoted
from attn_lang import DEFAULT, N_, _, language_for, set_language_source, supported
from attn_lang.languages import language
from attn_ui.widgets import held
from attn_ui.widgets.marks import follow_mark_script

LANG_KEY = "app.lang"
PICKED_KEY = "app.lang.picked"
MENU_KEY = "app.lang.menu"
URL_KEY = "lang"
UNKNOWN = N_("The app does not speak {value} yet, so it stays in {name}.")


def _session_language() -> str | None:
    """The language of the session being drawn, for attn_lang (None outside a session: English)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return None
    try:
        found = ctx.session_state[LANG_KEY]
    except KeyError:
        return None
    return found if isinstance(found, str) else None


set_language_source(_session_language)


def _url_value() -> str | None:
    values = st.query_params.get_all(URL_KEY)
    return values[-1] if values else None


def choose() -> str:
    """Decide this run's language (before anything is drawn) and set the document's `lang` to it. A `lang` in the
    link that names no language the app speaks is left as it is and noted (note())."""
    raw = _url_value()
    code = language_for(raw) if raw is not None else None
    if code is not None:
        st.session_state[PICKED_KEY] = code
    picked = st.session_state.get(PICKED_KEY)
    if picked not in supported():
        picked = None
    browser = language_for(getattr(st.context, "locale", None))
    chosen = picked or browser or DEFAULT
    st.session_state[LANG_KEY] = chosen
    if picked is not None and raw != picked and (raw is None or code is not None):
        st.query_params[URL_KEY] = picked  # picked on another page, or a link's "ES": the address says it as we do
    return chosen


def url_view() -> dict[str, str]:
    """The `lang` key for a page that writes its whole address: the picked language, or nothing (the browser's)."""
    picked = st.session_state.get(PICKED_KEY)
    return {URL_KEY: picked} if picked in supported() else {}


def note() -> str | None:
    """The friendly note for a `lang` in the link that names no language the app speaks."""
    raw = _url_value()
    if raw is None or language_for(raw) is not None:
        return None
    return _(UNKNOWN, value=quoted(raw[:40]), name=language(st.session_state.get(LANG_KEY, DEFAULT)).name)


# The document's `lang` follows the marked container of the session's language (document_language): one constant
# script, installed once a window, watches for it, so a language switched without a reload is followed too.
LANG_JS = follow_mark_script("attn-lang", "lang", """
  const apply = (code) => {
    if (document.documentElement.lang !== code) document.documentElement.lang = code;
  };
""")


def document_language() -> None:
    """The document's `lang` attribute follows the session's language, so a screen reader reads the page in it
    (Streamlit serves every page as `<html lang="en">`)."""
    code = st.session_state.get(LANG_KEY, DEFAULT)
    with st.container(key=f"attn-lang-{code if code in supported() else DEFAULT}"):
        st.html(LANG_JS, unsafe_allow_javascript=True)


def _picked() -> None:
    code = st.session_state.get(MENU_KEY)
    if code not in supported():
        return
    st.session_state[PICKED_KEY] = code
    st.session_state[LANG_KEY] = code
    st.query_params[URL_KEY] = code


def menu(key: str = MENU_KEY) -> None:
    """The language menu: each language by its own name. Changing it keeps everything else on the page."""
    codes = supported()
    st.session_state[key] = st.session_state.get(LANG_KEY, DEFAULT)
    st.selectbox(_("Language"), codes, key=key, **held.index(key, codes),
                 format_func=lambda code: language(code).name, on_change=_picked,
                 help=_("The app's language on this device. Everyone in a room may choose their own."))
