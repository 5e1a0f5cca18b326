"""User words are shown as typed, never as markup: md_escape, plotly_escape, and every string that carries a
user word into a figure, a label, a caption or a hover box.

The Markdown checks read escaping structurally: after md_escape, every ASCII punctuation sign but `,;?` is
preceded by a backslash, so no Markdown, `:colour[...]`, `$maths$` or HTML syntax is left to act; undoing the escapes
gives the word back. The Plotly checks: no `<` or `>` of the user's survives, and undoing the entities gives
the word back.
"""

from __future__ import annotations

import ast
import html
import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute, settings_from_query
from attn_ui.figures import maps
from attn_ui.words import explain
from attn_ui.words.escape import md_escape, plotly_escape
from tests.source_tree import app_files

REPO_ROOT = Path(__file__).resolve().parents[2]
HOSTILE_WORDS = [
    "<b>x</b>", "<script>alert(1)", "</script>", "<img/src=x>", "**bold**", "__u__", "[a](javascript:x)",
    ":red[x]", ":material/home:", ":smile:", "$x^2$", "$$", "`code`", "~~s~~", "#", ">", "-", "1.", "|a|",
    "&lt;b&gt;", "&amp;", "\\", "\\*", "%{x}", "<br>", "{{x}}", "🙂", "👩‍💻", "שלום", "مرحبا",
]  # fmt: skip
PUNCTUATION = set(string.punctuation)
INERT = set(",;?")  # never Markdown syntax (";" ends an entity, but "&" before it is escaped)
# the only tags our own figure strings use; the coloured span wraps only numbers and our own words
OUR_PLOTLY_TAGS = re.compile(r'</?b>|<br>|<extra></extra>|<span style="color:#[0-9a-f]{6}">|</span>')


def md_unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def punctuation_is_all_escaped(text: str) -> bool:
    """True when every ASCII punctuation sign in text is preceded by an escaping backslash."""
    index = 0
    while index < len(text):
        ch = text[index]
        if ch == "\\":
            if index + 1 >= len(text) or text[index + 1] not in PUNCTUATION:
                return False
            index += 2
            continue
        if ch in PUNCTUATION - INERT:
            return False
        index += 1
    return True


# ------------------------------------------------------------------ the two escapers


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.sampled_from(HOSTILE_WORDS), st.text(max_size=40)))
def test_md_escape_leaves_no_live_punctuation_and_round_trips(word):
    escaped = md_escape(word)
    assert punctuation_is_all_escaped(escaped), escaped
    assert md_unescape(escaped) == word


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.sampled_from(HOSTILE_WORDS), st.text(max_size=40)))
def test_plotly_escape_leaves_no_tag_and_round_trips(word):
    escaped = plotly_escape(word)
    assert "<" not in escaped and ">" not in escaped
    assert re.fullmatch(r"([^&]|&(amp|lt|gt);)*", escaped), escaped  # every & starts one of our entities
    assert html.unescape(escaped) == word


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("<b>x</b>", r"\<b\>x\<\/b\>"),
        (":red[x]", r"\:red\[x\]"),
        ("$x^2$", r"\$x\^2\$"),
        ("**bold**", r"\*\*bold\*\*"),
        ("[a](javascript:x)", r"\[a\]\(javascript\:x\)"),
        ("שלום", "שלום"),
        ("👩‍💻", "👩‍💻"),
    ],
)
def test_md_escape_examples(word, expected):
    assert md_escape(word) == expected


def test_plotly_escape_examples():
    assert plotly_escape("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert plotly_escape("&lt;") == "&amp;lt;"  # an entity typed by the user is shown as typed, not decoded
    assert plotly_escape("a\"b'c") == "a\"b'c"


# ------------------------------------------------------------------ figure strings

SENTENCES = [
    "<b>x</b> <script>alert(1) **bold** [a](javascript:x)",
    ":red[x] $x^2$ `code` &lt;b&gt; <br> %{x}",
    "🙂 👩‍💻 שלום مرحبا <img/src=x>",
    "<b>x</b> <b>x</b> \\ &amp;",  # a repeated word gets a position in its label
]


def figure_strings(figure) -> list[str]:
    """Every string in the figure's JSON (trace text, hover, ticks, titles, annotations)."""
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(figure.to_json()))
    return found


@pytest.fixture(params=SENTENCES)
def hostile_result(request):
    settings_, notes = settings_from_query({"s": request.param, "causal": "1", "pad": "2", "p": "0.3"})
    assert notes == [] and settings_.sentence == request.param
    return compute(settings_)


def test_figure_strings_hold_no_user_markup(hostile_result):
    figure = maps.attention_map(hostile_result, selected_row=1, title=hostile_result.labels[0])
    for text in figure_strings(figure):
        bare = OUR_PLOTLY_TAGS.sub("", text)
        assert re.fullmatch(r"([^<>&]|&(amp|lt|gt);)*", bare, flags=re.S), text  # user < > & all escaped


def shown_word(tick: str, position: int) -> str:
    """The word a tick label shows, without its PAD mark; a word cut short ("3 Electro…") as the prefix it keeps."""
    word = tick.removesuffix("<br>PAD").removesuffix(" · PAD")
    cut = f"{position + 1} "
    return word[len(cut):-1] if word.startswith(cut) and word.endswith("…") else word


def test_tick_labels_are_the_escaped_words(hostile_result):
    layout = json.loads(maps.attention_map(hostile_result).to_json())["layout"]
    expected = [plotly_escape(label) for label in hostile_result.labels]
    for ticks in (layout["yaxis"]["ticktext"], layout["xaxis"]["ticktext"]):
        shown = [shown_word(tick, position) for position, tick in enumerate(ticks)]
        assert all(word == whole or whole.startswith(word) for word, whole in zip(shown, expected, strict=True)), shown
        assert all(html.unescape(word) != word or "&" not in word for word in shown)  # escaped, never raw
        assert ticks[1].endswith(("<br>PAD", " · PAD"))  # position 2 is padded


def test_hover_names_the_escaped_words(hostile_result):
    status = maps.cell_status(hostile_result.head_map(0))
    lines = maps.hover_lines(hostile_result.head_map(0), status)
    words = [plotly_escape(label) for label in hostile_result.labels]
    for i, row in enumerate(lines):
        for j, line in enumerate(row):
            assert line.startswith(f"query <b>{words[i]}</b> looks at key <b>{words[j]}</b><br>weight ")


def test_axis_labels_keep_repeated_words_apart():
    result = compute(Settings(sentence="<b>x</b> <b>x</b> y"))
    assert maps.axis_labels(result.head_map()) == ["&lt;b&gt;x&lt;/b&gt; (1)", "&lt;b&gt;x&lt;/b&gt; (2)", "y"]


# ------------------------------------------------------------------ Markdown strings


def test_row_sentences_use_escaped_words_only(hostile_result):
    for row in range(len(hostile_result.tokens)):
        sentence = explain.row_sentence(hostile_result, row)
        assert f"**{md_escape(hostile_result.labels[row])}**" in sentence
        without_words = sentence
        for label in sorted(hostile_result.labels, key=len, reverse=True):
            without_words = without_words.replace(md_escape(label), "")
        assert not set(without_words) & set("<>[]$`:|~\\&"), sentence  # only our own ** and ( ) are left


def test_empty_row_warning_escapes_the_word():
    result = compute(Settings(sentence="<b>x</b> :red[y]", causal=True, padded=(1,)))
    warning = explain.empty_row_warning(result)
    assert warning is not None and r"**\<b\>x\<\/b\>**" in warning and "<b>" not in warning


def test_kpi_values_and_summary_are_plain():
    result = compute(Settings(sentence=SENTENCES[0]))
    assert all(not set(v) & set("<>[]*$`") for v in explain.kpi_values(result).values())


# ------------------------------------------------------------------ the Lab, end to end (AppTest)


def markdown_bodies(at: AppTest) -> list[str]:
    bodies = [m.value for m in at.markdown] + [c.value for c in at.caption]
    bodies += [box.value for kind in (at.info, at.warning, at.error, at.success) for box in kind]
    bodies += [m.label for m in at.metric] + [str(m.value) for m in at.metric]
    return bodies


@pytest.mark.parametrize("sentence", SENTENCES[:3])
def test_the_lab_shows_hostile_words_escaped_everywhere(sentence):
    at = AppTest.from_file(str(REPO_ROOT / "app.py"), default_timeout=30)
    at.query_params["s"] = sentence
    at.query_params["row"] = "1"
    at.query_params["pad"] = "2"
    at.run()
    assert not at.exception
    tokens = Settings(sentence=sentence).tokens
    labels = compute(Settings(sentence=sentence)).labels
    for body in markdown_bodies(at):
        for word in tokens:
            if set(word) & PUNCTUATION:
                assert word not in body, f"raw {word!r} in {body!r}"
    assert any(f"**{md_escape(labels[0])}**" in body for body in markdown_bodies(at)), "row sentence missing"
    pills = at.get("button_group")
    pad = next(p for p in pills if "PAD" in p.proto.label)
    shown = [option.content_icon + option.content for option in pad.proto.options]  # a lone emoji is an icon
    assert shown == [md_escape(label) for label in labels]
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    shown = [html.unescape(shown_word(tick, i)) for i, tick in enumerate(spec["layout"]["yaxis"]["ticktext"])]
    assert all(word == label or label.startswith(word) for word, label in zip(shown, labels, strict=True)), shown


# ------------------------------------------------------------------ raw HTML: only constant CSS, never user text


def app_sources() -> list[Path]:
    return app_files()


def is_constant_text(value: ast.expr) -> bool:
    """A string literal, a module-private function called without arguments at import (CSS written once from
    constant tables, as projector mode's is), or a function called at import with string literals alone (a script
    built from its parts, as marks.follow_mark_script builds the theme's and the language's): none can carry anything
    a user typed."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
        return False
    arguments = [*value.args, *(keyword.value for keyword in value.keywords)]
    if not arguments:
        return value.func.id.startswith("_")
    return all(isinstance(argument, ast.Constant) and isinstance(argument.value, str) for argument in arguments)


def is_script_only_component(node: ast.Attribute, tree: ast.Module, constants: set[str]) -> bool:
    """`st.components.v2.component("name", js=CONSTANT)` at a module's top level, and nothing else of st.components:
    a script written once, with no HTML of its own (progress.py's store, which passes data as JSON, never as
    markup)."""
    for statement in tree.body:
        call = statement.value if isinstance(statement, ast.Assign) else None
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "component"
                and isinstance(call.func.value, ast.Attribute) and call.func.value.attr == "v2"
                and call.func.value.value is node):
            continue
        named = [a for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        keywords = {keyword.arg: keyword.value for keyword in call.keywords}
        script = keywords.get("js")
        return (len(named) == len(call.args) == 1 and set(keywords) == {"js"} and isinstance(script, ast.Name)
                and script.id in constants)
    return False


@pytest.mark.parametrize("path", app_sources(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_raw_html_only_ever_gets_a_constant_string(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    constants = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and is_constant_text(node.value)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.isupper()
    }
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit.components"):
            problems.append(f"line {node.lineno}: imports {node.module}")
        if isinstance(node, ast.Attribute) and node.attr == "components" and not is_script_only_component(node, tree,
                                                                                                          constants):
            problems.append(f"line {node.lineno}: st.components")
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg == "unsafe_allow_html" and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is False
            ):
                problems.append(f"line {node.lineno}: unsafe_allow_html")
        if isinstance(node.func, ast.Attribute) and node.func.attr == "html":
            argument = node.args[0] if node.args else None
            if not (isinstance(argument, ast.Name) and argument.id in constants):
                problems.append(f"line {node.lineno}: st.html with something other than a module string constant")
    assert not problems, f"{path.relative_to(REPO_ROOT)}: {problems}"
