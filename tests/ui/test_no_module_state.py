"""No module-level mutable state: in Streamlit every session shares one copy of each imported module, so a
dict, list or set at module level (or a cache other than the one st.cache_data wrapper) is shared by every
student. Constant tables are read-only (MappingProxyType, frozenset, tuple) so they cannot become state.

Page scripts (app.py, pages/) are run afresh for every run in their own namespace, so their top-level names
are not shared; they are checked for `global` statements and caches only.
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import importlib
import types

import numpy as np
import pytest

from tests.source_tree import REPO_ROOT, app_files, module_names

MUTABLE = (dict, list, set, bytearray, collections.deque, collections.defaultdict, collections.OrderedDict,
           collections.Counter)  # fmt: skip
ALLOWED_CACHES = frozenset({
    ("attn_ui.widgets.state", "cached_compute"),  # THE one st.cache_data wrapper of the Lab's Results
    # Training Results: a run takes seconds and is a function of its choice and seed, so one finished run
    # serves every session; its key is a TrainChoice, not a Settings, and a worker thread fills it.
    ("attn_ui.widgets.state", "cached_training"),
    # What is drawn from a Result, keyed like cached_compute by the Settings' repr (a Result is a function of its
    # Settings): the Lab's map dict and words, and a lesson's figure dicts, built once for every session.
    ("attn_ui.widgets.panels", "_drawn_map"),
    ("attn_ui.widgets.panels", "_drawn_words"),
    ("attn_ui.widgets.panels", "_lesson_specs"),
    # the Lab's map as SVG, keyed the same way with the row and the language: 3 to 14 ms to write, once a state
    ("attn_ui.widgets.share", "_map_svg"),
})
# st.cache_resource: shared objects that hold no student's data, one per server on purpose.
ALLOWED_RESOURCES = frozenset({
    ("attn_ui.views.poll_service", "_poll_for"),  # the class poll's database engine (a pool of connections)
    # the training run board: its threads, their queue for the bounded slots and the measured step times
    ("attn_ui.views.training_runs", "run_board"),
    # a live lecture's question and text for each of the 27 scenes in each language: frozen values computed from the
    # scene constants (no student's data), drawn by every phone at each scene change, so built once a server
    ("attn_ui.views.live_view", "cached_question"),
    # the same for the phone's page, outside Streamlit (functools.lru_cache, 256 entries): 15 ms a question to build,
    # and every answer a phone sends reads its question's grid. Keyed by the question's id and stored spec (a
    # lecturer's own scene, read from the database) and the language: a function of its key, no room's state
    ("attn_phone.screens", "room_question"),
})
# Modules of work in progress that still keep constant tables in plain dicts/lists (reported to their
# owners; each entry goes once the tables are MappingProxyType/tuple). Not strict: fixing one must not fail.
STILL_TO_FREEZE: frozenset[str] = frozenset()


def package_modules() -> list:
    modules = []
    for name in module_names():
        marks = [pytest.mark.xfail(reason="constant tables not frozen yet")] if name in STILL_TO_FREEZE else []
        modules.append(pytest.param(importlib.import_module(name), id=name, marks=marks))
    return modules


def mutable_reason(value: object) -> str | None:
    """Why a module global is mutable state, or None when it is not."""
    if isinstance(value, MUTABLE):
        return type(value).__name__
    if isinstance(value, np.ndarray) and value.flags.writeable:
        return "writeable numpy array"
    is_instance = dataclasses.is_dataclass(value) and not isinstance(value, type)
    if is_instance and not type(value).__dataclass_params__.frozen:
        return "instance of a non-frozen dataclass"
    if callable(value) and hasattr(value, "cache_info"):
        return "functools cache"
    return None


@pytest.mark.parametrize("module", package_modules())
def test_module_globals_are_immutable(module):
    found = {}
    for name, value in vars(module).items():
        if name.startswith("__") and name.endswith("__"):
            continue  # __all__, __path__ and friends belong to Python
        if isinstance(value, types.ModuleType) or getattr(value, "__module__", module.__name__) != module.__name__:
            continue  # imported names are checked in their own module
        reason = mutable_reason(value)
        if reason and (module.__name__, name) not in ALLOWED_RESOURCES:
            found[name] = reason
    assert not found, f"{module.__name__} keeps mutable module-level state: {found}"


def test_the_checks_catch_what_they_should():
    assert mutable_reason({}) == "dict" and mutable_reason([]) == "list" and mutable_reason(set()) == "set"
    assert mutable_reason(np.zeros(2)) == "writeable numpy array"
    assert mutable_reason(types.MappingProxyType({})) is None and mutable_reason(frozenset()) is None
    assert mutable_reason((1, 2)) is None and mutable_reason("text") is None


@pytest.mark.parametrize("path", app_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_no_globals_and_no_stray_caches(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    module = ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
    problems = []
    allowed_decorators = {
        id(target)
        for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and (module, node.name) in ALLOWED_RESOURCES
        for decorator in node.decorator_list
        for target in ast.walk(decorator)
    }
    for node in ast.walk(tree):
        if id(node) in allowed_decorators:
            continue
        if isinstance(node, ast.Global | ast.Nonlocal):
            problems.append(f"line {node.lineno}: `{type(node).__name__.lower()}` statement")
        if isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache", "cache_resource", "cached_property"):
            problems.append(f"line {node.lineno}: {node.attr}")
        if isinstance(node, ast.Name) and node.id in ("lru_cache", "cached_property"):
            problems.append(f"line {node.lineno}: {node.id}")
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                is_cache = isinstance(target, ast.Attribute) and target.attr == "cache_data"
                if is_cache and (module, node.name) not in ALLOWED_CACHES:
                    problems.append(f"line {node.lineno}: st.cache_data on {node.name} (use state.cached_compute)")
    assert not problems, f"{path.relative_to(REPO_ROOT)}: {problems}"


def test_the_one_resource_exists():
    from attn_ui.views import poll_service, training_runs

    assert hasattr(poll_service._poll_for, "clear"), "_poll_for must be the st.cache_resource wrapper"
    assert hasattr(training_runs.run_board, "clear"), "run_board must be the st.cache_resource wrapper"


def test_the_one_cache_exists():
    from attn_ui.widgets import state

    assert hasattr(state.cached_compute, "clear"), "cached_compute must be the st.cache_data wrapper"


def test_the_cache_key_of_settings_names_every_field():
    """cached_compute keys a Settings by its repr: a field that tells two Settings apart (compare=True) but is
    left out of the repr would make them share a cache entry. (tokens is derived from sentence.)"""
    from attn_core import Settings

    compared = [f for f in dataclasses.fields(Settings) if f.compare]
    assert all(f.repr for f in compared)
    assert all(f"{f.name}=" in repr(Settings()) for f in compared)
