"""A lecturer's own deck: scenes made from Lab states, kept in a file (JSON) and in an address (`deck=`).

A deck is untrusted input: it comes from an upload or a link. `read_json` and `read_link` never raise anything but
DeckError, whose `problems` are sentences a lecturer can act on, each naming the scene and the field; nothing in a
deck is executed, and its text is kept as text (the pages show it escaped). Limits (docs/lecture.md says them):

- a file of at most MAX_FILE_BYTES, at most MAX_SCENES scenes, titles of MAX_TITLE_CHARS, narration and prompts of
  MAX_TEXT_CHARS; no control or invisible character (bidi overrides, zero-width spaces), text NFC-normalised;
- a scene's state is the Lab's own address keys (`s=...&causal=1&heads=4&view=2`), read strictly: a value the Lab
  would replace with a note is an error here;
- every question must be askable about its state (attn_core.asks: no tie, a row that exists);
- in an address the deck is compressed JSON, base64url; at most MAX_LINK_CHARS characters, so the whole address
  stays under 2,000 characters, which every browser and a QR code keep.

The schema (FORMAT, VERSION) is versioned: a deck made for a newer version says so instead of half-working.
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from attn_core.asks import ASKS, Answer, AskError, answer
from attn_core.errors import SettingsError
from attn_core.query import settings_from_query
from attn_core.settings import QUERY_KEYS, Settings
from attn_lang import _

FORMAT = "attn-lab-deck"
VERSION = 1
MAX_FILE_BYTES = 100_000
MAX_SCENES = 30
MAX_TITLE_CHARS = 80
MAX_TEXT_CHARS = 600
MAX_LINK_CHARS = 1_800
MAX_PROBLEMS = 8  # sentences listed at most; the rest are counted
SCENE_FIELDS = ("state", "ask", "row", "key", "title", "prompt", "narration")
DECK_FIELDS = ("format", "version", "title", "scenes")
_JOINER = "\u200d"


class DeckError(SettingsError):
    """A deck the app cannot use; `problems` holds one sentence for each thing wrong (at most MAX_PROBLEMS, then
    one that counts the rest)."""

    def __init__(self, problems: list[str]) -> None:
        shown = problems[:MAX_PROBLEMS]
        if len(problems) > MAX_PROBLEMS:
            shown.append(_("… and {count} more problems.", count=len(problems) - MAX_PROBLEMS))
        super().__init__(shown[0] if shown else _("This deck cannot be read."))
        self.problems = tuple(shown)


@dataclass(frozen=True)
class DeckScene:
    """One scene of a lecturer's deck: a Lab state and what to ask about it."""

    settings: Settings
    ask: str  # a kind of attn_core.asks.ASKS
    row: int | None = None  # 1-based: the row the question names (and the map outlines)
    key: int | None = None  # 1-based: the key (column) a "weight" question names
    title: str = ""  # the lecturer's title; "" for the kind's own
    prompt: str = ""  # a "discuss" scene's question, the lecturer's words
    narration: str = ""  # the lecturer's words revealed with the answer

    def answer(self) -> Answer:
        return answer(self.settings, self.ask, self.row, self.key)

    def state(self) -> str:
        """The Lab's address for this state, keys at their default left out."""
        return urlencode(self.settings.to_query())


@dataclass(frozen=True)
class Deck:
    title: str = ""
    scenes: tuple[DeckScene, ...] = field(default_factory=tuple)


def deck_data(deck: Deck) -> dict[str, Any]:
    """The deck as the file's JSON object; fields at their default left out."""
    scenes = []
    for scene in deck.scenes:
        item: dict[str, Any] = {"state": scene.state(), "ask": scene.ask}
        item.update({name: getattr(scene, name) for name in ("row", "key") if getattr(scene, name) is not None})
        item.update({name: getattr(scene, name) for name in ("title", "prompt", "narration") if getattr(scene, name)})
        scenes.append(item)
    return {"format": FORMAT, "version": VERSION, **({"title": deck.title} if deck.title else {}), "scenes": scenes}


def to_json(deck: Deck) -> str:
    """The file a lecturer downloads."""
    return json.dumps(deck_data(deck), ensure_ascii=False, indent=2) + "\n"


def to_link(deck: Deck) -> str:
    """The deck's value in an address (may be longer than MAX_LINK_CHARS: `fits_link` says)."""
    compact = json.dumps(deck_data(deck), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(compact, 9)).decode("ascii").rstrip("=")


def fits_link(deck: Deck) -> bool:
    return len(to_link(deck)) <= MAX_LINK_CHARS


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _value in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise DeckError([_("The file gives the field {field} twice; a deck names each field once.",
                           field=_code(repeated[0]))])
    return dict(pairs)


def _refuse_constant(name: str) -> None:
    raise DeckError([_("The file holds {value}, which is not a number a deck can use.", value=_code(name))])


def read_json(raw: str | bytes) -> Deck:
    """A deck from a file's text; raises DeckError."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if len(raw) > MAX_FILE_BYTES:
        raise DeckError([_("The file is {size:,} bytes; a deck may have at most {most:,}.", size=len(raw),
                           most=MAX_FILE_BYTES)])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError([_("The file is not UTF-8 text: a deck is a JSON file the app writes.")]) from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
    except DeckError:
        raise
    except RecursionError:
        raise DeckError([_("The file nests too deeply to be a deck.")]) from None
    except ValueError as error:
        line = getattr(error, "lineno", None)
        raise DeckError([_("The file is not valid JSON (line {line}): a deck is a JSON file the app writes.",
                           line=line if line is not None else "?")]) from None
    return read_data(data)


def read_link(value: str) -> Deck:
    """A deck from an address's `deck=` value; raises DeckError."""
    if not isinstance(value, str) or not value.strip():
        raise DeckError([_("The link's deck is empty.")])
    if len(value) > 2 * MAX_LINK_CHARS:
        raise DeckError([_("The link's deck is {length:,} characters long; a link may carry at most {most:,}.",
                           length=len(value), most=MAX_LINK_CHARS)])
    try:
        packed = base64.urlsafe_b64decode(value.strip() + "=" * (-len(value.strip()) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_FILE_BYTES + 1)
        if unpacker.unconsumed_tail or len(raw) > MAX_FILE_BYTES:
            raise DeckError([_("The link's deck unpacks to more than {most:,} bytes.", most=MAX_FILE_BYTES)])
    except DeckError:
        raise
    except (binascii.Error, ValueError, zlib.error):
        raise DeckError([_("The link's deck is damaged (cut short or changed by hand): ask for the link again, or "
                           "upload the deck's file.")]) from None
    return read_json(raw)


def _code(text: object) -> str:
    """A value quoted for a sentence: a code span, short, with no backtick that could end it."""
    shown = str(text)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    return "`" + shown.replace("`", "\u02cb").replace("\n", " ") + "`"


def _invisible(text: str, lines: bool) -> str | None:
    """The first control or invisible character in the text as U+XXXX, or None; a line break is allowed where the
    field has lines, a zero-width joiner inside an emoji."""
    for index, ch in enumerate(text):
        if ch == "\n" and lines:
            continue
        if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp"):
            continue
        if ch == _JOINER and 0 < index < len(text) - 1:
            continue
        return f"U+{ord(ch):04X}"
    return None


def _text(value: Any, where: str, name: str, most: int, lines: bool, problems: list[str]) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        problems.append(_("{where}: {field} must be text.", where=where, field=_code(name)))
        return ""
    text = unicodedata.normalize("NFC", value.replace("\r\n", "\n")).strip()
    if len(text) > most:
        problems.append(_("{where}: {field} has {length:,} characters; it may have at most {most}.", where=where,
                          field=_code(name), length=len(text), most=most))
        return ""
    hidden = _invisible(text, lines)
    if hidden:
        problems.append(_("{where}: {field} holds an invisible or control character ({char}); type plain text.",
                          where=where, field=_code(name), char=hidden))
        return ""
    return text


def _whole(value: Any, where: str, name: str, problems: list[str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(_("{where}: {field} must be a whole number.", where=where, field=_code(name)))
        return None
    return value


def _state(value: Any, where: str, problems: list[str]) -> Settings | None:
    if not isinstance(value, str):
        problems.append(_("{where}: {field} must be the Lab's address keys as text, like {example}.", where=where,
                          field=_code("state"), example=_code("causal=1&heads=2")))
        return None
    if len(value) > 1_000:
        problems.append(_("{where}: {field} is too long to be a Lab state.", where=where, field=_code("state")))
        return None
    pairs = parse_qsl(value.lstrip("?"), keep_blank_values=True)
    unknown = sorted({key for key, _value in pairs} - set(QUERY_KEYS))
    if unknown:
        problems.append(_("{where}: the state names {key}, which is not one of the Lab's settings ({keys}).",
                          where=where, key=_code(unknown[0]), keys=", ".join(QUERY_KEYS)))
        return None
    keys = [key for key, _value in pairs]
    if len(keys) != len(set(keys)):
        problems.append(_("{where}: the state gives a setting twice.", where=where))
        return None
    settings, notes = settings_from_query(dict(pairs))
    if notes:
        problems.extend(_("{where}: {problem}", where=where, problem=note) for note in notes)
        return None
    return settings


def _scene(item: Any, number: int, problems: list[str]) -> DeckScene | None:
    where = _("Scene {number}", number=number)
    if not isinstance(item, Mapping):
        problems.append(_("{where} is not a scene: each scene is an object with a state and a question.",
                          where=where))
        return None
    unknown = [name for name in item if name not in SCENE_FIELDS]
    if unknown:
        problems.append(_("{where} has a field this version does not know: {field}.", where=where,
                          field=_code(unknown[0])))
    before = len(problems)
    settings = _state(item.get("state"), where, problems)
    ask = item.get("ask")
    if not isinstance(ask, str) or ask not in ASKS:
        problems.append(_("{where}: {field} must be one of {kinds}; it is {value}.", where=where, field=_code("ask"),
                          kinds=", ".join(ASKS), value=_code(ask)))
    row = _whole(item.get("row"), where, "row", problems)
    key = _whole(item.get("key"), where, "key", problems)
    title = _text(item.get("title"), where, "title", MAX_TITLE_CHARS, False, problems)
    prompt = _text(item.get("prompt"), where, "prompt", MAX_TEXT_CHARS, True, problems)
    narration = _text(item.get("narration"), where, "narration", MAX_TEXT_CHARS, True, problems)
    if len(problems) > before or settings is None or unknown:
        return None
    if ask == "discuss" and not prompt:
        problems.append(_("{where}: a discussion needs its {field}, the question the room talks about.",
                          where=where, field=_code("prompt")))
        return None
    length = len(settings.tokens)
    for name, value in (("row", row), ("key", key)):
        if value is not None and not 1 <= value <= length:
            problems.append(_("{where}: {field} is {value}; this sentence has rows and keys 1 to {length}.",
                              where=where, field=_code(name), value=value, length=length))
            return None
    scene = DeckScene(settings, ask, row, key, title, prompt, narration)
    try:
        scene.answer()
    except AskError as error:
        problems.append(_("{where}: {problem}", where=where, problem=str(error)))
        return None
    return scene


def read_data(data: Any) -> Deck:
    """A deck from parsed JSON; raises DeckError listing what is wrong."""
    if not isinstance(data, Mapping):
        raise DeckError([_("This is not a deck: a deck file is a JSON object with its scenes.")])
    if data.get("format") != FORMAT:
        raise DeckError([_("This is not a deck of this app: its {field} is not {value}.", field=_code("format"),
                           value=_code(FORMAT))])
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise DeckError([_("This deck was made for a newer version of the app (format {version}); this app reads "
                           "format {ours}. Open it there, or ask for a deck saved in format {ours}.",
                           version=version, ours=VERSION)])
    if version != VERSION:
        raise DeckError([_("The deck's {field} must be {ours}.", field=_code("version"), ours=VERSION)])
    problems: list[str] = []
    unknown = [name for name in data if name not in DECK_FIELDS]
    if unknown:
        problems.append(_("The deck has a field this version does not know: {field}.", field=_code(unknown[0])))
    title = _text(data.get("title"), _("The deck"), "title", MAX_TITLE_CHARS, False, problems)
    scenes = data.get("scenes")
    if not isinstance(scenes, list) or not scenes:
        raise DeckError([*problems, _("The deck has no scenes: {field} must be a list of at least one scene.",
                                      field=_code("scenes"))])
    if len(scenes) > MAX_SCENES:
        raise DeckError([*problems, _("The deck has {count:,} scenes; a deck may have at most {most}.",
                                      count=len(scenes), most=MAX_SCENES)])
    read = [_scene(item, number, problems) for number, item in enumerate(scenes, start=1)]
    if problems:
        raise DeckError(problems)
    return Deck(title, tuple(scene for scene in read if scene is not None))
