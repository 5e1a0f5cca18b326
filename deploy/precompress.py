"""Write brotli and gzip -9 copies of Streamlit's frontend bundles for deploy/static_gz.lua (HAProxy) to serve.

    python3 deploy/precompress.py OUT_DIR      # OUT_DIR/<path under static/>.br and .gz, plus OUT_DIR/index.txt

HAProxy has no brotli, and its gzip (libslz in Debian's build) has one fast level: the 4.7 MB Plotly bundle
leaves it as 2.2 MB, against 1.4 MB at gzip -9 and 1.06 MB at brotli quality 11. The bundles never change for a
given Streamlit version (their names carry a content hash), so they are compressed once, hard, ahead of time.
Only files whose name carries such a hash are written: a name match then means the same bytes the replicas
would send. The .br copies need the `brotli` package (requirements-dev.txt; the proxy image installs it); without
it only the .gz copies are written and browsers get gzip. Brotli at quality 11 is slow (about 40 s of CPU for
Streamlit's 23 MB of bundles, spread over the cores); the result is reusable for the same Streamlit version
(local.sh keeps it in a cache folder, the proxy image builds it once).
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import streamlit

try:
    import brotli
except ImportError:  # gzip only; the Lua service then sends gzip to every browser
    brotli = None

COMPRESSIBLE = (".js", ".css", ".svg", ".json", ".txt", ".map", ".ttf")
HASHED = re.compile(r"\.[A-Za-z0-9_-]{8}\.[a-z0-9]+$")  # Vite's content hash before the extension
MIN_BYTES = 1024  # below this the gzip header costs more than it saves


def compress(source: Path, target: Path) -> None:
    """target.gz always, target.br when the brotli package is there (text mode: these are all text)."""
    body = source.read_bytes()
    target.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{target}.gz").write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
    if brotli is not None:
        Path(f"{target}.br").write_bytes(brotli.compress(body, mode=brotli.MODE_TEXT, quality=11))


def main(out: Path) -> None:
    static = Path(streamlit.__file__).parent / "static"
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".precompress-", dir=out.parent))
    names = []
    for path in sorted((static / "static").rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSIBLE or not HASHED.search(path.name):
            continue
        if path.stat().st_size < MIN_BYTES:
            continue
        names.append(path.relative_to(static).as_posix())  # static/js/PlotlyChart.<hash>.js, as in the URL
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done in [pool.submit(compress, static / name, work / name) for name in names]:
            done.result()
    (work / "index.txt").write_text("".join(f"{name}\n" for name in names))
    try:
        os.rename(work, out)  # atomic: a reader sees no folder or a complete one
    except OSError:  # another run finished first; both wrote the same bytes
        shutil.rmtree(work, ignore_errors=True)
    codecs = "brotli and gzip -9" if brotli is not None else "gzip -9 only (no brotli package: pip install brotli)"
    print(f"{len(names)} bundles of Streamlit {streamlit.__version__} in {out}, {codecs}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    main(Path(sys.argv[1]).resolve())
