"""The lecturer's deck in this session and in the address: read, added to, changed, written back.

The deck lives in the address of the Your lecture page as `deck=` (attn_core.deck.to_link), so a reload, a bookmark
or a link in a slide brings it back; in the session it is a list of scenes, each with an id that stays with it when
scenes move, so each scene's widgets keep their own values. The Lab's "Add this view to my lecture" link opens the
page with `add=` (the Lab's state) and `row=`; the page adds the scene and takes `add` out of the address.

A deck too long for an address (see MAX_LINK_CHARS) stays in the session and its file; the page says so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl

import streamlit as st

from attn_core import settings_from_query
from attn_core.asks import AskError
from attn_core.deck import MAX_SCENES, Deck, DeckError, DeckScene, fits_link, read_json, read_link, to_json, to_link
from attn_core.query import read_row
from attn_lang import _, _n
from attn_ui.widgets import deck_keep

SCENES_KEY = "deck.scenes"  # [(id, DeckScene)]
TITLE_KEY = "deck.title"
NEXT_ID_KEY = "deck.next_id"
LINK_KEY = "deck.link"  # the deck= value this session last wrote or read: an address that differs is another deck
NOTES_KEY = "deck.notes"  # sentences for the lecturer, shown once
PROBLEMS_KEY = "deck.problems"  # a deck that could not be read: its problems, shown once
UPLOAD_KEY = "deck.upload"
DECK_PARAM = "deck"
ADD_PARAM = "add"


def scenes() -> list[tuple[int, DeckScene]]:
    return list(st.session_state.get(SCENES_KEY) or [])


def deck() -> Deck:
    return Deck(st.session_state.get(TITLE_KEY) or "", tuple(scene for _id, scene in scenes()))


def _new_id() -> int:
    number = int(st.session_state.get(NEXT_ID_KEY) or 0)
    st.session_state[NEXT_ID_KEY] = number + 1
    return number


def _set(read: Deck) -> None:
    st.session_state[SCENES_KEY] = [(_new_id(), scene) for scene in read.scenes]
    st.session_state[TITLE_KEY] = read.title


def note(text: str) -> None:
    st.session_state[NOTES_KEY] = [*st.session_state.get(NOTES_KEY, []), text]


def take_notes() -> list[str]:
    return st.session_state.pop(NOTES_KEY, [])


def take_problems() -> tuple[str, ...]:
    return st.session_state.pop(PROBLEMS_KEY, ())


def read_address() -> None:
    """Take the deck from the address when it names one this session does not hold; else, once the browser has said
    what it keeps, that deck (or, when the address brought another, offer it back); then any scene to add, once the
    browser has answered (a view added before would start a deck beside the kept one)."""
    value = st.query_params.get_all(DECK_PARAM)
    if value and value[-1] != st.session_state.get(LINK_KEY):
        try:
            _set(read_link(value[-1]))
        except DeckError as error:
            st.session_state[PROBLEMS_KEY] = error.problems
        st.session_state[LINK_KEY] = value[-1]
    answered, kept = deck_keep.take_arrived()
    if answered and kept is not None:
        if not scenes():
            _set(kept)
            write_address(keep=False)
        elif kept != deck():
            deck_keep.offer(kept)
    added = st.query_params.get_all(ADD_PARAM)
    if added and deck_keep.loaded():
        _add(added[-1], (st.query_params.get_all("row") or [None])[-1])
        del st.query_params[ADD_PARAM]
        if "row" in st.query_params:
            del st.query_params["row"]
        write_address()


def _add(state: str, raw_row: str | None) -> None:
    if len(scenes()) >= MAX_SCENES:
        note(_("The deck already has {most} scenes, as many as a deck may have: remove one to add this view.",
               most=MAX_SCENES))
        return
    settings, notes = settings_from_query(dict(parse_qsl(state[:2_000], keep_blank_values=True)))
    row, row_note = read_row(raw_row, len(settings.tokens))
    for text in [*notes, *([row_note] if row_note else [])]:
        note(text)
    row = None if row is None else row + 1
    scene = None
    for kind in (("largest", "blocked") if row is not None else ("blocked",)):
        try:
            scene = DeckScene(settings, kind, row=row)
            scene.answer()
            break
        except AskError:
            scene = None
    if scene is None:  # a row with nothing to look at: ask how many cells are blocked, which always works
        scene = DeckScene(settings, "blocked", row=row)
    st.session_state[SCENES_KEY] = [*scenes(), (_new_id(), scene)]
    note(_("The Lab's view is scene {number}. Choose what to ask about it below.", number=len(scenes())))


def write_address(keep: bool = True) -> None:
    """Write the deck into the address (or take it out when the deck is empty or too long for one), and (`keep`: a
    change the lecturer made) keep it in her browser."""
    current = deck()
    if keep:
        deck_keep.save(to_json(current) if current.scenes else "")
    if not current.scenes:
        value = None
    elif fits_link(current):
        value = to_link(current)
    else:
        value = None
        note(_("The deck is now too long for an address: this browser keeps it, and its file keeps it anywhere."))
    st.session_state[LINK_KEY] = value
    if value is None:
        if DECK_PARAM in st.query_params:
            del st.query_params[DECK_PARAM]
    elif st.query_params.get(DECK_PARAM) != value:
        st.query_params[DECK_PARAM] = value


def change(scene_id: int, **changes: Any) -> None:
    """Change one scene; a change that makes its question unaskable is refused with the reason, and undone."""
    current = scenes()
    for index, (sid, scene) in enumerate(current):
        if sid != scene_id:
            continue
        changed = replace(scene, **changes)
        try:
            changed.answer()
        except AskError as error:
            note(_("Scene {number}: {problem}", number=index + 1, problem=str(error)))
            return
        current[index] = (sid, changed)
        st.session_state[SCENES_KEY] = current
        write_address()
        return


def move(scene_id: int, by: int) -> None:
    current = scenes()
    index = next(i for i, (sid, _scene) in enumerate(current) if sid == scene_id)
    target = index + by
    if 0 <= target < len(current):
        current[index], current[target] = current[target], current[index]
        st.session_state[SCENES_KEY] = current
        write_address()


def remove(scene_id: int) -> None:
    st.session_state[SCENES_KEY] = [(sid, scene) for sid, scene in scenes() if sid != scene_id]
    write_address()


def retitle_deck(key: str) -> None:
    st.session_state[TITLE_KEY] = str(st.session_state.get(key) or "")[:80]
    write_address()


UNDO_KEY = "deck.put_aside"  # the deck "Start a new deck" put aside, until the next change


def clear() -> None:
    st.session_state[UNDO_KEY] = deck()
    st.session_state[SCENES_KEY] = []
    st.session_state[TITLE_KEY] = ""
    write_address()


def can_undo_clear() -> bool:
    return isinstance(st.session_state.get(UNDO_KEY), Deck) and not scenes()


def undo_clear() -> None:
    put_aside = st.session_state.pop(UNDO_KEY, None)
    if isinstance(put_aside, Deck):
        _set(put_aside)
        write_address()


def open_kept() -> None:
    """The offered deck, the one this browser kept, replaces the one the address brought."""
    kept = deck_keep.offered()
    if kept is not None:
        _set(kept)
        write_address()


def upload() -> None:
    """The uploaded file replaces the deck; a file that cannot be read changes nothing and says why."""
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        return
    try:
        read = read_json(file.getvalue())
    except DeckError as error:
        st.session_state[PROBLEMS_KEY] = error.problems
        return
    _set(read)
    write_address()
    note(_n("The file's deck is open: {count} scene.", "The file's deck is open: {count} scenes.", len(read.scenes)))
