"""The README's table of URL keys is the one made from the declarations (attn_core.query.url_keys_markdown)."""

import re
from pathlib import Path

from attn_core.query import url_keys_markdown

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_key_table_is_made_from_the_declarations():
    text = README.read_text()
    found = re.search(r"<!-- url-keys:[^\n]*-->\n(.*?)\n<!-- /url-keys -->", text, re.S)
    assert found, "README.md lost its url-keys markers"
    assert found[1] == url_keys_markdown(), (
        "the README's key table differs from attn_core.query.url_keys_markdown(); paste its output between the markers"
    )
