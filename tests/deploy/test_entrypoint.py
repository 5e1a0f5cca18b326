"""deploy/entrypoint.py builds the poll's database URL from parts: any password survives, bad parts get a clear
message, and compose passes the parts (not a pasted URL)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("attn_deploy_entrypoint", ROOT / "deploy" / "entrypoint.py")
entrypoint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(entrypoint)

HARD = "p@ss:w/rd#%"


@pytest.mark.parametrize("password", [HARD, "plain", "a b?c&d=e", "ünï/cödé", "%41%", "@@::##"])
def test_any_password_comes_back_whole_through_sqlalchemy(password):
    url = entrypoint.database_url({"ATTN_DB_HOST": "db", "ATTN_DB_PASSWORD": password, "ATTN_DB_USER": "u@x"})
    parsed = make_url(url)
    assert (parsed.password, parsed.username, parsed.host, parsed.port, parsed.database) == (
        password, "u@x", "db", 5432, "attn_lab")
    assert parsed.drivername == "postgresql+psycopg"


def test_a_password_file_is_read_without_its_newline(tmp_path):
    secret = tmp_path / "password"
    secret.write_text(HARD + "\n")
    url = entrypoint.database_url({"ATTN_DB_HOST": "db", "ATTN_DB_PASSWORD_FILE": str(secret)})
    assert make_url(url).password == HARD


def test_a_given_url_wins_and_nothing_set_means_the_sqlite_default():
    assert entrypoint.database_url({"ATTN_LAB_DATABASE_URL": "sqlite:///x", "ATTN_DB_HOST": "db"}) == "sqlite:///x"
    assert entrypoint.database_url({}) is None


@pytest.mark.parametrize(("env", "says"), [
    ({"ATTN_DB_HOST": "db"}, "no database password"),
    ({"ATTN_DB_HOST": "db", "ATTN_DB_PASSWORD": "x", "ATTN_DB_PORT": "54x"}, "ATTN_DB_PORT must be a port"),
    ({"ATTN_DB_PASSWORD": "x"}, "ATTN_DB_HOST is empty"),
    ({"ATTN_DB_HOST": "db", "ATTN_DB_PASSWORD_FILE": "/nonexistent/pw"}, "ATTN_DB_PASSWORD_FILE=/nonexistent/pw"),
])
def test_bad_parts_stop_with_a_message_not_a_traceback(env, says):
    with pytest.raises(entrypoint.BadSetting, match=says):
        entrypoint.database_url(env)
    ran = subprocess.run([sys.executable, str(ROOT / "deploy" / "entrypoint.py"), "true"], env=env,
                         capture_output=True, text=True, timeout=30)  # fmt: skip
    assert ran.returncode == 1 and says.split()[0] in ran.stderr and "Traceback" not in ran.stderr


def test_the_entrypoint_hands_the_url_to_the_command():
    env = {"ATTN_DB_HOST": "db", "ATTN_DB_PASSWORD": HARD, "PATH": "/usr/bin:/bin"}
    ran = subprocess.run([sys.executable, str(ROOT / "deploy" / "entrypoint.py"), sys.executable, "-c",
                          "import os; print(os.environ['ATTN_LAB_DATABASE_URL'])"], env=env,
                         capture_output=True, text=True, timeout=30)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert make_url(ran.stdout.strip()).password == HARD


def test_compose_gives_the_replicas_parts_and_the_database_the_same_password():
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    app = compose["services"]["app1"]["environment"]
    assert "ATTN_LAB_DATABASE_URL" not in app, "a URL pasted together breaks on @ : / # % in the password"
    assert app["ATTN_DB_HOST"] == "db" and app["ATTN_DB_USER"] == compose["services"]["db"]["environment"][
        "POSTGRES_USER"]
    assert app["ATTN_DB_PASSWORD"] == compose["services"]["db"]["environment"]["POSTGRES_PASSWORD"]
    assert app["ATTN_DB_NAME"] == compose["services"]["db"]["environment"]["POSTGRES_DB"]
