"""The host's rights without the host secret on any screen: a projector's address bar and every menu are photographed.

A host link (`?room=CODE&host=SECRET`, on the Class poll or the Lecture scenes page) is taken once: the secret is
checked, kept in this session, and handed to this browser as a cookie (`attn_host_<CODE>`, for the room's lifetime);
the address then drops `host=` in place (history.replaceState: no history entry keeps it either). From then on this
browser is the room's host on every page and after a reload or an app restart (st.context.cookies), and a host link
still works when it is opened again. Go live and "Open a room" give their browser the same cookie directly.

The secret is never drawn: the page holds it only in a hidden marker's class name, which the constant script below
reads to set the cookie, and to copy the host link to the clipboard when the lecturer presses "Copy the host link"
(the explicit way to take the rights to another device). tests/browser/test_live_secret_browser.py opens every
menu in projector mode and looks for the secret in the page's text and its address.
"""

from __future__ import annotations

import streamlit as st

from attn_lang import _
from attn_ui.views import poll_service

COOKIE_PREFIX = "attn_host_"  # + the room code
MARK = "attn-host"  # the hidden marker's key: attn-host-<CODE>-<SECRET> (both are URL-safe, so a valid class name)
COOKIE_MAX_AGE_S = 43_200  # written into HOST_JS: a room's lifetime (Limits.room_lifetime_s, tested equal)

# One constant script a window: it finds the marker, keeps the host's cookie, takes `host=` out of the address in
# place, and answers the copy buttons (.st-key-host-copy) with the host link, built here in the browser.
HOST_JS = """
<script id="attn-host">
if (!window.__attnHost) {
  window.__attnHost = true;
  const prefix = "st-key-attn-host-";
  const marked = () => {
    const mark = document.querySelector(`[class*="${prefix}"]`);
    const name = mark && [...mark.classList].find((name) => name.startsWith(prefix));
    if (!name) return null;
    const rest = name.slice(prefix.length);
    return {code: rest.slice(0, 7), secret: rest.slice(8)};
  };
  const keep = () => {
    const host = marked();
    if (!host) return;
    const secure = location.protocol === "https:" ? "; secure" : "";
    const cookie = `attn_host_${host.code}=${host.secret}; path=/; max-age=43200; samesite=lax${secure}`;
    if (!document.cookie.includes(`attn_host_${host.code}=${host.secret}`)) document.cookie = cookie;
    const address = new URL(location.href);
    if (address.searchParams.has("host")) {
      address.searchParams.delete("host");
      history.replaceState(history.state, "", address.toString());
    }
  };
  const copy = async (text) => {
    try { await navigator.clipboard.writeText(text); return true; } catch (error) { /* not a secure context */ }
    const box = document.createElement("textarea");
    box.value = text;
    box.setAttribute("readonly", "");
    box.style.cssText = "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;";
    document.body.appendChild(box);
    box.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    box.remove();
    return done;
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest(".st-key-host-copy button");
    const host = button && marked();
    if (!host) return;
    const link = new URL(location.href);
    link.search = "";
    link.searchParams.set("room", host.code);
    link.searchParams.set("host", host.secret);
    copy(link.toString()).then((done) => { button.dataset.copied = done ? "yes" : "no"; });
  }, {capture: true});
  new MutationObserver(keep).observe(document.body, {subtree: true, childList: true});
  keep();
}
</script>
<style>[class*="st-key-attn-host-"] { display: none !important; }</style>
"""


def cookie_secret(code: str) -> str | None:
    """The host secret this browser's cookie holds for the room (unchecked), or None."""
    value = st.context.cookies.get(COOKIE_PREFIX + code)
    return value if isinstance(value, str) and 16 <= len(value) <= 64 else None


def secret_for(code: str) -> str | None:
    """The host secret this session or this browser holds for the room (unchecked), or None."""
    return poll_service.host_secret_for(code) or cookie_secret(code)


def keep(code: str, secret: str) -> None:
    """This session is the room's host (its secret was checked): keep it, and hand the browser its cookie and the
    copy button its link, through the hidden marker. Drawn on every run of a host page; the script acts once.

    The script takes `host=` out of the address in place; a later run of the same session takes it out of the
    server's copy too (by then the browser's address no longer holds it, so Streamlit writes no history entry)."""
    held_before = poll_service.host_secret_for(code) == secret
    poll_service.remember_host(code, secret)
    if held_before and "host" in st.query_params:
        del st.query_params["host"]
    with st.container(key=f"{MARK}-{code}-{secret}"):
        st.html(HOST_JS, unsafe_allow_javascript=True)


def copy_button(key: str = "host.copy") -> None:
    """Copy the host link to this device's clipboard, to run the room from another device. The link is put together
    in the browser (HOST_JS) and never drawn."""
    with st.container(key="host-copy"):
        st.button(_("Copy the host link"), key=key, icon=":material/key:", on_click=_copied,
                  help=_("Puts the link that controls this room on this device's clipboard, without showing it. "
                         "Open it on another device to run the room from there; keep it private."))


def _copied() -> None:
    st.toast(_("The host link is on this device's clipboard. Keep it private: it controls the room."),
             icon=":material/key:")
