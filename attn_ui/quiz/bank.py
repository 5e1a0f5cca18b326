"""The question bank of "Check yourself": every section's questions in page order, and the lookups by id."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attn_ui.quiz import causal, code, dropout, heads, padding, shapes, training
from attn_ui.quiz.model import (
    PROGRAM_NAMES,
    VERSION_NAMES,
    Answer,
    Feedback,
    LabLink,
    Option,
    Question,
    Section,
    Tally,
    feedback,
    is_complete,
    is_right,
    letter,
    normalise,
    only_true,
    option_name,
    order_problems,
    pick,
    said,
    tally,
)

# Each module holds its SECTION and QUESTIONS; a new section is one more import and one more entry here.
SECTION_MODULES = (causal, padding, dropout, heads, shapes, code, training)  # the page's order

SECTIONS: tuple[Section, ...] = tuple(part.SECTION for part in SECTION_MODULES)
QUESTIONS: tuple[Question, ...] = tuple(question for part in SECTION_MODULES for question in part.QUESTIONS)
BY_ID: Mapping[str, Question] = MappingProxyType({q.id: q for q in QUESTIONS})  # read-only: shared by sessions
SECTION_BY_ID: Mapping[str, Section] = MappingProxyType({s.id: s for s in SECTIONS})


def in_section(section_id: str) -> tuple[Question, ...]:
    return tuple(q for q in QUESTIONS if q.section == section_id)


__all__ = (
    "BY_ID", "PROGRAM_NAMES", "QUESTIONS", "SECTIONS", "SECTION_BY_ID", "SECTION_MODULES", "VERSION_NAMES", "Answer",
    "Feedback", "LabLink", "Option", "Question", "Section", "Tally", "feedback", "in_section", "is_complete",
    "is_right", "letter", "normalise", "only_true", "option_name", "order_problems", "pick", "said", "tally",
)  # the model's names too, so the app and the tests import the whole quiz from here
