"""The core of the app: pure, seeded NumPy. Settings -> compute() -> Result. Never imports Streamlit or Plotly."""

from attn_core.engine import Result, compute
from attn_core.errors import SettingsError
from attn_core.query import coerce_settings, settings_from_query
from attn_core.settings import (
    MAX_DROPOUT,
    QUERY_KEYS,
    ROUTE_NAMES,
    ROUTES,
    SUPPORTED_D_MODEL,
    Settings,
    head_error,
    valid_head_counts,
)
from attn_core.tokens import DEFAULT_SENTENCE, MAX_TOKENS, MAX_WORD_CHARS, tokenize

__all__ = [
    "DEFAULT_SENTENCE",
    "MAX_DROPOUT",
    "MAX_TOKENS",
    "MAX_WORD_CHARS",
    "QUERY_KEYS",
    "ROUTES",
    "ROUTE_NAMES",
    "SUPPORTED_D_MODEL",
    "Result",
    "Settings",
    "SettingsError",
    "coerce_settings",
    "compute",
    "head_error",
    "settings_from_query",
    "tokenize",
    "valid_head_counts",
]
