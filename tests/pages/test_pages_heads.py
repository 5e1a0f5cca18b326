"""Pages 4-6 (many heads, shapes and memory, one row by hand) driven through AppTest: every number shown is
compared with compute() or with a count made here by hand."""

import math
import re
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attn_core import Settings, compute, head_error, settings_from_query
from attn_core.lessons import heads as lessons
from attn_ui.figures import head_charts as hf
from attn_ui.figures import plotly_fast
from tests.apptest_helpers import APP, array, checked, metrics, rerun, seed_answers, specs

ROOT = Path(__file__).resolve().parents[2]
MANY_HEADS = "pages/4_Many_heads.py"
SHAPES = "pages/5_Shapes_and_memory.py"
BY_HAND = "pages/6_One_row_by_hand.py"


def open_page(page: str, lab: Settings | None = None, keep_lab: bool = False, predicted: bool = True) -> AppTest:
    """Start from the Lab (pages link back to it), then switch; `lab` is what the Lab was left at; `predicted`: with
    the lessons' predict-first questions answered, so what answers them is drawn."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    if predicted:
        seed_answers(at)
    if lab is not None:
        at.session_state["lab.settings"] = lab
    elif not keep_lab:
        del at.session_state["lab.settings"]  # a student who never opened the Lab
    return checked(at.switch_page(page).run())


def lab_link(at: AppTest) -> dict[str, str]:
    (link,) = [link for link in at.get("page_link") if link.proto.label == "Open the Lab in this state"]
    return {k: v[-1] for k, v in parse_qs(link.proto.query_string).items() if k != "lesson"}  # tested apart


def texts(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


@pytest.fixture(scope="module")
def heads_page() -> AppTest:
    """Page 4 as first opened (read-only tests share it)."""
    return open_page(MANY_HEADS)


@pytest.fixture(scope="module")
def hand_page() -> AppTest:
    """Page 6 opened by a student who never visited the Lab (read-only tests share it)."""
    return open_page(BY_HAND)


# --- page 4: many heads -----------------------------------------------------------------------------


def test_many_heads_default_shows_four_maps_that_are_the_core_heads(heads_page):
    at = heads_page
    result = compute(Settings(causal=True, heads=4))
    maps = specs(at)[:4]
    for head, spec in enumerate(maps):
        z = array(spec["data"][0]["z"])
        expected = np.where(result.blocked[head], np.nan, result.weights[head])
        np.testing.assert_allclose(z, expected, rtol=0, atol=1e-15)
        assert spec["layout"]["title"]["text"] == f"head {head + 1} of 4", "not its concat columns: asked below"
    assert "d_head = d_model / h = 12 / 4 = 3 columns per head." in texts(at)
    assert "head 1 → columns 1–3, head 2 → columns 4–6, head 3 → columns 7–9, head 4 → columns 10–12" in texts(at)


@pytest.mark.parametrize(("heads", "spans"), [(1, ["1–12"]), (2, ["1–6", "7–12"]), (3, ["1–4", "5–8", "9–12"])])
def test_many_heads_follows_the_head_count(heads, spans):
    at = open_page(MANY_HEADS)
    at.segmented_control(key="heads.h").set_value(heads)
    at.toggle(key="heads.causal").set_value(False)
    rerun(at)
    result = compute(Settings(heads=heads))
    charts = specs(at)
    assert len(charts) == heads + 2  # the maps, concat, W_o mixing
    for head in range(heads):
        np.testing.assert_allclose(array(charts[head]["data"][0]["z"]), result.weights[head], rtol=0, atol=1e-15)
        assert charts[head]["layout"]["title"]["text"] == f"head {head + 1} of {heads}"
    assert f"12 / {heads} = {12 // heads} columns per head" in texts(at)
    concat = charts[heads]
    np.testing.assert_allclose(array(concat["data"][0]["z"]), result.context, rtol=0, atol=1e-15)
    assert [a["text"] for a in concat["layout"]["annotations"]] == [f"head {h + 1}" for h in range(heads)]
    edges = [(shape["x0"], shape["x1"]) for shape in concat["layout"]["shapes"]]
    assert edges == [(h * 12 // heads - 0.5, (h + 1) * 12 // heads - 0.5) for h in range(heads)]


def test_concat_and_w_o_panels_hold_the_core_numbers(heads_page):
    at = heads_page
    result = compute(Settings(causal=True, heads=4))
    concat, mixing = specs(at)[4:6]
    np.testing.assert_allclose(array(concat["data"][0]["z"]), result.context, rtol=0, atol=1e-15)
    with_w_o, without = (array(trace["z"]) for trace in mixing["data"])
    np.testing.assert_allclose(with_w_o, lessons.head_shares(lessons.head_contributions(result)), atol=1e-15)
    np.testing.assert_array_equal(without, np.repeat(np.eye(4), 3, axis=1))
    assert (with_w_o > 0).all()
    assert "In W_o, rows 1–3 weigh head 1's numbers, rows 4–6 weigh head 2's numbers" in texts(at)


def test_worked_example_is_three_by_four_and_head_two_starts_at_column_three(heads_page):
    at = heads_page
    worked = compute(Settings(sentence="cat dog car", d_model=4, heads=2))
    frame = at.dataframe[0].value
    assert list(frame.columns) == ["word", "col 1 · head 1", "col 2 · head 1", "col 3 · head 2", "col 4 · head 2"]
    assert list(frame["word"]) == ["cat", "dog", "car"]
    np.testing.assert_allclose(frame.iloc[:, 1:].to_numpy(dtype=float), worked.context, rtol=0, atol=1e-15)
    assert "Concat has shape **(3, 4)**, and head 2's numbers begin at **column 3**." in texts(at)


def test_cost_counter_shows_equal_cost_for_h_heads_and_one_wide_head(heads_page):
    at = heads_page
    params = 3 * 3 * 12 + 12 * 12  # W_q, W_k, W_v (3, 12) and W_o (12, 12)
    flops = 3 * 2 * 6 * 3 * 12 + 2 * 2 * 6 * 6 * 12 + 2 * 6 * 12 * 12  # projections, Q @ K^T and A @ V, W_o
    assert metrics(at) == {"Weights, 4 heads": f"{params:,}", "Weights, 1 wide head": f"{params:,}",
                           "FLOPs, 4 heads": f"{flops:,}", "FLOPs, 1 wide head": f"{flops:,}"}
    assert (params, flops) == (252, 4752)
    table = at.dataframe[1].value
    # whole numbers of four digits are grouped as the text groups them (st.dataframe would write 1296 beside 1,296)
    assert list(table["4 heads of width 3"]) == list(table["1 head of width 12"]) == [
        "252", "1,296", "864", "864", "1,728", "4,752"]
    assert list(table["4 full-width copies"]) == ["1,008", "5,184", "3,456", "3,456", "6,912", "19,008"]
    assert "The last column is what no model does: every one of the 4 heads with a full-width copy" in texts(at)
    assert "(4 × 252 = 1,008 weights)" in texts(at)
    shown = texts(at)
    assert "d = 768, h = 12, d_head = 768 / 12 = 64" in shown
    assert "2,359,296 weights" in shown and "8.05 GFLOPs" in shown
    assert "h·T² = 144 instead of 36" in shown
    # what the totals count, on the page beside them: d_in named, so 252 and 4,752 can be recomputed from it
    assert "each word coming in as d_in = 3 numbers" in shown and "3 × 3 × 12 + 12 × 12 = 252" in shown
    assert "1,296 + 864 + 864 + 1,728 = 4,752" in shown


def test_shapes_and_memory_in_spanish_localises_each_number_once():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["lang"] = "es"
    seed_answers(at.run())
    checked(at.switch_page(SHAPES).run())
    tiles = metrics(at)
    assert tiles["T = 2.048, float32"] == "1,61 GB" and tiles["T = 1.024, float32"] == "403 MB"
    figure = specs(at)[0]
    hovers = [text for trace in figure["data"] for text in trace.get("customdata") or ()]
    assert "1,61 GB" in hovers and not [text for text in hovers if re.search(r"\d\.\d", text)]


def test_a_head_count_that_does_not_divide_is_explained_not_a_traceback():
    at = open_page(MANY_HEADS)
    assert [w.value for w in at.warning] == [head_error(5, 12)]
    assert [c.value for c in at.code] == ["ValueError: cannot reshape array of size 72 into shape (6,5,2)"]
    at.number_input(key="heads.try").set_value(7)
    rerun(at)
    assert [w.value for w in at.warning] == [head_error(7, 12)]
    assert "valid head counts for 12 are 1, 2, 3, 4, 6, 12" in at.warning[0].value
    at.number_input(key="heads.try").set_value(3)
    rerun(at)
    assert not at.warning and not at.code
    assert [s.value for s in at.success][-1] == "12 / 3 = 4: every head gets whole columns."  # after the quiz's


def test_many_heads_try_it_opens_the_lab_with_four_causal_heads(heads_page):
    at = heads_page
    assert lab_link(at) == {"causal": "1", "heads": "4"}
    assert settings_from_query(lab_link(at))[0] == Settings(causal=True, heads=4)


# --- page 5: shapes and memory ----------------------------------------------------------------------


def test_shapes_table_uses_the_lab_settings_and_gpt2_sizes():
    at = open_page(SHAPES, lab=Settings(heads=4, sentence="a b c d e"))
    frame = at.dataframe[0].value
    assert list(frame["here, now"]) == ["(1, 5, 3)", "(1, 5, 12)", "(1, 5, 4, 3)", "(1, 4, 5, 3)", "(1, 4, 5, 5)",
                                       "(1, 4, 5, 5)", "(1, 4, 5, 3)", "(1, 5, 4, 3)", "(1, 5, 12)", "(1, 5, 12)"]
    result = compute(Settings(heads=4, sentence="a b c d e"))
    assert frame["here, now"][4] == str(result.score_shape) and frame["here, now"][9] == str((1, *result.output.shape))
    gpt2 = list(frame["GPT-2 124M, B = 8, T = 1024"])
    assert gpt2[3] == "(8, 12, 1024, 64)" and gpt2[4] == "(8, 12, 1024, 1024)" and gpt2[8] == "(8, 1024, 768)"
    assert list(frame["shape"])[:5] == ["(B, T, d_in)", "(B, T, d)", "(B, T, h, d_head)", "(B, h, T, d_head)",
                                        "(B, h, T, T)"]
    assert f"takes {4 * 5 * 5 * 4:,} bytes in float32" in texts(at)
    at.slider(key="shapes.batch").set_value(2)
    rerun(at)
    assert at.dataframe[0].value["GPT-2 124M, B = 2, T = 1024"][4] == "(2, 12, 1024, 1024)"


def test_shapes_page_without_the_lab_uses_its_default():
    at = open_page(SHAPES)
    assert at.dataframe[0].value["here, now"][4] == "(1, 4, 6, 6)"
    assert lab_link(at) == {"heads": "4"}


def test_memory_plot_and_tiles_are_b_h_t_t_bytes():
    at = open_page(SHAPES)
    batch, heads = 8, 12
    assert metrics(at) == {"T = 1,024, float32": "403 MB", "T = 1,024, bf16": "201 MB", "T = 2,048, float32": "1.61 GB",
                           "Doubling T multiplies it by": "4"}
    assert batch * heads * 1024 * 1024 * 4 == 402_653_184
    float32, bf16, chosen = specs(at)[0]["data"]
    lengths = [2**k for k in range(7, 18)]
    assert array(float32["x"]).tolist() == lengths
    np.testing.assert_array_equal(array(float32["y"]), [batch * heads * t * t * 4 for t in lengths])
    np.testing.assert_array_equal(array(bf16["y"]), [batch * heads * t * t * 2 for t in lengths])
    assert array(chosen["x"]).tolist() == [1024]
    ys = array(float32["y"])
    np.testing.assert_array_equal(ys[1:] / ys[:-1], 4.0)  # every doubling of T quadruples the bytes
    assert {a["text"] for a in specs(at)[0]["layout"]["annotations"]} == {"GPT-2", "8k", "32k", "128k"}
    at.select_slider(key="shapes.t").set_value(8192)
    at.slider(key="shapes.batch").set_value(1)
    rerun(at)
    assert metrics(at) == {"T = 8,192, float32": "3.22 GB", "T = 8,192, bf16": "1.61 GB",
                           "T = 16,384, float32": "12.9 GB", "Doubling T multiplies it by": "4"}
    assert 12 * 8192 * 8192 * 4 == 3_221_225_472
    assert "FlashAttention" in texts(at)


# --- page 6: one row by hand ------------------------------------------------------------------------


def frames(at: AppTest) -> dict[str, object]:
    """The step tables by their title's number ('1', '2', '3', '4a', '4b')."""
    titles = [m.value for m in at.markdown if m.value.startswith("**") and " · " in m.value.split("**")[1]]
    names = [t.split("**")[1].split(" · ")[0] for t in titles]
    return dict(zip(names, [d.value for d in at.dataframe], strict=True))


def round4(values) -> list[float]:
    return np.round(np.asarray(values, dtype=float), 4).tolist()


def check_row(at: AppTest, settings: Settings, query: int, head: int) -> None:
    """Every number of the tables and tiles equals the core's, at the 4 decimals shown."""
    result = compute(settings)
    tables = frames(at)
    q, k, v = result.queries[head, query], result.keys[head], result.values[head]
    blocked = result.blocked[head, query]
    assert list(tables["1"]["key"]) == list(result.labels)
    assert tables["1"]["q · k"].tolist() == round4(k @ q)
    assert tables["1"]["÷ √d_head"].tolist() == round4(result.scores[head, query])
    reasons = [result.block_reason(query, j) or "no" for j in range(len(result.tokens))]
    assert list(tables["1"]["blocked?"]) == reasons
    if settings.route == "neg_inf":
        into = tables["1"]["into softmax"].to_numpy()  # written out: a blocked score is the sign −∞, not "-Infinity"
        assert (into[blocked] == "−∞").all()
        assert [float(cell) for cell in into[~blocked]] == round4(result.scores[head, query][~blocked])
    last = tables["2"].get("after the route", tables["2"]["exp ÷ sum"])
    assert last.tolist() == round4(result.weights_before_dropout[head, query])
    assert tables["3"]["weight"].tolist() == round4(result.weights_before_dropout[head, query])
    assert tables["3"]["final weight"].tolist() == round4(result.weights[head, query])
    dropped = result.dropped[head, query]
    carries = result.weights_before_dropout[head, query] > 0
    assert list(tables["3"]["kept?"]) == ["dropped" if d else "yes" if c else "–" for d, c in zip(dropped, carries,
                                                                                                    strict=True)]
    for c in range(settings.d_head):
        assert tables["4a"][f"v{c + 1}"].tolist() == round4(v[:, c])
        column = tables["4b"][f"weight × v{c + 1}"].tolist()
        assert column[:-1] == round4(result.weights[head, query] * v[:, c])
        assert column[-1] == round(float(result.per_head_context[head, query, c]), 4)  # the sum row is the output
    assert tables["4b"]["weight"].tolist()[-1] == round(float(result.weights[head, query].sum()), 4)
    shown = metrics(at)
    assert shown["√d_head"] == f"{math.sqrt(settings.d_head):.4f}"
    assert shown["Row sum"] == f"{result.weights[head, query].sum():.4f}"
    scale = 1 / (1 - settings.dropout) if settings.dropout_active and settings.rescale else 1.0
    assert shown["Dropout scale"] == f"{scale:.4f}"
    for frame in tables.values():
        assert not frame.isna().to_numpy().any()


def test_by_hand_default_without_the_lab(hand_page):
    at = hand_page
    settings = Settings(causal=True, heads=2, dropout=0.1)
    check_row(at, settings, query=2, head=0)
    assert "Query **starts** (word 3), head 1 of 2." in texts(at)
    assert metrics(at)["Dropout scale"] == "1.1111"
    assert lab_link(at) == {"causal": "1", "heads": "2", "p": "0.1", "row": "3"}


def test_by_hand_honours_the_lab_settings_and_every_control():
    lab = Settings(heads=4, view=3, causal=False, route="zero_after", seed=11)
    at = open_page(BY_HAND, lab=lab)
    check_row(at, lab, query=2, head=2)
    assert "after the route" in frames(at)["2"]
    at.segmented_control(key="hand.word").set_value(5)
    at.segmented_control(key="hand.view").set_value(2)
    at.toggle(key="hand.causal").set_value(True)
    at.pills(key="hand.pad").set_value([4, 5])  # positions counted from 1, as on screen
    at.select_slider(key="hand.p").set_value(0.5)
    rerun(at)
    chosen = lab.replace(causal=True, padded=(4, 5), dropout=0.5, view=2)
    check_row(at, chosen, query=5, head=1)
    assert "padding" in list(frames(at)["1"]["blocked?"])
    assert lab_link(at) == {**{k: v for k, v in chosen.to_query().items()}, "row": "6"}


@pytest.mark.parametrize("route", ["neg_inf", "renormalize", "zero_score"])
def test_by_hand_every_word_and_head_with_dropout_that_drops(route):
    lab = Settings(heads=2, dropout=0.5, route=route, roll=1)
    at = open_page(BY_HAND, lab=lab)
    result = compute(lab)
    assert result.dropped.any()
    seen_drop = False
    for head in range(2):
        for query in range(6):
            at.segmented_control(key="hand.word").set_value(query)
            at.segmented_control(key="hand.view").set_value(head + 1)
            rerun(at)
            check_row(at, lab.replace(view=head + 1), query, head)
            seen_drop |= "dropped" in list(frames(at)["3"]["kept?"])
    assert seen_drop
    assert metrics(at)["Dropout scale"] == "2.0000"


def test_by_hand_inference_and_no_rescale():
    at = open_page(BY_HAND, lab=Settings(dropout=0.5, training=False, causal=True))
    check_row(at, Settings(dropout=0.5, training=False, causal=True), query=2, head=0)
    assert "Dropout does nothing here (inference)" in texts(at)
    at.toggle(key="hand.train").set_value(True)
    rerun(at)
    check_row(at, Settings(dropout=0.5, causal=True), query=2, head=0)
    at2 = open_page(BY_HAND, lab=Settings(dropout=0.5, rescale=False))
    check_row(at2, Settings(dropout=0.5, rescale=False), query=2, head=0)
    assert "no rescale (the bug)" in texts(at2)


def test_by_hand_a_row_with_nothing_to_look_at_is_zeros_not_nan():
    lab = Settings(causal=True, padded=(1,))
    at = open_page(BY_HAND, lab=lab)
    at.segmented_control(key="hand.word").set_value(0)
    rerun(at)
    check_row(at, lab, query=0, head=0)
    assert frames(at)["3"]["final weight"].tolist() == [0.0] * 6
    assert metrics(at)["Sum of exps"] == "0.0000"
    assert "nan" not in texts(at).lower()


def test_by_hand_escapes_the_words_it_writes_in_markdown():
    lab = Settings(sentence="*bold* [link](x) `code` $x$", causal=True)
    at = open_page(BY_HAND, lab=lab)
    heading = next(m.value for m in at.markdown if m.value.startswith("Query "))
    assert heading.startswith(r"Query **\`code\`** (word 3)")
    assert list(frames(at)["1"]["key"]) == ["*bold*", "[link](x)", "`code`", "$x$"]  # tables show words as typed
    options = at.segmented_control(key="hand.word").options
    assert options[0] == r"\*bold\*"


def test_checklist_closes_the_set(hand_page):
    at = hand_page
    checklist = next(m.value for m in at.markdown if "W_o mixes them" in m.value)
    assert len([line for line in checklist.splitlines() if line.startswith("- ")]) == 6
    assert "(B, h, T, T)" in checklist and "1 / (1 − p)" in checklist and "d_head = d_model / h" in checklist


# --- the figures pass Plotly's own validation ---------------------------------------------------------


@pytest.mark.parametrize("s", [Settings(heads=1), Settings(causal=True, heads=4, padded=(6,)), Settings(heads=12),
                               Settings(sentence="cat dog car", d_model=4, heads=2)], ids=str)
def test_every_figure_passes_plotly_validation(s, monkeypatch):
    monkeypatch.setattr(plotly_fast, "VALIDATE", True)
    result = compute(s)
    hf.concat_figure(result)
    hf.mixing_figure(result)
    assert len(hf.small_multiples(result)) == s.heads
    hf.memory_figure(8, 12, 1024)
    hf.memory_figure(1, 12)


@pytest.mark.parametrize("page", [SHAPES, BY_HAND])
def test_a_lab_settings_object_from_before_a_code_reload_still_works(page):
    """After a reload the stored Settings is of an older class that pickle cannot find; the pages rebuild it."""

    class StaleSettings(Settings):  # a local class: pickle refuses it, as it refuses a class replaced by a reload
        pass

    stale = StaleSettings(heads=3, causal=True)
    at = open_page(page, lab=stale)
    if page == SHAPES:
        assert at.dataframe[0].value["here, now"][4] == "(1, 3, 6, 6)"
    else:
        check_row(at, Settings(heads=3, causal=True), query=2, head=0)
