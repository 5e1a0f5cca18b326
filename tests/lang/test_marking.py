"""How messages are marked in the code (attn_lang): rules a reviewer would otherwise have to remember."""

from __future__ import annotations

import ast

import pytest

from tests.source_tree import REPO_ROOT, app_files


@pytest.mark.parametrize("path", app_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_underscore_is_only_the_translation_function(path):
    """`_` is attn_lang's "translate this now": a throwaway variable named `_` would hide it in its whole function
    (Python makes `_` local there), and `_("...")` would then call a tuple. Throwaways are named `__`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    stored = [node.lineno for node in ast.walk(tree)
              if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store)]
    assert not stored, f"{path.relative_to(REPO_ROOT)} assigns to `_` on lines {stored}"
