"""Reload any page after changing a control: the address holds that page's state (and nothing else), so the new
session the reload starts shows the same controls and the same content. Also Back and Forward on two lesson
pages, the quiz's answers through a reload, and a `view=4` link after leaving the Lab on head 4."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import harness
import pytest

from attn_ui.quiz.bank import BY_ID, QUESTIONS

pytestmark = pytest.mark.browser

SLOW_MS = 90_000


def settle(page) -> None:
    harness.wait_for_app(page, timeout_ms=SLOW_MS)


def go(page, server, path: str = "", query: str = "") -> None:
    page.goto(server.url + path + (f"?{query}" if query else ""), timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def address(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(page.evaluate("location.href")).query,
                                          keep_blank_values=True).items()}


def chosen(page, group: str) -> str:
    radio = page.get_by_role("radiogroup", name=group).locator('[role="radio"][aria-checked="true"]')
    return radio.inner_text().strip()


def choose(page, group: str, option: str) -> None:
    page.get_by_role("radiogroup", name=group).get_by_role("radio", name=option, exact=True).click()
    settle(page)


def pad_chip(page, word: str) -> None:
    page.get_by_label("Tap a word to make it PAD").get_by_role("button", name=word, exact=True).click()
    settle(page)


def click_toggle(page, label: str) -> None:
    harness.toggle(page, label).first.click()
    settle(page)


def nudge_slider(page, label: str, presses: int = 1) -> None:
    thumb = page.get_by_role("slider", name=label)
    thumb.focus()
    for _ in range(presses):
        thumb.press("ArrowRight")
    settle(page)


def shown(page) -> dict:
    """What is on screen: the address, every switch, every chosen segment, every slider, every metric, the text."""
    main = page.locator('[data-testid="stMain"]')
    return {
        "address": address(page),
        "switches": [s.is_checked() for s in main.get_by_role("switch").all()],
        "segments": [g.locator('[role="radio"][aria-checked="true"]').all_inner_texts()
                     for g in main.get_by_role("radiogroup").all()],
        "sliders": [s.input_value() for s in main.locator('input[type="range"]').all()],  # Streamlit's slider: an
        # input of type range, its value the slider's (it carries no aria-valuenow)
        "thumbs": main.locator('[data-testid="stSliderThumbValue"]').all_inner_texts(),  # the numbers they show
        "metrics": harness.metrics(page),
        "text": main.inner_text(),
    }


def reload(page) -> None:
    page.reload(timeout=SLOW_MS)
    harness.wait_for_app(page, timeout_ms=SLOW_MS, initial_wait_ms=0)
    harness.assert_no_exception(page)


def peek_change(page):
    click_toggle(page, "Causal mask")
    choose(page, "New word", "cat")
    nudge_slider(page, "Query row", 1)


def padding_change(page):
    click_toggle(page, "Causal mask")
    pad_chip(page, "journey")


def dropout_change(page):
    nudge_slider(page, "Dropout p", 2)
    page.get_by_role("button", name="Re-roll", exact=True).click()
    settle(page)
    click_toggle(page, "Rescale survivors by 1 / (1 − p)")


def heads_change(page):
    choose(page, "Number of heads h", "2")
    click_toggle(page, "Causal mask")


def shapes_change(page):
    nudge_slider(page, "Batch size B of the GPT-2 column", 3)
    page.get_by_text("The memory against T", exact=False).first.click()  # the fold holds the T slider ...
    harness.wait_for_app(page)
    page.get_by_role("button", name="Show it without answering").click()  # ... once the question is answered or skipped
    settle(page)
    page.mouse.move(0, 0)  # a fold under the pointer draws its chevron in place of its icon
    nudge_slider(page, "Context length T", 1)


def hand_change(page):
    choose(page, "Query word", "one")
    choose(page, "Head", "2")
    click_toggle(page, "Causal mask")


def lab_change(page):
    click_toggle(page, "Causal mask")
    choose(page, "Heads", "4")
    choose(page, "Viewing head", "3")


CASES = {
    "": (lab_change, {"causal": "1", "heads": "4", "view": "3"}),
    "Peeking_and_the_causal_mask": (peek_change, {"causal": "1", "swap": "cat", "query": "4"}),
    "Padding_mask": (padding_change, {"causal": "0", "pad": "2,5,6"}),
    "Dropout": (dropout_change, {"p": "0.6", "roll": "1", "rescale": "0"}),
    "Many_heads": (heads_change, {"heads": "2", "causal": "0"}),
    "Shapes_and_memory": (shapes_change, {"batch": "11", "ctx": "2048", "answer": "-"}),
    "One_row_by_hand": (hand_change, {"word": "5", "view": "2", "causal": "0"}),
}


@pytest.mark.parametrize("path", list(CASES))
def test_reload_after_a_change_shows_the_same_page(server, page, path):
    errors = harness.collect_page_errors(page)
    change, expected = CASES[path]
    go(page, server, path)
    before_change = shown(page)
    change(page)
    before = shown(page)
    assert before["address"] == expected, "the address holds the page's own keys, and only those"
    assert before != before_change
    reload(page)  # the skip is in the address: the answer fold opens again by itself
    after = shown(page)
    if after != before:  # in full runs on two busy cores the page once read differently (its text; once the Lab's
        # switches, unset, as in a run still drawing): a part drawn late? Read again once it has settled,
        # and print what differed the first time, so the next occurrence says what it was
        import difflib

        print("\n".join(difflib.unified_diff(before["text"].splitlines(), after["text"].splitlines(), lineterm="",
                                              n=1)) or f"differs outside the text: {before} != {after}")
        page.wait_for_timeout(1500)  # then the app settled again: a second run may have started meanwhile
        harness.wait_for_app(page, timeout_ms=SLOW_MS)
        after = shown(page)
    assert after == before
    assert not errors


def test_a_lesson_page_drops_the_labs_keys_from_its_address_with_a_note(server, page):
    go(page, server, "Dropout", "causal=1&heads=4&p=0.3")
    assert address(page) == {"p": "0.3"}
    notes = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').all_inner_texts()
    assert any("causal" in note for note in notes) and any("heads" in note for note in notes)


def progress(page) -> str:
    return page.locator('[data-testid="stProgress"]').inner_text().strip()


def test_check_yourself_keeps_its_answers_through_a_reload(server, page):
    question = BY_ID["causal-masked-count"]
    box = f".st-key-quiz-{question.id}"
    go(page, server, "Check_yourself")
    page.locator(f'{box} [data-testid="stRadioOption"]').filter(has_text="21").click()
    settle(page)
    page.locator(f'{box} [data-testid="stRadioOption"]').filter(has_text="15").click()
    settle(page)
    before = shown(page)
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 0 right on the first try"
    assert "answers" in before["address"]
    reload(page)
    assert shown(page) == before
    assert page.locator(f'{box} [data-testid="stRadioOption"]').filter(has_text="15").locator("input").is_checked()
    assert "The score keeps your first answer, which was not right." in page.locator(box).inner_text()


def test_check_yourself_refuses_a_forged_answers_key_and_an_unknown_section_with_notes(server, page):
    go(page, server, "Check_yourself", "section=foo&answers=zz.q~x")
    notes = " ".join(page.locator('[data-testid="stMain"] [data-testid="stAlert"]').all_inner_texts())
    assert "no section" in notes and "foo" in notes
    assert "`answers` could not be read" in notes or "answers could not be read" in notes
    assert progress(page) == f"0 of {len(QUESTIONS)} answered · 0 right on the first try"
    assert "answers" not in address(page) and "section" not in address(page)  # the first: left out


@pytest.mark.parametrize(("path", "steps"), [
    ("Padding_mask", [lambda p: click_toggle(p, "Causal mask"),
                      lambda p: pad_chip(p, "journey"),
                      lambda p: pad_chip(p, "step")]),
    ("Many_heads", [lambda p: choose(p, "Number of heads h", "2"),
                    lambda p: click_toggle(p, "Causal mask"),
                    lambda p: choose(p, "Number of heads h", "3")]),
])
def test_back_and_forward_walk_a_lesson_pages_changes(server, page, path, steps):
    page.goto("about:blank")
    go(page, server, path)
    states = [shown(page)]
    for step in steps:
        step(page)
        states.append(shown(page))
    assert len({repr(s["address"]) for s in states}) == len(states)
    assert page.evaluate("history.length") == 2 + len(steps), "one history entry per change"
    for expected in reversed(states[:-1]):
        page.go_back()
        settle(page)
        assert shown(page) == expected
    page.go_forward()
    settle(page)
    assert shown(page) == states[1]


def test_a_view_link_wins_after_leaving_the_lab_on_head_four(server, page):
    """Enter the Lab by a link, switch to head 4, leave (One row by hand takes the Lab's settings), then follow
    that page's link to the Lab, which carries `view=4`: the Lab shows head 4 and keeps `view` in the address."""
    go(page, server, "", "heads=4")
    choose(page, "Viewing head", "4")
    assert address(page) == {"heads": "4", "view": "4"}
    page.locator('[data-testid="stSidebar"] a').filter(has_text="One row by hand").first.click()
    settle(page)
    assert chosen(page, "Head") == "4" and address(page).get("view") == "4"
    link = page.locator('a[data-testid="stPageLink-NavLink"]').filter(has_text="Open the Lab in this state")
    assert "view=4" in link.get_attribute("href")
    link.click()
    settle(page)
    assert chosen(page, "Viewing head") == "4"
    assert address(page).get("view") == "4" and address(page).get("heads") == "4"


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["390x844", "1366x768"])
def test_a_lessons_answer_survives_a_reload_and_counts_on_check_yourself(server, new_page, size):
    """The tester's case: /Padding_mask, answer, reload: it was unanswered again and Check yourself said 0."""
    page = new_page(*size)
    question = BY_ID["pad-one-open-cell"]
    box = f".st-key-quiz-{question.id}"
    go(page, server, "Padding_mask")
    page.locator(f'{box} [data-testid="stRadioOption"]').nth(question.answer).click()
    settle(page)
    assert address(page) == {"answer": "a"}
    reload(page)
    assert page.locator(f'{box} [data-testid="stRadioOption"] input').nth(question.answer).is_checked()
    assert "Right." in page.locator(box).inner_text()
    expand = page.locator('[data-testid="stExpandSidebarButton"]')
    if expand.is_visible():  # a phone starts with the sidebar closed
        expand.click()
    page.locator('[data-testid="stSidebar"] a').filter(has_text="Check yourself").first.click()
    settle(page)
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 1 right on the first try"
    assert address(page)["answers"].endswith("a")
    reload(page)  # and Check yourself's own reload keeps it too
    assert progress(page) == f"1 of {len(QUESTIONS)} answered · 1 right on the first try"


def test_train_it_yourself_keeps_its_answer_through_a_reload(server, page):
    question = BY_ID["train-mask-off-zero"]
    box = f".st-key-quiz-{question.id}"
    go(page, server, "Train_it_yourself")
    page.locator(f'{box} [data-testid="stRadioOption"]').nth(question.answer).click()
    settle(page)
    assert address(page) == {"answer": "a"}
    assert harness.metrics(page), "answered: the precomputed run unfolds"
    reload(page)
    assert page.locator(f'{box} [data-testid="stRadioOption"] input').nth(question.answer).is_checked()
    assert harness.metrics(page)
