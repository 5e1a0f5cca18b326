"""Make user words safe to show: literal text in Markdown and in Plotly labels, never markup.

Streamlit renders Markdown (and its own `:color[...]`, `:material/...:` and `$...$` extensions) in most
labels; Plotly renders a small set of HTML tags in every string it draws. A word a student types must show
exactly as typed in both.
"""

from __future__ import annotations

import html
import re

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^&\"'%@/])")


def md_escape(text: str) -> str:
    """Backslash every ASCII punctuation sign Markdown or Streamlit could read as syntax."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


def plotly_escape(text: str) -> str:
    """HTML-escape a string that Plotly will draw (tick labels, hover text, cell text)."""
    return html.escape(str(text), quote=False)
