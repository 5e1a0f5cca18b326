"""Back, where we are, Next: stepping through the lecture scenes like slide builds.

A scene first asks its question; Next (or a key) reveals the board and the answer, and the next press moves on.
Back undoes one step: it hides the answer, or goes to the previous scene with its answer showing. Both live in
the URL (`scene`, `reveal`), so a slide can link to either step.

Clickers send Page Up / Page Down, some send the arrows, and a keyboard has Space. Streamlit 1.67 gives a button
one shortcut, so the visible Back and Next carry Page Up and Page Down, and a row of visually hidden buttons (not
display:none, which would drop their shortcuts; tests/browser/test_scene_keys_browser.py checks in Chromium)
carries the other keys
(named Forward and Previous, so that Next and Back stay unique names). A keyboard user who tabs onto one sees
it appear (look.py).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from attn_lang import N_, _
from attn_ui.widgets import look

# The other keys of Next and Back (besides Page Down and Page Up on the visible buttons): the shortcut as Streamlit
# names it, and the hidden button's label as a screen reader says it, one message a key (a key's name is a word of
# the language, not code: "Right" is "flecha derecha" in Spanish)
NEXT_KEYS = (("Right", N_("Forward (right arrow)")), ("Down", N_("Forward (down arrow)")),
             ("Space", N_("Forward (space bar)")))
BACK_KEYS = (("Left", N_("Previous (left arrow)")), ("Up", N_("Previous (up arrow)")))


def write_step(number: int, revealed: bool) -> None:
    """Write the step in one message, so one press is one history entry: two writes (scene, then reveal) made two,
    and the browser's Back then showed a step nobody saw (the next scene with the last one's answer flag)."""
    kept = {key: st.query_params.get_all(key)[-1] for key in st.query_params if key not in ("scene", "reveal", "host")}
    st.query_params.from_dict({**kept, "scene": str(number), **({"reveal": "1"} if revealed else {})})


def steps(number: int, count: int, revealed: bool) -> tuple[tuple[int, bool] | None, tuple[int, bool] | None]:
    """Where Back and Next lead from (scene, revealed): None at either end of the lecture."""
    forward = (number, True) if not revealed else ((number + 1, False) if number < count else None)
    back = (number, False) if revealed else ((number - 1, True) if number > 1 else None)
    return back, forward


def scene_nav(number: int, count: int, revealed: bool = True, beside: Callable[[], None] | None = None) -> None:
    """Back, "Scene n of N", Next; then the hidden buttons that give Next and Back their other keys. `beside`
    draws one small control next to "Scene n of N" (the live lecture's Go live or its badge)."""
    back_to, forward_to = steps(number, count, revealed)
    back, where, forward = st.columns([1, 1.2, 1], vertical_alignment="center", gap="small")
    back.button(_("Back"), icon=":material/arrow_back:", key="scenes.back", width="stretch", shortcut="PageUp",
                disabled=back_to is None, on_click=write_step, args=back_to or (number, revealed))
    with where.container(key="scene-where", horizontal=True, horizontal_alignment="center",
                         vertical_alignment="center", gap="small"):
        st.markdown(_("**Scene {number} of {count}**", number=number, count=count), text_alignment="center",
                    width="content")
        if beside is not None:
            beside()
    forward.button(_("Next"), icon=":material/arrow_forward:", icon_position="right", key="scenes.next",
                   width="stretch", shortcut="PageDown", type="primary", disabled=forward_to is None,
                   on_click=write_step, args=forward_to or (number, revealed),
                   help=_("Shows the answer, then moves to the next scene"))
    look.apply_scene_keys_look()
    with st.container(key="scenes-keys", horizontal=True):
        for key, label in NEXT_KEYS:
            st.button(_(label), key=f"scenes.next.{key.lower()}", shortcut=key,
                      disabled=forward_to is None,
                      on_click=write_step, args=forward_to or (number, revealed))
        for key, label in BACK_KEYS:
            st.button(_(label), key=f"scenes.back.{key.lower()}", shortcut=key,
                      disabled=back_to is None,
                      on_click=write_step, args=back_to or (number, revealed))
