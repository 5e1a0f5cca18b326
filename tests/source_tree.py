"""The app's own code as the guard tests see it: every module of every package, subpackages included.

One list for every test that checks all of the app's code (module state, escaping, the rooms' import rules), so
moving a module into a subpackage can never take it out of a check.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGE_NAMES = tuple(
    name for name in ("attn_core", "attn_ui", "attn_poll", "attn_phone", "attn_lang")
    if (REPO_ROOT / name / "__init__.py").is_file()
)


def module_names() -> list[str]:
    """Every importable module of the app's packages, walked recursively (`attn_ui.figures.palette`, ...)."""
    names = []
    for package_name in PACKAGE_NAMES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}.")]
    return names


def package_files() -> list[Path]:
    """Every .py file of the app's packages, at any depth."""
    return [path for name in PACKAGE_NAMES for path in sorted((REPO_ROOT / name).rglob("*.py"))]


def script_files() -> list[Path]:
    """The page scripts Streamlit runs: the Lab (app.py) and pages/."""
    return [REPO_ROOT / "app.py", *sorted((REPO_ROOT / "pages").glob("*.py"))]


def app_files() -> list[Path]:
    return [path for path in (*script_files(), *package_files()) if path.is_file()]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts).removesuffix(".__init__")
