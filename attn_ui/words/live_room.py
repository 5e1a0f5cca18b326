"""What the room answered in a live lecture: the spread of a round's answers, the projector's lines about them, and
the lecture's record (a CSV for the lecturer, a recap for each student). The questions themselves, their grids and
their scoring are in live.py; this module only counts and words what came back. Pure text: no Streamlit.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from attn_lang import N_, _, _n, number
from attn_ui.words.live import Live, format_number, letter, scene_question_id
from attn_ui.words.room_questions import RoomQuestion, SceneUnreadable, room_question
from attn_ui.words.scenes import SCENES

Resolve = Callable[[str | None, str | None], RoomQuestion | None]  # room_question, or a cached one

# --- the spread of the room's answers --------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """What a round's answers add up to: how many, how many right, and for a number the middle of the answers."""

    answers: int
    right: int
    median: float | None  # a number's median answer (None for a choice or no answers)

    @property
    def right_share(self) -> float:
        return self.right / self.answers if self.answers else 0.0


def spread(question: Live, tally: Sequence[int]) -> Spread:
    answers = int(sum(tally))
    right = int(sum(count for option, count in enumerate(tally) if question.right(option)))
    median = None
    if question.kind == "number" and answers:
        expanded = np.repeat(np.asarray(question.values), np.asarray(tally, dtype=int))
        median = float(np.median(expanded))
    return Spread(answers, right, median)


def status_line(round_number: int, phase: str, answers: int, students: int) -> str:
    """The projector's live line: who answered, which round, and whether answers still arrive."""
    if students and phase == "closed":
        who = _("{answers} of {students} answered · closed", answers=answers, students=students)
    elif students:
        who = _("{answers} of {students} answered", answers=answers, students=students)
    else:
        who = answers_word(answers)
    return _("Second vote · {status}", status=who) if round_number == 2 else who


def answers_word(count: int) -> str:
    return _n("{count} answer", "{count} answers", count)


def changed_line(changed: int, added: int) -> str:
    """A second round's change from the first: who answered differently, who answered for the first time. Everyone
    else's first answer counts again."""
    if added:
        return _("{changed} changed their answer, {added} answered for the first time", changed=changed, added=added)
    return _("{changed} changed their answer", changed=changed)


def spread_sentence(question: Live, tally: Sequence[int], revealed: bool, short: bool = False) -> str:
    """The spread in one line: how many answered, the median (a number), and after the reveal how many were right.
    `short` (two rounds side by side on a projector): the count of answers is left to "n of N right"."""
    found = spread(question, tally)
    if short and revealed and found.answers:
        return _spread_parts(question, found, revealed, with_answers=False)
    return _spread_parts(question, found, revealed, with_answers=True)


def _spread_parts(question: Live, found: Spread, revealed: bool, with_answers: bool) -> str:
    median = None if found.median is None else question.say_number(found.median, exact_decimals(question,
                                                                                                found.median))
    if not (revealed and found.answers):
        return _("{answers} · median {median}", answers=answers_word(found.answers), median=median) if median \
            else answers_word(found.answers)
    percent = 100 * found.right_share
    if question.kind == "choice" or question.tolerance == 0:
        right = _("{right} of {answers} right ({percent:.0f}%)", right=found.right, answers=found.answers,
                  percent=percent)
    else:
        right = _("{right} of {answers} within {tolerance} of it ({percent:.0f}%)", right=found.right,
                  answers=found.answers, tolerance=format_number(question.tolerance, question.decimals),
                  percent=percent)
    if not with_answers:  # two rounds revealed side by side: what each got right (the medians were told at the close)
        return right
    if median:
        return _("{answers} · median {median} · {right}", answers=answers_word(found.answers), median=median,
                 right=right)
    return _("{answers} · {right}", answers=answers_word(found.answers), right=right)


def exact_decimals(question: Live, value: float) -> int:
    """The decimals that write `value` exactly on this question's scale, at most two more than its grid's: a median of
    7 and 10 is 8.5, never "8" (formatting rounds a half to the even neighbour)."""
    for extra in range(3):
        if abs(round(value, question.decimals + extra) - value) < 1e-9:
            return question.decimals + extra
    return question.decimals + 2


# --- the lecture's record: CSV for the lecturer, a recap for each student ---------------------------------------

CSV_COLUMNS = (N_("scene"), N_("title"), N_("kind"), N_("round"), N_("answers"), N_("changed"), N_("new"),
               N_("true_answer"), N_("tolerance"), N_("tolerance_reason"), N_("right"), N_("right_share"),
               N_("median"), N_("spread"), N_("options"))
KINDS = MappingProxyType({"number": N_("number"), "choice": N_("choice")})


@dataclass(frozen=True)
class Asked:
    """One question of a lecture room as the CSV needs it: its id, its rounds' tallies, and a second round's change."""

    question_id: str
    rounds: Sequence[Sequence[int]]
    changed: int = 0
    added: int = 0
    spec: str | None = None  # a deck scene's, as its room keeps it


def lecture_csv(asked: Sequence[Asked]) -> str:
    """One row per scene asked and round opened, in the run's language: answers, who changed in a second round, the
    true answer, the tolerance and why, how many were right, the median (a number), the spread ("value:count"
    pairs, or "A:count" for a choice) and a choice's options in full ("A: text | B: text"). No voter. A discussion
    (nothing to answer) and a scene whose stored spec no longer reads have no row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_(column) for column in CSV_COLUMNS])
    for question_asked in asked:
        found = _resolved(room_question, question_asked.question_id, question_asked.spec)
        if found is None or found.question.kind == "none":
            continue
        scene_number, question, title = found.number, found.question, found.name
        options = "" if question.kind == "number" else " | ".join(
            _("{letter}: {option}", letter=letter(i), option=text) for i, text in enumerate(question.options))
        for round_number, tally in enumerate(question_asked.rounds, start=1):
            found = spread(question, tally)
            if question.kind == "number":
                pairs = [f"{question.options[i]}:{c}" for i, c in enumerate(tally) if c]
                tolerance = format_number(question.tolerance, question.decimals)
            else:
                pairs = [f"{letter(i)}:{c}" for i, c in enumerate(tally)]
                tolerance = ""
            median = "" if found.median is None else format_number(found.median, exact_decimals(question,
                                                                                                 found.median))
            share = number(found.right_share, ".3f") if found.answers else ""
            second = round_number == 2
            writer.writerow((scene_number, title, _(KINDS[question.kind]), round_number, found.answers,
                             question_asked.changed if second else "", question_asked.added if second else "",
                             question.truth_text, tolerance, question.why, found.right, share, median, " ".join(pairs),
                             options))
    return out.getvalue()


@dataclass(frozen=True)
class RecapLine:
    number: int
    mine: str
    truth: str
    right: bool


def recap_lines(votes: Mapping[tuple[int, int], int], questions: Sequence[tuple[str, str | None]] | None = None,
                resolve: Resolve = room_question) -> list[RecapLine]:
    """A student's last answer for each scene (the revote when there was one) against the true answer. `questions`:
    the room's (question id, spec) by position (Poll.question_list); None for the built-in lecture."""
    if questions is None:
        questions = tuple((scene_question_id(number), None) for number in range(1, len(SCENES) + 1))
    last: dict[int, tuple[int, int]] = {}
    for (position, round_number), option in votes.items():
        if position not in last or round_number > last[position][0]:
            last[position] = (round_number, option)
    lines = []
    for position in sorted(last):
        found = _resolved(resolve, *questions[position]) if 0 <= position < len(questions) else None
        if found is None:
            continue
        question, option = found.question, last[position][1]
        if not 0 <= option < question.option_count:
            continue
        lines.append(RecapLine(found.number, question.say(option), question.truth_text, question.right(option)))
    return lines


def _resolved(resolve: Resolve, question_id: str | None, spec: str | None) -> RoomQuestion | None:
    """The room's question, or None when it is no lecture's or its stored scene no longer reads (the phones and the
    projector say so; a file and a recap leave it out)."""
    try:
        return resolve(question_id, spec)
    except SceneUnreadable:
        return None
