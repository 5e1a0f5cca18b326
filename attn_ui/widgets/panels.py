"""Shared Streamlit pieces that show a Result: the KPI row, the clickable map, notes and links."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from attn_core import Result, Settings
from attn_lang import _, current_language, number
from attn_ui.figures import maps
from attn_ui.figures.layout import LAB, MapStyle, download_config, with_min_fonts
from attn_ui.figures.plotly_fast import ReadyFigure, label_box
from attn_ui.widgets import held, projector, state
from attn_ui.widgets.access import weights_table_expander
from attn_ui.words.explain import (
    KPI_HELP,
    cut_words_line,
    empty_row_warning,
    head_name,
    kpi_values,
    map_summary,
    row_sentence,
)
from attn_ui.words.export import map_file_name

MAP_KEY = "lab.map"
PHONE_MARK = "<span></span>"  # what the container named by PhoneFit.key holds (it is never shown)
PROJECTOR_BODY_PX = 22.4  # projector mode's body text (look.BODY)
PROJECTOR_LINE_ROOM = 1300  # px: two lines under the projector's map at 1280x720; more would push the Lab off screen


def show_notes(notes: Iterable[str], projector: bool = False) -> None:
    """Everything that was fixed or refused: one friendly box, or toasts in projector mode (a box would push the map
    off a 1280x720 screen)."""
    notes = [n for n in notes if n]
    if projector:
        for note in notes:
            st.toast(note, icon=":material/info:", duration="long")
    elif notes:
        st.info("  \n".join(notes), icon=":material/info:")


# A Result is a function of its Settings (attn_core is deterministic, and every Result drawn here comes from
# state.cached_compute), so what is drawn from it can be kept per Settings and shared by every session, like the
# Result itself: a class clicking through the same few settings builds each map and its words once. The Result
# is passed with a leading underscore, so the cache keys on the Settings (their repr, as cached_compute does). They
# are called with keyword arguments: for each positional one, Streamlit's cache inspects the function's signature to
# learn its name, about 15 us an argument at every call (the map's lookup: 132-139 us positional, 73-79 us by keyword).
# What they return holds words and numbers in a language, so the language (`lang`, current_language()) is part of
# each key: a Spanish session never gets the English map's hover text, nor its decimal points.


@st.cache_data(max_entries=2_000, show_spinner=False, hash_funcs={Settings: repr, MapStyle: repr})
def _drawn_map(_result: Result, settings: Settings, row: int | None, style: MapStyle, lang: str
               ) -> tuple[dict, str, str, str | None]:
    """The map's figure dict, its text alternative, the key that tells a phone how to draw it (PhoneFit.key) and the
    words it cut short, whole, in language `lang` (the run's: it is the key's)."""
    spec, fit = maps.fitted_map(_result, selected_row=row, style=style, title=head_name(_result))
    return spec, map_summary(_result), fit.phone.key if fit else "", cut_words_line(_result, fit.cut if fit else ())


@st.cache_data(max_entries=2_000, show_spinner=False, hash_funcs={Settings: repr, MapStyle: repr})
def _drawn_words(_result: Result, settings: Settings, score_tensor: bool, lang: str
                 ) -> tuple[dict[str, str], str | None]:
    """The KPI tiles' values and the empty-rows warning, in language `lang`."""
    return kpi_values(_result, score_tensor), empty_row_warning(_result)


@st.cache_data(max_entries=500, show_spinner=False, hash_funcs={Settings: repr, MapStyle: repr})
def _lesson_specs(_build, name: str, _result: Result, settings: Settings, lang: str) -> dict | list[dict]:
    figures = _build(_result)
    return [figure.to_dict() for figure in figures] if isinstance(figures, list) else figures.to_dict()


def drawn(build, result: Result) -> ReadyFigure | list[ReadyFigure]:
    """`build(result)` (a figure, or a list of them) built once per Settings and language for every session, and
    handed to chart() as finished dicts, so a rerun neither builds nor copies it again."""
    specs = _lesson_specs(_build=build, name=f"{build.__module__}.{build.__qualname__}", _result=result,
                          settings=result.settings, lang=current_language())
    return [ReadyFigure(spec) for spec in specs] if isinstance(specs, list) else ReadyFigure(specs)


def kpi_tiles(result: Result, columns: int = 1, score_tensor: bool = True) -> None:
    """The Lab's KPI tiles, `columns` to a row (one stacked column beside the map in projector mode).

    A lecture scene leaves out the score tensor: its story never needs it, and two columns of seven tiles
    would not fit a 1280x720 projector.
    """
    words = _drawn_words(_result=result, settings=result.settings, score_tensor=score_tensor, lang=current_language())
    metric_tiles(words[0], columns, helps=KPI_HELP)


def metric_tiles(values: Mapping[str, str], columns: int, helps: Mapping[str, str] | None = None,
                 fill: Mapping[str, Any] | None = None) -> None:
    """Bordered metric tiles, `columns` to a row (1 to 4).

    `values` maps a label to its value, `helps` a label to its help. Labels and helps are messages (English, marked
    with N_ where they are written) and are drawn here as _(label) and _(help), so a table of tiles can stay keyed
    by its English labels; `fill` fills their placeholders ("Different maps in {rolls} re-rolls"). The values are
    drawn as they are given: in the run's language already.

    One wrapping row of tiles (look.py gives each tile 1/columns of the width), not a grid of st.columns: a
    click redraws 7 elements instead of 15. A screen reader and the Tab key meet the tiles in the order the
    eye reads them (left to right, then down).
    """
    fill = fill or {}
    with st.container(key=f"kpis-{columns}", horizontal=columns > 1, gap="small"):
        for label, value in values.items():
            help_text = (helps or {}).get(label)
            st.metric(_(label, **fill), value, help=_(help_text, **fill) if help_text else None, border=True)


def chart(figure, key: str | None = None, config: dict | None = None, place=st, max_height: int | None = None,
          **options) -> None:
    """Every lesson chart goes through here: in projector mode its text is raised to 18 px or more first.

    `place` is where to draw it (a column; Streamlit's main area by default). The figure's own sizes are kept
    outside projector mode, so a phone still gets the compact chart. Raised text grows the chart; `max_height`
    (projector mode only) keeps it within the room it has, such as a scene's board on a 720 px screen.
    """
    if projector.is_on():
        spec = with_min_fonts(figure.to_dict() if hasattr(figure, "to_dict") else figure)
        height = spec["layout"].get("height")
        if max_height and isinstance(height, int | float) and height > max_height:
            spec = {**spec, "layout": {**spec["layout"], "height": max_height}}
        figure = ReadyFigure(spec)
    place.plotly_chart(figure, key=key, config=config or {}, **options)


def table(data, place=st, digits: int | None = None, **dataframe_options) -> None:
    """Every lesson table goes through here. st.dataframe draws on a canvas that CSS cannot enlarge, so projector
    mode shows an st.table (HTML, sized by look.py) instead, its numbers rounded to `digits` when given."""
    if not projector.is_on():
        place.dataframe(data, **dataframe_options)
        return
    hide_index = dataframe_options.get("hide_index")
    if digits is not None:
        frame = pd.DataFrame(data)
        numeric = frame.select_dtypes("number").columns
        data = frame.style.format({name: lambda value: number(value, f".{digits}f") for name in numeric})
    place.table(data, hide_index=hide_index)


def empty_rows_notice(result: Result) -> None:
    warning = _drawn_words(_result=result, settings=result.settings, score_tensor=True, lang=current_language())[1]
    if warning:
        st.warning(warning, icon=":material/warning:")


def selected_row(length: int, fallback: int | None = None) -> int | None:
    """The query row picked by clicking the map (0-based), else the fallback."""
    state = st.session_state.get(MAP_KEY)
    points = state.selection.points if state else []
    if points:
        row = points[0].get("y")
        if isinstance(row, int | float) and 0 <= int(row) < length:
            return int(row)
    return fallback if fallback is not None and 0 <= fallback < length else None


PICKER_FROM = 9  # words from which the Lab offers a row picker: a phone's cells of 9 words are 30 px, of 16 words 16 px


def _row_picked() -> None:
    st.session_state[state.PICKED_KEY] = st.session_state.get(state.PICK_KEY)


def row_picker(result: Result, row: int | None) -> None:
    """A long sentence's rows by name, for a thumb that cannot hit a 16 px cell: picking one is a click on its row."""
    st.session_state[state.PICK_KEY] = row  # follows a click on the map, a link, Back
    labels = result.labels
    st.selectbox(_("Explain a row"), range(len(labels)), key=state.PICK_KEY, on_change=_row_picked,
                 **held.index(state.PICK_KEY, range(len(labels)), fallback=None),
                 placeholder=_("Pick a row"),
                 format_func=lambda index: _("{number} · {word}", number=index + 1, word=labels[index]))


def attention_panel(result: Result, row: int | None, style: MapStyle = LAB, sentence: bool = True,
                    picker: bool = False) -> None:
    """The map of the head in view, clickable by row, with a line on the selected row and, unless `sentence` is
    False (a projected scene, whose answer already says it), the sentence that explains that row. `picker`: the Lab,
    which offers a long sentence's rows in a list too."""
    spec, summary, phone, cut = _drawn_map(_result=result, settings=result.settings, row=row, style=style,
                                           lang=current_language())
    if phone:  # a container that only carries its name, which sizes the map on a phone (look.PHONE_MAP_CSS)
        st.container(key=phone).html(PHONE_MARK)  # Streamlit does not draw an empty container
    st.plotly_chart(
        ReadyFigure(spec), key=MAP_KEY, on_select="rerun", selection_mode="points",
        config=download_config(map_file_name(result.settings)), alt=summary,
    )
    if cut and not projector.is_on():
        st.caption(cut)
    elif cut and label_box(cut.replace("*", "").replace("\\", ""), PROJECTOR_BODY_PX)[0] <= PROJECTOR_LINE_ROOM:
        st.markdown(cut)  # a caption is hidden in projector mode; body text there, if it keeps the Lab on one screen
    long = picker and len(result.tokens) >= PICKER_FROM and not projector.is_on()
    with st.container(key="map-row"):  # on a phone it stays in view under the pinned map (look.py)
        if long:
            row_picker(result, row)
        if row is not None:
            if sentence:
                st.markdown(row_sentence(result, row))
        elif long:
            st.caption(_("Tap or click a cell, or pick a row above, to explain it."))
        else:
            st.caption(_("Tap or click a cell to explain its row."))
    weights_table_expander(result)


def legend(result: Result) -> None:
    """What the colours and marks of the map mean, in words."""
    # Translators: the map's legend, one entry a message; “future”, “PAD” and “drop” are the marks drawn in the
    # map's cells (attn_ui/figures/maps.py): write them as the map does
    lines = [_("colour = weight from 0 to 1"), _("light grey “future” = blocked by the causal mask"),
             _("dark grey “PAD” = blocked by padding")]
    if result.settings.dropout_active:
        lines.append(_("“drop” = zeroed by dropout"))
    if projector.is_on():  # a caption is hidden there; the hall reads the legend at body size, in short words
        marks = [_("**colour** weight 0 → 1"), _("**future** mask"), _("**PAD** padding")]
        st.markdown(" · ".join([*marks, *([_("**drop** dropout")] if result.settings.dropout_active else [])]))
        return
    st.caption(" · ".join(lines))


SHARE_BAR_STATES = ("open", "right", "off")  # a bar before the reveal, counted right, off (look.py colours each)


def share_bar(share: float, label: str, state: str, key: str) -> None:
    """One option's bar of a room's answers: its words above it, its length the share, its colour the state (blue
    before the reveal, then green for the right answer and grey for the rest, which the label says in words too)."""
    if state not in SHARE_BAR_STATES:
        raise ValueError(f"a share bar is one of {SHARE_BAR_STATES}, not {state!r}")
    with st.container(key=f"bar-{state}-{key}"):
        st.progress(min(max(share, 0.0), 1.0), text=label)
