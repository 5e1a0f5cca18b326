"""Every static text bank a student reads, as source id -> text, and the numbers and comparison words in each.

Sources: the quiz bank (prompts, options, why-texts, explanations, Lab link labels), the lecture scenes
(titles, narrations), the KPI tiles' help, the fixed Markdown of the lesson pages (mask_words constants), the
train page's fixed words (training_words constants) and the literal words in the page scripts. Text built at run
time from a Result is not here: it is formatted from the core and tested against it by the page tests.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from attn_ui.quiz import bank
from attn_ui.words import explain, mask_words, scenes, training_words

REPO = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*%?")
COMPARISON = re.compile(
    r"\b(more than|less than|fewer|half|halves|halved|most|least|never|always|largest|smallest|twice|every|"
    r"double[sd]?|triple|as much as|at most|at least|exactly|same)\b",
    re.IGNORECASE,
)


def claims_in(text: str) -> tuple[str, ...]:
    """The numbers and comparison words of a text, in order, comparison words lower-cased."""
    found = [(m.start(), m.group()) for m in NUMBER.finditer(text)]
    found += [(m.start(), m.group().lower()) for m in COMPARISON.finditer(text)]
    return tuple(token for _, token in sorted(found))


def _page_strings(path: Path) -> list[str]:
    """Literal words in a page script: string constants with a space, docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and " " in node.value and id(node) not in docstrings]


def sources() -> dict[str, str]:
    banks: dict[str, str] = {}
    for q in bank.QUESTIONS:
        banks[f"quiz:{q.id}:prompt"] = q.prompt
        banks[f"quiz:{q.id}:explanation"] = q.explanation
        if q.lab:
            banks[f"quiz:{q.id}:lab"] = q.lab.label
        if q.kind != "code":  # a code version is code, run by test_questions_bank
            for i, option in enumerate(q.options):
                banks[f"quiz:{q.id}:option{i + 1}"] = option.text
        for i, option in enumerate(q.options):
            if option.why:
                banks[f"quiz:{q.id}:why{i + 1}"] = option.why
    for section in bank.SECTIONS:
        banks[f"quiz-section:{section.id}"] = section.blurb
    for number, scene in enumerate(scenes.SCENES, 1):
        banks[f"scene:{number}:title"] = scene.title
        banks[f"scene:{number}:question"] = scene.question
        banks[f"scene:{number}:narration"] = scene.narration
    for label, help_text in explain.KPI_HELP.items():
        banks[f"tile-help:{label}"] = help_text
    for name in dir(mask_words):
        value = getattr(mask_words, name)
        if name.isupper() and isinstance(value, str):
            banks[f"lesson:{name}"] = value
    for name in dir(training_words):  # the train page's fixed words (its numbers are formatted from a run)
        value = getattr(training_words, name)
        if name.isupper() and isinstance(value, str):
            banks[f"train:{name}"] = value
        elif name.isupper() and hasattr(value, "items"):
            for key, text in value.items():
                banks[f"train:{name}:{key}"] = text
    for path in sorted((REPO / "pages").glob("*.py")):
        for text in _page_strings(path):
            banks[f"page:{path.stem}:{text[:40]}"] = text
    return {key: text for key, text in banks.items() if claims_in(text)}
