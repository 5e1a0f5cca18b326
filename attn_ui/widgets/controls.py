"""The Lab's controls: one builder, used wherever the controls appear. Widgets in, one Settings out.

Widget keys are namespaced `lab.*`. Before any widget is drawn, the values in session state are made
consistent (a head in view that no longer exists, a PAD position beyond a shorter sentence) so no widget is
ever handed a value it cannot show.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import streamlit as st

from attn_core import (
    MAX_DROPOUT,
    ROUTE_NAMES,
    ROUTES,
    SUPPORTED_D_MODEL,
    Settings,
    SettingsError,
    tokenize,
    valid_head_counts,
)
from attn_core.tokens import unique_labels
from attn_ui.widgets.state import SETTINGS_KEY, Incoming
from attn_ui.words.escape import md_escape

MAX_HEADS_SHOWN = 12  # the Lab offers every valid head count up to this
MORE_KEY = "lab.more"  # whether the "More" expander is open

# widget key -> Settings field
WIDGET_FIELDS = MappingProxyType({  # read-only: shared by every session
    "lab.causal": "causal",
    "lab.heads": "heads",
    "lab.view": "view",
    "lab.p": "dropout",
    "lab.train": "training",
    "lab.pad": "padded",
    "lab.sentence": "sentence",
    "lab.d": "d_model",
    "lab.route": "route",
    "lab.seed": "seed",
    "lab.rescale": "rescale",
})


ADVANCED_KEYS = frozenset({"lab.sentence", "lab.d", "lab.route", "lab.seed", "lab.rescale"})  # in "More"


def widget_values(settings: Settings) -> dict[str, Any]:
    values = {key: getattr(settings, field) for key, field in WIDGET_FIELDS.items()}
    values["lab.pad"] = list(settings.padded)
    return values


def _prepare_state(incoming: Incoming) -> tuple[Settings, list[str]]:
    """Seed missing widget values, read the widgets drawn in this run, and write back a consistent set.

    The "More" widgets are drawn only while their expander is open. Closed, their values come from the
    session's Settings, and their keys are dropped: a keyed widget that was not drawn reads back as its
    first option, and reopening must show the Settings' values, not that.
    """
    state = st.session_state
    drawn = WIDGET_FIELDS.keys() if state.get(MORE_KEY) else WIDGET_FIELDS.keys() - ADVANCED_KEYS
    for key, value in widget_values(incoming.settings).items():
        if key not in drawn:
            state.pop(key, None)
        elif incoming.from_link or key not in state:
            state[key] = value
    notes: list[str] = []
    sentence = incoming.settings.sentence
    if "lab.sentence" in drawn:
        try:
            sentence = " ".join(tokenize(state["lab.sentence"]))
        except SettingsError as error:
            notes.append(f"{error} The map keeps the previous sentence.")
    raw = {field: state[key] if key in drawn else getattr(incoming.settings, field)
           for key, field in WIDGET_FIELDS.items() if field != "sentence"}
    raw["padded"] = tuple(raw["padded"] or ())
    settings, fixes = Settings.coerce(sentence=sentence, roll=incoming.settings.roll, **raw)
    for key, value in widget_values(settings).items():
        if key in drawn and key != "lab.sentence" and state[key] != value:
            state[key] = value  # allowed: the widget has not been drawn yet in this run
    return settings, notes + fixes


def _reroll() -> None:
    settings = st.session_state.get(SETTINGS_KEY) or Settings()
    st.session_state[SETTINGS_KEY] = settings.replace(roll=(settings.roll + 1) % 1_000_000)


def lab_controls(incoming: Incoming) -> tuple[Settings, list[str]]:
    """Draw the controls; return the Settings they describe and any note about values that were fixed."""
    settings, notes = _prepare_state(incoming)
    labels = unique_labels(settings.tokens)

    st.toggle("Causal mask", key="lab.causal", help="Block every key that comes after the query word.")
    head_options = [h for h in valid_head_counts(settings.d_model) if h <= MAX_HEADS_SHOWN]
    st.segmented_control(
        "Heads", head_options, key="lab.heads", required=True, wrap=True,
        help=f"d_head = d_model / heads = {settings.d_model} / {settings.heads} = {settings.d_head}",
    )
    st.caption(f"d_head = {settings.d_model} / {settings.heads} = **{settings.d_head}** per head")
    if settings.heads > 1:
        st.segmented_control(
            "Viewing head", list(range(1, settings.heads + 1)), key="lab.view", required=True, wrap=True
        )
    st.slider("Dropout p", 0.0, MAX_DROPOUT, step=0.05, key="lab.p", format="%.2f")
    with st.container(key="lab-dropout-row", horizontal=True, vertical_alignment="center", gap="small"):
        st.toggle("Training", key="lab.train", help="Dropout acts only while training; inference ignores p.")
        st.button("Re-roll", icon=":material/casino:", on_click=_reroll, help="Draw a new dropout pattern.",
                  disabled=not settings.dropout_active, width="stretch")
    if not settings.training and settings.dropout > 0:
        st.caption(f"Inference: dropout is off, so p = {settings.dropout:.2f} is ignored.")
    st.pills(
        "Tap a word to make it PAD", list(range(1, len(labels) + 1)), selection_mode="multi", key="lab.pad",
        format_func=lambda pos: md_escape(labels[pos - 1]), wrap=True,
    )
    advanced_controls()
    return settings, notes


def advanced_controls() -> None:
    """The "More" expander. Its widgets are drawn only while it is open (opening it reruns the Lab once), so
    the clicks of everyone who never opens it do not pay for them; closed, their values live on in the
    session's Settings, from which _prepare_state seeds them again."""
    more = st.expander("More: sentence, d_model, masking route, seed", key=MORE_KEY, on_change="rerun")
    if not more.open:
        return
    with more:
        st.text_input("Sentence (1 to 16 words)", key="lab.sentence", max_chars=400)
        st.segmented_control("d_model", list(SUPPORTED_D_MODEL), key="lab.d", required=True)
        st.selectbox("Masking route", ROUTES, key="lab.route", format_func=ROUTE_NAMES.__getitem__)
        st.toggle("Rescale dropout survivors by 1 / (1 - p)", key="lab.rescale")
        st.number_input("Seed of W_q, W_k, W_v, W_o", 0, 999_999, step=1, key="lab.seed")
