"""What deploy/Dockerfile puts in its images, from its COPY lines and Dockerfile.dockerignore (tests/deploy/
image_files.py reads them as Docker does). Fast: no venv, no server. test_image_fresh_venv.py runs the result.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.deploy import image_files

ROOT = image_files.REPO_ROOT


@pytest.fixture(scope="module")
def stages() -> dict[str, image_files.Stage]:
    return image_files.parse()


@pytest.fixture(scope="module")
def context(tmp_path_factory) -> Path:
    """A fresh clone's files, plus what a developer's working tree may hold and an image must not."""
    folder = image_files.clone(tmp_path_factory.mktemp("context"))
    (folder / ".streamlit" / "secrets.toml").write_text('poll_database_url = "postgresql://me:hunter2@db/x"\n')
    (folder / "attn_ui" / "secrets.toml").write_text("leaked = 1\n")
    (folder / ".env").write_text("POSTGRES_PASSWORD=hunter2\n")
    (folder / "attn_core" / "__pycache__").mkdir(exist_ok=True)
    (folder / "attn_core" / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    return folder


@pytest.fixture(scope="module")
def app_files(stages, context, tmp_path_factory) -> list[str]:
    return image_files.layout(stages, "app", context, tmp_path_factory.mktemp("app"))


def test_the_dockerignore_reads_as_docker_reads_it(tmp_path):
    (tmp_path / ".dockerignore").write_text("**/__pycache__\nassets/*.png\ntests\n!tests/keep.txt\n/docs/*.md\n")
    rules = image_files.ignore_rules(tmp_path / ".dockerignore")
    assert image_files.ignored("a/b/__pycache__/x.pyc", rules)  # a parent folder matched
    assert image_files.ignored("__pycache__/x.pyc", rules)  # ** matches no folder too
    assert image_files.ignored("assets/lab.png", rules)
    assert not image_files.ignored("assets/training/mask.json", rules)
    assert not image_files.ignored("assets/sub/lab.png", rules)  # * stops at /
    assert image_files.ignored("tests/a.py", rules) and not image_files.ignored("tests/keep.txt", rules)
    assert image_files.ignored("docs/a.md", rules) and not image_files.ignored("docs/a/b.md", rules)


def test_the_app_image_holds_every_package_app_py_and_the_pages_import(app_files):
    """Every first-party module imported anywhere in the image's Python files is in the image."""
    files = {path.removeprefix("/app/") for path in app_files if path.startswith("/app/")}
    local = {Path(name).parts[0] for name in files}
    missing = set()
    for name in sorted(f for f in files if f.endswith(".py")):
        tree = ast.parse((ROOT / name).read_text())
        for node in ast.walk(tree):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                       else [])  # fmt: skip
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or not (ROOT / top).is_dir():
                    continue  # the standard library or a requirement, not ours
                assert top in local, f"{name} imports {module}; the image has no {top}/"
                as_file = module.replace(".", "/")
                if f"{as_file}.py" not in files and f"{as_file}/__init__.py" not in files:
                    missing.add(f"{module} (imported by {name})")
    assert not missing, f"the image lacks: {sorted(missing)}"
    assert "app.py" in files and any(f.startswith("pages/") for f in files)


def test_the_app_image_holds_the_shipped_training_runs_and_the_config(app_files):
    shipped = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "assets" / "training").glob("*.json"))
    assert shipped, "assets/training/ holds the presets' runs"
    assert {f"/app/{name}" for name in shipped} <= set(app_files)
    assert "/app/.streamlit/config.toml" in app_files
    assert "/app/requirements.txt" in app_files  # from the base stage


def test_no_secret_and_no_developer_file_reaches_the_app_image(app_files, context):
    assert not [f for f in app_files if f.endswith(("secrets.toml", ".env", ".pyc", ".pem"))], app_files
    assert not [f for f in app_files if f.startswith(("/app/tests/", "/app/bench/", "/app/.git/"))]
    # Two locks: the Dockerfile copies .streamlit/config.toml by name, and the dockerignore would keep a
    # secrets file out of the build context even if a COPY named the whole folder.
    rules = image_files.ignore_rules()
    for name in (".streamlit/secrets.toml", "attn_ui/secrets.toml", ".env"):
        assert (context / name).exists() and image_files.ignored(name, rules), name


def test_the_proxy_image_holds_the_shared_haproxy_cfg_and_its_lua(stages, context, tmp_path):
    built = tmp_path / "static-gz"
    (built / "static-gz").mkdir(parents=True)
    (built / "static-gz" / "index.txt").write_text("")
    files = image_files.layout(stages, "proxy", context, tmp_path / "proxy", built={"static-gz": built})
    assert {"/usr/local/etc/haproxy/haproxy.cfg", "/usr/local/etc/haproxy/static_gz.lua"} <= set(files)
    assert (tmp_path / "proxy/usr/local/etc/haproxy/haproxy.cfg").read_bytes() == (
        ROOT / "deploy" / "haproxy.cfg").read_bytes()
    env = stages["proxy"].env
    assert env["STATIC_GZ_LUA"] in files and f"{env['STATIC_GZ_DIR']}/index.txt" in files
    assert stages["proxy"].cmd[-1] in files  # haproxy -f <the copied cfg>


def test_a_file_missing_from_the_context_fails_the_layout(stages, context, tmp_path):
    """The check that would have caught assets/ in the dockerignore: a COPY of an ignored path is an error."""
    stage = image_files.Stage("t", "scratch", [image_files.Copy(("bench",), "/app/bench", None)])
    with pytest.raises(FileNotFoundError, match="bench"):
        image_files.layout({"t": stage}, "t", context, tmp_path)
