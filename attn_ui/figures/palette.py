"""The app's colours, in one place: the weight scale, the two greys of blocked cells, the selection orange, the
signed and share scales of the lesson charts, and the WCAG contrast rule that picks black or white text.

Every figure builder takes its colours from here, so a colour means the same thing on every page.
"""

from __future__ import annotations

from types import MappingProxyType

import plotly.colors as pc

# Viridis (colour-blind safe, no grey in it), written out with plotly.js's own stops so the text-colour rule
# below is computed on exactly the colours the browser paints.
VIRIDIS = ("#440154", "#48186a", "#472d7b", "#424086", "#3b528b", "#33638d", "#2c728e", "#26828e", "#21918c",
           "#1fa088", "#28ae80", "#3fbc73", "#5ec962", "#84d44b", "#addc30", "#d8e219", "#fde725")
WEIGHT_SCALE = tuple((min(index * 16 / 255, 1.0), colour) for index, colour in enumerate(VIRIDIS))
GREY_FUTURE = "#d9d9d9"  # light grey: blocked because the key lies in the future
GREY_PADDING = "#a6a6a6"  # darker grey: blocked because the key is a PAD token
GREY_TEXT = "#1a1a1a"  # text on both greys (contrast > 7:1)
SELECT_COLOUR = "#ff6a13"  # outline of the selected row; orange is not in viridis
TEXT_ON_LIGHT = "#000000"  # numbers on light cells; black, not Plotly's #444, keeps every cell >= 4.5:1
TEXT_ON_DARK = "#ffffff"  # numbers on dark cells
GREY_SCALE = ((0, GREY_FUTURE), (0.5, GREY_FUTURE), (0.5, GREY_PADDING), (1, GREY_PADDING))  # z 0 future, 1 PAD
# Signed numbers (values, projections): blue below 0, white at 0, red above, on every page. The ends stay light
# enough for black numbers on every cell (>= 7:1).
SIGNED_SCALE = ((0.0, "#67a9cf"), (0.5, "#f7f7f7"), (1.0, "#ef8a62"),)
SHARE_SCALE = ((0.0, "#f7fbff"), (1.0, "#4292c6"),)  # a share from none (white) to all (blue)
CHANGE_SCALE = ((0.0, "#fff4e6"), (1.0, "#d94801"),)  # how far a row moved: pale to strong orange
OPEN_CELL = "#f4f7fb"  # a legal cell in a True/False table: near white, so the blocked greys stand out
OPEN_TEXT = "#3a3a3a"
MASK_SCALE = ((0.0, OPEN_CELL), (0.33, OPEN_CELL), (0.34, GREY_FUTURE), (0.66, GREY_FUTURE),
              (0.67, GREY_PADDING), (1.0, GREY_PADDING),)  # fmt: skip
LINE_RESCALED = "#1f77b4"
LINE_UNSCALED = "#d62728"
FLOAT32_COLOUR, BF16_COLOUR = "#3e7cc4", "#35b779"  # a blue and viridis' green: clear on light and dark


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of '#rrggbb' or 'rgb(r, g, b)'."""
    if colour.startswith("#"):
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    else:
        channels = [float(c) / 255 for c in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2.1 contrast ratio of two colours, from 1 to 21."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def scale_colour(weight: float, scale: tuple = WEIGHT_SCALE) -> str:
    """The colour a heatmap with zmin=0, zmax=1 paints for this weight (Plotly interpolates in RGB)."""
    return pc.sample_colorscale([list(stop) for stop in scale], [min(max(weight, 0.0), 1.0)])[0]


def _black_text_from(scale: tuple = WEIGHT_SCALE, steps: int = 1000) -> float:
    """The smallest weight whose cell colour gives black text more contrast than white (viridis gets lighter)."""
    for step in range(steps + 1):
        colour = scale_colour(step / steps, scale)
        if contrast_ratio(colour, TEXT_ON_LIGHT) > contrast_ratio(colour, TEXT_ON_DARK):
            return step / steps
    return 1.0 + 1 / steps


BLACK_TEXT_FROM = _black_text_from()  # about 0.44 for viridis; computed once, at import
# Training curves: one colour and one dash a curve, so they stay apart without colour too; all >= 3:1 on white
# and on Streamlit's dark background.
CURVE_COLOURS = MappingProxyType({"train": "#3e7cc4", "held_out": "#e8710a", "generating": "#2e9d5b",
                                  "repeat": "#b5489a"})
CURVE_DASHES = MappingProxyType({"train": "solid", "held_out": "dash", "generating": "dot", "repeat": "dashdot"})
MODEL_COLOURS = ("#3e7cc4", "#e8710a", "#2e9d5b", "#b5489a")  # several models in one chart: one colour a model
LEVEL_COLOUR = "#8c8c8c"  # a reference level (true entropy, chance): grey, dotted
