"""The Lab's map margins are worked out in Python (figures/map_fit.py) and kept: Plotly draws the chart once per click.

Plotly's automargin is off for the map's axes, so nothing moves them; these tests open the Lab in Chromium and check
that the margins hold what they were made for: every label and title inside the chart, and the widest of them
within a few pixels of the chart's left and top edges (more would waste room on a projector or a phone). A phone
draws the Lab's map with the same margins (its labels are not smaller than the figure's).
"""

from __future__ import annotations

from urllib.parse import urlencode

import harness
import pytest

SPARE_PX = 12  # our estimate errs wide; more than this would waste room on a projector

_EXTENT = """
() => {
  const isMap = (g) => (g.data || []).some((t) => t.name === 'weights');
  const gd = [...document.querySelectorAll('.js-plotly-plot')].find(isMap);
  const chart = gd.getBoundingClientRect();
  const plot = gd.querySelector('.nsewdrag').getBoundingClientRect();
  const boxes = [...gd.querySelectorAll('.xtick text, .ytick text, .annotation text')]
    .filter((t) => t.textContent.trim()).map((t) => t.getBoundingClientRect()).filter((r) => r.width > 0);
  const size = gd._fullLayout._size, margin = gd.layout.margin;
  // the margins' outer edges: the plot (a square, centred across a wide chart) less its margins
  const edge = {l: plot.left - margin.l, t: plot.top - margin.t};
  return {spare: {l: Math.min(...boxes.map((r) => r.left)) - edge.l, t: Math.min(...boxes.map((r) => r.top)) - edge.t},
          outside: boxes.filter((r) => r.left < chart.left - 0.5 || r.top < chart.top - 0.5).length,
          drawn: {l: size.l, t: size.t}, ours: {l: gd.layout.margin.l, t: gd.layout.margin.t},
          pushed: Object.keys(gd._fullLayout._pushmargin || {}).filter((id) => id !== 'base'),
          inPlot: boxes.filter((r) => r.right > plot.left + 1 && r.bottom > plot.top + 1).length};
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
    "phone": ({"causal": "1", "heads": "2"}, 390, 844),
    "phone, long words": ({"s": "Electroencephalographers Counterrevolutionaries Incomprehensibilities"}, 390, 844),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_plotly_keeps_our_margins_and_they_hold_the_labels(server, new_page, case):
    query, width, height = CASES[case]
    page = new_page(width, height)
    harness.open_app(page, server, urlencode(query))
    harness.assert_no_exception(page)
    found = page.evaluate(_EXTENT)
    assert found["pushed"] == [], f"{case}: Plotly was asked to grow the margins ({found})"
    assert found["inPlot"] == found["outside"] == 0, f"{case}: a label or title in the cells or cut ({found})"
    for side in ("l", "t"):
        spare, ours, drawn = found["spare"][side], found["ours"][side], found["drawn"][side]
        assert drawn == ours, f"{case}: Plotly grew the {side} margin from {ours} to {drawn} px ({found})"
        assert -0.5 <= spare <= SPARE_PX, f"{case}: {spare:.0f} px to spare on {side} ({found})"
