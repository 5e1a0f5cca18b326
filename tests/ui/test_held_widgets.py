"""Every keyed widget starts at the value the server holds (attn_ui/widgets/held.py): it passes its session value as
its default (`**held.start(...)`, `**held.index(...)`), an explicit default of its own, or is a one-of-a-few choice
drawn by held.one_of. A bare keyed widget set through session state can show its default in a browser that missed
the run that set it (measured: the Shapes page's batch slider at 1 after 1 reload in 10 under load, page at 11)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = {"toggle", "checkbox", "slider", "select_slider", "pills", "selectbox", "number_input", "text_input",
           "text_area", "radio", "segmented_control", "multiselect"}
OWN_DEFAULT = {"value", "index", "default"}
# keyed widgets the app never sets through session state: what they hold came only from the browser
NEVER_SET = {("attn_ui/views/poll_open.py", "text_input"), ("attn_ui/views/poll_open.py", "checkbox"),
             ("attn_ui/widgets/questions.py", "pills")}  # a tapped line, cleared to None by its own callback


def keyed_widgets():
    for path in sorted([*ROOT.glob("attn_ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]):
        name = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WIDGETS
                    and any(k.arg == "key" for k in node.keywords)):
                yield name, node


def held_or_own(node: ast.Call) -> bool:
    for keyword in node.keywords:
        if keyword.arg in OWN_DEFAULT:
            return True
        if keyword.arg is None and isinstance(keyword.value, ast.Call):
            func = keyword.value.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "held":
                return True
    return False


def test_there_are_keyed_widgets_to_check():
    assert len(list(keyed_widgets())) >= 30


@pytest.mark.parametrize(("name", "line", "kind"), [(n, c.lineno, c.func.attr) for n, c in keyed_widgets()])
def test_a_keyed_widget_starts_at_the_servers_value(name, line, kind):
    if kind == "segmented_control":
        assert name == "attn_ui/widgets/held.py", f"{name}:{line}: draw a one-of-a-few choice with held.one_of"
        return
    node = next(c for n, c in keyed_widgets() if n == name and c.lineno == line)
    assert (name, kind) in NEVER_SET or held_or_own(node), f"{name}:{line}: {kind} with a key and no starting value"
