"""Every row of projector mode's two CSS tables (attn_ui/widgets/look.py), checked in Chromium.

Each hidden selector must match at least one element on the pages visited, and every match must be hidden;
each size rule must match at least one element and give it the declared value. A Streamlit upgrade that renames
a test id makes its row match nothing, and this test names that row.
"""

from __future__ import annotations

import pytest

from attn_core.query import LETTERS
from attn_ui.quiz.bank import BY_ID
from attn_ui.widgets.look import NARROW_PX, PROJECTOR_HIDDEN, PROJECTOR_NARROW, PROJECTOR_SIZES
from tests.browser import harness

pytestmark = pytest.mark.browser

# Projector states that between them show every element the tables speak of: a selected row, an empty row's
# warning, dropout's Training row, four heads, captions; a lecture scene with Back / Next; and a narrow window,
# where Streamlit collapses the sidebar and shows its open button; lesson pages with code, tables, captions,
# radios and a floating page switch. (path, width, height)
VISITS = (("/?causal=1&pad=1&heads=4&p=0.2&row=3&mode=projector", 1280, 720),
          ("/Lecture_scenes?scene=14&reveal=1&mode=projector", 1280, 720), ("/?mode=projector", 390, 844),
          # answered: lesson 2's tables and its code in text wait for the prediction
          (f"/Padding_mask?mode=projector&answer={LETTERS[BY_ID['pad-one-open-cell'].answer]}", 1280, 720),
          ("/Many_heads?mode=projector", 1280, 720),
          ("/Check_yourself?mode=projector", 1280, 720), ("/Peeking_and_the_causal_mask?mode=projector", 1280, 720),
          ("/Train_it_yourself?mode=projector", 1280, 720))

READ = """
([hidden, sizes]) => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const hiddenRows = hidden.map((selector) => {
    const found = all(selector);
    return {selector, count: found.length,
            shown: found.filter((e) => getComputedStyle(e).display !== "none").length};
  });
  const sizeRows = sizes.map(([selector, prop, value], index) => {
    // an element a later row of the same property names is that row's to size (the later rule wins on purpose)
    const later = sizes.slice(index + 1).filter(([, p]) => p === prop).map(([s]) => s);
    const found = all(selector).filter((e) => !later.some((s) => e.matches(s)));
    const wrong = found.filter((e) => {
      const before = getComputedStyle(e).getPropertyValue(prop);
      const saved = e.style.getPropertyValue(prop), priority = e.style.getPropertyPriority(prop);
      e.style.setProperty(prop, value, "important");  // what the declared value computes to, here
      const wanted = getComputedStyle(e).getPropertyValue(prop);
      e.style.setProperty(prop, saved, priority);
      return before !== wanted;
    }).length;
    return {selector, prop, count: found.length, wrong};
  });
  return {hiddenRows, sizeRows};
}
"""




def sizes_at(width: int) -> list[list[str]]:
    """The size rows a window this wide must show: on a phone, PROJECTOR_NARROW's value wins over the wide row."""
    if width > NARROW_PX:
        return [list(row) for row in PROJECTOR_SIZES]
    narrow = {(selector, prop): value for selector, prop, value in PROJECTOR_NARROW}
    rows = [[selector, prop, narrow.get((selector, prop), value)] for selector, prop, value in PROJECTOR_SIZES]
    return rows + [list(row) for row in PROJECTOR_NARROW if (row[0], row[1]) not in
                   {(selector, prop) for selector, prop, __ in PROJECTOR_SIZES}]


def test_every_row_of_the_projector_tables_takes_effect(server, new_page):
    counts_hidden: dict[str, int] = {}
    counts_sizes: dict[tuple[str, str], int] = {}
    for path, width, height in VISITS:
        page = new_page(width, height)
        page.goto(server.url.rstrip("/") + path, timeout=60_000)
        harness.wait_for_app(page, timeout_ms=60_000, initial_wait_ms=0)
        harness.assert_no_exception(page)
        found = page.evaluate(READ, [[s for s, _ in PROJECTOR_HIDDEN], sizes_at(width)])
        for row in found["hiddenRows"]:
            assert row["shown"] == 0, f"{path}: projector mode should hide {row['selector']} but it shows"
            counts_hidden[row["selector"]] = counts_hidden.get(row["selector"], 0) + row["count"]
        for row in found["sizeRows"]:
            assert row["wrong"] == 0, f"{path}: {row['selector']} does not get its projector {row['prop']}"
            key = (row["selector"], row["prop"])
            counts_sizes[key] = counts_sizes.get(key, 0) + row["count"]
    unmatched = [f"{s} ({why})" for s, why in PROJECTOR_HIDDEN if not counts_hidden[s]]
    assert not unmatched, f"these projector rules hide nothing any more (a renamed Streamlit test id?): {unmatched}"
    unmatched = [f"{s} {p}" for (s, p), count in counts_sizes.items() if not count]
    assert not unmatched, f"these projector sizes reach nothing any more (a renamed Streamlit test id?): {unmatched}"
