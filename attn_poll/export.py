"""A room's counts as CSV: one row per question, round and option. No voter, no time, nothing personal."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Protocol

HEADER = ("question_number", "question_id", "round", "option", "votes")


class QuestionTally(Protocol):
    """What a CSV row needs of one question's counts (rooms.QuestionCounts has it)."""

    question_index: int
    question_id: str
    rounds: tuple[tuple[int, ...], ...]


def option_letter(index: int) -> str:
    """An option's letter as the projector and the phones name it: 0 -> "A", 25 -> "Z", 26 -> "AA"."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def counts_csv(all_counts: Iterable[QuestionTally]) -> str:
    """Questions count from 1 and options are lettered A, B, C, ..., as the projector shows them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    for counts in all_counts:
        for round_number, tally in enumerate(counts.rounds, start=1):
            for option, votes in enumerate(tally):
                writer.writerow((counts.question_index + 1, counts.question_id, round_number, option_letter(option),
                                 votes))
    return buffer.getvalue()
