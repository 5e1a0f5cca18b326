"""Pages 1-3 (peeking and the causal mask, the padding mask, dropout) driven through AppTest: every number on
screen is compared with attn_core (compute() or attn_core.lessons.masks)."""

from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute, settings_from_query
from attn_core.lessons import masks as lessons
from attn_ui.figures import maps, plotly_fast
from attn_ui.figures import mask_charts as mf
from attn_ui.words import mask_words
from tests.apptest_helpers import APP, array, checked, metrics, rerun, seed_answers, specs

ROOT = Path(__file__).resolve().parents[2]
PEEK = "pages/1_Peeking_and_the_causal_mask.py"
PAD = "pages/2_Padding_mask.py"
DROP = "pages/3_Dropout.py"
PEEK_SETTINGS = Settings(causal=True, d_model=4)


def open_page(page: str, predicted: bool = True) -> AppTest:
    """Start from the Lab (the pages' Try-it links point at it), then switch to the page; `predicted`: with the
    lessons' predict-first questions answered, so what answers them is drawn (tests/pages/test_ask_before_telling.py
    looks at a page before its answer)."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    if predicted:
        seed_answers(at)
    return checked(at.switch_page(page).run())


def text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def link_query(at: AppTest) -> dict[str, str]:
    """The query of the Try-it link (the sidebar holds page links of its own)."""
    (link,) = [link for link in at.get("page_link") if link.proto.label == "Open the Lab in this state"]
    return {key: values[-1] for key, values in parse_qs(link.proto.query_string).items()}


def map_weights(spec: dict) -> np.ndarray:
    return array(spec["data"][0]["z"])  # the weights layer of attention_map: NaN where grey


# --- page 1 ---------------------------------------------------------------------------------------


def test_peek_cheating_head_without_and_with_the_mask():
    at = open_page(PEEK)
    cheat = lessons.cheating_head(Settings().sentence, causal=False)
    assert metrics(at) == {"Next word guessed right": f"{cheat.hit_count} of {cheat.positions}"} == {
        "Next word guessed right": "5 of 5"
    }
    np.testing.assert_allclose(map_weights(specs(at)[0]), cheat.weights)
    table = at.dataframe[0].value
    assert list(table["head's guess"]) == list(cheat.guesses)
    assert list(table["right?"]) == ["yes"] * 5
    assert f"puts {cheat.weight_on_next.mean():.3f} of its weight" in text(at)

    at.toggle(key="peek.causal").set_value(True)
    rerun(at)
    cheat = lessons.cheating_head(Settings().sentence, causal=True)
    assert metrics(at) == {"Next word guessed right": "1 of 5"}
    weights = map_weights(specs(at)[0])
    np.testing.assert_array_equal(np.isnan(weights), np.triu(np.ones((6, 6), bool), k=1))
    np.testing.assert_allclose(weights[~np.isnan(weights)], cheat.weights[np.tril(np.ones((6, 6), bool))])
    assert list(at.dataframe[0].value["head's guess"]) == ["Your", "starts", "starts", "starts", "starts"]
    assert "only 1 of 5 guesses are right" in text(at)


def test_peek_change_a_later_word_table_is_the_core_experiment():
    at = open_page(PEEK)
    for position, word in [(4, "leap"), (2, "cat"), (6, "tomorrow")]:
        at.select_slider(key="peek.position").set_value(position)
        at.segmented_control(key="peek.swap").set_value(word)
        rerun(at)
        check_change_table(at, position, word)


def check_change_table(at: AppTest, position: int, word: str) -> None:
    change = lessons.change_later_word(PEEK_SETTINGS, position, word)
    trace = specs(at)[1]["data"][0]
    moved = change.output_change.T  # (T, S)
    np.testing.assert_allclose(array(trace["z"]), np.where(moved > lessons.SAME, moved, 0.0))
    cells = np.array(trace["text"], dtype=object)
    assert (cells[: position - 1, 1] == "0").all()  # -inf first: the earlier rows did not move at all
    assert (cells[: position - 1, [0, 2, 3]] != "0").all()  # every other set-up moved them
    earlier = position - 1
    shown = text(at)
    assert f"Of the {earlier} earlier rows: with no mask {earlier} moved; with −∞ before the softmax 0 moved" in shown
    moved = f"Setting blocked scores to 0 moved {earlier} of the {earlier} outputs, though no row of weights changed"
    assert moved in text(at)


def test_peek_four_routes_on_one_row_and_a_at_v():
    at = open_page(PEEK)
    for row in (0, 2, 5):
        at.select_slider(key="peek.row").set_value(row)
        rerun(at)
        check_routes_and_values(at, row)


def check_routes_and_values(at: AppTest, row: int) -> None:
    rows = lessons.route_rows(PEEK_SETTINGS, row)
    weights_layer, grey_layer, sums_layer = specs(at)[2]["data"]
    shown = array(weights_layer["z"])[:-1]  # (T, K); the last row is the sums' row
    grey = rows.blocked[:, None] & (rows.weights.T == 0)
    np.testing.assert_array_equal(np.isnan(shown), grey)
    np.testing.assert_allclose(shown[~grey], rows.weights.T[~grey])
    assert sums_layer["text"][-1] == [f"{s:.2f}" for s in rows.sums]
    leaks = [cell for line in weights_layer["text"] for cell in line if cell.endswith("leak")]
    assert len(leaks) == int(rows.blocked.sum())  # only the trap gives blocked cells weight

    terms = lessons.row_times_values(compute(PEEK_SETTINGS), row)
    values, products = specs(at)[3]["data"]
    np.testing.assert_allclose(array(values["z"]), terms.values)
    np.testing.assert_allclose(array(products["z"]), np.vstack([terms.terms, terms.context[None]]))
    assert (array(products["z"])[row + 1 : -1] == 0).all()
    if row < 5:
        largest = mask_words.signed(terms.future_value_largest)
        assert f"the number largest in size among them is {largest}), yet their largest term in the sum is 0.00" in (
            text(at)
        )
        assert f"after the softmax leaves a sum of {rows.sums[1]:.2f}" in text(at)


def test_peek_worked_example_and_try_it_link():
    at = open_page(PEEK)
    example = lessons.worked_example()
    shown = text(at)
    assert "$e^{0.34} \\approx 1.40$, $e^{0.05} \\approx 1.05$, $e^{0} = 1$; the sum is 3.45" in shown
    assert f"≈ **{example.pad_share:.0%}**" in shown
    assert "≈ **29%**" in shown
    assert link_query(at) == {"causal": "1", "d": "4", "route": "zero_after", "lesson": "1"}  # the way back
    assert settings_from_query(link_query(at))[0] == PEEK_SETTINGS.replace(route="zero_after")


# --- page 2 ---------------------------------------------------------------------------------------


def test_pad_default_tables_map_and_pad_rows():
    at = open_page(PAD)
    result = compute(Settings(causal=True, padded=(5, 6)))
    assert "Causal: 15 blocked cells. Padding: 12. Combined: 18 (9 cells are blocked by both" in text(at)
    charts = specs(at)
    np.testing.assert_allclose(map_weights(charts[0]), np.where(result.blocked[0], np.nan, result.weights[0]))
    causal, padding, both = (array(chart["data"][0]["z"]) for chart in charts[1:4])
    np.testing.assert_array_equal(causal, result.blocked_by_causal * 1.0)
    np.testing.assert_array_equal(padding, result.blocked_by_padding * 2.0)
    np.testing.assert_array_equal(both > 0, result.blocked[0])
    assert [c["layout"]["title"]["text"] for c in charts[1:4]] == [
        "<b>causal: 15 blocked</b>", "<b>padding: 12 blocked</b>", "<b>causal OR padding: 18</b>"
    ]
    rows = lessons.pad_rows(result)
    assert list(rows) == [4, 5]
    for row, weights in rows.items():
        best = int(np.argmax(weights))
        assert f"**{result.labels[row]}** puts {weights[best]:.2f} on **{result.labels[best]}** and sums to 1.00" in (
            text(at)
        )
    assert link_query(at) == {"pad": "5,6", "lesson": "2"}


def test_pad_batch_of_two_sentences():
    at = open_page(PAD)
    for short in (1, 3, 5):
        at.slider(key="pad.short").set_value(short)
        rerun(at)
        check_batch(at, short)


def check_batch(at: AppTest, short: int) -> None:
    batch = lessons.two_sentence_batch(Settings().sentence, short, causal=True)
    assert batch.shapes == ((2, 6), (2, 1, 6), (2, 6, 6))
    assert "PAD flags (2, 6) → with an axis inserted (2, 1, 6) → broadcast against the scores (2, 6, 6)" in text(at)
    assert f"have 6 and {short} real words" in text(at)
    (code,) = at.code
    assert "pad = is_pad[:, None, :]    # (2, 1, 6)" in code.value
    first, second = specs(at)[4:6]
    np.testing.assert_array_equal(array(second["data"][0]["z"]) > 0, batch.combined[1])
    np.testing.assert_array_equal(array(second["data"][0]["z"]) == 2, batch.broadcast[1])
    np.testing.assert_array_equal(array(first["data"][0]["z"]) > 0, batch.combined[0])
    assert second["layout"]["title"]["text"] == f"<b>sentence 2: {short} words + {6 - short} PAD</b>"
    assert second["layout"]["yaxis"]["ticktext"] == list(batch.grid[1])


def test_pad_empty_row_shows_nan_for_a_plain_softmax_and_zeros_in_the_app():
    at = open_page(PAD)
    assert "No row is empty right now" in text(at)
    at.pills(key="pad.pad").set_value([1])
    rerun(at)
    result = compute(Settings(causal=True, padded=(1,)))
    assert result.empty_row_numbers == (1,)
    nan_row = "a plain softmax gives [NaN, NaN, NaN, NaN, NaN, NaN]; the app gives [0, 0, 0, 0, 0, 0]"
    assert f"Row 1 (**Your**): {nan_row}" in text(at)
    assert np.isnan(map_weights(specs(at)[0])[0]).all()  # the whole first row is grey


def test_pad_without_causal_and_everything_padded_stays_calm():
    at = open_page(PAD)
    at.toggle(key="pad.causal").set_value(False)
    at.pills(key="pad.pad").set_value([1, 2, 3, 4, 5, 6])
    rerun(at)
    assert "Causal: 0 blocked cells. Padding: 36. Combined: 36" in text(at)
    assert np.isnan(map_weights(specs(at)[0])).all()
    assert "Row 1 (**Your**): a plain softmax gives [NaN" in text(at)


# --- page 3 ---------------------------------------------------------------------------------------


def drop_metrics(settings: Settings) -> dict[str, str]:
    result = compute(settings)
    return {
        "Survivors ×": f"{lessons.survivor_scale(result):.2f}",
        "Dropped cells": str(result.dropped_cells),
        "Mean row sum": f"{lessons.mean_row_sum(result):.2f}",
        f"Different maps in {lessons.PATTERN_ROLLS} re-rolls": str(lessons.different_maps(settings)),
    }


def test_drop_default_map_metrics_and_rolls():
    at = open_page(DROP)
    settings = Settings(dropout=0.5)
    result = compute(settings)
    assert metrics(at) == drop_metrics(settings)
    assert metrics(at)["Survivors ×"] == "2.00" and metrics(at)["Different maps in 10 re-rolls"] == "10"
    spec = specs(at)[0]
    np.testing.assert_allclose(map_weights(spec), result.weights[0])
    cells = maps.drawn_labels(spec["data"])
    assert (cells[result.dropped[0]] == "drop").all() and result.dropped_cells > 0
    rolls = lessons.dropout_rolls(settings)
    traces = specs(at)[1]["data"]
    np.testing.assert_allclose(traces[0]["y"], rolls.with_rescale)
    np.testing.assert_allclose(traces[1]["y"], rolls.running_with)
    np.testing.assert_allclose(traces[2]["y"], rolls.without_rescale)
    assert traces[1]["name"] == f"with rescale: mean {rolls.mean_with:.3f}"
    assert abs(rolls.mean_with - 1) < 0.03 and abs(rolls.mean_without - 0.5) < 0.03
    assert f"mean row sum {rolls.mean_with:.3f} with the rescale, {rolls.mean_without:.3f} without it" in text(at)
    assert link_query(at) == {"p": "0.5", "rescale": "0", "lesson": "3"}


def test_drop_reroll_changes_the_pattern_in_training():
    at = open_page(DROP)
    before = map_weights(specs(at)[0])
    at.button(key="drop.reroll").click()
    rerun(at)
    after = map_weights(specs(at)[0])
    assert not np.array_equal(before, after)
    np.testing.assert_allclose(after, compute(Settings(dropout=0.5, roll=1)).weights[0])
    assert metrics(at) == drop_metrics(Settings(dropout=0.5, roll=1))


def test_drop_inference_is_deterministic_whatever_the_roll():
    at = open_page(DROP)
    for _ in range(3):  # three patterns on in training; then inference must ignore the roll
        at.button(key="drop.reroll").click()
        rerun(at)
    at.toggle(key="drop.train").set_value(False)
    rerun(at)
    first = map_weights(specs(at)[0])
    assert at.button(key="drop.reroll").disabled  # nothing to re-roll in inference
    np.testing.assert_array_equal(first, compute(Settings()).weights[0])
    assert metrics(at) == {"Survivors ×": "1.00", "Dropped cells": "0", "Mean row sum": "1.00",
                           "Different maps in 10 re-rolls": "1"}  # fmt: skip
    assert "Over 200 re-rolls nothing is dropped: the mean row sum is 1.000" in text(at)


def test_drop_scale_follows_p_and_the_rescale_switch():
    at = open_page(DROP)
    for p, rescale, scale in [(0.1, True, "1.11"), (0.5, False, "1.00"), (0.0, True, "1.00"), (0.9, True, "10.00")]:
        at.select_slider(key="drop.p").set_value(p)
        at.toggle(key="drop.rescale").set_value(rescale)
        rerun(at)
        settings = Settings(dropout=p, rescale=rescale)
        assert metrics(at) == drop_metrics(settings)
        assert metrics(at)["Survivors ×"] == scale
        np.testing.assert_allclose(map_weights(specs(at)[0]), compute(settings).weights[0])


# --- the builders pass Plotly's full validation ---------------------------------------------------


def test_every_lesson_figure_passes_plotly_validation(monkeypatch):
    monkeypatch.setattr(plotly_fast, "VALIDATE", True)
    result = compute(Settings(causal=True, padded=(5, 6)))
    mf.later_change_table(lessons.change_later_word(PEEK_SETTINGS, 3, "cat"))
    mf.routes_table(lessons.route_rows(PEEK_SETTINGS, 1))
    mf.row_times_values(lessons.row_times_values(compute(PEEK_SETTINGS), 1))
    assert len(mf.mask_tables(result)) == 3
    assert len(mf.batch_masks(lessons.two_sentence_batch(Settings().sentence, 2, True))) == 2
    mf.row_sum_rolls(lessons.dropout_rolls(Settings(dropout=0.3), rolls=20))
    maps.attention_map(lessons.cheating_head(Settings().sentence, True))


def test_user_words_are_escaped_in_the_lesson_figures():
    sentence = "<b>x</b> a&b c"
    settings = Settings(sentence=sentence, causal=True)
    change = lessons.change_later_word(settings, 2, "cat")
    labels = mf.later_change_table(change).layout.yaxis.ticktext
    assert labels[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert "a&amp;b" in labels[1]
    batch = lessons.padded_batch((sentence, "z"), causal=False)
    assert mf.batch_masks(batch)[0].layout.xaxis.ticktext[0] == "&lt;b&gt;x&lt;/b&gt;"
