"""A page-wide setting the browser must apply itself (the document's language, the theme), told by a mark.

Streamlit draws a container with `key="attn-<what>-<value>"` as an element of class `st-key-attn-<what>-<value>`: the
session's value written where a script can read it. follow_mark_script builds the one constant script that follows
such a mark, installed once a window: on every change of the page (a MutationObserver) it finds the mark and hands
its value to `apply`, so a value switched without a reload is followed too. The mark itself is hidden. The scripts
are constants (no session's value is ever written into one), so a page holds only text the app wrote.
"""

from __future__ import annotations


def follow_mark_script(script_id: str, what: str, setup: str) -> str:
    """The script (with its style) that follows `st-key-attn-<what>-<value>`: `setup` runs once a window and defines
    `apply(value)`; `window.__attn_<what>` marks the window as set up."""
    prefix = f"st-key-attn-{what}-"
    return f"""
<script id="{script_id}">
if (!window.__attn_{what}) {{
  window.__attn_{what} = true;
{setup.strip(chr(10))}
  const prefix = "{prefix}";
  const follow = () => {{
    const mark = document.querySelector(`[class*="${{prefix}}"]`);
    const name = mark && [...mark.classList].find((name) => name.startsWith(prefix));
    if (name) apply(name.slice(prefix.length));
  }};
  new MutationObserver(follow).observe(document.body, {{subtree: true, childList: true, attributes: true,
                                                      attributeFilter: ["class"]}});
  follow();
}}
</script>
<style>[class*="{prefix}"] {{ display: none !important; }}</style>
"""
