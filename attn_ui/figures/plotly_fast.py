"""The fast path to the browser, and every private corner of Plotly it leans on.

The Lab builds figures as plain dicts and hands them to st.plotly_chart without Plotly's parsing, validation or
deep copies, and works out a map's margins from the labels' widths so that Plotly
draws it once. That relies on details that are not public API; each is listed here, and
tests/ui/test_plotly_fast.py fails with a message naming the one that a Plotly or Streamlit upgrade broke:

1. `go.Figure(spec, _validate=False)` (private keyword): builds a figure without checking every property.
2. `plotly.basedatatypes.BaseFigure` subclassed without calling its `__init__`: Streamlit's st.plotly_chart
   (via `plotly.tools.return_figure_from_figure_or_data`) takes any BaseFigure as already checked and only
   calls `to_dict()` on it.
3. `go.layout.Template._props` (private attribute): the template as Plotly's own dict, read without a copy.
4. `plotly.io.templates.default` is "streamlit" once Streamlit is imported, and go.Figure applies it.
5. SOURCE_SANS_EM: the advance widths of Source Sans, the font Streamlit gives Plotly charts, measured in
   Chromium; tests/browser/test_map_margins_browser.py checks that the labels they size stay inside their margins.
"""

from __future__ import annotations

import html
import unicodedata
from types import MappingProxyType

import plotly.graph_objects as go
import plotly.io as pio
from plotly.basedatatypes import BaseFigure


def figure_from_spec(spec: dict) -> go.Figure:
    """Wrap a plain figure dict without Plotly's per-property validation, the slowest step of a map.

    The builders write plain dicts for speed; tests/ui/test_figures.py builds every figure again WITH
    validation, so a misspelt property still fails there.
    """
    return go.Figure(spec, _validate=VALIDATE)


VALIDATE = False  # tests switch this on to have Plotly check every property


class ReadyFigure(BaseFigure):
    """A finished figure dict that st.plotly_chart takes as it is: the Lab's hot path.

    st.plotly_chart turns a go.Figure into a dict with `to_dict()` (a deep copy of everything) and turns a
    dict into a go.Figure WITH validation before it writes the JSON. A BaseFigure is taken as already checked
    and only asked for `to_dict()`, so this one hands over the dict itself: nothing is copied or parsed.
    The same dicts are built into validated go.Figures in tests/ui/test_figures.py.
    """

    def __init__(self, spec: dict) -> None:  # BaseFigure.__init__ is skipped on purpose: it parses the spec
        layout = spec.get("layout", {})
        default = pio.templates.default  # "streamlit" once Streamlit is imported, as go.Figure would apply
        if "template" not in layout and default:
            spec = {**spec, "layout": {**layout, "template": template_dict(pio.templates[default])}}
        object.__setattr__(self, "_spec", spec)

    def to_dict(self) -> dict:
        return self._spec


def template_dict(template: go.layout.Template) -> dict:
    """The template as a dict, for reading only: Plotly's own dict when it has one (to_plotly_json deep-copies
    it). tests/ui/test_figures.py checks the JSON equals what go.Figure writes."""
    props = getattr(template, "_props", None)
    return props if isinstance(props, dict) else template.to_plotly_json()


def label_box(label: str, size: float) -> tuple[float, float]:
    """(width, height) in px of a tick label at this font size (<br> breaks lines). Within a few per cent of what
    Chromium draws for Latin text (figures/map_fit.py leaves gaps for the difference), and no narrower than any
    phone draws the rest (char_em)."""
    lines = [html.unescape(line) for line in label.split("<br>")]
    width = max(size * sum(char_em(char) for char in line) for line in lines)
    return width, size * (FIRST_LINE + LINE_SPACING * (len(lines) - 1))


def char_em(char: str) -> float:
    """One character's advance (em), erring wide where the font is not known: Source Sans' own width; nothing for a
    joiner, a variation selector or a combining mark; an accented Latin letter its letter's width; 1.3 em for an
    emoji or a wide symbol, drawn alone when a phone
    cannot join it to its neighbours (a family of four is four faces: 5.2 em, one face where the phone joins them);
    a full em for any other letter (a CJK character is one em), more for the few very wide ligatures."""
    if char in SOURCE_SANS_EM:
        return SOURCE_SANS_EM[char]
    if char in SOURCE_SANS_SYMBOLS_EM:
        return SOURCE_SANS_SYMBOLS_EM[char]
    if char in VERY_WIDE_EM:
        return VERY_WIDE_EM[char]
    base = unicodedata.normalize("NFD", char)[0]  # an accented Latin letter is as wide as its letter ("é": "e")
    if base != char and base in SOURCE_SANS_EM:
        return SOURCE_SANS_EM[base]
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf"):
        return 0.0
    if category in ("So", "Sk") and unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.3
    return 1.0


# The symbols the app's own words draw on charts (arrows, the pseudo-language's brackets, signs), measured the same way
# (Chromium 156, the charts' "Source Sans"). Any other symbol counts as a full em.
SOURCE_SANS_SYMBOLS_EM = MappingProxyType({"⟦": 0.378, "⟧": 0.378, "↓": 0.619, "→": 0.619, "×": 0.497, "−": 0.497,
                                           "∞": 0.782, "—": 0.8, "–": 0.48})


# Advance widths (em) of Source Sans, the font Streamlit's theme gives Plotly charts, measured in Chromium (canvas
# measureText at 100 px). Any other character counts as a full em, wider than any in the table.
SOURCE_SANS_EM = MappingProxyType(dict(zip(
    '0123456789 !"#$%&\'()*+,-./:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~·',
    (
        0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.497, 0.2, 0.289, 0.426, 0.497,
        0.497, 0.824, 0.609, 0.249, 0.303, 0.303, 0.418, 0.497, 0.249, 0.311, 0.249, 0.35, 0.249, 0.249,
        0.497, 0.497, 0.497, 0.425, 0.847, 0.543, 0.588, 0.571, 0.615, 0.527, 0.494, 0.617, 0.652, 0.263,
        0.479, 0.579, 0.486, 0.727, 0.647, 0.664, 0.566, 0.664, 0.569, 0.534, 0.536, 0.645, 0.515, 0.786,
        0.513, 0.476, 0.539, 0.303, 0.35, 0.303, 0.497, 0.5, 0.542, 0.504, 0.553, 0.456, 0.555, 0.496,
        0.292, 0.504, 0.544, 0.246, 0.247, 0.495, 0.255, 0.829, 0.547, 0.542, 0.555, 0.555, 0.347, 0.419,
        0.338, 0.544, 0.467, 0.719, 0.446, 0.467, 0.425, 0.303, 0.241, 0.303, 0.497, 0.249,
    ),
    strict=True,
)))
# Single characters that draw as long words (Arabic ligatures of whole phrases, cuneiform numerals): no font on this
# machine draws them, so these are generous guesses, wider than the fonts we know of
VERY_WIDE_EM = MappingProxyType({"\ufdfa": 4.0, "\ufdfb": 4.0, "\ufdfd": 10.0, "\U0001242b": 3.0})
LINE_SPACING = 1.3  # Plotly's: each further line of a label adds 1.3 em
FIRST_LINE = 4 / 3  # the first line of an SVG label is about 1.33 em tall
