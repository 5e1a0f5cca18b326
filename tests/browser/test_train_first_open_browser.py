"""Train it yourself opened first on a fresh server (issue 40, item 7): its question is on screen within 1.5 s, and the
estimate of a run's time, which times a few training steps first, fills its line in afterwards.

Before, the panel worked out the estimate before drawing anything (a fragment that blocks looks finished): the
question came 5 to 7 s after the page. The browser's cache is warmed on the Lab first, so the 1.5 s measure the
server's part (a phone's first download of the app's scripts is the same for every page).
"""

from __future__ import annotations

import time

import harness
import pytest

from attn_lang import _
from attn_ui.quiz.bank import BY_ID
from attn_ui.words import training_words

QUESTION = BY_ID[training_words.VERDICT_QUESTIONS["mask"]].prompt.split("**without**")[-1].strip()
WITHIN_S = 1.5


def first_open(browser, size, scheme) -> tuple[float, float, int, float]:
    """On a fresh server: (s to the question, s to the estimate, whether the line said the estimate was coming, s to
    the Lab's map opened the same way just before: the machine's own pace at that moment)."""
    with harness.start_server() as fresh:
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, color_scheme=scheme,
                                      is_mobile=size[0] < 500, has_touch=size[0] < 500)
        context.add_init_script(harness._TRACK_SOCKETS)
        try:
            lab = context.new_page()
            harness.open_app(lab, fresh, timeout_ms=120_000)  # the app's scripts in the browser's cache
            again = context.new_page()
            start = time.monotonic()
            again.goto(fresh.url, timeout=120_000)
            again.locator(".st-key-lab-panel .js-plotly-plot").first.wait_for(state="visible", timeout=60_000)
            lab_at = time.monotonic() - start
            page = context.new_page()
            start = time.monotonic()
            page.goto(fresh.url + "Train_it_yourself", timeout=120_000)
            page.get_by_text(QUESTION).first.wait_for(state="visible", timeout=60_000)
            question_at = time.monotonic() - start
            waiting = page.get_by_text(_(training_words.ESTIMATING)).count()
            page.get_by_text("Training takes about").first.wait_for(state="visible", timeout=60_000)
            estimate_at = time.monotonic() - start
            harness.assert_no_exception(page)
        finally:
            context.close()
    return question_at, estimate_at, waiting, lab_at


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_question_comes_first_and_the_estimate_after_it(browser, size, scheme):
    """The better of two fresh servers. Within 1.5 s, or, on a machine busy with other tests (a CI worker beside
    this one), within 0.5 s of the Lab's own map opened the same way just before: the page's part, measured against
    the machine's pace at that moment (about 1 s on a quiet machine; 5 to 7 s before the change)."""
    question_at, estimate_at, waiting, lab_at = first_open(browser, size, scheme)
    if question_at > WITHIN_S:
        question_at, estimate_at, waiting, lab_at = first_open(browser, size, scheme)
    assert question_at <= max(WITHIN_S, lab_at + 0.5), \
        f"the question came {question_at:.2f} s after opening (the Lab's map: {lab_at:.2f} s)"
    assert estimate_at >= question_at
    assert waiting or estimate_at - question_at < 0.3, "a slow estimate must say it is on its way"
