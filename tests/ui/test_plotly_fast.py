"""Each private corner of Plotly and Streamlit that attn_ui.figures.plotly_fast relies on, one test each.

When an upgrade breaks one, its test fails with a message that names what broke and where it is used, instead
of a map that silently draws twice or not at all.
"""

from __future__ import annotations

import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools
import pytest
import streamlit  # noqa: F401  (importing Streamlit registers its Plotly template)

from attn_core import Settings, compute
from attn_ui.figures import maps, plotly_fast


def test_go_figure_still_takes_the_private_validate_keyword():
    spec = {"data": [{"type": "heatmap", "z": [[1]]}], "layout": {"notaproperty": 1}}
    try:
        go.Figure(spec, _validate=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(
            "go.Figure(spec, _validate=False) no longer skips validation: plotly_fast.figure_from_spec needs "
            f"another way ({error})"
        ) from error
    with pytest.raises(ValueError):
        go.Figure(spec)  # with validation the misspelt property is caught, so the keyword really switches it off


def test_streamlit_takes_a_base_figure_as_it_is():
    spec = maps.attention_map_spec(compute(Settings(causal=True)))
    ready = plotly_fast.ReadyFigure(spec)
    taken = plotly.tools.return_figure_from_figure_or_data(ready, True)
    assert taken is ready.to_dict(), (
        "plotly.tools.return_figure_from_figure_or_data no longer passes a BaseFigure through: st.plotly_chart "
        "would parse or copy ReadyFigure (the Lab's fast path in widgets/panels.py)"
    )
    assert taken["data"] is spec["data"]  # nothing copied


def test_templates_still_keep_their_dict_in_props():
    template = pio.templates[pio.templates.default]
    props = getattr(template, "_props", None)
    assert isinstance(props, dict), (
        "go.layout.Template._props is gone or no longer a dict: plotly_fast.template_dict falls back to a deep copy"
    )
    assert plotly_fast.template_dict(template) == template.to_plotly_json()


def test_streamlit_still_sets_its_own_default_template():
    assert pio.templates.default == "streamlit", (
        f"Plotly's default template is {pio.templates.default!r}, not Streamlit's: ReadyFigure would miss the theme"
    )


def test_the_font_table_covers_the_characters_of_the_lesson_and_digits():
    missing = set("Your journey starts with one step PAD 0123456789·") - set(plotly_fast.SOURCE_SANS_EM)
    assert not missing, f"SOURCE_SANS_EM lacks {sorted(missing)}: margins of the map would be guessed too wide"
