"""What the phone's page is drawn from: the Jinja2 environment of its templates (autoescaped), its stylesheet and
script (named by their hash, so cached for a year, and kept gzipped), and Streamlit's own index page, which
attn_phone.routes serves to the links that are not a phone's (found without importing Streamlit).
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from attn_phone import screens

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Asset:
    name: str  # with its hash: phone.3f2a9c1b.js
    media: str
    body: bytes
    zipped: bytes


def asset_of(path: Path, media: str) -> Asset:
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:10]
    return Asset(f"{path.stem}.{digest}{path.suffix}", media, body, gzip.compress(body, 9, mtime=0))


def template_environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True),
                              trim_blocks=True, lstrip_blocks=True)
    environment.globals["filled"] = screens.filled
    return environment


def streamlit_index() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("streamlit")
    return Path(spec.origin).parent / "static" / "index.html"
