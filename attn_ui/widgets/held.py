"""Keyed widgets whose browser shows what the server holds.

The app sets most widgets through session state (a link, a reload, Back). Measured here: after a reload on a busy
machine (two CPU hogs), about 1 load in 10 drew the Shapes page's batch slider at its minimum, 1, while session state,
the address and every number on the page said 11; the next click then sent 1. The value set in session state reached
the browser in a run the browser replaced before it drew it, and the next run's slider carries only its default. So
every such widget is also given that value as its default (`start`, `index`): whichever of the two the browser keeps,
it shows the server's value (20 of 20 reloads then). Streamlit logs once that a widget has both; .streamlit/config.toml
turns that line off.

`one_of` is a one-of-a-few choice (segmented control, `required=True`) that always holds one of its options: required
only stops a click from unsetting it, a client may still send it empty, and a page that did arithmetic on the None it
got stopped with a traceback."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import streamlit as st

T = TypeVar("T")

KEPT = "{key}.kept"  # the last option a one_of control held, one session key per control


def start(key: str, name: str = "value", *, fallback: Any = None, options: Sequence[Any] | None = None,
          low: float | None = None, high: float | None = None, of: type | tuple[type, ...] | None = None
          ) -> dict[str, Any]:
    """The keyword that starts the widget under `key` at its session value (`name`: value, default), or at `fallback`
    when the session holds none the widget could take (not of type `of`, outside `options`, below `low`, above
    `high`); nothing when neither is there. A list (pills with several picks) keeps the picks among `options`."""
    value = st.session_state.get(key)
    if isinstance(value, list) and of is None:
        value = [v for v in value if options is None or v in options]
    elif value is not None and not (_typed(value, of) and _fits(value, options, low, high)):
        value = None
    value = fallback if value is None else value
    return {} if value is None else {name: value}


def _typed(value: Any, of: type | tuple[type, ...] | None) -> bool:
    kinds = of if isinstance(of, tuple) else (of,)
    return of is None or (isinstance(value, of) and (bool in kinds or not isinstance(value, bool)))


def _fits(value: Any, options: Sequence[Any] | None, low: float | None, high: float | None) -> bool:
    if options is not None and value not in options:
        return False
    try:
        return (low is None or value >= low) and (high is None or value <= high)
    except TypeError:  # a client's text where a number belongs
        return False


def index(key: str, options: Sequence[Any], fallback: int | None = 0) -> dict[str, Any]:
    """`index=` for a selectbox or radio under `key`: its session value's place among `options`, else `fallback`
    (None: nothing chosen, its placeholder)."""
    options = list(options)
    value = st.session_state.get(key)
    return {"index": options.index(value) if value is not None and value in options else fallback}


def one_of(label: str, options: Sequence[T], *, key: str, place: Any = None, fallback: T | None = None,
           **kwargs: Any) -> T:
    """Draw the choice under `key` (in `place`, a column or container; the page when None) and return its option,
    never None: an empty or unknown value is put back, before the control is drawn, to the last option this session
    chose, else `fallback`, else the first option. The remaining arguments go to st.segmented_control."""
    options = list(options)
    state = st.session_state
    kept = KEPT.format(key=key)
    if state.get(key) not in options:
        state[key] = next((c for c in (state.get(kept), fallback) if c in options), options[0])
    value = (place or st).segmented_control(label, options, key=key, required=True, default=state[key], **kwargs)
    state[kept] = value
    return value
