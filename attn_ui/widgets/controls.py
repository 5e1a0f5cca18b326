"""The controls: one builder per control, used by the Lab and by every lesson page. Widgets in, values out.

Widget keys are `<namespace>.<URL key>` (`lab.causal`, `drop.p`), derived from the settings' one declaration
(attn_core.settings.FIELDS), so a page's widget, its URL key and its Settings field always share a name. The
Lab's own block (`lab_controls`) first makes the values in session state consistent (a head in view that no
longer exists, a PAD position beyond a shorter sentence), so no widget is ever handed a value it cannot show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attn_core import (
    MAX_DROPOUT,
    ROUTE_NAMES,
    ROUTES,
    SUPPORTED_D_MODEL,
    Settings,
    SettingsError,
    coerce_settings,
    tokenize,
    valid_head_counts,
)
from attn_core.settings import DROPOUT_STEP, FIELD_BY_NAME, FIELDS, MAX_SEED
from attn_core.tokens import MAX_TOKENS, unique_labels
from attn_lang import N_, _, _n, number
from attn_ui.widgets import held
from attn_ui.widgets.state import Incoming
from attn_ui.words.escape import md_escape
from attn_ui.words.explain import listed

MAX_HEADS_SHOWN = 12  # the Lab offers every valid head count up to this
MORE_KEY = "lab.more"  # whether the "More" expander is open
LAB = "lab"  # the Lab's namespace
SENTENCE_CHARS = 400  # the longest text the sentence box reads (16 words of 24 characters and their spaces fit)
ADVANCED_FIELDS = frozenset({"sentence", "d_model", "route", "seed"})  # drawn inside "More"
PAD_LABEL = N_("Tap a word to make it PAD")


def widget_key(namespace: str, field_name: str) -> str:
    """The widget key of a Settings field on a page: `<namespace>.<URL key>`."""
    return f"{namespace}.{FIELD_BY_NAME[field_name].key}"


# --- one builder per control -----------------------------------------------------------------------------


def causal_toggle(namespace: str, value: bool | None = None) -> bool:
    return st.toggle(_("Causal mask"), key=widget_key(namespace, "causal"),
                     **held.start(widget_key(namespace, "causal"), fallback=value, of=bool),
                     help=_("Block every key that comes after the query word."))


def pad_chips(namespace: str, labels: Sequence[str], default: Sequence[int] | None = None,
              label: str = PAD_LABEL) -> tuple[int, ...]:
    """Chips of the sentence's words; the ones picked (1-based positions) become PAD. `label` is a message marked
    with N_, drawn as _(label)."""
    picked = st.pills(_(label), list(range(1, len(labels) + 1)), selection_mode="multi",
                      key=widget_key(namespace, "padded"), format_func=lambda pos: md_escape(labels[pos - 1]),
                      wrap=True, **held.start(widget_key(namespace, "padded"), "default",
                                              fallback=None if default is None else list(default),
                                              options=range(1, len(labels) + 1)))
    return tuple(sorted(picked or ()))


# p's values, as a link's reader snaps them (attn_core.query): the slider offers exactly these
DROPOUT_CHOICES = tuple(round(i * DROPOUT_STEP, 2) for i in range(round(MAX_DROPOUT / DROPOUT_STEP) + 1))


def dropout_slider(namespace: str, value: float | None = None) -> float:
    """p on a slider whose values are written as the language writes numbers (0,10 in Spanish): a plain slider's
    printf format is applied in the browser and always writes a point."""
    return st.select_slider(_("Dropout p"), DROPOUT_CHOICES, key=widget_key(namespace, "dropout"),
                            format_func=lambda p: number(p, ".2f"),
                            **held.start(widget_key(namespace, "dropout"), fallback=value, options=DROPOUT_CHOICES))


def training_toggle(namespace: str, value: bool | None = None) -> bool:
    return st.toggle(_("Training"), key=widget_key(namespace, "training"),
                     **held.start(widget_key(namespace, "training"), fallback=value, of=bool),
                     help=_("Dropout acts only while training; inference ignores p."))


def rescale_toggle(namespace: str, value: bool | None = None) -> bool:
    return st.toggle(_("Rescale survivors by 1 / (1 − p)"), key=widget_key(namespace, "rescale"),
                     **held.start(widget_key(namespace, "rescale"), fallback=value, of=bool))


def roll(namespace: str, start: int = 0) -> int:
    """Which dropout pattern this page shows, from `start` on; the Re-roll button counts it up."""
    return int(st.session_state.setdefault(widget_key(namespace, "roll"), start))


def _reroll(namespace: str) -> None:
    st.session_state[widget_key(namespace, "roll")] = (roll(namespace) + 1) % (MAX_SEED + 1)


def reroll_button(namespace: str, disabled: bool = False) -> None:
    st.button(_("Re-roll"), icon=":material/casino:", on_click=_reroll, args=(namespace,), key=f"{namespace}.reroll",
              help=_("Draw a new dropout pattern."), disabled=disabled, width="stretch")


@dataclass(frozen=True)
class DropoutChoice:
    """What the dropout controls of a page say."""

    dropout: float
    training: bool
    rescale: bool | None  # None where the page does not offer the choice
    roll: int


def dropout_controls(namespace: str, dropout: float | None = None, training: bool | None = None,
                     rescale: bool | None = None, offer_rescale: bool = False, roll_start: int = 0) -> DropoutChoice:
    """The dropout slider, then Training and Re-roll in one wrapping row (and the rescale switch if offered)."""
    roll(namespace, roll_start)
    p = dropout_slider(namespace, dropout)
    with st.container(key=f"{namespace}-dropout-row", horizontal=True, vertical_alignment="center", gap="small"):
        is_training = training_toggle(namespace, training)
        reroll_button(namespace, disabled=not (is_training and p > 0))
    chosen_rescale = rescale_toggle(namespace, rescale) if offer_rescale else None
    return DropoutChoice(p, is_training, chosen_rescale, roll(namespace))


# --- the Lab's block ------------------------------------------------------------------------------------------

LAB_FIELDS = tuple(f.name for f in FIELDS)  # every setting has a Lab widget, or (roll) a Lab session key


def _drawn(field_name: str) -> bool:
    return field_name not in ADVANCED_FIELDS or bool(st.session_state.get(MORE_KEY))


def widget_values(settings: Settings) -> dict[str, Any]:
    """The Lab's session-state values for these Settings, keyed by widget key."""
    values = {widget_key(LAB, name): getattr(settings, name) for name in LAB_FIELDS}
    values[widget_key(LAB, "padded")] = list(settings.padded)
    return values


def _same(name: str, widget_value: Any, setting_value: Any) -> bool:
    """Does the widget already say what the setting says? PAD chips in any order name the same positions."""
    if name == "padded":
        return sorted(widget_value or ()) == sorted(setting_value or ())
    return widget_value == setting_value


def _prepare_state(incoming: Incoming) -> tuple[Settings, list[str], SentenceNotes]:
    """Seed missing widget values, read the widgets drawn in this run, and write back a consistent set.

    The "More" widgets are drawn only while their expander is open. Closed, their values come from the
    session's Settings, and their keys are dropped: a keyed widget that was not drawn reads back as its
    first option, and reopening must show the Settings' values, not that. A refused sentence comes back on its
    own, to be shown under the sentence box that caused it.
    """
    state = st.session_state
    for name, value in zip(LAB_FIELDS, widget_values(incoming.settings).values(), strict=True):
        key = widget_key(LAB, name)
        if not _drawn(name):
            state.pop(key, None)
        elif incoming.from_link or key not in state:
            state[key] = value
    sentence_note = ""
    sentence = incoming.settings.sentence
    if _drawn("sentence"):
        typed = state[widget_key(LAB, "sentence")]
        try:
            if isinstance(typed, str) and len(typed) > SENTENCE_CHARS:  # a long paste: said, never silently dropped
                raise SettingsError(_("The box takes at most {most:,} characters; this text has {count:,}.",
                                      most=SENTENCE_CHARS, count=len(typed)))
            sentence = " ".join(tokenize(typed))
        except SettingsError as error:
            sentence_note = _("{error} The map keeps the previous sentence.", error=str(error))
    raw = {name: _read(name, incoming.settings) for name in LAB_FIELDS if name != "sentence"}
    raw["padded"] = tuple(raw["padded"] or ())
    settings, fixes = coerce_settings(sentence=sentence, **raw)
    padding_note = ""
    if sentence != incoming.settings.sentence and settings.padded:  # a new sentence: say where the padding now is
        labels = unique_labels(settings.tokens)
        padding_note = _n(
            "Padding stays on position {positions}, which in the new sentence is {words}. Tap the word below to "
            "change it.",
            "Padding stays on positions {positions}, which in the new sentence are {words}. Tap the words below to "
            "change them.", len(settings.padded), positions=listed(str(position) for position in settings.padded),
            words=listed(f"“{md_escape(labels[position - 1])}”" for position in settings.padded))
    for name, value in zip(LAB_FIELDS, widget_values(settings).values(), strict=True):
        key = widget_key(LAB, name)
        if _drawn(name) and name != "sentence" and not _same(name, state[key], value):
            # Only a value the Settings had to change is written back (a head that no longer exists). A write
            # reaches the browser with this run, after any click made meanwhile, and would undo that click on
            # screen while the next run already computes from it.
            state[key] = value  # allowed: the widget has not been drawn yet in this run
    return settings, fixes, SentenceNotes(sentence_note, padding_note)


def _read(name: str, settings: Settings) -> object:
    """A field as its widget holds it; the session's value when the widget is not drawn, or when a client sent it
    empty (None: no widget of the Lab can be unset by a click, so it is the last value that stands)."""
    value = st.session_state[widget_key(LAB, name)] if _drawn(name) else None
    return getattr(settings, name) if value is None else value


@dataclass(frozen=True)
class SentenceNotes:
    """What is said right under the sentence box: a sentence refused (a warning), where the padding went."""

    refused: str = ""
    padding: str = ""


def lab_controls(incoming: Incoming) -> tuple[Settings, list[str]]:
    """Draw the Lab's controls; return the Settings they describe and any note about values that were fixed."""
    settings, notes, sentence_note = _prepare_state(incoming)
    labels = unique_labels(settings.tokens)

    causal_toggle(LAB)
    head_options = [h for h in valid_head_counts(settings.d_model) if h <= MAX_HEADS_SHOWN]
    held.one_of(
        _("Heads"), head_options, key=widget_key(LAB, "heads"), fallback=settings.heads, wrap=True,
        help=f"d_head = d_model / heads = {settings.d_model} / {settings.heads} = {settings.d_head}",
    )
    st.caption(_("d_head = {d_model} / {heads} = **{d_head}** per head", d_model=settings.d_model,
                 heads=settings.heads, d_head=settings.d_head))
    if settings.heads > 1:
        held.one_of(_("Viewing head"), list(range(1, settings.heads + 1)), key=widget_key(LAB, "view"), wrap=True)
    dropout_controls(LAB, offer_rescale=True)  # the rescale try-it needs no trip into "More"
    if not settings.training and settings.dropout > 0:
        st.caption(_("Inference: dropout is off, so p = {p:.2f} is ignored.", p=settings.dropout))
    pad_chips(LAB, labels)
    advanced_controls(sentence_note)
    return settings, notes


def advanced_controls(sentence_note: SentenceNotes = SentenceNotes()) -> None:
    """The "More" expander. Its widgets are drawn only while it is open (opening it reruns the Lab once), so
    the clicks of everyone who never opens it do not pay for them; closed, their values live on in the
    session's Settings, from which _prepare_state seeds them again."""
    more = st.expander(_("More: sentence, d_model, masking route, seed"), key=MORE_KEY, on_change="rerun")
    if not more.open:
        return
    with more:
        # no max_chars: the browser would drop a longer paste without a word; the server says why it refuses it
        st.text_input(_("Sentence (1 to {most} words)", most=MAX_TOKENS), key=widget_key(LAB, "sentence"),
                      **held.start(widget_key(LAB, "sentence"), of=str))
        if sentence_note.refused:  # right under the box, not in the notes above the map: a phone would not show it
            st.warning(sentence_note.refused, icon=":material/info:")
        if sentence_note.padding:
            st.info(sentence_note.padding, icon=":material/space_bar:")
        held.one_of("d_model", list(SUPPORTED_D_MODEL), key=widget_key(LAB, "d_model"))
        # the names in this run's language, looked up now: a test harness formats the value again outside the run
        names = {route: _(ROUTE_NAMES[route]) for route in ROUTES}
        st.selectbox(_("Masking route"), ROUTES, key=widget_key(LAB, "route"), format_func=names.__getitem__,
                     **held.index(widget_key(LAB, "route"), ROUTES))
        st.number_input(_("Seed of W_q, W_k, W_v, W_o"), 0, MAX_SEED, step=1, key=widget_key(LAB, "seed"),
                        **held.start(widget_key(LAB, "seed"), low=0, high=MAX_SEED, of=int))
