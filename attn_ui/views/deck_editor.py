"""Your lecture, while it is being built: the deck's scenes, each with what it asks, its computed answer, and the
lecturer's own words; the deck's file, link and figures; the way to present it.

Every change goes through attn_ui/widgets/deck_state.py, which keeps the deck in the address. A change that would
make a scene's question unfair (a tie, a row that sees nothing) is refused with its reason and the control goes back.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from attn_core.asks import ASKS
from attn_core.deck import MAX_SCENES, MAX_TEXT_CHARS, MAX_TITLE_CHARS, DeckScene, fits_link, to_json, to_link
from attn_lang import _, _n
from attn_ui.figures.deck_export import export_zip
from attn_ui.views import scene_nav
from attn_ui.widgets import deck_keep, deck_state, lang, panels, state, theme
from attn_ui.widgets.lab_link import lab_button
from attn_ui.words import deck_words
from attn_ui.words.escape import md_escape
from attn_ui.words.export import lab_root

PAGE = "pages/11_Your_lecture.py"


def _key(scene_id: int, name: str) -> str:
    return f"deck.{scene_id}.{name}"


def _changed(scene_id: int, name: str, old: object) -> None:
    """A widget of one scene changed: apply it, or put the widget back when the deck refuses it."""
    value = st.session_state.get(_key(scene_id, name))
    changes: dict[str, object] = {name: value}
    scene = dict(deck_state.scenes())[scene_id]
    if name == "ask":  # a kind brings what it needs: a row, a key
        needs = ASKS[str(value)]
        if needs.needs_row and scene.row is None:
            changes["row"] = 1
        if needs.needs_key and scene.key is None:
            changes["key"] = scene.row or 1
    deck_state.change(scene_id, **changes)
    if getattr(dict(deck_state.scenes())[scene_id], name) != value:  # refused: the widget shows the deck again
        st.session_state[_key(scene_id, name)] = old


def _position_label(scene: DeckScene):
    labels = state.cached_compute(scene.settings).labels
    return lambda position: _("{number} · {word}", number=position, word=labels[position - 1])


def _controls(scene_id: int, scene: DeckScene, number: int, count: int) -> None:
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.markdown(_("**Scene {number}**", number=number), width="content")
        st.button(_("Earlier"), icon=":material/arrow_upward:", key=_key(scene_id, "up"), disabled=number == 1,
                  on_click=deck_state.move, args=(scene_id, -1))
        st.button(_("Later"), icon=":material/arrow_downward:", key=_key(scene_id, "down"),
                  disabled=number == count, on_click=deck_state.move, args=(scene_id, 1))
        st.button(_("Remove"), icon=":material/delete:", key=_key(scene_id, "remove"),
                  on_click=deck_state.remove, args=(scene_id,))
    kinds = list(ASKS)
    st.selectbox(_("What to ask"), kinds, index=kinds.index(scene.ask), format_func=deck_words.kind_name,
                 key=_key(scene_id, "ask"), on_change=_changed, args=(scene_id, "ask", scene.ask))
    needs = ASKS[scene.ask]
    positions = list(range(1, len(scene.settings.tokens) + 1))
    label = _position_label(scene)
    if needs.needs_row:
        st.selectbox(_("Row (the word looking)"), positions, index=(scene.row or 1) - 1, format_func=label,
                     key=_key(scene_id, "row"), on_change=_changed, args=(scene_id, "row", scene.row))
    if needs.needs_key:
        st.selectbox(_("Key (the word looked at)"), positions, index=(scene.key or 1) - 1, format_func=label,
                     key=_key(scene_id, "key"), on_change=_changed, args=(scene_id, "key", scene.key))
    st.text_input(_("Title (leave empty for the question's own)"), value=scene.title, max_chars=MAX_TITLE_CHARS,
                  key=_key(scene_id, "title"), on_change=_changed, args=(scene_id, "title", scene.title))
    if scene.ask == "discuss":
        st.text_area(_("Your question for the room"), value=scene.prompt, max_chars=MAX_TEXT_CHARS, height=90,
                     key=_key(scene_id, "prompt"), on_change=_changed, args=(scene_id, "prompt", scene.prompt))
    st.text_area(_("Your words, shown with the answer"), value=scene.narration, max_chars=MAX_TEXT_CHARS, height=90,
                 key=_key(scene_id, "narration"), on_change=_changed, args=(scene_id, "narration",
                                                                         scene.narration))


def _preview(scene: DeckScene) -> None:
    words = deck_words.scene_words(scene, state.cached_compute(scene.settings))
    st.markdown(_("**{title}**", title=words.title))
    st.markdown(words.question)
    if words.options:
        st.caption(_("Options: {options}", options=" · ".join(md_escape(option) for option in words.options)))
    if words.answer:
        st.markdown(_("Answer: {answer}", answer=words.answer))
        st.caption(words.why)
    else:
        st.caption(_("Not scored: the room talks, the board shows the map."))
    st.caption(_("Before the answer the board shows {givens}.", givens=deck_words.givens_name(scene.ask)))
    lab_button(scene.settings, _("Open in the Lab"), row="" if scene.row is None else str(scene.row),
               **lang.url_view(), **theme.url_view())


def scene_list() -> None:
    """Every scene of the deck: its controls beside its question and computed answer."""
    current = deck_state.scenes()
    if not current:
        st.info(_("No scenes yet. In the Lab, set up what you want the room to see and press **Add this view to my "
                  "lecture** under the map; or upload a deck's file below."), icon=":material/add_to_queue:")
        return
    for number, (scene_id, scene) in enumerate(current, start=1):
        with st.container(border=True, key=f"deck-scene-{scene_id}"):
            controls, preview = st.columns([1, 1], gap="medium")
            with controls:
                _controls(scene_id, scene, number, len(current))
            with preview:
                _preview(scene)


def deck_tools() -> None:
    """The deck's title, its file (down and up), its link, its figures, and the way to present it."""
    current = deck_state.deck()
    st.text_input(_("The lecture's title"), value=current.title, max_chars=MAX_TITLE_CHARS, key="deck.title.input",
                  on_change=deck_state.retitle_deck, args=("deck.title.input",))
    count = len(current.scenes)
    st.caption(_n("{count} scene of at most {most}", "{count} scenes of at most {most}", count,
                  most=MAX_SCENES))
    with st.container(horizontal=True, gap="small"):
        st.button(_("Present"), icon=":material/slideshow:", type="primary", key="deck.present",
                  disabled=not count, on_click=scene_nav.write_step, args=(1, False))
        st.download_button(_("Download the deck"), to_json(current) if count else "", file_name="lecture.json",
                           mime="application/json", icon=":material/download:", key="deck.download",
                           disabled=not count, on_click="ignore")
        st.download_button(_("Figures for slides (SVG)"), export_zip(current) if count else b"",
                           file_name="lecture-figures.zip", mime="application/zip", icon=":material/image:",
                           key="deck.figures", disabled=not count, on_click="ignore")
    if count:
        root = lab_root(st.context.url)
        if fits_link(current):
            address = f"{root}Your_lecture?{urlencode({'deck': to_link(current)})}" if root else ""
            with st.expander(_("Link to this lecture")):
                st.code(address or to_link(current), language=None, wrap_lines=True)
                st.caption(_("The link holds the whole deck ({length:,} characters): a bookmark or a slide keeps it.",
                             length=len(address or to_link(current))))
        else:
            st.caption(_("This deck is too long for a link: its file keeps it."))
    st.file_uploader(_("Open a deck's file"), type=["json"], key=deck_state.UPLOAD_KEY, max_upload_size=1,
                     on_change=deck_state.upload, help=_("A deck you downloaded here before: it replaces this one."))
    if count:
        st.button(_("Start a new deck"), icon=":material/restart_alt:", key="deck.clear", on_click=deck_state.clear)
    elif deck_state.can_undo_clear():
        st.button(_("Undo: bring back the deck just put aside"), icon=":material/undo:", key="deck.undo",
                  on_click=deck_state.undo_clear)


def _edit() -> None:
    for key in ("scene", "reveal"):
        if key in st.query_params:
            del st.query_params[key]


def edit_button() -> None:
    """Beside "Scene n of N" while presenting: back to the deck's scenes."""
    st.button(_("Edit"), icon=":material/edit:", key="deck.edit", on_click=_edit, help=_("Back to the deck's scenes"))


def notes() -> None:
    """What the last action did or refused, and a deck that could not be read."""
    problems = deck_state.take_problems()
    if problems:
        st.error(_("This deck could not be opened. Nothing was changed.") + "\n\n"
                 + "\n".join(f"- {problem}" for problem in problems), icon=":material/error:")
    panels.show_notes(deck_state.take_notes())
    kept = deck_keep.offered()
    if kept is not None:
        with st.container(border=True, key="deck-kept"):
            st.markdown(_n("This browser also keeps another deck of yours, *{title}*, with {count} scene. The one "
                           "shown came with the link; it replaces the kept one once you change it.",
                           "This browser also keeps another deck of yours, *{title}*, with {count} scenes. The one "
                           "shown came with the link; it replaces the kept one once you change it.",
                           len(kept.scenes), title=md_escape(kept.title) if kept.title else _("untitled")))
            with st.container(horizontal=True, gap="small"):
                st.button(_("Open the kept deck"), key="deck.kept.open", on_click=deck_state.open_kept,
                          icon=":material/history:")
                st.button(_("Keep working on this one"), key="deck.kept.dismiss", on_click=deck_keep.forget_offer)
