"""Reading a link leniently: raw URL (or widget) values in, a valid Settings and plain notes out. Never raises.

Whatever cannot be used is replaced by a valid value and explained in one sentence. Each setting is read by the
reader of its declared kind (`attn_core.settings.FIELDS`), in declaration order, so a reader can rely on the
fields before it (PAD positions on the sentence's length, heads on d_model, the head in view on heads).

The view keys' readers (what a page shows, not what it computes) are here too; the view keys' declarations and
the table of every key in docs/urls.md are `attn_core.url_keys`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from attn_core.errors import SettingsError
from attn_core.settings import (
    DROPOUT_STEP,
    FIELD_BY_KEY,
    FIELD_BY_NAME,
    FIELDS,
    MAX_DROPOUT,
    MAX_SEED,
    QUERY_KEYS,
    ROUTES,
    SUPPORTED_D_MODEL,
    SettingField,
    Settings,
    head_error,
    valid_head_counts,
)
from attn_core.tokens import tokenize
from attn_lang import N_, _

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
MAX_VALUE_CHARS = 2_000  # longer raw values are cut before they are read


def quoted(text: str) -> str:
    """User text quoted for a Markdown note: a code span, where Markdown and Streamlit's extras stay literal."""
    return "`" + repr(text).replace("`", "\u02cb") + "`"  # a backtick would end the span; show a look-alike


def last_value(value: Any, key: str, notes: list[str]) -> Any:
    """A repeated URL key counts once: the last value wins, and a note says so."""
    if isinstance(value, list | tuple):
        if not value:
            return None
        if len(value) > 1:
            notes.append(_("`{key}` was given {times} times; the last one was used.", key=key, times=len(value)))
        return value[-1]
    return value


def finite_number(value: Any) -> float | None:
    """The value as a finite number, or None when it is not one."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        number = float(value)
    else:
        try:
            number = float(str(value).strip()[:40])
        except ValueError:
            return None
    return number if math.isfinite(number) else None


class _Reader:
    """Reads one raw mapping field by field, collecting a note for every change."""

    def __init__(self, params: Mapping[str, Any], typed: bool) -> None:
        self.notes: list[str] = []
        self.raw: dict[str, Any] = {}
        for name_or_key, value in params.items():
            declared = (FIELD_BY_NAME if typed else FIELD_BY_KEY).get(name_or_key)
            if declared is None:
                continue  # other features' keys (mode, scene, ...) are not ours to judge
            if not (typed and declared.kind == "positions"):
                value = last_value(value, declared.key, self.notes)
                if value is None:
                    continue
            self.raw[declared.key] = value
        self.values: dict[str, Any] = {}

    def read(self) -> tuple[Settings, list[str]]:
        for declared in FIELDS:
            if declared.key in self.raw:
                value = READERS[declared.kind](self, declared)
            else:
                value = DEFAULT_READERS.get(declared.kind, lambda _reader, f: f.default)(self, declared)
            self.values[declared.name] = value
        return Settings(**self.values), self.notes

    # --- one reader per kind of value ---------------------------------------------------------------

    def sentence(self, declared: SettingField) -> str:
        value = self.raw[declared.key]
        text = value if isinstance(value, str) else str(value)
        try:
            return " ".join(tokenize(text[: MAX_VALUE_CHARS * 10]))
        except SettingsError as error:
            self.notes.append(_("{error} Showing the default sentence instead.", error=str(error)))
            return declared.default

    def flag(self, declared: SettingField) -> bool:
        value = self.raw[declared.key]
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()[:20]
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        self.notes.append(_("`{key}` must be 0 or 1; it was set to {default}.", key=declared.key,
                            default=int(declared.default)))
        return declared.default

    def whole(self, declared: SettingField, low: int = 0, high: int = MAX_SEED) -> int:
        key, default = declared.key, declared.default
        number = finite_number(self.raw[key])
        if number is None or number != int(number):
            self.notes.append(_("`{key}` must be a whole number; it was set to {default}.", key=key, default=default))
            return default
        if not low <= number <= high:
            clamped = int(min(max(number, low), high))
            self.notes.append(_("`{key}` must be between {low} and {high}; it was set to {clamped}.", key=key, low=low,
                                high=high, clamped=clamped))
            return clamped
        return int(number)

    def d_model(self, declared: SettingField) -> int:
        number = finite_number(self.raw[declared.key])
        if number is None or number not in SUPPORTED_D_MODEL:
            options = ", ".join(map(str, SUPPORTED_D_MODEL))
            self.notes.append(_("d_model can be {options}; it was set to {default}.", options=options,
                                default=declared.default))
            return declared.default
        return int(number)

    def heads(self, declared: SettingField) -> int:
        d_model = self.values["d_model"]
        valid = valid_head_counts(d_model)
        fallback = declared.default if declared.default in valid else 1
        number = finite_number(self.raw[declared.key])
        if number is None or number != int(number) or number < 1:
            self.notes.append(_("`heads` must be a whole number from 1 to {d_model}; it was set to {fallback}.",
                                d_model=d_model, fallback=fallback))
            return fallback
        heads = int(min(number, 10**6))
        if heads in valid:
            return heads
        chosen = max(h for h in valid if h <= heads)
        self.notes.append(_("{error} Showing {chosen} heads instead.", error=head_error(heads, d_model), chosen=chosen))
        return chosen

    def view(self, declared: SettingField) -> int:
        heads = self.values["heads"]
        number = finite_number(self.raw[declared.key])
        if number is None or number != int(number):
            self.notes.append(_("`view` must be a whole number; showing head 1."))
            return 1
        if not 1 <= number <= heads:
            chosen = int(min(max(number, 1), heads))
            self.notes.append(_("There is no head {number:g} among {heads}; showing head {chosen}.", number=number,
                                heads=heads, chosen=chosen))
            return chosen
        return int(number)

    def dropout(self, declared: SettingField) -> float:
        default = declared.default
        number = finite_number(self.raw[declared.key])
        if number is None:
            self.notes.append(_("Dropout `p` must be a number from 0 to {most}; it was set to {default:g}.",
                                most=MAX_DROPOUT, default=default))
            return default
        clamped = min(max(number, 0.0), MAX_DROPOUT)
        snapped = round(round(clamped / DROPOUT_STEP) * DROPOUT_STEP, 2)
        if clamped != number:
            self.notes.append(_("Dropout `p` must be between 0 and {most}; it was set to {snapped:g}.",
                                most=MAX_DROPOUT, snapped=snapped))
        elif not math.isclose(snapped, number, abs_tol=1e-9):
            self.notes.append(_("Dropout `p` moves in steps of {step}; {number:g} became {snapped:g}.",
                                step=DROPOUT_STEP, number=number, snapped=snapped))
        return snapped

    def route(self, declared: SettingField) -> str:
        text = str(self.raw[declared.key]).strip()[:40]
        if text in ROUTES:
            return text
        self.notes.append(_("The masking route can be {routes}; it was set to {default}.", routes=", ".join(ROUTES),
                            default=declared.default))
        return declared.default

    def positions(self, declared: SettingField) -> tuple[int, ...]:
        count = len(tokenize(self.values["sentence"]))
        value = self.raw[declared.key]
        if isinstance(value, list | tuple | set | frozenset):
            parts = [str(v) for v in value]
        else:
            parts = [part for part in str(value)[:MAX_VALUE_CHARS].split(",") if part.strip()]
        positions: set[int] = set()
        rejected: list[str] = []
        for part in parts:
            text = part.strip()
            if text.isdigit() and text.isascii() and 1 <= int(text) <= count:
                positions.add(int(text))
            else:
                rejected.append(text[:12])
        if rejected:
            shown = ", ".join(quoted(r) for r in rejected[:4]) + (" ..." if len(rejected) > 4 else "")
            self.notes.append(_("`pad` takes word positions from 1 to {count}, separated by commas; ignored {shown}.",
                                count=count, shown=shown))
        return tuple(sorted(positions))

    def default_heads(self, declared: SettingField) -> int:
        """No `heads` in the link: the default, if it divides this d_model."""
        d_model = self.values["d_model"]
        if declared.default in valid_head_counts(d_model):
            return declared.default
        self.notes.append(_("{error} Showing 1 head.", error=head_error(declared.default, d_model)))
        return 1


# kind -> the reader of a value that is present
READERS: Mapping[str, Callable[[_Reader, SettingField], Any]] = MappingProxyType({
    "sentence": _Reader.sentence,
    "flag": _Reader.flag,
    "whole": _Reader.whole,
    "d_model": _Reader.d_model,
    "heads": _Reader.heads,
    "view": _Reader.view,
    "dropout": _Reader.dropout,
    "route": _Reader.route,
    "positions": _Reader.positions,
})
# kind -> what an absent value becomes, where that is more than the declared default
DEFAULT_READERS: Mapping[str, Callable[[_Reader, SettingField], Any]] = MappingProxyType({
    "heads": _Reader.default_heads,
})


def settings_from_query(params: Mapping[str, Any]) -> tuple[Settings, list[str]]:
    """Read a URL's query parameters (keyed by URL key); never raises. Returns valid settings and what was changed."""
    return _Reader(params, typed=False).read()


def coerce_settings(**values: Any) -> tuple[Settings, list[str]]:
    """Like settings_from_query, for Python values keyed by field name (widgets, lesson pages)."""
    return _Reader(values, typed=True).read()


# --- view keys' readers: what a page shows, never what it computes (declared in attn_core.url_keys) ---------------


def read_number_in_range(raw: str | None, key: str, low: int, high: int) -> tuple[int | None, str | None]:
    """A whole number from low to high; out of range gives the nearest one, anything else None, each with a note."""
    if raw is None:
        return None, None
    text = raw.strip()[:40]
    number = finite_number(text)
    if number is None or number != int(number):
        return None, _("`{key}` must be a whole number from {low} to {high}; {text} was ignored.", key=key, low=low,
                       high=high, text=quoted(text))
    if not low <= number <= high:
        nearest = int(min(max(number, low), high))
        return nearest, _("`{key}` runs from {low} to {high}; showing {nearest} instead of {number:g}.", key=key,
                          low=low, high=high, nearest=nearest, number=number)
    return int(number), None


# the Lab's view keys (scene, lesson, room: ways back)
LAB_VIEW_KEYS = frozenset({"row", "mode", "lang", "theme", "scene", "lesson", "room"})


def read_row(raw: str | None, length: int, key: str = "row") -> tuple[int | None, str | None]:
    """The Lab's `row` (1-based in the URL) as a 0-based row, or None with a note when it cannot be used."""
    if raw is None or not raw.strip():
        return None, None
    text = raw.strip()[:40]
    if text.isdigit() and text.isascii() and 1 <= int(text) <= length:
        return int(text) - 1, None
    return None, _("`{key}` must be a word position from 1 to {length}; {text} was ignored.", key=key, length=length,
                   text=quoted(text))


def read_lesson(raw: str | None, lessons: int) -> tuple[int | None, str | None]:
    """The Lab's `lesson` (the number of the lesson whose Try-it opened it), or None with a note when it is not one."""
    if raw is None or not raw.strip():
        return None, None
    text = raw.strip()[:40]
    if text.isdigit() and text.isascii() and 1 <= int(text) <= lessons:
        return int(text), None
    return None, _("`lesson` must be a lesson's number from 1 to {lessons}; {text} was ignored.", lessons=lessons,
                   text=quoted(text))


def unused_key_notes(params: Iterable[str], used: Container[str], page: str = N_("This page")) -> list[str]:
    """A note for every key of a link that the page does not use (it is dropped from the address), six at most.

    `page` names the page in the note: a message marked with N_ ("This page", "The Lab", "Check yourself")."""
    unused = [key for key in params if key not in used][:6]
    # Translators: {page} is "This page", "The Lab" or "Check yourself"; {key} is the link's key, as typed
    return [_("{page} has no setting {key}; it was left out of the address.", page=_(page), key=quoted(key[:40]))
            for key in unused]


def lab_view_notes(params: Mapping[str, Any]) -> list[str]:
    """A note for every key of a Lab link that the Lab does not use (it is dropped from the address)."""
    return unused_key_notes(params, {*QUERY_KEYS, *LAB_VIEW_KEYS}, N_("The Lab"))


def read_flag(raw: str | None, key: str) -> tuple[bool, str | None]:
    """A view key that is on or off (`reveal`); absent is off, anything unreadable is off with a note."""
    if raw is None or not raw.strip():
        return False, None
    text = raw.strip().lower()[:40]
    if text in _TRUE or text in _FALSE:
        return text in _TRUE, None
    return False, _("`{key}` is `0` or `1`; {text} was read as `0`.", key=key, text=quoted(text))


def read_word(raw: str | None, length: int) -> tuple[int | None, str | None]:
    """A `word` position (1-based in the URL) as a 0-based index, or None with a note (One row by hand)."""
    return read_row(raw, length, key="word")


def read_text_choice(raw: str | None, key: str, options: tuple[str, ...]) -> tuple[str | None, str | None]:
    """One of `options`, spelled exactly; anything else None, with a note."""
    if raw is None:
        return None, None
    text = raw.strip()[:40]
    if text in options:
        return text, None
    return None, _("`{key}` can be {options}; {text} was ignored.", key=key, options=", ".join(options),
                   text=quoted(text))


def read_choice(raw: str | None, key: str, options: tuple[int, ...]) -> tuple[int | None, str | None]:
    """A whole number among `options`; anything else None, with a note."""
    if raw is None:
        return None, None
    text = raw.strip()[:40]
    if text.isdigit() and text.isascii() and int(text) in options:
        return int(text), None
    shown = ", ".join(str(o) for o in options[:8]) + (" ..." if len(options) > 8 else "")
    return None, _("`{key}` can be {options}; {text} was ignored.", key=key, options=shown, text=quoted(text))


# --- quiz answers in the address: compact, and refused when forged ---------------------------------------------

LETTERS = "abcdefghijklmnopqrstuvwxyz"
ANSWERS_KEY = "answers"  # Check yourself: every question of the bank
PAGE_ANSWERS_KEY = "answer"  # a lesson page: the predict-first question(s) it asks
SKIPPED = "-"  # in place of a first answer: the student chose to see the answer without predicting


@dataclass(frozen=True)
class ReadAnswers:
    """What an `answers` (or `answer`) value holds, by question index, and a note for every item refused."""

    first: dict[int, Any]  # the first complete answer: the one the score counts
    current: dict[int, Any]  # the answer on screen now
    skipped: frozenset[int]  # predictions skipped on purpose (no first answer: they never count as right)
    notes: list[str]


def _answer_text(answer: int | tuple[int, ...]) -> str:
    return "".join(LETTERS[i] for i in answer) if isinstance(answer, tuple) else LETTERS[answer]


def write_answers(shapes: tuple[tuple[str, int], ...], first: Mapping[int, Any], current: Mapping[int, Any],
                  skipped: Container[int] = frozenset()) -> str:
    """The `answers` value: one item per question (in bank order) of `shapes` ((kind, number of options)), items
    joined by `.`; trailing empty items are left out. An item is the first answer (`-` for a prediction skipped
    before any answer), then `~current` if it differs."""
    items = []
    for index in range(len(shapes)):
        now, was = current.get(index), first.get(index)
        item = _answer_text(was) if was is not None else SKIPPED if index in skipped else ""
        if now is not None and now != was:
            item += "~" + _answer_text(now)
        items.append(item)
    return ".".join(items).rstrip(".")


def _read_answer(text: str, kind: str, count: int, complete: bool) -> int | tuple[int, ...] | None:
    """One answer's letters, or None when they cannot be an answer to this question (a forged or garbled item)."""
    if not text or any(c not in LETTERS[:count] for c in text):
        return None
    if kind != "order":
        return LETTERS.index(text) if len(text) == 1 else None
    order = tuple(LETTERS.index(c) for c in text)
    if len(set(order)) != len(order) or (complete and len(order) != count):
        return None
    return order


def read_answers(raw: str | None, shapes: tuple[tuple[str, int], ...], key: str = ANSWERS_KEY) -> ReadAnswers:
    """The first and the current answers (question index -> answer) of an `answers` value, the predictions skipped,
    and a note for every item refused. A first answer must be complete (it is what the score counts); the current
    one of an order may be a start. Never raises."""
    first: dict[int, Any] = {}
    current: dict[int, Any] = {}
    skipped: set[int] = set()
    if raw is None or not raw.strip():
        return ReadAnswers(first, current, frozenset(), [])
    items = raw.strip()[:MAX_VALUE_CHARS].split(".")
    notes = []
    if len(items) > len(shapes):
        notes.append(_("`{key}` holds {items} items but there are {questions} questions; the extra ones were "
                       "ignored.", key=key, items=len(items), questions=len(shapes)))
    refused = []
    for index, (item, (kind, count)) in enumerate(zip(items, shapes, strict=False)):
        if not item:
            continue
        was_text, __, now_text = item.partition("~")
        skip = was_text == SKIPPED
        was = _read_answer(was_text, kind, count, complete=True) if was_text and not skip else None
        now = _read_answer(now_text, kind, count, complete=False) if now_text else was
        if (was_text and not skip and was is None) or (now_text and now is None) \
                or (was is None and not skip and kind != "order"):
            refused.append(index + 1)  # a choice always has a first answer (or a skip); an order may have a start
            continue
        if skip:
            skipped.add(index)
        if was is not None:
            first[index] = was
        if now is not None:
            current[index] = now
    if refused:
        shown = ", ".join(map(str, refused[:6])) + (" ..." if len(refused) > 6 else "")
        notes.append(_("`{key}` could not be read for question {shown}; those start unanswered.", key=key,
                       shown=shown))
    return ReadAnswers(first, current, frozenset(skipped), notes)
