"""The URL keys as docs/urls.md lists them: the view keys (what a page shows, never what it computes), declared
with where each counts, what it means and its values, and the table of every key made from the declarations.

The settings' keys are declared once in `attn_core.settings.FIELDS`; the view keys' readers are `attn_core.query`'s
(read_row, read_flag, read_choice, ...). tests/core/test_url_key_table.py keeps docs/urls.md equal to
url_keys_markdown().
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from attn_core.settings import FIELDS, Settings


@dataclass(frozen=True)
class ViewKey:
    """A URL key that changes how a page is drawn, not what the core computes."""

    key: str
    pages: str  # where it counts
    meaning: str
    values: str
    default: str


VIEW_KEYS = (
    ViewKey("row", "the Lab", "the query row picked by clicking the map, from 1", "`1`..T", "none"),
    ViewKey("lesson", "the Lab", "the lesson whose Try-it link opened the Lab: a link leads back to it",
            "a lesson's number, `1`..`6`", "none: no link back"),
    ViewKey("mode", "every page", "`projector` for a lecture hall", "`projector`", "normal"),
    ViewKey("lang", "every page", "the language of the app's words (a language picked in the menu is kept here)",
            "`en`, `es`", "the browser's language, else `en`"),
    ViewKey("theme", "every page", "the colours: light, dark, or the device's own setting (a theme picked in the "
            "app is kept here)", "`light`, `dark`, `system`", "`system`"),
    ViewKey("scene", "Lecture scenes; on the Lab, the scene to go back to", "which scene is on screen, from 1",
            "`1`..the number of scenes", "`1`"),
    ViewKey("reveal", "Lecture scenes", "the scene's answer and board are showing, not only its question", "`0`/`1`",
            "`0`"),
    ViewKey("section", "Check yourself", "which section of questions is open", "a section's id", "the first"),
    ViewKey("answers", "Check yourself", "the answers given, one item a question separated by `.`: the first answer "
            "(the one scored), or `-` for a prediction skipped, then `~` and the current one if it differs; a choice "
            "is a letter, an order its letters", "e.g. `b.a~c..dcab.-`", "none"),
    ViewKey("answer", "the lessons 1 to 5 and Train it yourself", "the answer to the page's predict-first question, "
            "written as an item of `answers`; Train it yourself holds one item an experiment (`mask`, `heads`, "
            "`dropout`), separated by `.`", "e.g. `b`, `a~b`, `-`, `.c`", "none"),
    ViewKey("change", "Peeking", "the later word that is changed, from 1", "`2`..T", "`4`"),
    ViewKey("swap", "Peeking", "the word put in its place", "one of the page's words", "`leap`"),
    ViewKey("query", "Peeking", "the query row of the masking routes, from 1", "`1`..T", "`3`"),
    ViewKey("try", "Many heads", "the head count tried against d_model", "`1`..`24`", "`5`"),
    ViewKey("batch", "Shapes and memory", "the batch size B", "`1`..`64`", "`8`"),
    ViewKey("ctx", "Shapes and memory", "the context length T of the memory tiles", "a length on the slider",
            "`1024`"),
    ViewKey("word", "One row by hand", "the query word, from 1", "`1`..T", "`3`"),
    ViewKey("exp", "Train it yourself", "which experiment runs; on that page `heads`, `p` (up to three rates, "
            "comma-separated) and `seed` set the model trained", "`mask`, `heads`, `dropout`", "`mask`"),
    ViewKey("layers", "Train it yourself", "attention layers of the model (the heads experiment)", "`1`, `2`", "`2`"),
    ViewKey("steps", "Train it yourself", "Adam updates a model", "within each experiment's bounds",
            "the preset's"),
    ViewKey("room", "Class poll; Lecture scenes (a live lecture); on the Lab, the lecture to go back to",
            "the room to join, or the live lecture this page runs", "a room's code", "none: open or join a room"),
    ViewKey("host", "Class poll; Lecture scenes", "the host's secret: this link controls the room or the live "
            "lecture, keep it private", "the secret", "none: a student"),
    ViewKey("v", "Class poll", "a voter token, only for a browser that sends no cookie", "a random token", "none"),
)


def url_keys_markdown() -> str:
    """The table of URL keys in docs/urls.md, made from the declarations above (a test keeps it in step)."""
    lines = ["| key | meaning | values (default) |", "| --- | --- | --- |"]
    for declared in FIELDS:
        default = FORMATS_FOR_README.get(declared.kind, lambda f: f"`{Settings().to_query_full()[f.key]}`")(declared)
        lines.append(f"| `{declared.key}` | {declared.meaning} | {declared.values} ({default}) |")
    for view in VIEW_KEYS:
        lines.append(f"| `{view.key}` | {view.meaning} ({view.pages}) | {view.values} ({view.default}) |")
    return "\n".join(lines)


FORMATS_FOR_README = MappingProxyType({
    "positions": lambda declared: "none",
    "sentence": lambda declared: "the lesson's sentence",
})
