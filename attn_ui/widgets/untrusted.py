"""Widget values from a browser are untrusted input: a value a widget cannot read is read as no value.

Any client can send any widget any value over the websocket (tests/browser/test_fuzz_widgets.py does). Streamlit
1.67 reads a widget's value with the widget's own deserializer before any page code can look at it, and keeps
what the client sent: a value of another type (a string for pills, a number for a slider) or malformed JSON
raises inside Streamlit, in every later run of that session. install() wraps every widget's deserializer so
that such a value is read as the widget's default instead, as if nothing had been sent, and keeps the value type
the widget registered (Streamlit would adopt the client's and fail to write the value back); the page code then
checks values of the right type itself (an unknown radio option, say). A widget state whose id is no element id
(a crafted message naming a session key, `poll.host` say) is dropped as it arrives: Streamlit would take it for a
widget without metadata and raise a KeyError in the next widget's registration. Installed once per process, on
import of attn_ui.widgets.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from streamlit.runtime.state import session_state as _session_state
from streamlit.runtime.state.common import is_element_id

UNREADABLE = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError)  # JSON errors are ValueError


def _guarded(deserializer: Callable[[Any], Any]) -> Callable[[Any], Any]:
    if getattr(deserializer, "attn_guarded", False):
        return deserializer

    @functools.wraps(deserializer)
    def read(value: Any) -> Any:
        try:
            return deserializer(value)
        except UNREADABLE:
            return deserializer(None)  # the widget's default

    read.attn_guarded = True
    return read


def _guard_metadata(metadata: Any) -> Any:
    return dataclasses.replace(metadata, deserializer=_guarded(metadata.deserializer))


def install() -> None:
    """Idempotent: wrap Streamlit's widget value reading in this process."""
    if getattr(_session_state, "attn_guarded", False):
        return
    unpack = _session_state.unpack_widget_state_value

    def unpack_or_none(widget_state: Any) -> Any:
        try:
            return unpack(widget_state)
        except ValueError:  # malformed JSON: as if no value was sent
            return None

    _session_state.unpack_widget_state_value = unpack_or_none
    original_set = _session_state.WStates.set_widget_metadata

    def guarded_states_set(self, metadata) -> None:
        # Streamlit records the value type the client sent as the widget's; a widget then serialises its own
        # value (a list, say) into that field (an int) and raises. The type the widget registered stays.
        known = self.widget_metadata.get(metadata.id)
        if known is not None and known.value_type != metadata.value_type:
            metadata = dataclasses.replace(metadata, value_type=known.value_type)
        original_set(self, _guard_metadata(metadata))

    original_session_set = _session_state.SessionState._set_widget_metadata

    def guarded_session_set(self, metadata) -> None:
        original_session_set(self, _guard_metadata(metadata))

    original_from_proto = _session_state.WStates.set_widget_from_proto

    def element_states_only(self, widget_state) -> None:
        if isinstance(getattr(widget_state, "id", None), str) and is_element_id(widget_state.id):
            original_from_proto(self, widget_state)  # no real client sends anything else

    _session_state.WStates.set_widget_metadata = guarded_states_set
    _session_state.SessionState._set_widget_metadata = guarded_session_set
    _session_state.WStates.set_widget_from_proto = element_states_only
    _session_state.attn_guarded = True
