"""The app image's entrypoint: build the class poll's database URL from its parts, then run the command.

    ATTN_DB_HOST=db ATTN_DB_USER=attn_lab ATTN_DB_PASSWORD='p@ss:w/rd#%' python entrypoint.py streamlit run app.py

A password pasted into a URL as is breaks it at `@ : / # %`; here each part is percent-encoded, and SQLAlchemy
decodes them again, so any password works. Parts (compose and deploy/kubernetes/ set them):
  ATTN_DB_HOST (required for PostgreSQL)  ATTN_DB_PORT (5432)  ATTN_DB_NAME (attn_lab)  ATTN_DB_USER (attn_lab)
  ATTN_DB_PASSWORD, or ATTN_DB_PASSWORD_FILE (a mounted secret; its trailing newline is dropped)
An ATTN_LAB_DATABASE_URL already set wins (a managed database's own URL); with neither, the app uses its SQLite
file. Standard library only: the image has requirements.txt and nothing more.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import quote

URL_ENV = "ATTN_LAB_DATABASE_URL"  # attn_poll/store.py reads it


class BadSetting(ValueError):
    """A database part is missing or malformed; the message says which and how to fix it."""


def database_url(env: dict[str, str]) -> str | None:
    """The URL for these environment values, or None when none is asked for."""
    if env.get(URL_ENV, "").strip():
        return env[URL_ENV].strip()
    host = env.get("ATTN_DB_HOST", "").strip()
    if not host:
        if any(env.get(f"ATTN_DB_{part}") for part in ("PASSWORD", "PASSWORD_FILE", "USER", "NAME", "PORT")):
            raise BadSetting("ATTN_DB_HOST is empty but other ATTN_DB_* values are set: give the database's host")
        return None
    password = env.get("ATTN_DB_PASSWORD")
    if env.get("ATTN_DB_PASSWORD_FILE"):
        try:
            with open(env["ATTN_DB_PASSWORD_FILE"], encoding="utf-8") as handle:
                password = handle.read().rstrip("\r\n")
        except OSError as error:
            raise BadSetting(f"ATTN_DB_PASSWORD_FILE={env['ATTN_DB_PASSWORD_FILE']}: {error.strerror}") from None
    if not password:
        raise BadSetting("no database password: set ATTN_DB_PASSWORD or ATTN_DB_PASSWORD_FILE")
    port = env.get("ATTN_DB_PORT", "5432").strip()
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BadSetting(f"ATTN_DB_PORT must be a port number (1-65535), not {port!r}")
    user = env.get("ATTN_DB_USER", "attn_lab").strip() or "attn_lab"
    name = env.get("ATTN_DB_NAME", "attn_lab").strip() or "attn_lab"
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}:{port}"
    return f"postgresql+psycopg://{netloc}/{quote(name, safe='')}"


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit("entrypoint.py: no command to run")
    try:
        url = database_url(dict(os.environ))
    except BadSetting as error:
        raise SystemExit(f"entrypoint.py: {error}") from None
    if url:
        os.environ[URL_ENV] = url
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
