"""The benches (bench/*.py) import one another without a circle.

Each bench runs as a script with bench/ on sys.path, and several of them are imported by others (bench/load.py's
light client, bench/phones.py's phones, bench/load_poll.py's ProtocolSession for the widget fuzz test). A circle
between two of them (one importing the other at module level, the other importing it back, even lazily inside a
function) makes the order of their module-level code depend on which one is started, so the graph of imports
between bench modules must stay acyclic. It is read from the source with ast, imports inside functions included,
without importing anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source_tree import REPO_ROOT

BENCH = REPO_ROOT / "bench"


def imported_names(tree: ast.AST) -> set[str]:
    """Every top-level module name the code imports anywhere (module level, functions, classes): `import x.y`,
    `from x.y import z`, `from bench import x`, and importlib.import_module("x") or __import__("x") with a literal."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.add(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            function = node.func
            called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            if called in ("import_module", "__import__"):
                names.add(node.args[0].value)
    found = set()
    for name in names:
        parts = name.split(".")
        found.add(parts[1] if parts[0] == "bench" and len(parts) > 1 else parts[0])
    return found


def import_graph(folder: Path = BENCH) -> dict[str, set[str]]:
    """Bench module -> the bench modules it imports (anywhere in its source)."""
    modules = {path.stem: path for path in sorted(folder.glob("*.py"))}
    return {name: imported_names(ast.parse(path.read_text(), filename=str(path))) & modules.keys()
            for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle as the path that closes it (["a", "b", "a"]), or [] when the graph is acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return []


def test_the_cycle_finder_finds_a_circle_and_passes_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_imports_inside_functions_count() -> None:
    source = "import os\nimport bench.phones\n\ndef later():\n    import load_poll\n    from load import x\n" \
             "    importlib.import_module('harness')\n"
    assert imported_names(ast.parse(source)) == {"os", "phones", "load_poll", "load", "harness"}


def test_the_graph_sees_the_benches_imports() -> None:
    graph = import_graph()
    assert {"load_poll", "load_lecture", "phones", "load"} <= graph.keys()
    assert "phones" in graph["load_poll"] and "phones" in graph["load_lecture"]
    assert "load" in graph["phones"]


def test_load_poll_and_load_lecture_do_not_import_each_other() -> None:
    graph = import_graph()
    assert "load_lecture" not in graph["load_poll"]
    assert "load_poll" not in graph["load_lecture"]


def test_no_import_cycle_between_bench_modules() -> None:
    cycle = find_cycle(import_graph())
    assert not cycle, f"bench modules import one another in a circle: {' -> '.join(cycle)}"
