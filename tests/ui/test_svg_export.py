"""The attention map as an SVG file (attn_ui/figures/svg_export.py): a valid document, one square a cell in the
colour and with the text the app's map gives it, a student's words shown as typed, the same bytes every time."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attn_core import compute
from attn_core.engine import HeadMap
from attn_core.settings import Settings
from attn_lang import using
from attn_ui.figures.palette import (
    BLACK_TEXT_FROM,
    GREY_FUTURE,
    GREY_PADDING,
    TEXT_ON_DARK,
    TEXT_ON_LIGHT,
    VIRIDIS,
    scale_colour,
)
from attn_ui.figures.svg_export import map_svg, pair_svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = ("<script>alert(1)</script>", "a&b", '"quoted"', "it's", "😀", "مرحبا", "&amp;")
SETUPS = {
    "default": Settings(),
    "causal and PAD": Settings(causal=True, padded=(5, 6)),
    "dropout": Settings(sentence="a b c", dropout=0.5, seed=0, roll=0),  # one weight is 1.48 after the rescale
    "sixteen words": Settings(sentence=" ".join(f"w{i}" for i in range(16)), causal=True, padded=(16,)),
    "one word": Settings(sentence="hello"),
    "zero-score trap": Settings(causal=True, route="zero_score"),
}


class Words:
    """A source whose head map has words no Settings accepts (longer than a word may be): the writer must still
    escape them."""

    def __init__(self, view: HeadMap) -> None:
        self.view = view

    def head_map(self, head: int | None = None) -> HeadMap:
        return self.view


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def cells(root: ET.Element) -> list[ET.Element]:
    return [rect for rect in root.iter(f"{SVG}rect") if "cell" in rect.get("class", "").split()]


def cell_texts(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    """(query, key) 0-based -> the <text> drawn in that cell (they follow their <rect>)."""
    found, last = {}, None
    for element in root.iter():
        if element.tag == f"{SVG}rect" and "cell" in element.get("class", "").split():
            last = (int(element.get("data-query")) - 1, int(element.get("data-key")) - 1)
        elif element.tag == f"{SVG}text" and "cell-text" in element.get("class", "").split():
            found[last] = element
    return found


def rgb(colour: str) -> tuple[float, ...]:
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(float(part) for part in colour[colour.index("(") + 1 : colour.index(")")].split(","))


def labels(root: ET.Element, kind: str) -> list[str]:
    return [text.text for text in root.iter(f"{SVG}text") if kind in text.get("class", "").split()]


@pytest.mark.parametrize("name", SETUPS)
def test_the_document_is_standalone_svg_with_one_square_a_cell(name):
    result = compute(SETUPS[name])
    svg = map_svg(result)
    root = parse(svg)
    length = len(result.labels)
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert width > length * 40 and height > length * 40
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')
    found = cells(root)
    assert len(found) == length * length
    assert sorted((int(c.get("data-query")), int(c.get("data-key"))) for c in found) == [
        (query, key) for query in range(1, length + 1) for key in range(1, length + 1)]
    assert labels(root, "query") == labels(root, "key") == [
        label + (" · PAD" if position in result.settings.padded else "")
        for position, label in enumerate(result.labels, start=1)]


@pytest.mark.parametrize("name", SETUPS)
def test_each_cell_has_the_colour_and_the_text_of_the_apps_map(name):
    result = compute(SETUPS[name])
    view = result.head_map()
    root = parse(map_svg(result))
    texts = cell_texts(root)
    blocked = view.blocked & (view.weights == 0)  # as maps.py: a trap's blocked cell holds weight and shows it
    for rect in cells(root):
        query, key = int(rect.get("data-query")) - 1, int(rect.get("data-key")) - 1
        weight, text = float(view.weights[query, key]), texts.get((query, key))
        if blocked[query, key]:
            future = bool(view.blocked_by_causal[query, key] and not view.blocked_by_padding[query, key])
            assert rect.get("fill") == (GREY_FUTURE if future else GREY_PADDING)
            assert text.text == ("future" if future else "PAD")
            continue
        np.testing.assert_allclose(rgb(rect.get("fill")), rgb(scale_colour(weight)), atol=0.5)
        assert text.text == ("drop" if view.dropped[query, key] else format(weight, ".2f"))
        assert text.get("fill") == (TEXT_ON_LIGHT if weight >= BLACK_TEXT_FROM else TEXT_ON_DARK)


def test_a_weight_above_one_after_dropout_takes_the_top_colour():
    result = compute(SETUPS["dropout"])
    weights = result.head_map().weights
    above = list(zip(*np.nonzero(weights > 1), strict=True))
    assert above, "the setup must rescale some weight above 1"
    fills = {(int(c.get("data-query")) - 1, int(c.get("data-key")) - 1): c.get("fill") for c in cells(parse(
        map_svg(result)))}
    assert {fills[cell] for cell in above} == {VIRIDIS[-1]}
    assert cell_texts(parse(map_svg(result)))[above[0]].text == format(float(weights[above[0]]), ".2f")


def test_grey_cells_count_as_the_masks_say():
    result = compute(SETUPS["causal and PAD"])
    view = result.head_map()
    fills = [c.get("fill") for c in cells(parse(map_svg(result)))]
    padding = int(view.blocked_by_padding.sum())
    future_only = int((view.blocked_by_causal & ~view.blocked_by_padding).sum())
    assert (fills.count(GREY_PADDING), fills.count(GREY_FUTURE)) == (padding, future_only)
    assert padding > 0 and future_only > 0


def test_numbers_and_blocked_words_can_be_left_out():
    result = compute(SETUPS["causal and PAD"])
    assert cell_texts(parse(map_svg(result, numbers=False, show_blocked_words=False))) == {}
    only_words = cell_texts(parse(map_svg(result, numbers=False)))
    assert {text.text for text in only_words.values()} == {"future", "PAD"}
    only_numbers = cell_texts(parse(map_svg(result, show_blocked_words=False)))
    assert len(only_numbers) == int((~result.head_map().blocked).sum())


def test_numbers_follow_the_language():
    result = compute(SETUPS["causal and PAD"])
    with using("es"):
        texts = {text.text for text in cell_texts(parse(map_svg(result))).values()}
        corner = labels(parse(map_svg(result)), "axis-title")
    assert "1,00" in texts and "1.00" not in texts and "futuro" in texts
    assert "consulta ↓" in corner


def test_the_selected_row_is_outlined_where_its_cells_are():
    result = compute(SETUPS["default"])
    root = parse(map_svg(result, row=3))
    (outline,) = [rect for rect in root.iter(f"{SVG}rect") if rect.get("class") == "selected-row"]
    row_cells = [c for c in cells(root) if c.get("data-query") == "3"]
    assert float(outline.get("y")) < min(float(c.get("y")) for c in row_cells)
    assert float(outline.get("y")) + float(outline.get("height")) > max(float(c.get("y")) for c in row_cells)
    assert outline.get("stroke") == "#ff6a13"
    assert not [r for r in parse(map_svg(result)).iter(f"{SVG}rect") if r.get("class") == "selected-row"]
    with pytest.raises(ValueError, match="rows are 1 to 6"):
        map_svg(result, row=7)


def test_hostile_words_come_back_as_text():
    view = compute(Settings(sentence=" ".join(f"w{i}" for i in range(len(HOSTILE))))).head_map()
    source = Words(dataclasses.replace(view, labels=HOSTILE))
    svg = map_svg(source, title='<b>Head "1"</b> & more')
    root = parse(svg)
    assert labels(root, "query") == labels(root, "key") == list(HOSTILE)
    assert labels(root, "title") == ['<b>Head "1"</b> & more']
    assert "<script" not in svg and "<b>" not in svg and "&amp;amp;" in svg
    assert {element.tag.removeprefix(SVG) for element in root.iter()} <= {"svg", "title", "rect", "g", "text"}


def test_a_hostile_sentence_from_settings_round_trips():
    sentence = "<script>alert(1) </script> a&b \"quoted\" 😀 مرحبا"
    result = compute(Settings(sentence=sentence))
    root = parse(map_svg(result, title=sentence))
    assert labels(root, "query") == list(result.labels) == sentence.split()
    assert labels(root, "title") == [sentence]


def test_pair_has_two_grids_marked_a_and_b():
    first, second = compute(SETUPS["default"]), compute(SETUPS["sixteen words"])
    root = parse(pair_svg(first, second, title="Which map has the causal mask?"))
    maps = [group for group in root.iter(f"{SVG}g") if group.get("class") == "map"]
    assert [len(cells(group)) for group in maps] == [36, 256]
    assert labels(root, "pair-label") == ["A", "B"]
    assert labels(root, "title") == ["Which map has the causal mask?"]
    blocked = int(second.head_map().blocked.sum())  # the first map has no blocked cell
    assert labels(root, "open") == []  # numbers are off unless asked for; the grey words stay
    assert len(labels(root, "future")) + len(labels(root, "padding")) == blocked
    assert len(labels(parse(pair_svg(first, second, numbers=True)), "open")) == 36 + 256 - blocked


def test_the_same_input_gives_the_same_bytes():
    settings = SETUPS["sixteen words"]
    assert map_svg(compute(settings), row=2, title="t") == map_svg(compute(settings), row=2, title="t")
    assert pair_svg(compute(settings), compute(Settings())) == pair_svg(compute(settings), compute(Settings()))
    assert map_svg(compute(settings)) != map_svg(compute(dataclasses.replace(settings, causal=False)))
