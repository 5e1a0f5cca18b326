"""Lesson pages ask a predict-first question from the bank; answering it there counts on Check yourself."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attn_ui.quiz.bank import BY_ID

ROOT = Path(__file__).resolve().parents[2]
INLINE = [
    ("pages/1_Peeking_and_the_causal_mask.py", "pad-zero-trap"),
    ("pages/2_Padding_mask.py", "pad-one-open-cell"),
    ("pages/3_Dropout.py", "dropout-rescale"),
    ("pages/4_Many_heads.py", "heads-start-column"),
    ("pages/5_Shapes_and_memory.py", "shapes-double-context"),
]


@pytest.mark.parametrize(("page", "question_id"), INLINE)
def test_lesson_page_asks_its_question_and_the_answer_reaches_check_yourself(page, question_id):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page(page).run()
    assert not at.exception
    radio = at.radio(key=f"quiz.w.{question_id}")
    assert radio.value is None  # nothing picked before the student predicts
    right = BY_ID[question_id].answer
    radio.set_value(right).run()
    assert any(text.startswith("**Right.**") for text in (s.value for s in at.success)), [s.value for s in at.success]
    at.switch_page("pages/8_Check_yourself.py").run()
    assert not at.exception
    assert at.session_state["quiz.answers"][question_id] is not None
