"""One frozen Settings object: every choice a student can make, each declared once.

Each field carries its URL key, how its URL value is read (`kind`), the allowed values and a one-line reason.
Everything else is derived from that one declaration: the URL form (`to_query`), the lenient reading of a
link (`attn_core.query`), the Lab's widget keys and the table of keys in docs/urls.md (`attn_core.url_keys`).

The URL is part of the product: a lecturer can write `?causal=1&heads=4&pad=5,6` by hand.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attn_core.errors import SettingsError
from attn_core.tokens import DEFAULT_SENTENCE, MAX_TOKENS, MAX_WORD_CHARS, tokenize
from attn_lang import N_, _

ROUTES = ("neg_inf", "zero_after", "renormalize", "zero_score")
ROUTE_NAMES = MappingProxyType({  # read-only: module globals are shared by every session; drawn as _(name)
    "neg_inf": N_("-inf before softmax"),
    "zero_after": N_("zero after softmax"),
    "renormalize": N_("zero after, then renormalize"),
    "zero_score": N_("blocked score set to 0 (trap)"),
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
    return _(
        "{heads} heads cannot split d_model = {d_model} evenly ({d_model} / {heads} is not a whole number); "
        "valid head counts for {d_model} are {valid}.",
        heads=heads, d_model=d_model, valid=valid,
    )


@dataclass(frozen=True)
class UrlKey:
    """How one Settings field lives in the address bar."""

    key: str  # the URL key
    kind: str  # how its value is read and written: see attn_core.query.READERS and FORMATS below
    meaning: str  # one line: what it decides
    values: str  # the values a link may give


def setting(default: Any, key: str, kind: str, meaning: str, values: str) -> Any:
    """A Settings field declared with its URL key: the one place a setting is described."""
    return field(default=default, metadata={"url": UrlKey(key, kind, meaning, values)})


@dataclass(frozen=True)
class Settings:
    """Everything that decides what the app computes; hashable, so it keys the cache.

    Fields are declared in the order a link is read: the sentence before PAD positions, d_model before heads,
    heads before the head in view.
    """

    sentence: str = setting(DEFAULT_SENTENCE, "s", "sentence", "a custom sentence",
                            f"1 to {MAX_TOKENS} words of at most {MAX_WORD_CHARS} characters")
    causal: bool = setting(False, "causal", "flag", "causal mask: block every key after its query", "`0`/`1`")
    padded: tuple[int, ...] = setting((), "pad", "positions", "PAD words, 1-based positions", "e.g. `5,6`")
    d_model: int = setting(12, "d", "d_model", "d_model, the model width",
                           ", ".join(f"`{d}`" for d in SUPPORTED_D_MODEL))
    heads: int = setting(1, "heads", "heads", "number of heads h", "a divisor of `d`")
    view: int = setting(1, "view", "view", "head shown, counted from 1", "`1`..`heads`")
    dropout: float = setting(0.0, "p", "dropout", "dropout probability p on the weights",
                             f"`0` to `{MAX_DROPOUT}` in steps of `{DROPOUT_STEP}`")
    training: bool = setting(True, "train", "flag", "training (dropout acts) or inference (dropout off)", "`0`/`1`")
    route: str = setting("neg_inf", "route", "route", "how blocked cells are removed",
                         ", ".join(f"`{r}`" for r in ROUTES))
    seed: int = setting(0, "seed", "whole", "seed of W_q, W_k, W_v, W_o", f"`0`..`{MAX_SEED}`")
    roll: int = setting(0, "roll", "whole", "which dropout pattern (the re-roll button counts it up)",
                        f"`0`..`{MAX_SEED}`")
    rescale: bool = setting(True, "rescale", "flag", "multiply dropout survivors by 1/(1-p)", "`0`/`1`")
    tokens: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tokenize(self.sentence))
        count = len(self.tokens)
        if self.d_model not in SUPPORTED_D_MODEL:
            allowed = ", ".join(map(str, SUPPORTED_D_MODEL))
            raise SettingsError(_("d_model = {d_model} is not offered; pick one of {allowed}.",
                                  d_model=self.d_model, allowed=allowed))
        if not isinstance(self.heads, int) or self.heads < 1:
            raise SettingsError(_("The number of heads must be a whole number of at least 1."))
        if self.d_model % self.heads:
            raise SettingsError(head_error(self.heads, self.d_model))
        if not 1 <= self.view <= self.heads:
            raise SettingsError(_("Head {view} does not exist: there are {heads} heads.", view=self.view,
                                  heads=self.heads))
        if not (isinstance(self.dropout, int | float) and 0.0 <= self.dropout <= MAX_DROPOUT):
            raise SettingsError(_("Dropout p must be between 0 and {most}.", most=MAX_DROPOUT))
        if self.route not in ROUTES:
            raise SettingsError(_("Unknown masking route {route!r}; pick one of {routes}.", route=self.route,
                                  routes=", ".join(ROUTES)))
        if not (0 <= self.seed <= MAX_SEED and 0 <= self.roll <= MAX_SEED):
            raise SettingsError(_("Seeds run from 0 to {most}.", most=MAX_SEED))
        if tuple(sorted(set(self.padded))) != tuple(self.padded) or any(
            not 1 <= pos <= count for pos in self.padded
        ):
            raise SettingsError(_("Padded positions must be distinct, sorted and between 1 and {count}.",
                                  count=count))

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
        return {f.key: url_text(f, getattr(self, f.name)) for f in FIELDS if getattr(self, f.name) != f.default}

    def to_query_full(self) -> dict[str, str]:
        """Every key, defaults included."""
        return {f.key: url_text(f, getattr(self, f.name)) for f in FIELDS}


@dataclass(frozen=True)
class SettingField:
    """One declared setting: its Settings field, URL key, default and reason."""

    name: str
    key: str
    kind: str
    default: Any
    meaning: str
    values: str


FIELDS = tuple(
    SettingField(f.name, default=f.default, **dataclasses.asdict(f.metadata["url"]))
    for f in dataclasses.fields(Settings)
    if "url" in f.metadata
)
FIELD_BY_KEY = MappingProxyType({f.key: f for f in FIELDS})
FIELD_BY_NAME = MappingProxyType({f.name: f for f in FIELDS})
QUERY_KEYS = tuple(f.key for f in FIELDS)

# How a value of each kind is written in the URL (anything not listed: str()).
FORMATS = MappingProxyType({
    "flag": lambda value: str(int(value)),
    "positions": lambda value: ",".join(map(str, value)),
    "dropout": lambda value: f"{value:g}",
})


def url_text(setting_field: SettingField, value: Any) -> str:
    """A value as the URL writes it."""
    return FORMATS.get(setting_field.kind, str)(value)
