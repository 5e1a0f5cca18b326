"""All of the app's own CSS, in one place: sizes, focus rings, text contrast, 200% zoom, and projector mode.

Constant strings only: no user text ever goes in. Projector mode is declared as two tables, what it hides and
what it enlarges, from which its CSS is written; tests/browser/test_projector_css_browser.py checks every row
in Chromium, so a Streamlit upgrade that renames a test id fails loudly instead of showing a cluttered hall.

Theme-aware colours use `light-dark()`: Streamlit sets `color-scheme` on `.stApp`, so the first colour applies in
the light theme and the second in the dark one. A plain colour written before each one is the fallback for a
browser without `light-dark()`.
"""

import streamlit as st

from attn_ui.figures import layout
from attn_ui.figures.layout import MIN_TEXT
from attn_ui.figures.map_fit import EXTRA_RANGE, PHONE_FONT
from attn_ui.figures.palette import GREY_TEXT
from attn_ui.widgets import svg_download

CSS = """
<style>
/* a room's answers (panels.share_bar): blue before the reveal, then green counted right and grey off */
[class*="st-key-bar-open-"] [data-testid="stProgressBarTrack"] > div { background-color: #3e7cc4 !important; }
[class*="st-key-bar-right-"] [data-testid="stProgressBarTrack"] > div { background-color: #2e7d4f !important; }
[class*="st-key-bar-off-"] [data-testid="stProgressBarTrack"] > div { background-color: #8c8c8c !important; }
[class*="st-key-bar-open-"], [class*="st-key-bar-right-"], [class*="st-key-bar-off-"] { gap: 0 !important; }
.block-container { padding-top: 2.2rem !important; padding-bottom: 2rem !important; }
[data-testid="stHeading"] h1 { padding: 0 0 0.1rem 0 !important; font-size: 1.9rem !important; }
[data-testid="stMetric"] { padding: 0 !important; }
[data-testid="stMetric"] > div { padding: 0.3rem 0.75rem 0.2rem !important; }
[data-testid="stMetricValue"] > div { line-height: 1.25 !important; }
[data-testid="stMetricValue"] { font-size: 1.6rem !important; }
[data-testid="stMetricLabel"] p { font-size: 0.92rem !important; }
[data-testid="stMetricLabel"] *, [data-testid="stMetricValue"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
  word-break: normal !important; overflow-wrap: normal !important;
}
/* Metric tiles (panels.metric_tiles): a wrapping row of 2, 3 or 4 to a line; phones keep 3, or 2 of 4 */
:is(.st-key-kpis-2, .st-key-kpis-3, .st-key-kpis-4, .st-key-kpis-5) > [data-testid="stElementContainer"] {
  min-width: 0 !important; }
.st-key-kpis-2 > [data-testid="stElementContainer"] { flex: 1 1 calc(50% - 0.55rem) !important; }
.st-key-kpis-3 > [data-testid="stElementContainer"] { flex: 1 1 calc(33.3% - 0.7rem) !important; }
.st-key-kpis-4 > [data-testid="stElementContainer"] { flex: 1 1 calc(25% - 0.8rem) !important; }
.st-key-kpis-5 > [data-testid="stElementContainer"] { flex: 1 1 calc(20% - 0.8rem) !important; }
@media (max-width: 640px) {
  :is(.st-key-kpis-2, .st-key-kpis-3, .st-key-kpis-4, .st-key-kpis-5) { gap: 0.4rem !important; }
  :is(.st-key-kpis-4, .st-key-kpis-5) > [data-testid="stElementContainer"] {
    flex-basis: calc(50% - 0.25rem) !important; }
}

/* --- accessibility (WCAG 2.1 AA) --- */
.stApp {
  --attn-focus: #1a5fb4; --attn-focus: light-dark(#1a5fb4, #99c1f1);
  --attn-accent-text: #a82834; --attn-accent-text: light-dark(#a82834, #ff8f99);
}
/* Code's syntax colours are one set for both themes: on the light theme's code background (#f9fafb) keywords were
   3.7:1, comments and brackets 3.6:1, numbers 2.6:1, operators 2.9:1. Darker in light, as they were in dark. */
[data-testid="stCode"] :is(.token.keyword, .token.function, .token.boolean, .token.constant) {
  color: light-dark(#1764b0, rgb(28, 131, 225)) !important; }
[data-testid="stCode"] :is(.token.comment, .token.punctuation) {
  color: light-dark(#5f6373, rgb(128, 132, 149)) !important; }
[data-testid="stCode"] :is(.token.number, .token.string) { color: light-dark(#107a6b, rgb(41, 176, 157)) !important; }
[data-testid="stCode"] .token.operator { color: light-dark(#b04a0c, rgb(237, 111, 19)) !important; }
/* Captions are body text at 60% opacity: 3.9:1 on white. At 78% they reach 6:1 (light) and 10:1 (dark). */
[data-testid="stCaptionContainer"] { opacity: 0.78 !important; }
/* Text in the accent colour (a chosen pill or segment, the slider's value) was 4.5:1 (light) and 3.6:1 (dark) */
[data-testid="stButtonGroup"] button[aria-checked="true"],
[data-testid="stButtonGroup"] button[aria-checked="true"] *,
[data-testid="stButtonGroup"] button[aria-pressed="true"],
[data-testid="stButtonGroup"] button[aria-pressed="true"] *,
[data-testid="stButtonGroup"] button[data-selected="true"],
[data-testid="stButtonGroup"] button[data-selected="true"] *,
[data-testid="stSliderThumbValue"], [data-testid="stSliderThumbValue"] * { color: var(--attn-accent-text) !important; }
/* Chart text in every mode and theme: the theme's text colour, not the grey of Streamlit's Plotly theme (rgb 128,
   132, 149: 3.7:1 on white) nor a reference level's name (#8c8c8c: 3.4:1), and at full strength; at least 4.5:1
   (tests/browser/test_targets_contrast_browser.py reads every SVG text's fill, which axe does not) */
[data-testid="stMain"] .js-plotly-plot :is(.xtick, .ytick, .g-xtitle, .g-ytitle) text { fill-opacity: 1 !important; }
[data-testid="stMain"] .js-plotly-plot text:is([style*="fill: rgb(128, 132, 149)"],
  [style*="fill: rgb(140, 140, 140)"]) { fill: currentColor !important; }
/* A button's keyboard-shortcut badge is drawn at 60% opacity: 3.4:1 on a primary button. Full strength: 6:1 */
button:not(:disabled) kbd { opacity: 1 !important; }
/* One clear focus ring for the keyboard, on every control; the visible part of a hidden input gets it */
.stApp :is(a, button, summary, select, textarea, [tabindex]:not([tabindex="-1"]), input:not([type="checkbox"],
  [type="radio"], [type="range"])):focus-visible,
.stApp label:has(input:is([type="checkbox"], [type="radio"]):focus-visible),
.stApp [data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) {
  outline: 3px solid var(--attn-focus) !important; outline-offset: 2px !important;
}
.stApp [data-testid="stSlider"] div:has(> div > input[type="range"]:focus-visible) { border-radius: 50% !important; }
[data-baseweb="input"]:focus-within, [data-baseweb="select"]:focus-within > div {
  outline: 3px solid var(--attn-focus) !important; outline-offset: 1px !important;
}
/* A focused control never hides under the sticky header when the page scrolls to it */
[data-testid="stMain"] { scroll-padding-top: 4.5rem; }
/* 200% zoom (or a narrow window): labels wrap instead of being cut to "Projector m..." */
[data-testid="stWidgetLabel"] .stMarkdownEllipsis, [data-testid="stWidgetLabel"] .stMarkdownEllipsis *,
[data-testid="stCheckbox"] .stMarkdownEllipsis, [data-testid="stCheckbox"] .stMarkdownEllipsis * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
}
/* The Lab's head counts (1, 2, 3, 4, 6, 12) fit one row of the controls column at 1280 px; phones keep big buttons */
@media (min-width: 641px) {
  :is(.st-key-lab-heads, .st-key-lab-view) button { min-width: 1.85rem !important; padding-left: 0.4rem !important;
    padding-right: 0.4rem !important; }
}
/* Training | Re-roll share a wrapping row (controls.py); Re-roll keeps a readable width, else it wraps below */
[class*="-dropout-row"] .stButton { min-width: 7.5rem; }
/* The elements holding our script (TOUCH_JS below), a map's phone CSS and the progress store (progress.py) take no
   room: a projector page must still fit 720 px */
[data-testid="stElementContainer"]:has(#attn-touch),
[data-testid="stLayoutWrapper"]:has(> [class*="st-key-mp-"]), .stApp [class*="st-key-mp-"],
[data-testid="stLayoutWrapper"]:has(> [class*="st-key-attn-progress"]), .stApp [class*="st-key-attn-progress"] {
  display: none !important; }
/* A phone has no hover: Plotly's tooltip would only cover the row label the student just tapped; and the toolbars
   that a hover would show and hide (Plotly's camera and full screen, a table's search and download) stay up after
   a touch, over a chart's title or the tile above a table: a phone goes without them */
@media (hover: none) {
  .js-plotly-plot .hoverlayer, .js-plotly-plot .modebar-container,
  [data-testid="stElementToolbar"] { display: none !important; }
}
/* A lesson's table (tables.fitted_table): the whole dataframe on a wide screen, narrow static tables on a phone */
@media (max-width: 640px) {
  [data-testid="stLayoutWrapper"]:has(> [class*="-table-wide"]), [class*="-table-wide"] { display: none !important; }
  [class*="-table-narrow"] [data-testid="stTable"] td, [class*="-table-narrow"] [data-testid="stTable"] th {
    white-space: normal !important; padding-left: 0.45rem !important; padding-right: 0.45rem !important; }
}
@media (min-width: 641px) {
  [data-testid="stLayoutWrapper"]:has(> [class*="-table-narrow"]), [class*="-table-narrow"] {
    display: none !important; }
}
/* The Lab on a phone: the map is pinned under the header and the controls scroll beneath it, so every tap on a
   control shows its effect. The two columns and their containers are dissolved (display: contents) so the map
   can stick over the whole page, not only over its own column; the notes follow the "More" controls that
   cause them. Not in projector mode, which lays the Lab out for a hall. */
@media (max-width: 640px) {
  .stApp:not(:has(.attn-projector))
      [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-lab-panel) {
    flex-direction: column !important; flex-wrap: nowrap !important; }
  .stApp:not(:has(.attn-projector)) :is(
      [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-lab-panel) > [data-testid="stColumn"],
      .st-key-lab-panel, .st-key-lab-top) { display: contents !important; }
  .stApp:not(:has(.attn-projector)) :is(
      [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-lab-panel) > [data-testid="stColumn"],
      .st-key-lab-top, .st-key-lab-panel) > :is([data-testid="stVerticalBlock"], [data-testid="stLayoutWrapper"]):not(
      [class*="st-key-kpis"], [class*="-dropout-row"]),
  .stApp:not(:has(.attn-projector)) [data-testid="stLayoutWrapper"]:has(> :is(.st-key-lab-panel, .st-key-lab-top)) {
    display: contents !important; }
  .stApp:not(:has(.attn-projector))
      .st-key-lab-panel > [data-testid="stElementContainer"]:has([data-testid="stPlotlyChart"]) {
    order: -1; position: sticky; top: 3.75rem; z-index: 5; background: #fff; background: light-dark(#fff, #0e1117); }
  /* typing (a phone's keyboard takes half the screen): the map lets go, so the box being typed in stays in view */
  .stApp:not(:has(.attn-projector)):has([data-testid="stMain"] :is(input[type="text"], input[type="number"],
      textarea):focus) .st-key-lab-panel > [data-testid="stElementContainer"]:has([data-testid="stPlotlyChart"]) {
    position: static; }
  /* the sentence that explains the tapped row is pinned to the bottom of the screen while its place (after the
     controls) is further down, so a tap's explanation is in view without scrolling */
  .stApp:not(:has(.attn-projector)) .st-key-lab-panel .st-key-map-row {
    position: sticky; bottom: 0; z-index: 4; padding: 0.3rem 0 0.2rem;
    background: #fff; background: light-dark(#fff, #0e1117); border-top: 1px solid #d0d4dc; }
  /* a control scrolled to (by focus, or a find) lands between the pinned map and the pinned sentence, not under
     them: TOUCH_JS keeps the two heights in --attn-pin-top and --attn-pin-bottom */
  .stApp:not(:has(.attn-projector)):has(.st-key-lab-panel) [data-testid="stMain"] {
    scroll-padding-top: var(--attn-pin-top, 4.5rem); scroll-padding-bottom: var(--attn-pin-bottom, 0px); }
}
/* --- target size (WCAG 2.2, 2.5.8): every control a pointer or a finger hits is at least 24x24 CSS px, checked on
   every page at 1366x768 and 390x844 by tests/browser/test_targets_contrast_browser.py --- */
/* a radio option was 22 px tall and as wide as its text (the option "4": 33x22); a switch or checkbox 21 px */
[data-testid="stRadioOption"] { min-height: 2rem !important; min-width: 3rem !important; align-items: center !important;
  padding-right: 0.5rem !important; }
[data-testid="stCheckbox"] > label { min-height: 1.75rem !important; align-items: center !important; }
/* a help icon's button was its 16 px icon: 26 px to hit, the negative margin keeping the line as it was */
[data-testid="stTooltipIcon"] button:has(> svg) { min-width: 26px !important; min-height: 26px !important;
  margin: -5px !important;
  display: inline-flex !important; align-items: center !important; justify-content: center !important; }
/* a code box's copy button only showed under a hovering pointer, so a phone had none: it shows at all times */
[data-testid="stCode"] div:has(> [data-testid="stElementToolbarButton"]),
[data-testid="stCode"] div:has(> div > [data-testid="stElementToolbarButton"]) {
  visibility: visible !important; opacity: 1 !important; }
/* With the sidebar closed, Streamlit's header is opaque and 3.75rem tall: keep the title below it */
.stApp:has([data-testid="stExpandSidebarButton"]) .block-container {
  padding-top: 4.2rem !important;
}
</style>
"""


# --- projector mode --------------------------------------------------------------------------------------------

PANELS = ":is(.st-key-lab-panel, .st-key-scene-panel)"  # the map's column, in the Lab and on a scene

# the big-map pages (a scene at its question has an empty board, which is not drawn: its story marks it); lessons
# keep more
LAB_OR_SCENE = ".stApp:has(:is(.st-key-lab-panel, .st-key-scene-panel, .st-key-scene-story, .st-key-live-join-screen))"
MAIN = '[data-testid="stMain"]'
OTHER_PAGES = (".stApp:not(:has(:is(.st-key-lab-panel, .st-key-scene-panel, .st-key-scene-story, "
               ".st-key-live-join-screen)))")  # they scroll
BODY = "1.4rem"  # 22.4 px: the smallest text projector mode leaves in the main area

# (selector, what it is): hidden while projector mode is on
PROJECTOR_HIDDEN = (
    ('[data-testid="stElementContainer"]:has(.attn-projector)', "the marker that carries this CSS"),
    ('[data-testid="stHeader"]', "Streamlit's header bar"),
    ('[data-testid="stSidebar"]', "the sidebar"),
    ('[data-testid="stExpandSidebarButton"]', "the sidebar's open button"),
    (f'{LAB_OR_SCENE} [data-testid="stElementContainer"]:has(> [data-testid="stHeading"] h1)',
     "the page title of the Lab and the scenes (a lesson keeps its own)"),
    (f'{LAB_OR_SCENE} [data-testid="stElementContainer"]:has(> [data-testid="stMarkdown"] '
     '[data-testid="stCaptionContainer"])', "captions of the Lab and the scenes"),
    (f'{LAB_OR_SCENE} [data-testid="stLayoutWrapper"]:has(> [data-testid="stExpander"])',
     "expanders of the Lab (More, the map as a table)"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-share)', "the share row (CSV, link)"),
    (f'{PANELS} [data-testid="stElementContainer"]:has(> [data-testid="stMarkdown"] '
     '[data-testid="stCaptionContainer"])', "the hint under the map (the legend is drawn as a row of chips)"),
    (f'{PANELS} > [data-testid="stElementContainer"]:has([data-testid="stAlert"])', "notes under the map"),
    ('[data-testid="stColumn"]:has(.st-key-lab-dropout-row) [data-testid="stSliderTickBar"]',
     "the Lab's dropout slider's end labels: the room for its value above the thumb, clear of its label"),
    (".st-key-lab-rescale", "the rescale switch: its trap has a scene of its own, and the Lab must fit 720 px"),
    (".js-plotly-plot .modebar-btn.attn-svg-btn", "the toolbar's SVG button: a projected page is for the room, and "
     "it would widen the Lab map's toolbar over the page menu (the camera stays)"),
)

# (selector, CSS property, value): what projector mode enlarges, to read from the back of a hall at 1280x720
PROJECTOR_SIZES = (
    # body text of every page: paragraphs, lists, tables, code, alerts, captions, at 22 px or more
    (f'{MAIN} [data-testid="stMarkdownContainer"] :is(p, li)', "font-size", BODY),
    (f'{MAIN} [data-testid="stMarkdownContainer"] :is(p, li)', "line-height", "1.4"),
    (f'{MAIN} [data-testid="stMarkdownContainer"] :is(p, li) code', "font-size", BODY),
    (f'{MAIN} [data-testid="stCaptionContainer"] :is(p, li)', "font-size", BODY),
    # a formula's exponents are drawn at 0.7 of its size: 1.45em keeps e^{0.34} above 22 px
    (f'{MAIN} [data-testid="stMarkdownContainer"] .katex', "font-size", "1.45em"),
    (f'{MAIN} [data-testid="stTable"] :is(td, th)', "font-size", BODY),
    (f'{MAIN} [data-testid="stCode"] code', "font-size", BODY),
    (f'{MAIN} [data-testid="stHeading"] h1', "font-size", "2.4rem"),
    ('[data-testid="stWidgetLabel"] p', "font-size", BODY),
    ('[data-testid="stCheckbox"] label p', "font-size", BODY),
    ('[data-testid="stCheckbox"] label p', "font-weight", "600"),
    (f'{MAIN} [data-testid="stButton"] button p', "font-size", BODY),
    (f'{MAIN} [data-testid="stPageLink"] p', "font-size", BODY),
    (f'{MAIN} [data-testid="stRadio"] label p', "font-size", BODY),
    (f'{MAIN} input', "font-size", BODY),
    (f'{MAIN} kbd', "font-size", "1.1rem"),
    # (a help icon beside the group's label is a button too: it keeps its own size, look.py's target-size rules)
    ('[data-testid="stButtonGroup"] button:not([data-testid="stTooltipIcon"] button:has(> svg))', "min-height",
     "2.6rem"),
    # the head counts keep their compact width (CSS above), so six of them fit the controls column
    ('[data-testid="stButtonGroup"] button:not(:is(.st-key-lab-heads, .st-key-lab-view) button, '
     '[data-testid="stTooltipIcon"] button:has(> svg))', "min-width", "2.6rem"),
    ('[data-testid="stButtonGroup"] button p', "font-size", BODY),
    ('[data-testid="stSliderThumbValue"]', "font-size", BODY),
    # the value rides above the thumb: at BODY size it reached 18 px up into the slider's label; room for it where
    # the page scrolls anyway (the Lab and the scenes fit 720 px to the pixel, and their sliders' labels are short)
    (f'{OTHER_PAGES} [data-testid="stSlider"] > [role="group"]', "padding-top", "1.5rem"),
    # the Lab has no such room, but its dropout slider's end labels are hidden (above): its value rides under the
    # thumb instead, where they were, clear of the label "Dropout p"
    ('[data-testid="stColumn"]:has(.st-key-lab-dropout-row) [data-testid="stSliderThumbValue"]', "top", "1.1rem"),
    ('[data-testid="stColumn"]:has(.st-key-lab-dropout-row) [data-testid="stSliderThumbValue"]', "line-height", "1"),
    ('[data-testid="stSliderTickBar"]', "font-size", BODY),
    ('.st-key-scene-story [data-testid="stMarkdown"] p', "font-size", BODY),
    ('.st-key-scene-story [data-testid="stHeading"] h3', "font-size", "2rem"),
    ('.st-key-scene-story [data-testid="stHeading"] h3', "padding-top", "0"),
    (".st-key-scene-where p", "font-size", BODY),  # "Scene n of N"
    (":is(.st-key-scenes-back, .st-key-scenes-next) button", "min-height", "3rem"),
    ('[class*="st-key-kpis-"] [data-testid="stMetric"] > div', "padding", "0.25rem 0.7rem 0.3rem"),
    ('[class*="st-key-kpis-"] [data-testid="stMetricLabel"] p', "font-size", BODY),
    ('[class*="st-key-kpis-"] [data-testid="stMetricLabel"] p', "font-weight", "600"),
    ('[class*="st-key-kpis-"] [data-testid="stMetricValue"]', "font-size", "2.3rem"),
    ('[class*="st-key-kpis-"] [data-testid="stMetricValue"]', "font-weight", "700"),
    # a tile's value is a paragraph, so the body-text rule made it BODY, no larger than its label; on the pages
    # that scroll it takes the tile's value size (the Lab and the scenes keep BODY, to fit 720 px)
    (f'{OTHER_PAGES} {MAIN} [class*="st-key-kpis-"] [data-testid="stMetricValue"] '
     '[data-testid="stMarkdownContainer"] p', "font-size", "2.3rem"),
    (".st-key-kpis-1", "gap", "0.45rem"),
    # :not(#attn-none) only raises the rule's weight above the padding for a closed sidebar in CSS above
    (".stApp:has(.attn-projector) .block-container:not(#attn-none)", "padding", "0.6rem 1rem 0.4rem"),
    (".stApp:has(.attn-projector) .block-container:not(#attn-none)", "max-width", "100%"),
    # the page's switch (the sidebar that holds it otherwise is hidden) goes in the page's flow, at its end, so it
    # never sits over content (a fixed corner covered a scene's last map row and the poll board); a scene draws it
    # under its story instead (projector.page_switch)
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-page-mode)', "order", "9999"),
    # the Lab's page menu sits in the top right corner of the map's column, which the map leaves empty (the head's name
    # is at its left, the keys' title centred), so the controls' column keeps its height
    ('[data-testid="stColumn"]:has(.st-key-lab-pages)', "position", "relative"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "position", "absolute"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "top", "-0.6rem"),  # clear of the keys' words
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "right", "0"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "width", "auto"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "z-index", "3"),
    (".st-key-lab-pages", "width", "auto"),
    # the controls' column a little tighter, so a sentence's word chips keep a line to spare at 720 px
    ('[data-testid="stColumn"]:has(.st-key-lab-dropout-row) > [data-testid="stVerticalBlock"]', "gap", "0.85rem"),
    (".st-key-page-mode", "width", "auto"),
)


# on a phone or a tablet the map fills its column's width: the corner it leaves on a wide screen is where the keys'
# title is, so the page menu goes back into the flow, above the map, at the right (tests/browser/
# test_controls_cover_browser.py measures from 320 to 1366 px)
NARROW_PX = 1100  # up to a tablet held sideways; a projector's 1280 px keeps the corner
PROJECTOR_NARROW = (
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "position", "static"),
    ('[data-testid="stLayoutWrapper"]:has(> .st-key-lab-pages)', "align-self", "flex-end"),
)


def _projector_css() -> str:
    """The style element of projector mode, written from the two tables above.

    The empty marker span matters: style-only HTML goes to Streamlit's event container, which a fragment rerun
    does not update, so the switch could not take the style away again. With the span it is an element of the
    fragment, and goes when the fragment stops drawing it.
    """
    hidden = "\n".join(f"{selector} {{ display: none !important; }}" for selector, __ in PROJECTOR_HIDDEN)
    sizes = "\n".join(f"{selector} {{ {prop}: {value} !important; }}" for selector, prop, value in PROJECTOR_SIZES)
    narrow = " ".join(f"{selector} {{ {prop}: {value} !important; }}" for selector, prop, value in PROJECTOR_NARROW)
    return (f'<span class="attn-projector"></span>\n<style>\n{hidden}\n{sizes}\n'
            f"@media (max-width: {NARROW_PX}px) {{ {narrow} }}\n</style>")


PROJECTOR_CSS = _projector_css()


# Two things CSS cannot do on a phone, in one constant script that installs itself once per browser tab:
# - Plotly selects a cell from the hover it computed last, and a touch has no hover before it: the first tap
#   only made the tooltip. A mousemove at the touch point, just before Plotly sees the touch, makes one tap select.
# - Streamlit leaves the sidebar open over the page after a link in it is tapped: close it on a narrow screen.
#   And a page opened by a link kept the last page's scroll (the Lab opened half-way down): start at the top.
TOUCH_JS = """
<script id="attn-touch">
if (!window.__attnTouch) {
  window.__attnTouch = true;
  document.addEventListener("touchstart", (event) => {
    const cells = event.target.closest && event.target.closest(".js-plotly-plot .nsewdrag");
    const touch = event.changedTouches[0];
    if (cells && touch) {
      cells.dispatchEvent(new MouseEvent("mousemove", {clientX: touch.clientX, clientY: touch.clientY, bubbles: true}));
    }
  }, {capture: true, passive: true});
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('[data-testid="stPageLink"] a');
    if (!link) return;
    setTimeout(() => {
      const main = document.querySelector('[data-testid="stMain"]');
      if (main) main.scrollTo(0, 0);  // a new page starts at its top, not where the last one was left
      const close = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (close && link.closest('[data-testid="stSidebar"]') && window.matchMedia("(max-width: 640px)").matches) {
        close.click();
      }
    }, 0);
  }, {capture: true});
  // The Lab on a phone pins its map under the header and the row's sentence at the bottom (CSS above): the room
  // between them is where a control scrolled into view must land, so the scroll padding follows their heights.
  setInterval(() => {
    const style = document.documentElement.style;
    const map = document.querySelector(
      '.st-key-lab-panel > [data-testid="stElementContainer"]:has([data-testid="stPlotlyChart"])');
    const row = document.querySelector(".st-key-lab-panel .st-key-map-row");
    if (!map || getComputedStyle(map).position !== "sticky") {
      style.removeProperty("--attn-pin-top");
      style.removeProperty("--attn-pin-bottom");
      return;
    }
    const top = Math.round(parseFloat(getComputedStyle(map).top) + map.getBoundingClientRect().height + 8);
    const bottom = row ? Math.round(row.getBoundingClientRect().height + 8) : 0;
    style.setProperty("--attn-pin-top", top + "px");
    style.setProperty("--attn-pin-bottom", bottom + "px");
  }, 400);
}
</script>
"""


# The Lab explains a clicked row in a sentence under its map; on a laptop (1366x768, 1280x720) that sentence lands
# below the fold. After a click on the map, once the sentence has changed, it is scrolled just into view (the least
# scroll that shows it, so the clicked row stays on screen). A phone pins the sentence to the bottom (CSS above):
# nothing to do there.
ROW_JS = """
<script id="attn-row">
if (!window.__attnRow) {
  window.__attnRow = true;
  const sentence = () => document.querySelector(".st-key-lab-panel .st-key-map-row");
  let waiting = null;
  document.addEventListener("click", (event) => {
    if (!(event.target.closest && event.target.closest('.st-key-lab-panel [data-testid="stPlotlyChart"]'))) return;
    const before = sentence() ? sentence().textContent : "";
    const started = Date.now();
    clearInterval(waiting);
    waiting = setInterval(() => {
      const row = sentence();
      if (Date.now() - started > 8000) clearInterval(waiting);
      if (!row || row.textContent === before) return;
      clearInterval(waiting);
      if (getComputedStyle(row).position === "sticky") return;
      const box = row.getBoundingClientRect();
      if (box.bottom > window.innerHeight || box.top < 0) row.scrollIntoView({block: "nearest"});
    }, 100);
  }, {capture: true});
}
</script>
<style>[data-testid="stElementContainer"]:has(#attn-row) { display: none !important; }</style>
"""


# --- the Lab's map on a phone ------------------------------------------------------------------------------------

def _phone_map_css() -> str:
    """The CSS that fits the Lab's map to a phone (figures/map_fit.py), written once from the ranges a PhoneFit can
    take: the map's panel holds an empty container named by PhoneFit.key ("mp-k-8-h440-r15-…"); each part of that
    name sets one CSS variable, and five rules size the labels, the titles, the numbers and the marks (a grey cell's
    mark is told by its colour), and cut the chart to its map, whose plot is a square at the top: min(height, width
    + extra) px. The chart itself keeps its height, so Plotly is not asked to draw it again."""
    panel = ".st-key-lab-panel"
    marked = f'{panel}:has([class*="st-key-mp-"])'
    sizes = range(MIN_TEXT, PHONE_FONT + 1)
    values = [("k", "extra", range(EXTRA_RANGE[0], EXTRA_RANGE[1] + 1, 4)),
              ("h", "most", sorted({layout.LAB.height, layout.PROJECTOR.height, layout.PROJECTOR_UNDER_LINK.height})),
              ("r", "rows", sizes), ("c", "keys", sizes), ("t", "titles", sizes),
              ("n", "numbers", [0, *sizes]), ("m", "marks", [0, *sizes])]
    lines = [f'{panel}:has([class*="st-key-mp-"][class*="-{letter}{value}-"]) {{ --attn-map-{name}: {value}px; }}'
             for letter, name, options in values for value in options]
    height = "min(var(--attn-map-most), calc(100vw - 2rem + var(--attn-map-extra)))"
    plot = f"{marked} .js-plotly-plot"
    mark = f'[data-unformatted*="{GREY_TEXT}"]'
    lines += [
        # Streamlit sizes the chart's element by its flex basis: a height alone does not hold
        f'{marked} > [data-testid="stElementContainer"]:has([data-testid="stPlotlyChart"]) {{ overflow: hidden; '
        f"height: {height} !important; flex-basis: {height} !important; }}",
        f'{marked} [data-testid="stPlotlyChart"] {{ height: var(--attn-map-most) !important; }}',
        f"{plot} .ytick text {{ font-size: var(--attn-map-rows) !important; }}",
        f"{plot} .xtick text {{ font-size: var(--attn-map-keys) !important; }}",
        f"{plot} .annotation text {{ font-size: var(--attn-map-titles) !important; }}",
        f"{plot} .textpoint text:not({mark}) {{ font-size: var(--attn-map-numbers) !important; }}",
        f"{plot} .textpoint text{mark} {{ font-size: var(--attn-map-marks) !important; }}",
    ]
    block = "\n".join(lines)
    return f"<style>\n@media (max-width: 640px) {{\n{block}\n}}\n</style>"


PHONE_MAP_CSS = _phone_map_css()


def apply_look() -> None:
    st.html(CSS)
    st.html(PHONE_MAP_CSS)
    st.html(TOUCH_JS, unsafe_allow_javascript=True)
    st.html(ROW_JS, unsafe_allow_javascript=True)
    svg_download.svg_buttons()  # SVG beside PNG in every chart's toolbar


def apply_projector_look() -> None:
    st.html(PROJECTOR_CSS)


# --- the lecture scenes' extra key buttons -------------------------------------------------------------------

# Visually hidden, not display:none: a button that is not rendered loses its keyboard shortcut. A keyboard user who
# tabs onto one sees the row appear, like a skip link.
SCENE_KEYS_CSS = """
<style>
.st-key-scenes-keys:not(:focus-within), .st-key-scenes-keys-live:not(:focus-within) { position: absolute !important;
  width: 1px !important; height: 1px !important;
  overflow: hidden !important; clip-path: inset(50%) !important; white-space: nowrap !important; }
.st-key-scenes-keys { gap: 0.5rem !important; }
</style>
"""


def apply_scene_keys_look() -> None:
    st.html(SCENE_KEYS_CSS)
