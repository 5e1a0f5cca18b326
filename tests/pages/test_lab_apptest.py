"""The Lab driven through Streamlit's AppTest: every control, the KPI tiles and the figure's data."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute, settings_from_query
from attn_ui.figures.maps import drawn_labels
from attn_ui.widgets.controls import MORE_KEY
from tests.apptest_helpers import array, open_section, run_lab, specs

SENTENCE = ["Your", "journey", "starts", "with", "one", "step"]


def kpis(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def map_spec(at: AppTest) -> dict:
    return specs(at)[0]


def shown_weights(at: AppTest) -> tuple[np.ndarray, np.ndarray]:
    """The weights layer (NaN where grey) and the text drawn in each cell (a number, "drop", "future", "PAD")."""
    spec = map_spec(at)
    return array(spec["data"][0]["z"]), drawn_labels(spec["data"])


def open_more(at: AppTest) -> AppTest:
    return open_section(at, MORE_KEY)


def url(at: AppTest) -> dict[str, str]:
    return {key: at.query_params[key][-1] if isinstance(at.query_params[key], list) else at.query_params[key]
            for key in at.query_params}


def test_default_lab_shows_the_six_words_unmasked():
    at = run_lab()
    assert kpis(at) == {
        "Sees future?": "Yes", "Masked cells": "0", "Padding-blocked cells": "0", "Dropped cells": "0",
        "d_head": "12 / 1 = 12", "Row sums": "all 1.00", "Score tensor": "1×1×6×6 · 144 B",
    }
    weights, _ = shown_weights(at)
    np.testing.assert_allclose(weights, compute(Settings()).weights[0])
    assert map_spec(at)["layout"]["yaxis"]["ticktext"] == SENTENCE


def test_mask_on_greys_exactly_the_upper_triangle_and_keeps_the_last_row():
    at = run_lab()
    off, _ = shown_weights(at)
    at.toggle(key="lab.causal").set_value(True).run()
    values = kpis(at)
    assert values["Sees future?"] == "No" and values["Masked cells"] == "15"
    on, text = shown_weights(at)
    np.testing.assert_array_equal(np.isnan(on), np.triu(np.ones((6, 6), bool), k=1))
    assert text[0].tolist() == ["1.00", "future", "future", "future", "future", "future"]
    np.testing.assert_allclose(on[-1], off[-1], atol=1e-12)  # the last word saw everything anyway
    assert not np.allclose(np.nan_to_num(on[1]), off[1])
    assert url(at) == {"causal": "1"}


@pytest.mark.parametrize("view", [1, 2, 3, 4])
def test_mask_on_top_row_is_one_then_zeros_in_every_head(view):
    at = run_lab(causal="1", heads="4", view=str(view))
    _, text = shown_weights(at)
    assert text[0].tolist() == ["1.00", "future", "future", "future", "future", "future"]


def test_four_heads_show_four_different_maps_and_d_head_three():
    at = run_lab()
    at.segmented_control(key="lab.heads").set_value(4).run()
    assert kpis(at)["d_head"] == "12 / 4 = 3"
    maps = []
    for view in (1, 2, 3, 4):
        at.segmented_control(key="lab.view").set_value(view).run()
        maps.append(shown_weights(at)[0])
        np.testing.assert_allclose(maps[-1], compute(Settings(heads=4, view=view)).weights[view - 1])
    for a in range(4):
        for b in range(a + 1, 4):
            assert not np.allclose(maps[a], maps[b])
    assert url(at) == {"heads": "4", "view": "4"}


def test_viewing_head_stays_valid_when_the_head_count_drops():
    at = run_lab(heads="4", view="4")
    at.segmented_control(key="lab.heads").set_value(2).run()
    assert at.segmented_control(key="lab.view").value == 2
    assert url(at) == {"heads": "2", "view": "2"}
    assert not at.exception


def test_tapping_the_last_two_words_greys_their_columns_for_every_row():
    at = run_lab()
    at.pills(key="lab.pad").set_value([5, 6]).run()
    weights, text = shown_weights(at)
    assert np.isnan(weights[:, 4:]).all() and not np.isnan(weights[:, :4]).any()
    assert kpis(at)["Padding-blocked cells"] == "12" and kpis(at)["Masked cells"] == "12"
    at.toggle(key="lab.causal").set_value(True).run()
    assert kpis(at)["Masked cells"] == "18"
    ticks = map_spec(at)["layout"]["yaxis"]["ticktext"]
    assert ticks[4:] == ["one<br>PAD", "step<br>PAD"]  # six rows are tall enough for "PAD" under the word
    assert url(at) == {"causal": "1", "pad": "5,6"}
    at.pills(key="lab.pad").set_value([5]).run()  # tapping again restores the word
    assert kpis(at)["Padding-blocked cells"] == "6"


def test_dropout_half_in_training_drops_and_marks_cells_and_doubles_survivors():
    at = run_lab()
    at.select_slider(key="lab.p").set_value(0.5).run()
    result = compute(Settings(dropout=0.5))
    values = kpis(at)
    assert values["Dropped cells"] == str(result.dropped_cells) != "0"
    sums = result.row_sums[0]
    assert values["Row sums"] == f"{sums.min():.2f} to {sums.max():.2f}"
    weights, text = shown_weights(at)
    assert (text[result.dropped[0]] == "drop").all()
    kept = ~result.dropped[0]
    np.testing.assert_allclose(weights[kept], 2 * result.weights_before_dropout[0][kept])
    assert any("drop" in c.value for c in at.caption)  # the legend explains the mark


def test_inference_ignores_p_and_says_so():
    at = run_lab(p="0.5")
    at.toggle(key="lab.train").set_value(False).run()
    assert kpis(at)["Dropped cells"] == "0" and kpis(at)["Row sums"] == "all 1.00"
    assert any("ignored" in c.value for c in at.caption)
    assert url(at) == {"p": "0.5", "train": "0"}


def test_reroll_draws_a_new_pattern_and_keeps_it_in_the_url():
    at = run_lab(p="0.5")
    before = shown_weights(at)[1]
    at.button[0].click().run()
    after = shown_weights(at)[1]
    assert url(at)["roll"] == "1"
    assert (before == "drop").tolist() != (after == "drop").tolist()


def test_a_link_with_state_reproduces_it_exactly():
    query = Settings(causal=True, heads=4, view=3, padded=(5, 6), dropout=0.25, roll=4, seed=9).to_query()
    at = run_lab(**query)
    expected = compute(settings_from_query(query)[0])
    weights, _ = shown_weights(at)
    np.testing.assert_allclose(np.nan_to_num(weights), expected.weights[2], atol=1e-12)
    assert url(at) == query
    assert not at.info  # a valid link gives no note


@pytest.mark.parametrize(
    ("query", "needle"),
    [({"heads": "5"}, "valid head counts"), ({"p": "1.5"}, "between 0 and 0.9"), ({"pad": "99"}, "ignored"),
     ({"view": "7"}, "no head 7"), ({"causal": "perhaps"}, "0 or 1"), ({"s": "word " * 500}, "500 words")],
)
def test_a_bad_link_gives_one_friendly_note_and_a_valid_state(query, needle):
    at = run_lab(**query)
    assert len(at.info) == 1 and needle in at.info[0].value
    assert len(at.metric) == 7 and len(at.get("plotly_chart")) == 1


def test_a_custom_sentence_with_markup_stays_literal():
    at = open_more(run_lab())
    at.text_input(key="lab.s").set_value("<b>x</b> **y** $z$").run()
    ticks = map_spec(at)["layout"]["yaxis"]["ticktext"]
    assert ticks == ["&lt;b&gt;x&lt;/b&gt;", "**y**", "$z$"]
    assert url(at) == {"s": "<b>x</b> **y** $z$"}


def test_an_empty_or_too_long_sentence_is_refused_and_the_map_keeps_the_old_one():
    at = open_more(run_lab())
    for text, needle in (("   ", "empty"), ("w " * 17, "17 words"), ("x" * 30, "at most 24")):
        at.text_input(key="lab.s").set_value(text).run()
        assert needle in at.warning[0].value
        assert map_spec(at)["layout"]["yaxis"]["ticktext"] == SENTENCE


def test_a_new_sentence_says_where_the_padding_now_is():
    at = open_more(run_lab(pad="2,3"))
    at.text_input(key="lab.s").set_value("the cat sat down").run()
    said = [info.value for info in at.info]
    assert said == ["Padding stays on positions 2, 3, which in the new sentence are “cat”, “sat”. Tap the words "
                    "below to change them."], said
    at.text_input(key="lab.s").set_value("a b").run()  # position 3 no longer exists: one stays, and is named
    assert any("Padding stays on position 2, which in the new sentence is “b”." in info.value for info in at.info)
    assert url(at)["pad"] == "2"


def test_first_word_padded_with_mask_on_warns_about_the_empty_row():
    at = run_lab(causal="1", pad="1")
    assert len(at.warning) == 1 and "nothing to look at" in at.warning[0].value
    weights, _ = shown_weights(at)
    assert np.isnan(weights[0]).all()  # the whole row is grey, never NaN numbers on screen
    assert kpis(at)["Row sums"] == "0.00 to 1.00"


def test_route_d_model_seed_controls_change_the_numbers():
    at = open_more(run_lab(causal="1"))
    at.selectbox(key="lab.route").set_value("zero_after").run()
    assert kpis(at)["Row sums"].startswith("0.") and url(at)["route"] == "zero_after"
    at.segmented_control(key="lab.d").set_value(8).run()
    assert kpis(at)["d_head"] == "8 / 1 = 8"
    before = shown_weights(at)[0]
    at.number_input(key="lab.seed").set_value(7).run()
    assert not np.allclose(np.nan_to_num(before), np.nan_to_num(shown_weights(at)[0]))
    assert url(at) == {"causal": "1", "route": "zero_after", "d": "8", "seed": "7"}


def test_the_closed_more_expander_draws_nothing_and_keeps_its_values():
    """Closed, "More" costs a click nothing; its values live on in the Settings and come back when opened."""
    at = open_more(run_lab())
    at.selectbox(key="lab.route").set_value("zero_after").run()
    at.session_state[MORE_KEY] = False
    at.toggle(key="lab.causal").set_value(True).run()
    # (the sidebar holds the language menu, a selectbox of its own)
    assert len(at.main.selectbox) == 0 and len(at.text_input) == 0 and len(at.number_input) == 0
    assert url(at) == {"causal": "1", "route": "zero_after"} and kpis(at)["Row sums"].startswith("0.")
    open_more(at)
    assert at.selectbox(key="lab.route").value == "zero_after"
    assert url(at) == {"causal": "1", "route": "zero_after"}


def test_d_model_change_keeps_heads_valid():
    at = open_more(run_lab(heads="3"))
    at.segmented_control(key="lab.d").set_value(8).run()  # 3 does not divide 8
    assert at.segmented_control(key="lab.heads").value == 2
    assert kpis(at)["d_head"] == "8 / 2 = 4"
    assert any("valid head counts for 8" in i.value for i in at.info)
