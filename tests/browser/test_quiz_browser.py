"""Check yourself in headless Chromium: answer one question wrong then right, follow its Lab link (which
must show the answer), come back to find the answer still there, then clear everything."""

from __future__ import annotations

import harness
import pytest

from attn_ui.quiz.bank import BY_ID, QUESTIONS

pytestmark = pytest.mark.browser

SLOW_MS = 90_000  # the Lab's first map loads the Plotly bundle; on a busy CI machine that can take long
QUESTION = BY_ID["causal-masked-count"]  # 15 cells blocked for 6 tokens
BOX = f".st-key-quiz-{QUESTION.id}"


def option(page, text: str):
    return page.locator(f'{BOX} [data-testid="stRadioOption"]').filter(has_text=text)


def progress(page) -> str:
    return page.locator('[data-testid="stProgress"]').inner_text().strip()


def test_answer_one_question_follow_its_lab_link_come_back_and_reset(server, page):
    errors = harness.collect_page_errors(page)
    page.goto(server.url + "Check_yourself", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)
    assert progress(page) == f"0 of {len(QUESTIONS)} answered · 0 right on the first try"

    option(page, "21").click()
    harness.wait_for_app(page)
    alert = page.locator(f'{BOX} [data-testid="stAlert"] [data-testid="stMarkdownContainer"]')
    assert "Not quite." in alert.inner_text()
    assert "Answer: 15." in alert.inner_text()

    option(page, "15").click()
    harness.wait_for_app(page)
    assert alert.inner_text().startswith("Right.")
    assert "The score keeps your first answer, which was not right." in page.locator(BOX).inner_text()
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 0 right on the first try"

    link = page.locator(f'{BOX} a[data-testid="stPageLink-NavLink"]')
    assert link.locator('[data-testid="stMarkdownContainer"]').inner_text().strip() == QUESTION.lab.label
    link.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    assert "causal=1" in page.evaluate("location.href")
    assert harness.metrics(page)["Masked cells"] == "15"  # the Lab shows the answer

    page.locator('[data-testid="stSidebar"] a').filter(has_text="Check yourself").first.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    assert option(page, "15").locator("input").is_checked()
    assert alert.inner_text().startswith("Right.")
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 0 right on the first try"

    # The reset must clear the pick in the browser too, not only on the server (deleting a widget's key
    # would leave the radio drawn as checked).
    page.get_by_role("button", name="Start again").click()
    page.get_by_role("button", name="Clear every section").click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    assert page.locator(f"{BOX} input[type=radio]:checked").count() == 0
    assert page.locator(f'{BOX} [data-testid="stAlert"]').count() == 0
    assert progress(page) == f"0 of {len(QUESTIONS)} answered · 0 right on the first try"
    harness.assert_no_exception(page)
    assert errors == []


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["390x844", "1366x768"])
def test_a_fold_opened_before_its_question_asks_first_and_a_skip_counts_as_unanswered(server, new_page, size):
    """The tester's case: lesson 3's fold opened with one click before any answer, and nothing noted the skip."""
    page = new_page(*size)
    errors = harness.collect_page_errors(page)
    page.goto(server.url + "Dropout", timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    box = page.locator(".st-key-quiz-dropout-rescale")
    fold = page.locator('[data-testid="stExpander"]').filter(has_text="(answer the question above first)")
    charts = page.locator('[data-testid="stPlotlyChart"]').count()
    fold.locator("summary").click()
    harness.wait_for_app(page)
    said = fold.inner_text()
    assert "Pick your prediction in the question above" in said and "on average" not in said
    assert fold.locator('[data-testid="stPlotlyChart"]').count() == 0, "no chart of the answer, even in the page"
    fold.get_by_role("button", name="Show it without answering").click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    opened = page.locator('[data-testid="stExpander"]').filter(has_text="Why the rescale matters")
    assert opened.locator("details").get_attribute("open") is not None
    assert page.locator('[data-testid="stPlotlyChart"]').count() == charts + 1, "the re-rolls' chart, now drawn"
    assert "You skipped this prediction to see the answer" in box.inner_text()
    assert not box.locator("input:checked").count()
    assert "answer=-" in page.evaluate("location.search")

    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    if expand.is_visible():
        expand.click()
    page.locator('[data-testid="stSidebar"] a').filter(has_text="Check yourself").first.click()
    harness.wait_for_app(page, timeout_ms=SLOW_MS)
    assert progress(page) == f"0 of {len(QUESTIONS)} answered · 0 right on the first try", "a skip is unanswered"
    page.get_by_role("radiogroup", name="Section").get_by_role("radio", name="Dropout").click()
    harness.wait_for_app(page)
    question = BY_ID["dropout-rescale"]
    asked = page.locator(f".st-key-quiz-{question.id}")
    assert "You skipped this prediction to see the answer" in asked.inner_text()
    asked.locator('[data-testid="stRadioOption"]').nth(question.answer).click()
    harness.wait_for_app(page)
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 0 right on the first try"
    assert "does not count as right on the first try" in asked.inner_text()
    harness.assert_no_exception(page)
    assert errors == []
