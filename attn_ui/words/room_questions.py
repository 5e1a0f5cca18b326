"""A live lecture room's question, whichever lecture it came from: a built-in scene (`scene:<n>`, live.py) or a scene
of the lecturer's own deck (`deck:<n>`, attn_core.deck), worded in the run's language.

A deck's scenes are not in the app, so Go live keeps each one with its room: its spec (the scene as a deck of one, in
the deck file's own JSON format) is stored beside its question (attn_poll's poll_question_specs), and every phone,
projector and replica reads it back from the database. A spec is read as strictly as a deck's file: one that no
longer reads (changed by hand, written by another version) raises SceneUnreadable, a sentence, never half a question.

room_question() is the one resolver the phones, the projector, the CSV and the recap ask: (question id, spec) -> the
RoomQuestion (its Live, scored as a built-in scene's is, and the words around it), or None for no lecture's question.
A deck's number is a grid of options exactly like a built-in Guess (attn_core.asks.Answer.grid: a phone sends a grid
index); a choice its options; a discussion ("discuss") is a Live of kind "none", with no option to answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from attn_core import Settings, compute
from attn_core.deck import MAX_SCENES, Deck, DeckError, DeckScene, deck_data, read_json
from attn_lang import _
from attn_ui.words import deck_words
from attn_ui.words.live import PLAIN, Live, format_number, live_question, numbered, scene_of, scene_text
from attn_ui.words.scenes import SCENES

DECK_PREFIX = "deck:"  # + the scene's number in the deck, from 1: a deck room's question ids


class SceneUnreadable(ValueError):
    """A deck room's question whose stored scene no longer reads; the message is a sentence for any screen."""


@dataclass(frozen=True)
class RoomQuestion:
    """A lecture room's question with what the screens show around it, in the run's language."""

    number: int  # the scene, from 1
    question: Live  # what a phone answers and the projector scores
    title: str  # Markdown (a lecturer's own words escaped)
    name: str  # the title as plain text, for a file
    answer: str  # the revealed answer, Markdown (a deck scene's narration after it)
    settings: Settings  # the scene's Lab state, for the Lab's link
    row: int | None  # from 1: the row the Lab outlines


def deck_question_id(number: int) -> str:
    return f"{DECK_PREFIX}{number}"


def deck_of(question_id: str | None) -> int | None:
    """The scene number of a deck room's question id, or None for any other id (a deck has at most MAX_SCENES)."""
    return numbered(question_id, DECK_PREFIX, MAX_SCENES)


def scene_spec(scene: DeckScene) -> str:
    """A deck scene as the room stores it: a deck of one scene, as the deck's file writes it (compact)."""
    return json.dumps(deck_data(Deck("", (scene,))), ensure_ascii=False, separators=(",", ":"))


def read_spec(spec: str | None) -> DeckScene:
    """The scene a room stored, read as strictly as a deck's file; DeckError when it does not read."""
    if not isinstance(spec, str):
        raise DeckError([])
    read = read_json(spec)
    if len(read.scenes) != 1:
        raise DeckError([])
    return read.scenes[0]


def deck_live(number: int, scene: DeckScene, words: deck_words.DeckWords | None = None) -> Live:
    """A deck scene's question as a Live, in the run's language: the core's answer, its grid or options."""
    answer = scene.answer()
    words = deck_words.scene_words(scene, compute(scene.settings)) if words is None else words
    if answer.kind == "choice":
        return Live(number, words.question, "choice", words.options, (), answer.right, None, PLAIN, 0.0, words.why)
    if answer.kind == "number":
        values = answer.grid
        return Live(number, words.question, "number", tuple(format_number(v, answer.decimals) for v in values),
                    values, None, answer.value, PLAIN, answer.tolerance, words.why)
    return Live(number, words.question, "none", (), (), None, None, PLAIN, 0.0, "")


def deck_question(number: int, scene: DeckScene) -> RoomQuestion:
    words = deck_words.scene_words(scene, compute(scene.settings))
    answer = "\n\n".join(part for part in (words.answer, words.narration) if part)
    name = scene.title or _(deck_words.KINDS[scene.ask][1])  # as typed: a file is no Markdown
    return RoomQuestion(number, deck_live(number, scene, words), words.title, name, answer, scene.settings,
                        scene.row)


def deck_questions(deck: Deck) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    """What Go live opens a deck's room with: (question id, option count) for each scene, and each scene's spec."""
    listed = tuple((deck_question_id(number), deck_live(number, scene).option_count)
                   for number, scene in enumerate(deck.scenes, start=1))
    return listed, tuple(scene_spec(scene) for scene in deck.scenes)


def room_question(question_id: str | None, spec: str | None = None) -> RoomQuestion | None:
    """The one resolver: a room's question id and its spec (None for a built-in scene) -> its RoomQuestion in the
    run's language; None for an id of no lecture (a class poll's, a deck number past MAX_SCENES); SceneUnreadable for
    a deck scene whose spec is missing or no longer reads."""
    number = scene_of(question_id)
    if number is not None:
        scene, words = SCENES[number - 1], scene_text(number)
        return RoomQuestion(number, live_question(number), words.title, words.title, words.answer, scene.settings,
                            scene.row)
    number = deck_of(question_id)
    if number is None:
        return None
    try:
        scene = read_spec(spec)
    except DeckError:
        raise SceneUnreadable(_("Scene {number} of this lecture cannot be shown: what its room keeps of it is not a "
                                "scene this app can read. The lecturer can go live again from the deck.",
                                number=number)) from None
    return deck_question(number, scene)
