"""Write gzip -9 copies of Streamlit's frontend bundles for deploy/static_gz.lua (HAProxy) to serve.

    python3 deploy/precompress.py OUT_DIR      # OUT_DIR/<path under static/>.gz, plus OUT_DIR/index.txt

HAProxy's own gzip (libslz in Debian's build) has one fast level: the 4.7 MB Plotly bundle leaves it as 2.2 MB,
against 1.4 MB at gzip -9. The bundles never change for a given Streamlit version (their names carry a content
hash), so they are compressed once, hard, ahead of time. Only files whose name carries such a hash are
written: a name match then means the same bytes the replicas would send. Takes a few seconds; the result is
reusable for the same Streamlit version (local.sh keeps it in a cache folder, the proxy image builds it once).
"""

from __future__ import annotations

import gzip
import os
import re
import sys
import tempfile
from pathlib import Path

import streamlit

COMPRESSIBLE = (".js", ".css", ".svg", ".json", ".txt", ".map", ".ttf")
HASHED = re.compile(r"\.[A-Za-z0-9_-]{8}\.[a-z0-9]+$")  # Vite's content hash before the extension
MIN_BYTES = 1024  # below this the gzip header costs more than it saves


def main(out: Path) -> None:
    static = Path(streamlit.__file__).parent / "static"
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".precompress-", dir=out.parent))
    names = []
    for path in sorted((static / "static").rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSIBLE or not HASHED.search(path.name):
            continue
        body = path.read_bytes()
        if len(body) < MIN_BYTES:
            continue
        relative = path.relative_to(static).as_posix()  # static/js/PlotlyChart.<hash>.js, as in the URL
        target = work / f"{relative}.gz"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
        names.append(relative)
    (work / "index.txt").write_text("".join(f"{name}\n" for name in names))
    try:
        os.rename(work, out)  # atomic: a reader sees no folder or a complete one
    except OSError:  # another run finished first; both wrote the same bytes
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(names)} bundles of Streamlit {streamlit.__version__} in {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    main(Path(sys.argv[1]).resolve())
