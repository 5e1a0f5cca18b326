"""A lecturer's deck as files for slides: each scene's figure as SVG (its question step and its answer), the
questions and answers in the run's language as Markdown, and the deck's own file, in one zip.

The SVGs are written by attn_ui/figures/svg_export.py (plain Python: no browser, no system package), with the
colours and fonts of the screen.
"""

from __future__ import annotations

import io
import zipfile

from attn_core import compute
from attn_core.asks import ASKS, twin, twin_first
from attn_core.deck import Deck, to_json
from attn_lang import _
from attn_ui.figures.svg_export import map_svg, pair_svg
from attn_ui.words import deck_words

STAMP = (2026, 1, 1, 0, 0, 0)  # every file's date in the zip: the same deck gives the same bytes


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text.encode("utf-8"))


def export_zip(deck: Deck) -> bytes:
    """The zip: scene-NN-question.svg (where the question step shows a figure), scene-NN-answer.svg, lecture.md and
    lecture.json."""
    buffer = io.BytesIO()
    lines = [f"# {deck.title}" if deck.title else _("# Your lecture"), ""]
    with zipfile.ZipFile(buffer, "w") as archive:
        for number, scene in enumerate(deck.scenes, start=1):
            result = compute(scene.settings)
            words = deck_words.scene_words(scene, result)
            stem = f"scene-{number:02d}"
            if scene.ask == "which":
                other = compute(twin(scene.settings))
                pair = (other, result) if twin_first(scene.settings) else (result, other)
                _add(archive, f"{stem}-question.svg", pair_svg(*pair, numbers=False))
                _add(archive, f"{stem}-answer.svg", pair_svg(*pair, numbers=True))
            else:
                if ASKS[scene.ask].givens == "shades":
                    _add(archive, f"{stem}-question.svg", map_svg(result, row=scene.row, numbers=False))
                _add(archive, f"{stem}-answer.svg", map_svg(result, row=scene.row, numbers=True))
            lines += [_("## Scene {number}: {title}", number=number, title=words.title), "", words.question, ""]
            lines += [f"- {option}" for option in words.options] + ([""] if words.options else [])
            lines += [_("Before the answer the board shows {givens}.", givens=deck_words.givens_name(scene.ask)),
                      ""]
            if words.answer:
                lines += [_("Answer: {answer}", answer=words.answer), "", words.why, ""]
            if words.narration:
                lines += [words.narration, ""]
        _add(archive, "lecture.md", "\n".join(lines))
        _add(archive, "lecture.json", to_json(deck))
    return buffer.getvalue()
