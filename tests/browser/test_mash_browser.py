"""Mashing the Lab's controls with raw mouse events and taps: once the page settles, every control, the map,
every tile and the address bar show one state, the one the clicks lead to, and no error dialog ever appears.

One server and one page per speed; each trial starts from a state set through the address (a history
navigation, as Back would do), then clicks one kind of control n times at the given spacing.
ATTN_MASH_TRIALS sets the mouse trials per speed (default 15, three of each of the five kinds of control; 25 found
nothing more and cost a minute of CI).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from urllib.parse import parse_qs, parse_qsl, urlsplit

import harness
import numpy as np
import pytest

from attn_core import Settings, compute, settings_from_query
from attn_ui.words.explain import kpi_values

TRIALS = int(os.environ.get("ATTN_MASH_TRIALS", "15"))
KINDS = ("toggle", "heads", "pad", "slider", "reroll")
START = {"toggle": "", "heads": "causal=1", "pad": "causal=1", "slider": "heads=2", "reroll": "p=0.5"}
SPEEDS = {"fast": ((7, 10), (10, 20)), "human": ((3, 6), (60, 150))}  # clicks per trial, ms between clicks
HEAD_CHOICES = ("1", "2", "3", "4", "6", "12")

# What the page shows, read in one go: the controls, the tiles and the address bar.
_SNAPSHOT = """
() => {
  const checked = (name) => {
    const group = [...document.querySelectorAll('[role="radiogroup"]')]
      .find((g) => (g.getAttribute("aria-label") || "").startsWith(name));
    if (!group) return null;
    const on = group.querySelector('[role="radio"][aria-checked="true"]');
    return on ? on.innerText.trim() : null;
  };
  const chips = [...document.querySelectorAll('[role="toolbar"][aria-label="Tap a word to make it PAD"] button')];
  const slider = document.querySelector('input[type="range"][aria-label="Dropout p"]');  // a select slider: its text
  const causal = [...document.querySelectorAll('[role="switch"]')]
    .find((s) => s.closest("label")?.innerText.trim().startsWith("Causal mask"));
  return {
    causal: causal ? causal.checked : null,
    heads: checked("Heads"),
    view: checked("Viewing head"),
    padded: chips.map((c, i) => c.getAttribute("aria-pressed") === "true" ? i + 1 : 0).filter((i) => i),
    p: slider ? Number(slider.getAttribute("aria-valuetext")) : null,
    href: location.href,
    dialogs: document.querySelectorAll('[role="dialog"]').length,
  };
}
"""


@dataclass
class Tally:
    trials: int = 0
    dialogs: int = 0
    problems: list[str] = field(default_factory=list)


def address(href: str) -> dict[str, str]:
    return {key: values[-1] for key, values in parse_qs(urlsplit(href).query).items()}


def reset(page, query: str) -> None:
    """Set the state through the address, as Back or Forward would: a history navigation to `?query`."""
    page.evaluate("q => { history.replaceState(null, '', location.pathname + (q ? '?' + q : ''));"
                  " dispatchEvent(new PopStateEvent('popstate')); }", query)
    harness.wait_for_app(page, initial_wait_ms=100)


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


CONTROLS = {"toggle": '[data-testid="stCheckbox"]', "heads": '[role="radiogroup"][aria-label="Heads"]',
            "pad": '[role="toolbar"][aria-label="Tap a word to make it PAD"]',
            "slider": '[role="group"][aria-label="Dropout p"]'}


def bring_into_view(page, kind: str) -> None:
    """Scroll the control to the bottom of the screen, as a person would: on a phone the map is pinned at the top,
    so a control under it is not where a finger can reach it."""
    control = (page.get_by_role("button", name="Re-roll", exact=True) if kind == "reroll"
               else page.locator(CONTROLS.get(kind, CONTROLS["slider"])).first)
    control.evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(100)


def targets(page, kind: str) -> list[tuple[str, object]]:
    """(what the click means, where it lands) for each place a click of this kind may land: a locator, or for the
    slider a fraction of its track."""
    if kind == "toggle":
        return [("flip", harness.toggle(page, "Causal mask"))]
    if kind == "heads":
        group = page.get_by_role("radiogroup", name="Heads")
        return [(h, group.get_by_role("radio", name=h, exact=True)) for h in HEAD_CHOICES]
    if kind == "pad":
        chips = page.get_by_role("toolbar", name="Tap a word to make it PAD").locator("button")
        return [(str(i + 1), chips.nth(i)) for i in range(chips.count())]
    if kind == "reroll":
        return [("roll", page.get_by_role("button", name="Re-roll"))]
    return [(f"{value:.2f}", value / 0.9) for value in (0.1, 0.25, 0.4, 0.55, 0.7, 0.85)]


def where(page, kind: str, place) -> tuple[float, float]:
    """Where a finger or a mouse aims now: at the control as the screen shows it at this moment, as a person
    does. A busy browser may move the page for a few frames while a run redraws the map; a person's next tap
    follows the control, and scrolls it back into view if it left the screen (a tap aimed at where it was
    would be a tap on something else, not on the control)."""
    def aim() -> tuple[float, float]:
        if kind != "slider":
            return centre(place)
        track = page.locator(f'{CONTROLS["slider"]} > div').first.bounding_box()
        return track["x"] + track["width"] * place, track["y"] + track["height"] / 2

    def on_target(x: float, y: float) -> bool:
        if not 0 < y < page.viewport_size["height"]:
            return False
        return kind == "slider" or place.evaluate("(e, [x, y]) => e.contains(document.elementFromPoint(x, y))", [x, y])

    x, y = aim()
    if not on_target(x, y):
        bring_into_view(page, kind)
        x, y = aim()
    return x, y


def expected_after(kind: str, start: Settings, clicks: list[str]) -> dict:
    if kind == "toggle":
        return {"causal": start.causal ^ (len(clicks) % 2 == 1)}
    if kind == "heads":
        return {"heads": int(clicks[-1])}
    if kind == "pad":
        padded = set(start.padded)
        for chip in clicks:
            padded ^= {int(chip)}
        return {"padded": tuple(sorted(padded))}
    if kind == "reroll":
        # A button click is a one-shot trigger: Streamlit folds the triggers of clicks queued while a run is in
        # progress into one (script_requests coalesces them), so fast re-rolls may count fewer than the clicks.
        # A new pattern must come, and the page must agree with the address about which one.
        return {"roll": range(start.roll + 1, start.roll + len(clicks) + 1)}
    return {"dropout": float(clicks[-1])}


def shown_settings(snap: dict, roll: str) -> Settings:
    query = {"causal": "1" if snap["causal"] else "0", "heads": snap["heads"] or "1", "view": snap["view"] or "1",
             "p": str(snap["p"]), "pad": ",".join(map(str, snap["padded"])), "roll": roll}
    settings, notes = settings_from_query(query)
    assert not notes, notes
    return settings


def check(page, expected: dict) -> list[str]:
    """Everything that disagrees on the settled page (empty when the page is consistent)."""
    snap = page.evaluate(_SNAPSHOT)
    problems = []
    url = address(snap["href"])
    linked, notes = settings_from_query(url)
    shown = shown_settings(snap, url.get("roll", "0"))
    if notes or linked != shown:
        problems.append(f"address {url} != controls {shown.to_query()}")
    for name, value in expected.items():
        if getattr(shown, name) not in (value if isinstance(value, range) else (value,)):
            problems.append(f"{name}: the clicks lead to {value!r}, the page shows {getattr(shown, name)!r}")
    result = compute(shown)
    tiles = harness.metrics(page)
    wanted_tiles = kpi_values(result)
    if {k: tiles.get(k) for k in wanted_tiles} != wanted_tiles:
        problems.append(f"tiles {tiles} != {wanted_tiles}")
    z = harness.plotly_data(page)[0]["z"]
    drawn = np.array([[np.nan if v is None else v for v in row] for row in z], dtype=float)
    view = result.head_map(None)
    weights = np.where(view.blocked & (view.weights == 0), np.nan, view.weights)  # grey cells are gaps
    if drawn.shape != weights.shape or not np.allclose(drawn, weights, atol=5e-6, equal_nan=True):
        problems.append("the map does not show the controls' weights")
    if snap["dialogs"]:
        problems.append(f"{snap['dialogs']} dialog(s) on screen")
    return problems


def mash(page, speed: str, touch: bool, trials: int, seed: int) -> Tally:
    rng = random.Random(seed)
    (low_n, high_n), (low_ms, high_ms) = SPEEDS[speed]
    tally = Tally()
    for trial in range(trials):
        kind = KINDS[trial % len(KINDS)]
        reset(page, START[kind])
        start = settings_from_query(dict(parse_qsl(START[kind])))[0]
        problems = check(page, {})
        bring_into_view(page, kind)
        places = targets(page, kind)
        clicks = []
        for _ in range(rng.randint(low_n, high_n)):
            meaning, place = rng.choice(places)
            clicks.append(meaning)
            x, y = where(page, kind, place)
            if touch:
                page.touchscreen.tap(x, y)
            else:
                page.mouse.click(x, y)
            page.wait_for_timeout(rng.randint(low_ms, high_ms))
        harness.wait_for_app(page, initial_wait_ms=200)
        problems += check(page, expected_after(kind, start, clicks))
        tally.trials += 1
        tally.dialogs += page.locator('[role="dialog"]').count()
        if problems:
            tally.problems.append(f"{speed} {kind} {clicks}: " + "; ".join(problems))
    return tally


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
@pytest.mark.parametrize("speed", list(SPEEDS))
def test_mashing_the_lab_leaves_one_consistent_state(server, browser, speed, touch):
    context = harness.new_context(browser, *((390, 844) if touch else (1366, 768)), touch=touch)
    page = context.new_page()
    errors = harness.collect_page_errors(page)
    try:
        harness.open_app(page, server)
        trials = TRIALS if not touch else 2 * len(KINDS)
        tally = mash(page, speed, touch, trials, seed=len(speed) * 7 + touch)
    finally:
        context.close()
    print(f"\n{speed} {'touch' if touch else 'mouse'}: {tally.trials} trials, {tally.dialogs} dialogs, "
          f"{len(tally.problems)} inconsistent")
    assert errors == []
    assert tally.dialogs == 0 and not tally.problems, "\n".join(tally.problems)
