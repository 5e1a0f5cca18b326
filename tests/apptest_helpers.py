"""What every AppTest test needs: open the Lab or a page, rerun, and read figures and tiles back."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


def checked(at: AppTest) -> AppTest:
    assert not at.exception, [e.message for e in at.exception]
    return at


def param(at: AppTest, key: str) -> str:
    """An address key's value as the page left it (one value, whichever way AppTest holds it)."""
    value = at.query_params[key]
    return value[0] if isinstance(value, list) else value


def run_lab(context: dict | None = None, **query: str) -> AppTest:
    """The Lab opened with these URL keys (and st.context values, such as the page's url), after its first run."""
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    at.context.update(context or {})
    return checked(at.run())


def open_page(script: str, **query: str) -> AppTest:
    """A page other than the Lab (as the sidebar opens it: the Lab first, then a switch) with these URL keys."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(script).run()
    return checked(at)


LESSON_QUESTIONS = ("pad-zero-trap", "pad-one-open-cell", "dropout-rescale", "heads-start-column",
                    "shapes-double-context")  # the predict-first questions of lessons 1 to 5


def seed_answers(at: AppTest, question_ids: tuple[str, ...] = LESSON_QUESTIONS) -> AppTest:
    """A student who has answered these questions (right, first time): their answer folds are open."""
    from attn_ui.quiz.bank import BY_ID

    answers = {qid: BY_ID[qid].answer for qid in question_ids}
    at.session_state["quiz.answers"] = dict(answers)
    at.session_state["quiz.first"] = dict(answers)
    return at


def rerun(at: AppTest) -> AppTest:
    return checked(at.run())


def open_section(at: AppTest, key: str) -> AppTest:
    """Open a lazy expander or popover (one whose content is drawn only while open), as a click would."""
    at.session_state[key] = True
    return rerun(at)


def specs(at: AppTest) -> list[dict]:
    """Every Plotly chart on the page, as the JSON the browser receives."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def array(value) -> np.ndarray:
    """A figure array: Plotly's base64 form, or (nested) lists with None for a gap."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        return flat.reshape([int(n) for n in str(value["shape"]).split(",")]) if "shape" in value else flat
    if value and isinstance(value[0], list):
        return np.array([[np.nan if v is None else v for v in row] for row in value], dtype=float)
    return np.array([np.nan if v is None else v for v in value], dtype=float)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def texts(at: AppTest) -> str:
    """Every text a page shows: Markdown, headings below the title, captions, the boxes (info, warning, error,
    success) and bars' labels."""
    parts = [m.value for m in at.markdown] + [h.value for h in (*at.header, *at.subheader)] + [
        c.value for c in at.caption]
    parts += [box.value for kind in (at.info, at.warning, at.error, at.success) for box in kind]
    parts += [p.proto.text for p in at.get("progress")]
    return "\n".join(parts)
