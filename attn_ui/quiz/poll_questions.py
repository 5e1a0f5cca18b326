"""Every question of the Check yourself bank as a class poll question: one vote picks one option. No Streamlit.

A choice or code question is polled as it is. The ordering question cannot be tapped line by line by a whole
room, so the poll asks it as a choice between whole programs (its own `poll_prompt`): the right order and orders
with two neighbouring steps swapped, each wrong one explained by the bank's own "why" for the step that came too
early.

Every text here is the bank's English message (marked with N_ where it is written), or code: the poll view
translates a text where it draws it. Nothing is composed from fragments: a program or a version is named by its
own message (PROGRAM_NAMES, VERSION_NAMES), and a swapped order breaks exactly one rule, so its "why" is the bank's
one sentence for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from attn_ui.quiz.bank import PROGRAM_NAMES, QUESTIONS, VERSION_NAMES, LabLink, Question, letter, order_problems

MAX_ORDER_CHOICES = 4  # the right program and three wrong ones: as many as a phone shows without scrolling


@dataclass(frozen=True)
class PollQuestion:
    id: str  # the bank's question id, as stored in the room
    section: str
    prompt: str  # Markdown, an English message (translate it where it is drawn)
    code: str  # shown under the prompt ("" when none)
    versions: tuple[str, ...]  # code versions shown above the options ("" for plain choices)
    options: tuple[str, ...]  # Markdown labels, one per option: English messages, or code
    answer: int  # the right option
    whys: tuple[str, ...]  # per option: why it fails ("" for the right one), an English message
    explanation: str  # an English message
    lab: LabLink | None

    @property
    def option_count(self) -> int:
        return len(self.options)

    def option_name(self, index: int) -> str:
        """The short name on the projector and in a phone's sentences: "A", "B", ..."""
        return letter(index)


def _swapped_orders(question: Question) -> list[tuple[int, ...]]:
    """The right order with each pair of neighbouring steps swapped, as far as the choices allow."""
    right = tuple(question.answer)
    wrong = []
    for position in range(len(right) - 1):
        order = list(right)
        order[position], order[position + 1] = order[position + 1], order[position]
        wrong.append(tuple(order))
    return wrong[: MAX_ORDER_CHOICES - 1]


def _only(problems: list[str]) -> str:
    """The one rule a swapped order breaks (two neighbours swapped break exactly one), as the bank words it."""
    if len(problems) != 1:
        raise ValueError(f"a swapped order should break exactly one rule, not {len(problems)}")
    return problems[0]


def _from_order(question: Question) -> PollQuestion:
    right = tuple(question.answer)
    orders = [right, *_swapped_orders(question)]
    # A fixed shuffle, so the right program is not always A and every room sees the same letters.
    orders = [orders[i] for i in (1, 0, 3, 2) if i < len(orders)]
    versions = tuple("\n".join(question.options[step].text for step in order) for order in orders)
    whys = tuple("" if order == right else _only(order_problems(question, order)) for order in orders)
    return PollQuestion(
        id=question.id, section=question.section, prompt=question.poll_prompt,
        code=question.code, versions=versions, options=PROGRAM_NAMES[: len(orders)],
        answer=orders.index(right), whys=whys, explanation=question.explanation, lab=question.lab,
    )


def _from_choice(question: Question) -> PollQuestion:
    is_code = question.kind == "code"
    return PollQuestion(
        id=question.id, section=question.section, prompt=question.prompt, code=question.code,
        versions=tuple(option.text for option in question.options) if is_code else (),
        options=tuple(VERSION_NAMES[i] if is_code else option.text for i, option in enumerate(question.options)),
        answer=int(question.answer), whys=tuple("" if i == question.answer else option.why
                                                for i, option in enumerate(question.options)),
        explanation=question.explanation, lab=question.lab,
    )


def as_poll(question: Question) -> PollQuestion:
    return _from_order(question) if question.kind == "order" else _from_choice(question)


POLL_QUESTIONS: tuple[PollQuestion, ...] = tuple(as_poll(q) for q in QUESTIONS)
POLL_BY_ID: Mapping[str, PollQuestion] = MappingProxyType({q.id: q for q in POLL_QUESTIONS})
