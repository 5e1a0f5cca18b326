"""What leaves the app as text: the weights as CSV, file names that go with them, and links to a view.

Pure: no streamlit. A word that starts like a spreadsheet formula is quoted, so no program runs it. The CSV's heading
is in the run's language; its numbers keep the decimal point (the comma separates the fields), and file names and
links are the same in every language.
"""

from __future__ import annotations

import csv
import io
from urllib.parse import urlencode, urlsplit

from attn_core import Result, Settings
from attn_lang import _

CLOUD_FRAME = "/~/+"  # Community Cloud serves the app in a frame at <app>/~/+/; links should skip it
SPREADSHEET_TRIGGERS = ("=", "+", "-", "@")  # a cell starting with one of these runs as a formula

def map_file_name(settings: Settings) -> str:
    parts = [f"attention-head{settings.view}of{settings.heads}", "causal" if settings.causal else "full"]
    if settings.padded:
        parts.append("pad" + "-".join(map(str, settings.padded)))
    if settings.dropout_active:
        parts.append(f"drop{int(settings.dropout * 100)}")
    return "_".join(parts)


def _cell(text: str) -> str:
    """A word as a spreadsheet cell: a leading =, +, - or @ is quoted so no program runs it as a formula."""
    return "'" + text if text.startswith(SPREADSHEET_TRIGGERS) else text


def weights_csv(result: Result, head: int | None = None) -> str:
    """The weight table of one head (0-based; default: the head in view) as CSV text.

    One row per query word, one column per key word, weights with 6 decimals (blocked cells are 0).
    """
    head = result.view_index if head is None else head
    padded = set(result.settings.padded)
    names = [_cell(label) + (" (PAD)" if pos in padded else "") for pos, label in enumerate(result.labels, 1)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # Translators: the CSV's top left cell: rows are query words, columns key words
    writer.writerow([_("query \\ key"), *names])
    for name, weights in zip(names, result.weights[head], strict=True):
        writer.writerow([name, *(f"{w:.6f}" for w in weights)])
    return buffer.getvalue()


def csv_file_name(settings: Settings) -> str:
    """The same name as the map's PNG, so a slide's picture and its numbers belong together."""
    return map_file_name(settings) + ".csv"


def lab_query(settings: Settings, **view: str) -> dict[str, str]:
    """The query string that opens the Lab in this state (for links on lesson pages and scenes)."""
    return {**settings.to_query(), **{k: v for k, v in view.items() if v}}


def lab_root(url: str | None) -> str | None:
    """The Lab's address from st.context.url as seen on the Lab: no query, no Community Cloud frame (/~/+)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    path = parts.path.rstrip("/")
    path = path.removesuffix(CLOUD_FRAME)
    return f"{parts.scheme}://{parts.netloc}{path}/"


def view_url(root: str | None, settings: Settings, **view: str) -> str:
    """The full link to the Lab in this state (or just its query string when the root is unknown)."""
    query = urlencode(lab_query(settings, **view))
    return f"{root or ''}{'?' + query if query else ''}"
