"""One frozen Settings object: every choice a student can make, and its round trip through the URL.

The URL is part of the product: a lecturer can write `?causal=1&heads=4&pad=5,6` by hand. Reading a URL
never raises; whatever cannot be used is replaced by a valid value and explained in a plain note.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attn_core.errors import SettingsError
from attn_core.tokens import DEFAULT_SENTENCE, tokenize

ROUTES = ("neg_inf", "zero_after", "renormalize", "zero_score")
ROUTE_NAMES = MappingProxyType({  # read-only: module globals are shared by every session
    "neg_inf": "-inf before softmax",
    "zero_after": "zero after softmax",
    "renormalize": "zero after, then renormalize",
    "zero_score": "blocked score set to 0 (trap)",
})
SUPPORTED_D_MODEL = (4, 8, 12, 16, 24)
MAX_DROPOUT = 0.9
DROPOUT_STEP = 0.05
MAX_SEED = 999_999


def valid_head_counts(d_model: int) -> tuple[int, ...]:
    """Head counts that split d_model evenly."""
    return tuple(h for h in range(1, d_model + 1) if d_model % h == 0)


def head_error(heads: int, d_model: int) -> str:
    """Why this head count is impossible, in one sentence."""
    valid = ", ".join(str(h) for h in valid_head_counts(d_model))
    return (
        f"{heads} heads cannot split d_model = {d_model} evenly ({d_model} / {heads} is not a whole number); "
        f"valid head counts for {d_model} are {valid}."
    )


@dataclass(frozen=True)
class Settings:
    """Everything that decides what the app computes; hashable, so it keys the cache."""

    sentence: str = DEFAULT_SENTENCE  # white-space separated words, 1 to 16
    causal: bool = False  # block every key after the query (the future)
    padded: tuple[int, ...] = ()  # 1-based word positions that are PAD tokens
    heads: int = 1  # number of heads h; must divide d_model
    view: int = 1  # 1-based head shown in the Lab
    d_model: int = 12  # model width d; each head gets d_head = d_model / heads
    dropout: float = 0.0  # p, the share of attention weights dropped while training
    training: bool = True  # dropout acts only in training; inference ignores p
    route: str = "neg_inf"  # how blocked cells are removed (see ROUTES)
    seed: int = 0  # draws the projection matrices W_q, W_k, W_v, W_o
    roll: int = 0  # which dropout pattern: a re-roll changes it, the maps stay
    rescale: bool = True  # multiply dropout survivors by 1 / (1 - p); False is the classic bug
    tokens: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tokenize(self.sentence))
        count = len(self.tokens)
        if self.d_model not in SUPPORTED_D_MODEL:
            allowed = ", ".join(map(str, SUPPORTED_D_MODEL))
            raise SettingsError(f"d_model = {self.d_model} is not offered; pick one of {allowed}.")
        if not isinstance(self.heads, int) or self.heads < 1:
            raise SettingsError("The number of heads must be a whole number of at least 1.")
        if self.d_model % self.heads:
            raise SettingsError(head_error(self.heads, self.d_model))
        if not 1 <= self.view <= self.heads:
            raise SettingsError(f"Head {self.view} does not exist: there are {self.heads} heads.")
        if not (isinstance(self.dropout, int | float) and 0.0 <= self.dropout <= MAX_DROPOUT):
            raise SettingsError(f"Dropout p must be between 0 and {MAX_DROPOUT}.")
        if self.route not in ROUTES:
            raise SettingsError(f"Unknown masking route {self.route!r}; pick one of {', '.join(ROUTES)}.")
        if not (0 <= self.seed <= MAX_SEED and 0 <= self.roll <= MAX_SEED):
            raise SettingsError(f"Seeds run from 0 to {MAX_SEED}.")
        if tuple(sorted(set(self.padded))) != tuple(self.padded) or any(
            not 1 <= pos <= count for pos in self.padded
        ):
            raise SettingsError(f"Padded positions must be distinct, sorted and between 1 and {count}.")

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads

    @property
    def dropout_active(self) -> bool:
        return self.training and self.dropout > 0

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed; raises SettingsError when the result is impossible."""
        return dataclasses.replace(self, **changes)

    def to_query(self) -> dict[str, str]:
        """The URL form; keys at their default value are left out."""
        plain = Settings().to_query_full()
        return {key: value for key, value in self.to_query_full().items() if value != plain[key]}

    def to_query_full(self) -> dict[str, str]:
        """Every key, defaults included (used to decide what to leave out)."""
        return {
            "causal": str(int(self.causal)),
            "heads": str(self.heads),
            "view": str(self.view),
            "p": f"{self.dropout:g}",
            "train": str(int(self.training)),
            "pad": ",".join(map(str, self.padded)),
            "route": self.route,
            "d": str(self.d_model),
            "seed": str(self.seed),
            "roll": str(self.roll),
            "rescale": str(int(self.rescale)),
            "s": self.sentence,
        }

    @classmethod
    def from_query(cls, params: Mapping[str, Any]) -> tuple[Settings, list[str]]:
        """Read a URL's query parameters; never raises. Returns valid settings and what was changed."""
        return _QueryReader(params).read()

    @classmethod
    def coerce(cls, **values: Any) -> tuple[Settings, list[str]]:
        """Like from_query, for values that are already Python objects (widgets, lesson pages)."""
        return _QueryReader({k: v for k, v in values.items()}, typed=True).read()


QUERY_KEYS = ("causal", "heads", "view", "p", "train", "pad", "route", "d", "seed", "roll", "rescale", "s")
_FIELD_OF_KEY = MappingProxyType({
    "causal": "causal",
    "heads": "heads",
    "view": "view",
    "p": "dropout",
    "train": "training",
    "pad": "padded",
    "route": "route",
    "d": "d_model",
    "seed": "seed",
    "roll": "roll",
    "rescale": "rescale",
    "s": "sentence",
})
_KEY_OF_FIELD = MappingProxyType({f: k for k, f in _FIELD_OF_KEY.items()})
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_MAX_VALUE_CHARS = 2_000


def _code(text: str) -> str:
    """User text quoted for a Markdown note: a code span, where Markdown and Streamlit's extras stay literal."""
    return "`" + repr(text).replace("`", "\u02cb") + "`"  # a backtick would end the span; show a look-alike


class _QueryReader:
    """Turns raw values into a valid Settings, one key at a time, collecting a note per change."""

    def __init__(self, params: Mapping[str, Any], typed: bool = False) -> None:
        self.notes: list[str] = []
        self.raw: dict[str, Any] = {}
        for key, value in params.items():
            key = _KEY_OF_FIELD.get(key, key) if typed else key
            if key not in _FIELD_OF_KEY:
                continue  # other features' keys (mode, scene, ...) are not ours to judge
            if isinstance(value, list | tuple) and not (typed and key == "pad"):
                if not value:
                    continue
                if len(value) > 1:
                    self.notes.append(f"`{key}` was given {len(value)} times; the last one was used.")
                value = value[-1]
            self.raw[key] = value
        self.typed = typed

    def read(self) -> tuple[Settings, list[str]]:
        base = Settings()
        sentence, tokens = self._sentence(base)
        d_model = self._choice("d", SUPPORTED_D_MODEL, base.d_model, "d_model")
        heads = self._heads(d_model, base.heads)
        values = {
            "sentence": sentence,
            "causal": self._flag("causal", base.causal),
            "padded": self._padded(len(tokens)),
            "heads": heads,
            "view": self._view(heads),
            "d_model": d_model,
            "dropout": self._dropout(base.dropout),
            "training": self._flag("train", base.training),
            "route": self._route(base.route),
            "seed": self._whole("seed", base.seed),
            "roll": self._whole("roll", base.roll),
            "rescale": self._flag("rescale", base.rescale),
        }
        return Settings(**values), self.notes

    # --- one reader per kind of value ---------------------------------------------------------------

    def _text(self, key: str) -> str | None:
        if key not in self.raw:
            return None
        value = self.raw[key]
        text = value if isinstance(value, str) else str(value)
        return text.strip()

    def _sentence(self, base: Settings) -> tuple[str, tuple[str, ...]]:
        if "s" not in self.raw:
            return base.sentence, base.tokens
        value = self.raw["s"]
        text = value if isinstance(value, str) else str(value)
        try:
            tokens = tokenize(text[: _MAX_VALUE_CHARS * 10])
        except SettingsError as error:
            self.notes.append(f"{error} Showing the default sentence instead.")
            return base.sentence, base.tokens
        return " ".join(tokens), tokens

    def _flag(self, key: str, default: bool) -> bool:
        if key not in self.raw:
            return default
        value = self.raw[key]
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()[:20]
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        self.notes.append(f"`{key}` must be 0 or 1; it was set to {int(default)}.")
        return default

    def _number(self, key: str) -> float | None:
        """The value as a finite number, or None (with a note) when it is not one."""
        value = self.raw[key]
        if isinstance(value, bool):
            value = int(value)
        if isinstance(value, int | float):
            number = float(value)
        else:
            text = str(value).strip()[:40]
            try:
                number = float(text)
            except ValueError:
                number = math.nan
        if not math.isfinite(number):
            return None
        return number

    def _whole(self, key: str, default: int, low: int = 0, high: int = MAX_SEED) -> int:
        if key not in self.raw:
            return default
        number = self._number(key)
        if number is None or number != int(number):
            self.notes.append(f"`{key}` must be a whole number; it was set to {default}.")
            return default
        if not low <= number <= high:
            clamped = int(min(max(number, low), high))
            self.notes.append(f"`{key}` must be between {low} and {high}; it was set to {clamped}.")
            return clamped
        return int(number)

    def _choice(self, key: str, allowed: tuple[int, ...], default: int, name: str) -> int:
        if key not in self.raw:
            return default
        number = self._number(key)
        if number is None or number not in allowed:
            options = ", ".join(map(str, allowed))
            self.notes.append(f"{name} can be {options}; it was set to {default}.")
            return default
        return int(number)

    def _heads(self, d_model: int, default: int) -> int:
        valid = valid_head_counts(d_model)
        fallback = default if default in valid else 1
        if "heads" not in self.raw:
            if fallback != default:
                self.notes.append(f"{head_error(default, d_model)} Showing {fallback} head.")
            return fallback
        number = self._number("heads")
        if number is None or number != int(number) or number < 1:
            self.notes.append(f"`heads` must be a whole number from 1 to {d_model}; it was set to {fallback}.")
            return fallback
        heads = int(min(number, 10**6))
        if heads in valid:
            return heads
        chosen = max(h for h in valid if h <= heads) if heads > 0 else 1
        self.notes.append(f"{head_error(heads, d_model)} Showing {chosen} heads instead.")
        return chosen

    def _view(self, heads: int) -> int:
        if "view" not in self.raw:
            return 1
        number = self._number("view")
        if number is None or number != int(number):
            self.notes.append("`view` must be a whole number; showing head 1.")
            return 1
        if not 1 <= number <= heads:
            chosen = int(min(max(number, 1), heads))
            self.notes.append(f"There is no head {number:g} among {heads}; showing head {chosen}.")
            return chosen
        return int(number)

    def _dropout(self, default: float) -> float:
        if "p" not in self.raw:
            return default
        number = self._number("p")
        if number is None:
            self.notes.append(f"Dropout `p` must be a number from 0 to {MAX_DROPOUT}; it was set to {default:g}.")
            return default
        clamped = min(max(number, 0.0), MAX_DROPOUT)
        snapped = round(round(clamped / DROPOUT_STEP) * DROPOUT_STEP, 2)
        if clamped != number:
            self.notes.append(f"Dropout `p` must be between 0 and {MAX_DROPOUT}; it was set to {snapped:g}.")
        elif not math.isclose(snapped, number, abs_tol=1e-9):
            self.notes.append(f"Dropout `p` moves in steps of {DROPOUT_STEP}; {number:g} became {snapped:g}.")
        return snapped

    def _route(self, default: str) -> str:
        if "route" not in self.raw:
            return default
        text = str(self.raw["route"]).strip()[:40]
        if text in ROUTES:
            return text
        self.notes.append(f"The masking route can be {', '.join(ROUTES)}; it was set to {default}.")
        return default

    def _padded(self, count: int) -> tuple[int, ...]:
        if "pad" not in self.raw:
            return ()
        value = self.raw["pad"]
        if isinstance(value, list | tuple | set | frozenset):
            parts = [str(v) for v in value]
        else:
            parts = [part for part in str(value)[:_MAX_VALUE_CHARS].split(",") if part.strip()]
        positions: set[int] = set()
        rejected: list[str] = []
        for part in parts:
            text = part.strip()
            if text.isdigit() and text.isascii() and 1 <= int(text) <= count:
                positions.add(int(text))
            else:
                rejected.append(text[:12])
        if rejected:
            shown = ", ".join(_code(r) for r in rejected[:4]) + (" ..." if len(rejected) > 4 else "")
            self.notes.append(
                f"`pad` takes word positions from 1 to {count}, separated by commas; ignored {shown}."
            )
        return tuple(sorted(positions))
