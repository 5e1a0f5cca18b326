"""Your lecture (pages/11_Your_lecture.py) in AppTest: a deck opened from its link lists every scene with the answer
the core computes; presented, each question step shows its givens and not its answer, and Next shows it; a view added
from the Lab becomes a scene; a change that would make a question unfair is refused and undone; a hostile link or
title changes nothing and shows as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import checked, open_page, run_lab

from attn_core import Settings, compute
from attn_core.deck import Deck, DeckScene, read_json, read_link, to_link
from attn_ui.words.deck_words import kinds_markdown

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/11_Your_lecture.py"
EXAMPLE = read_json((ROOT / "docs/decks/masks-week-3.json").read_bytes())


def browser_answered(kept: Deck | None = None, **query: str):
    """The page as a browser opens it once its storage has answered (AppTest runs no component script): with `kept`,
    the deck this browser keeps."""
    from streamlit.testing.v1 import AppTest

    from attn_ui.widgets import deck_keep

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.run()
    at.session_state[deck_keep.LOADED_KEY] = True
    at.session_state[deck_keep.ARRIVED_KEY] = kept
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(PAGE).run()
    return checked(at)


def texts(at) -> str:
    """Every word the page draws as Markdown: headings, text, captions."""
    return "\n".join([m.value for m in at.markdown] + [s.value for s in at.subheader] + [c.value for c in at.caption])


def test_the_docs_table_of_question_kinds_is_the_kinds_own():
    assert kinds_markdown() in (ROOT / "docs/lecture.md").read_text()


def test_an_example_deck_opens_with_every_answer_computed_by_the_core():
    at = open_page(PAGE, deck=to_link(EXAMPLE))
    shown = texts(at)
    for number, scene in enumerate(EXAMPLE.scenes, start=1):
        assert f"**Scene {number}**" in shown
        got = scene.answer()
        if got.kind == "number":
            assert f"**{got.value:,.{got.decimals}f}**" in shown
    assert not at.error


@pytest.mark.parametrize("number", range(1, len(EXAMPLE.scenes) + 1))
def test_each_scene_asks_first_and_answers_on_next(number):
    scene = EXAMPLE.scenes[number - 1]
    got = scene.answer()
    asked = open_page(PAGE, deck=to_link(EXAMPLE), scene=str(number))
    question = texts(asked)
    assert f"**Scene {number} of {len(EXAMPLE.scenes)}**" in question
    if got.kind == "number":
        value = f"{got.value:,.{got.decimals}f}"
        assert f"**{value}**" not in question
        if got.decimals == 0:  # a count: not anywhere in the question step's words
            lines = [line for line in question.splitlines() if value in line.replace("**", "").split()]
            assert not lines, lines
    assert "Map **" not in question
    asked.button(key="scenes.next").click().run()
    checked(asked)
    assert asked.query_params["reveal"] == ["1"] or asked.query_params.get("reveal") == "1"
    revealed = texts(asked)
    if got.kind == "number":
        assert f"**{got.value:,.{got.decimals}f}**" in revealed
    if scene.narration:
        assert scene.narration.split()[0] in revealed
    links = [link.proto for link in asked.get("page_link") if link.proto.label == "Open in the Lab"]
    assert links  # the scene's state, to explore


def test_a_view_from_the_lab_becomes_a_scene_and_the_deck_goes_into_the_address():
    waiting = open_page(PAGE, add="causal=1&heads=2&view=2", row="3")
    assert "add" in waiting.query_params and not waiting.query_params.get("deck"), "added once the browser answers"
    at = browser_answered(add="causal=1&heads=2&view=2", row="3")
    assert "add" not in at.query_params
    deck = read_link(at.query_params["deck"] if isinstance(at.query_params["deck"], str)
                     else at.query_params["deck"][-1])
    assert deck.scenes == (DeckScene(Settings(causal=True, heads=2, view=2), "largest", row=3),)
    assert "What is the largest weight in row 3" in texts(at)


def test_the_lab_offers_its_view_to_a_lecture_and_its_map_as_svg():
    at = run_lab(causal="1", row="2")
    links = [e for e in at.get("page_link") if "Add this view" in e.proto.label]
    assert links and links[0].proto.query_string == "add=causal%3D1&row=2"  # the Lab's state and its picked row
    svg = [b for b in at.get("download_button") if b.proto.label == "Map as SVG"]
    assert svg


def _deck_of(at) -> Deck:
    value = at.query_params["deck"]
    return read_link(value if isinstance(value, str) else value[-1])


def test_changing_what_a_scene_asks_moving_and_removing_scenes_update_the_deck():
    start = Deck("", (DeckScene(Settings(causal=True), "blocked"), DeckScene(Settings(causal=True), "d_head")))
    at = open_page(PAGE, deck=to_link(start))
    at.selectbox(key="deck.0.ask").set_value("padding").run()
    assert [s.ask for s in _deck_of(checked(at)).scenes] == ["padding", "d_head"]
    at.selectbox(key="deck.0.ask").set_value("weight").run()  # a kind that needs a row and a key brings them
    assert _deck_of(checked(at)).scenes[0] == DeckScene(Settings(causal=True), "weight", row=1, key=1)
    at.selectbox(key="deck.0.key").set_value(1).run()
    at.text_input(key="deck.0.title").input("My title").run()
    assert _deck_of(checked(at)).scenes[0].title == "My title"
    at.button(key="deck.0.down").click().run()
    assert [s.ask for s in _deck_of(checked(at)).scenes] == ["d_head", "weight"]
    at.button(key="deck.1.remove").click().run()
    assert [s.ask for s in _deck_of(checked(at)).scenes] == ["weight"]


def test_a_tie_is_refused_with_its_reason():
    at = open_page(PAGE, deck=to_link(Deck("", (DeckScene(Settings(sentence="same same"), "largest", row=2),))))
    at.selectbox(key="deck.0.ask").set_value("most").run()
    checked(at)
    assert _deck_of(at).scenes[0].ask == "largest"
    assert at.selectbox(key="deck.0.ask").value == "largest"
    assert any("equal to two decimals" in box.value for box in [*at.info, *at.warning, *at.toast])


def test_a_damaged_link_changes_nothing_and_says_why():
    at = open_page(PAGE, deck="bm90IGEgZGVjaw")
    assert any("could not be opened" in e.value and "damaged" in e.value for e in at.error)
    assert "No scenes yet" in "\n".join(i.value for i in at.info)


def test_markup_in_a_lecturers_words_is_shown_as_text():
    deck = Deck("<b>bold</b>", (DeckScene(Settings(), "discuss", title="**loud** <script>x</script>",
                                          prompt="[click](javascript:alert(1)) :red[red] $x$"),))
    at = open_page(PAGE, deck=to_link(deck), scene="1", reveal="1")
    shown = [s.value for s in at.subheader] + [m.value for m in at.markdown]
    assert any(r"\*\*loud\*\* \<script\>x\<\/script\>" in text for text in shown), shown
    assert any(r"\[click\]\(javascript\:alert\(1\)\)" in text for text in shown), shown


def test_a_scene_out_of_range_is_a_note_not_a_crash():
    at = open_page(PAGE, deck=to_link(EXAMPLE), scene="99")
    assert at.toast or at.info or at.warning


def test_spanish_asks_the_same_questions_in_spanish():
    at = open_page(PAGE, deck=to_link(EXAMPLE), scene="1", lang="es")
    question = texts(at)
    assert "How many cells" not in question
    assert compute(EXAMPLE.scenes[0].settings).masked_cells == 15


def test_a_view_added_in_a_new_session_joins_the_deck_this_browser_keeps():
    kept = Deck("Mine", (DeckScene(Settings(causal=True), "blocked"),))
    at = browser_answered(kept, add="heads=2", row="2")
    assert _deck_of(at) == Deck("Mine", (*kept.scenes, DeckScene(Settings(heads=2), "largest", row=2)))


def test_a_linked_deck_does_not_replace_the_kept_one_unasked_and_the_kept_one_can_be_opened():
    kept = Deck("Mine", (DeckScene(Settings(causal=True), "blocked"),))
    linked = Deck("A colleague's", (DeckScene(Settings(), "d_head"),))
    at = browser_answered(kept, deck=to_link(linked))
    assert _deck_of(at) == linked
    offer = "\n".join(m.value for m in at.markdown)
    assert "also keeps another deck of yours, *Mine*, with 1 scene" in offer
    at.button(key="deck.kept.open").click().run()
    assert _deck_of(checked(at)) == kept


def test_starting_a_new_deck_can_be_undone():
    at = open_page(PAGE, deck=to_link(EXAMPLE))
    at.button(key="deck.clear").click().run()
    assert "deck" not in checked(at).query_params
    at.button(key="deck.undo").click().run()
    assert _deck_of(checked(at)) == EXAMPLE
