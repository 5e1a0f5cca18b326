"""The translation catalogs, step by step (docs/translating.md). Run from the repository's root:

    python3 scripts/catalogs.py extract        # the code's messages -> attn_lang/locales/messages.pot
    python3 scripts/catalogs.py update         # messages.pot -> every language's messages.po (new ones untranslated)
    python3 scripts/catalogs.py init CODE      # a new language's messages.po, from messages.pot
    python3 scripts/catalogs.py compile        # every messages.po -> messages.mo (what the app reads)
    python3 scripts/catalogs.py check          # what tests/lang/test_catalogs.py checks, as a list of problems
    python3 scripts/catalogs.py all            # extract, update, compile, check

Every step is Babel's own `pybabel` command; this file only names its paths and options once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attn_lang.catalogs import DOMAIN, LOCALES  # noqa: E402 -- after the path is set

POT = LOCALES / f"{DOMAIN}.pot"
SOURCES = ("app.py", "pages", "attn_core", "attn_poll", "attn_phone", "attn_ui")
KEYWORDS = ("_", "N_", "_n:1,2", "N_n:1,2")
WIDTH = "120"


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", *args], cwd=ROOT, check=True)


def extract(output: Path = POT) -> None:
    keywords = [item for keyword in KEYWORDS for item in ("-k", keyword)]
    pybabel("extract", "-F", "babel.cfg", "--no-default-keywords", *keywords, "--add-location=file",
            "--sort-by-file", "-c", "Translators:", "-w", WIDTH, "--project", "Attention Lab", "--version", "1",
            "--copyright-holder", "the Attention Lab's authors", "-o", str(output), *SOURCES)
    _drop_creation_date(output)


def _drop_creation_date(path: Path) -> None:
    """The header's creation date changes on every run; without it an unchanged catalog is an unchanged file."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not line.startswith('"POT-Creation-Date:')), encoding="utf-8")


def languages() -> list[str]:
    return sorted(path.parent.parent.name for path in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def update() -> None:
    for code in languages():
        pybabel("update", "-i", str(POT), "-d", str(LOCALES), "-D", DOMAIN, "-l", code, "-w", WIDTH,
                "--no-fuzzy-matching", "--ignore-obsolete")
        _drop_creation_date(LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}.po")


def init(code: str) -> None:
    pybabel("init", "-i", str(POT), "-d", str(LOCALES), "-D", DOMAIN, "-l", code, "-w", WIDTH)


def compile_all() -> None:
    for code in languages():
        pybabel("compile", "-d", str(LOCALES), "-D", DOMAIN, "-l", code, "--statistics")


def check() -> list[str]:
    from tests.lang.catalog_checks import problems  # the tests' own checks

    return problems()


def main(argv: list[str]) -> int:
    step = argv[0] if argv else "all"
    if step == "extract":
        extract()
    elif step == "update":
        update()
    elif step == "init" and len(argv) == 2:
        init(argv[1])
    elif step == "compile":
        compile_all()
    elif step in ("check", "all"):
        if step == "all":
            extract()
            update()
            compile_all()
        found = check()
        print("\n".join(found) if found else "the catalogs are in step with the code")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
