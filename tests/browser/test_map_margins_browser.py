"""The Lab's map margins are worked out in Python (figures._margins) so Plotly draws the chart once per click.

With margins too small for the labels, Plotly's automargin grows them and draws the whole chart a second time
(about 50 ms a click in the Lab). These tests open the Lab in Chromium and read what Plotly itself wanted for
each side (`_fullLayout._pushmargin`): it must fit inside our margins, with only a few pixels to spare.
Phones are not checked: there Plotly may stand crowded key labels on end, which Python cannot foresee; it
then grows the margins itself, as before.
"""

from __future__ import annotations

from urllib.parse import urlencode

import harness
import pytest

SPARE_PX = 12  # our estimate errs wide; more than this would waste room on a projector

_WANTED = """
() => {
  const isMap = (g) => (g.data || []).some((t) => t.name === 'weights');
  const gd = [...document.querySelectorAll('.js-plotly-plot')].find(isMap);
  const wanted = {l: 0, t: 0};
  for (const [id, push] of Object.entries(gd._fullLayout._pushmargin || {})) {
    if (id === 'base') continue;  // our own margins
    for (const side of ['l', 't']) if (push[side]) wanted[side] = Math.max(wanted[side], push[side].size);
  }
  const size = gd._fullLayout._size;
  return {wanted, drawn: {l: size.l, t: size.t}, ours: {l: gd.layout.margin.l, t: gd.layout.margin.t}};
}
"""

CASES = {
    "default": ({}, 1366, 768),
    "padded, masked": ({"causal": "1", "pad": "5,6"}, 1366, 768),
    "4 heads, dropout": ({"heads": "4", "view": "3", "p": "0.5"}, 1366, 768),
    "twelve words": ({"s": "the quick brown fox jumps over a lazy dog and then sleeps", "pad": "12"}, 1366, 768),
    "markup and a long word": ({"s": "<b>x</b> & extraordinarily starts", "pad": "2"}, 1366, 768),
    "projector": ({"mode": "projector", "pad": "6", "causal": "1"}, 1280, 720),
    "1280x720": ({"causal": "1", "pad": "6"}, 1280, 720),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_plotly_keeps_our_margins(server, new_page, case):
    query, width, height = CASES[case]
    page = new_page(width, height)
    harness.open_app(page, server, urlencode(query))
    harness.assert_no_exception(page)
    found = page.evaluate(_WANTED)
    for side in ("l", "t"):
        wanted, ours, drawn = found["wanted"][side], found["ours"][side], found["drawn"][side]
        assert drawn == ours, f"{case}: Plotly grew the {side} margin from {ours} to {drawn} px ({found})"
        assert ours - wanted <= SPARE_PX, f"{case}: {ours - wanted:.0f} px to spare on {side} ({found})"
