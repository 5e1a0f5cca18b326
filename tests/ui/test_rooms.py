"""The house's rooms and what each may import (README, "How it is built").

Read from the source (every import statement, at any depth of a room) and checked again at run time: importing
every module of a pure room in a fresh interpreter must not load Streamlit (or Plotly, where it is not allowed).
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.source_tree import REPO_ROOT, module_name

# room -> the third-party packages it may import (the standard library is always allowed) and the rooms it may use
ROOMS = {
    # the languages: messages, catalogs, numbers as each language writes them; every other room may use it
    "attn_lang": ({"babel"}, {"attn_lang"}),
    "attn_core": ({"numpy"}, {"attn_core", "attn_lang"}),
    "attn_poll": ({"numpy", "sqlalchemy", "segno"}, {"attn_poll", "attn_lang"}),
    "attn_ui/words": ({"numpy"}, {"attn_core", "attn_lang", "attn_ui.words"}),
    "attn_ui/quiz": ({"numpy"}, {"attn_core", "attn_lang", "attn_ui.quiz", "attn_ui.words"}),
    "attn_ui/figures": ({"numpy", "plotly"}, {"attn_core", "attn_lang", "attn_ui.figures", "attn_ui.words"}),
    "attn_ui/widgets": ({"numpy", "streamlit", "pandas"}, {"attn_core", "attn_lang", "attn_poll", "attn_ui.figures",
                                                           "attn_ui.words", "attn_ui.quiz", "attn_ui.widgets"}),
    # the phone's page: plain HTTP beside Streamlit, never Streamlit itself (a phone costs no script run)
    "attn_phone": ({"starlette", "jinja2", "markupsafe"}, {"attn_lang", "attn_poll", "attn_ui.words", "attn_ui.quiz",
                                                          "attn_phone"}),
    # a page's whole feature: it may use every room above; no shared control imports a view
    "attn_ui/views": ({"numpy", "streamlit", "pandas", "starlette"}, {
        "attn_core", "attn_lang", "attn_poll", "attn_phone", "attn_ui.figures", "attn_ui.words", "attn_ui.quiz",
        "attn_ui.widgets", "attn_ui.views"}),
}
PURE = ("attn_lang", "attn_core", "attn_poll", "attn_phone", "attn_ui/words", "attn_ui/quiz", "attn_ui/figures")


def imports_of(path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def room_of(dotted: str) -> str | None:
    """The room a dotted module name belongs to (`attn_ui.figures.maps` -> `attn_ui.figures`)."""
    for room in sorted(ROOMS, key=len, reverse=True):
        prefix = room.replace("/", ".")
        if dotted == prefix or dotted.startswith(prefix + "."):
            return prefix
    return None


def room_files() -> list:
    return [pytest.param(room, path, id=str(path.relative_to(REPO_ROOT)))
            for room in ROOMS for path in sorted((REPO_ROOT / room).rglob("*.py"))]


def test_every_package_module_is_in_a_room():
    loose = [p for p in (REPO_ROOT / "attn_ui").glob("*.py") if p.name != "__init__.py"]
    assert not loose, f"modules outside a room: {loose}; put each in figures/, words/, quiz/, widgets/ or views/"


@pytest.mark.parametrize(("room", "path"), room_files())
def test_a_room_imports_only_what_it_may(room, path):
    packages, rooms = ROOMS[room]
    problems = []
    for line, name in imports_of(path):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names:
            continue
        if top.startswith("attn_"):
            target = room_of(name) or top
            if target == "attn_ui" or target in rooms or name.count(".") and room_of(name.rsplit(".", 1)[0]) in rooms:
                continue
            problems.append(f"line {line}: {name} (room {target})")
        elif top not in packages:
            problems.append(f"line {line}: {name}")
    assert not problems, f"{module_name(path)} ({room}) may not import: {problems}"


@pytest.mark.parametrize("room", PURE)
def test_a_pure_room_loads_no_streamlit_at_run_time(room):
    modules = [module_name(path) for path in sorted((REPO_ROOT / room).rglob("*.py"))]
    forbidden = ["streamlit"] + ([] if room == "attn_ui/figures" else ["plotly"])
    code = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
            f"print([f for f in {forbidden!r} if f in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", f"{room} loaded {done.stdout.strip()}"
