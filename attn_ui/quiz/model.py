"""The quiz's model and grading: sections, options, Lab links, questions, feedback and the score; no streamlit.

Every text of the bank is an English message marked with N_ where it is written (attn_ui/quiz/<section>.py) and
translated where it is drawn; feedback() hands back its sentences translated, in the language of the run. Code (a
code version, an ordering step, an option that is only a formula or a number) is not a message: it is drawn as it
is written."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from attn_core import Settings, coerce_settings
from attn_lang import N_, _

Answer = int | tuple[int, ...]  # an option index, or an order of option indexes


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    blurb: str  # one line under the section's heading


@dataclass(frozen=True)
class Option:
    text: str  # Markdown for a choice; plain code for an ordering step or a code version
    why: str = ""  # wrong option: the mistake it stands for. Ordering step: what goes wrong if it comes too early


@dataclass(frozen=True)
class LabLink:
    """Settings fields (as for coerce_settings) that make the Lab show the point of a question."""

    label: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    view: Mapping[str, str] = field(default_factory=dict)  # view-only URL keys, e.g. {"row": "6"}

    def __post_init__(self) -> None:  # read-only copies: the bank is shared by every session
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))
        object.__setattr__(self, "view", MappingProxyType(dict(self.view)))

    def settings(self) -> tuple[Settings, list[str]]:
        return coerce_settings(**self.fields)


@dataclass(frozen=True)
class Question:
    id: str
    section: str
    prompt: str  # Markdown, our own words
    options: tuple[Option, ...]
    answer: Answer
    explanation: str  # one short paragraph: why the answer is right
    kind: str = "choice"  # "choice", "code" (each option is a code version) or "order"
    code: str = ""  # shown with st.code under the prompt
    lab: LabLink | None = None
    # recomputes the answer with attn_core, so the tests can hold every answer to the core; the app never calls it
    check: Callable[[], Answer] | None = field(default=None, repr=False, compare=False)
    poll_prompt: str = ""  # an ordering question as a class poll asks it: a choice between whole programs

    @property
    def right_text(self) -> str:
        if self.kind == "order":
            return "\n".join(self.options[i].text for i in self.answer)
        return self.options[self.answer].text


@dataclass(frozen=True)
class Feedback:
    correct: bool
    verdict: str  # Markdown for the coloured box: right or wrong, and what the wrong pick stands for
    more: str = ""  # Markdown shown under the box (the explanation, after a wrong pick)


# --- helpers that turn a core computation into the index of the right option -------------------------


def pick(values: Sequence[Any], value: Any) -> int:
    """Index of the option whose value the core computed; -1 when none matches (a test then fails)."""
    matches = [i for i, candidate in enumerate(values) if candidate == value]
    return matches[0] if len(matches) == 1 else -1


def only_true(*claims: bool | None) -> int:
    """Index of the single option whose claim the core confirms; None marks a claim the core cannot test."""
    true = [i for i, claim in enumerate(claims) if claim is True]
    return true[0] if len(true) == 1 else -1


def letter(index: int) -> str:
    return "ABCDEFGH"[index]


# an option of a code question, and a program of an ordering question asked as a poll, named by its letter
VERSION_NAMES = (N_("Version A"), N_("Version B"), N_("Version C"), N_("Version D"), N_("Version E"),
                 N_("Version F"), N_("Version G"), N_("Version H"))
PROGRAM_NAMES = (N_("Program A"), N_("Program B"), N_("Program C"), N_("Program D"), N_("Program E"),
                 N_("Program F"), N_("Program G"), N_("Program H"))


def said(text: str) -> str:
    """A text of the bank in the run's language ("" stays "": gettext would answer it with its catalog's header)."""
    return _(text) if text else text


# --- grading: pure functions the renderer and the tests share --------------------------------------------


def normalise(question: Question, value: Any) -> Answer | None:
    """A widget value as an answer (an int, or a tuple for an order); None when nothing usable is picked."""
    if value is None:
        return None
    if question.kind == "order":
        order = tuple(int(v) for v in value)
        return order if order else None
    return int(value)


def is_complete(question: Question, answer: Answer | None) -> bool:
    if answer is None:
        return False
    if question.kind == "order":
        return isinstance(answer, tuple) and sorted(answer) == list(range(len(question.options)))
    return isinstance(answer, int) and 0 <= answer < len(question.options)


def is_right(question: Question, answer: Answer | None) -> bool:
    return is_complete(question, answer) and answer == question.answer


def order_problems(question: Question, order: Sequence[int]) -> list[str]:
    """For an ordering question: what goes wrong in this order, one sentence per misplaced step."""
    position = {step: i for i, step in enumerate(order)}
    problems = []
    for earlier, later in zip(question.answer, question.answer[1:], strict=False):
        if earlier in position and later in position and position[later] < position[earlier]:
            problems.append(question.options[later].why)
    return problems


def option_name(question: Question, index: int) -> str:
    """An option as the feedback names it, in the run's language."""
    if question.kind == "code":
        return _("version {letter}", letter=letter(index))
    return said(question.options[index].text)


def feedback(question: Question, answer: Answer) -> Feedback:
    """What the page says once an answer is complete: right or wrong, why, and the explanation (translated)."""
    explanation = said(question.explanation)
    if is_right(question, answer):
        return Feedback(True, _("**Right.** {explanation}", explanation=explanation))
    if question.kind == "order":
        why = " ".join(said(problem) for problem in order_problems(question, answer))
        return Feedback(False, _("**Not quite.** {why}", why=why),
                        _("**The right order** is below. {explanation}", explanation=explanation))
    right = option_name(question, question.answer).rstrip(".")
    verdict = _("**Not quite.** {why} **Answer:** {right}.", why=said(question.options[answer].why), right=right)
    return Feedback(False, verdict, explanation)


@dataclass(frozen=True)
class Tally:
    right: int  # right on the first complete answer
    answered: int
    total: int


def tally(questions: Iterable[Question], first: Mapping[str, Answer], answers: Mapping[str, Answer]) -> Tally:
    """The score of a set of questions: first answers that were right, questions answered, questions."""
    questions = tuple(questions)
    right = sum(1 for q in questions if q.id in first and is_right(q, first[q.id]))
    answered = sum(1 for q in questions if is_complete(q, answers.get(q.id)))
    return Tally(right, answered, len(questions))
