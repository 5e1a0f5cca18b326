"""Results to JSON and back: a result is a tree of frozen dataclasses, tuples, numbers and strings."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any

from attn_core.training import experiments
from attn_core.training.loop import TrainConfig

RESULT_TYPES = types.MappingProxyType({
    cls.__name__: cls
    for cls in (experiments.MaskResult, experiments.HeadsResult, experiments.DropoutResult)
})
_NAMESPACE = types.MappingProxyType({**vars(experiments), "TrainConfig": TrainConfig})


def to_plain(value: Any) -> Any:
    """Dataclasses become dicts and tuples lists, so json.dumps can write them."""
    if dataclasses.is_dataclass(value):
        return {field.name: to_plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_plain(item) for item in value]
    return value


def from_plain(kind: Any, value: Any) -> Any:
    """The inverse of to_plain, led by the type hints of the dataclass fields."""
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind, globalns=dict(_NAMESPACE))
        fields = {f.name: from_plain(hints[f.name], value[f.name]) for f in dataclasses.fields(kind) if f.init}
        return kind(**fields)
    if typing.get_origin(kind) is tuple:
        arguments = typing.get_args(kind)
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(from_plain(arguments[0], item) for item in value)
        return tuple(from_plain(argument, item) for argument, item in zip(arguments, value, strict=True))
    if kind is float:
        return float(value)
    return value


def to_json(result: Any) -> str:
    """Compact JSON with the result's kind, so from_json knows what to build."""
    return json.dumps({"kind": type(result).__name__, "result": to_plain(result)}, separators=(",", ":"))


def from_json(text: str) -> Any:
    document = json.loads(text)
    return from_plain(RESULT_TYPES[document["kind"]], document["result"])
