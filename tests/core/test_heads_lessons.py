"""The lesson maths of pages 4-6 (heads, shapes and memory, one row by hand), checked against compute()."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_core import ROUTES, SUPPORTED_D_MODEL, Settings, SettingsError, compute, head_error, valid_head_counts
from attn_core.lessons import heads as lessons

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_SPLITS = [(d, h) for d in SUPPORTED_D_MODEL for h in valid_head_counts(d)]


# --- where each head sits in concat ------------------------------------------------------------------


@pytest.mark.parametrize(("d_model", "heads"), ALL_SPLITS)
def test_head_columns_tile_the_width_in_order_from_zero(d_model, heads):
    blocks = lessons.head_columns(d_model, heads)
    d_head = d_model // heads
    assert len(blocks) == heads
    for i, block in enumerate(blocks):
        assert (block.start, block.stop - 1) == (i * d_head, (i + 1) * d_head - 1)
    assert [c for block in blocks for c in block] == list(range(d_model))


@pytest.mark.parametrize("heads", [1, 2, 3, 4, 6])
def test_each_head_output_sits_in_its_own_concat_columns(heads):
    result = compute(Settings(causal=True, heads=heads, padded=(6,)))
    for head in range(heads):
        np.testing.assert_array_equal(lessons.concat_of(result, head), result.per_head_context[head])


@pytest.mark.parametrize(("d_model", "heads"), [(12, 5), (12, 7), (8, 3), (24, 5), (4, 3), (12, 0)])
def test_a_head_count_that_does_not_divide_d_model_is_refused_with_the_core_message(d_model, heads):
    with pytest.raises(SettingsError) as error:
        lessons.head_columns(d_model, heads)
    assert str(error.value) == head_error(heads, d_model)


def test_numpy_itself_refuses_the_reshape_and_says_why():
    assert lessons.reshape_attempt(6, 12, 5) == "ValueError: cannot reshape array of size 72 into shape (6,5,2)"
    assert lessons.reshape_attempt(6, 12, 7) == "ValueError: cannot reshape array of size 72 into shape (6,7,1)"
    assert lessons.reshape_attempt(6, 12, 4) is None


def test_worked_example_d_model_4_two_heads_three_words():
    result = compute(lessons.WORKED)
    assert result.tokens == ("cat", "dog", "car")
    assert result.context.shape == (3, 4)
    assert lessons.head_columns(4, 2)[1].start == 2
    assert [lessons.span(b) for b in lessons.head_columns(4, 2)] == ["1–2", "3–4"]  # as the screen counts
    table = lessons.concat_table(result)
    assert list(table) == ["word", "col 1 · head 1", "col 2 · head 1", "col 3 · head 2", "col 4 · head 2"]
    np.testing.assert_array_equal(np.array([table[k] for k in list(table)[1:]]).T, result.context)
    np.testing.assert_array_equal(np.array([table["col 3 · head 2"], table["col 4 · head 2"]]).T,
                                  result.per_head_context[1])


def test_span_reads_like_the_lesson():
    assert lessons.span(range(0, 3)) == "1–3"
    assert lessons.span(range(9, 12)) == "10–12"
    assert lessons.span(range(5, 6)) == "6"


# --- what W_o does ----------------------------------------------------------------------------------


@pytest.mark.parametrize("heads", [1, 2, 3, 4, 12])
def test_head_contributions_add_up_to_the_output_and_without_w_o_to_concat(heads):
    result = compute(Settings(causal=True, heads=heads, seed=7))
    np.testing.assert_allclose(lessons.head_contributions(result).sum(axis=0), result.output, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(lessons.contributions_without_w_o(result).sum(axis=0), result.context)


@pytest.mark.parametrize("heads", [2, 3, 4])
def test_with_w_o_every_column_hears_every_head_without_it_only_one(heads):
    result = compute(Settings(heads=heads))
    mixed = lessons.head_shares(lessons.head_contributions(result))  # (h, d)
    alone = lessons.head_shares(lessons.contributions_without_w_o(result))
    assert mixed.shape == alone.shape == (heads, 12)
    np.testing.assert_allclose(mixed.sum(axis=0), 1.0)
    assert (mixed > 0.001).all()
    owner = np.repeat(np.eye(heads), 12 // heads, axis=1)  # head i owns its d_head columns
    np.testing.assert_array_equal(alone, owner)


# --- parameters and FLOPs ---------------------------------------------------------------------------


def counted_products(rows: int, inner: int, cols: int) -> int:
    """Multiplications of a matrix product, counted by doing it on ones."""
    return int((np.ones((rows, inner)) @ np.ones((inner, cols))).sum())


@pytest.mark.parametrize(("d_model", "heads"), ALL_SPLITS)
def test_h_heads_cost_exactly_what_one_full_width_head_costs(d_model, heads):
    one = lessons.attention_cost(6, d_model, 1, d_in=3)
    many = lessons.attention_cost(6, d_model, heads, d_in=3)
    assert (many.parameters, many.flops) == (one.parameters, one.flops)
    assert many.softmax_cells == heads * one.softmax_cells == heads * 36
    copies = lessons.full_copies_cost(6, d_model, heads, d_in=3)
    assert (copies.parameters, copies.flops) == (heads * one.parameters, heads * one.flops)


@pytest.mark.parametrize("heads", [1, 2, 3, 4])
def test_cost_matches_the_arrays_of_a_result(heads):
    result = compute(Settings(heads=heads))
    cost = lessons.attention_cost(len(result.tokens), 12, heads, d_in=3)
    assert cost.parameters == result.w_q.size + result.w_k.size + result.w_v.size + result.w_o.size == 252
    x, q, k, v = result.x, result.queries, result.keys, result.values
    projections = 3 * counted_products(*x.shape, result.w_q.shape[1])
    scores = sum(counted_products(*q[i].shape, k[i].shape[0]) for i in range(heads))
    mixing = sum(counted_products(*result.weights[i].shape, v[i].shape[1]) for i in range(heads))
    output = counted_products(*result.context.shape, result.w_o.shape[1])
    assert cost.projection_flops == 2 * projections == 1296
    assert cost.score_flops == 2 * scores == 864
    assert cost.mixing_flops == 2 * mixing == 864
    assert cost.output_flops == 2 * output == 1728
    assert cost.flops == 4752


def test_gpt2_124m_numbers():
    gpt2 = lessons.GPT2
    assert (gpt2.d_model, gpt2.heads, gpt2.d_head, gpt2.context) == (768, 12, 64, 1024)
    cost = lessons.attention_cost(1024, 768, 12)
    assert cost.parameters == 4 * 768 * 768 == 2_359_296
    assert cost.flops == 8_053_063_680
    assert cost.flops == lessons.attention_cost(1024, 768, 1).flops


def test_cost_table_lists_the_three_plans_row_by_row():
    table = lessons.cost_table(6, 12, 4, d_in=3)
    assert list(table) == ["", "4 heads of width 3", "1 head of width 12", "4 full-width copies"]
    assert table["4 heads of width 3"] == table["1 head of width 12"] == [252, 1296, 864, 864, 1728, 4752]
    assert table["4 full-width copies"] == [4 * n for n in [252, 1296, 864, 864, 1728, 4752]]


# --- shapes and memory ------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [Settings(), Settings(heads=4), Settings(sentence="a b c", d_model=8, heads=2),
                               Settings(d_model=24, heads=6, causal=True)], ids=str)
def test_live_path_shapes_are_the_result_arrays_and_the_symbolic_path(s):
    result = compute(s)
    length, heads, d_head, d_model = len(result.tokens), s.heads, s.d_head, s.d_model
    shapes = [step.shape for step in lessons.live_path(result)]
    assert shapes == [step.shape for step in lessons.symbolic_path(1, length, d_model, heads, d_in=3)]
    assert shapes[3] == (1, *result.queries.shape) == (1, heads, length, d_head)
    assert shapes[4] == shapes[5] == (1, *result.scores.shape) == result.score_shape
    assert shapes[6] == (1, *result.per_head_context.shape)
    assert shapes[8] == (1, *result.context.shape) == (1, length, d_model)
    assert shapes[9] == (1, *result.output.shape)


def test_the_reshape_and_transpose_give_the_core_queries_and_concat():
    result = compute(Settings(heads=4, causal=True))
    q = (result.x @ result.w_q).reshape(6, 4, 3).transpose(1, 0, 2)
    np.testing.assert_array_equal(q, result.queries)
    back = result.per_head_context.transpose(1, 0, 2).reshape(6, 12)
    np.testing.assert_array_equal(back, result.context)


def test_shape_table_for_gpt2():
    table = lessons.shape_table(compute(Settings(heads=4)), batch=8)
    big = table["GPT-2 124M, B = 8, T = 1024"]
    assert big[0] == "(8, 1024, 768)"
    assert big[2] == "(8, 1024, 12, 64)"
    assert big[3] == "(8, 12, 1024, 64)"
    assert big[4] == "(8, 12, 1024, 1024)"
    assert big[-1] == "(8, 1024, 768)"
    assert table["here, now"][4] == "(1, 4, 6, 6)"
    assert table["shape"][4] == "(B, h, T, T)"


def test_score_memory_is_quadratic_and_matches_the_result():
    assert lessons.score_tensor_bytes(1, 12, 1024, 4) == 12 * 1024 * 1024 * 4 == 50_331_648
    assert lessons.score_tensor_bytes(1, 12, 1024, 2) == 25_165_824
    for t in lessons.CONTEXT_LENGTHS:
        assert lessons.score_tensor_bytes(8, 12, 2 * t, 4) == 4 * lessons.score_tensor_bytes(8, 12, t, 4)
    curve = lessons.memory_curve(8, 12)
    assert curve["float32"] == [2 * b for b in curve["bf16"]]
    assert curve["float32"][lessons.CONTEXT_LENGTHS.index(1024)] == 402_653_184
    result = compute(Settings(heads=4))
    assert result.score_bytes == lessons.score_tensor_bytes(1, 4, 6, 4) == 576
    assert 1024 in lessons.MARKED_LENGTHS and max(lessons.MARKED_LENGTHS) > 1024


@pytest.mark.parametrize(("count", "text"), [(576, "576 bytes"), (402_653_184, "403 MB"), (1_610_612_736, "1.61 GB"),
                                             (6_597_069_766_656, "6.6 TB"), (786_432, "786 kB")])
def test_human_bytes(count, text):
    assert lessons.human_bytes(count) == text


# --- one row by hand --------------------------------------------------------------------------------


def assert_row_matches_core(result, query, head):
    row = lessons.row_by_hand(result, query, head)
    s = result.settings
    np.testing.assert_allclose(row.dots, result.keys[head] @ result.queries[head, query], rtol=1e-13, atol=1e-13)
    assert row.root == pytest.approx(np.sqrt(s.d_head), rel=1e-15)
    np.testing.assert_allclose(row.scaled, result.scores[head, query], rtol=1e-12, atol=1e-13)
    np.testing.assert_array_equal(row.blocked, result.blocked[head, query])
    if s.route == "neg_inf":
        assert (row.softmax_input[row.blocked] == -np.inf).all()
        assert (row.exps[row.blocked] == 0).all()
    legal = np.isfinite(row.softmax_input)
    if legal.any():
        assert row.shift == row.softmax_input[legal].max()
        assert row.exps.max() == 1.0  # the largest input becomes e^0
    np.testing.assert_allclose(row.total, row.exps.sum(), rtol=1e-15)
    np.testing.assert_allclose(row.weights_before_dropout, result.weights_before_dropout[head, query], rtol=0,
                               atol=1e-15)
    np.testing.assert_array_equal(~row.kept, result.dropped[head, query])
    expected_scale = 1 / (1 - s.dropout) if s.dropout_active and s.rescale else 1.0
    assert row.dropout_scale == expected_scale
    np.testing.assert_allclose(row.weights, result.weights[head, query], rtol=0, atol=1e-15)
    np.testing.assert_allclose(row.weighted_values, row.weights[:, None] * result.values[head], rtol=0, atol=0)
    np.testing.assert_allclose(row.output, result.per_head_context[head, query], rtol=0, atol=1e-13)
    np.testing.assert_allclose(row.output, result.context[query, row.columns.start : row.columns.stop], atol=1e-13)
    for name in ("dots", "scaled", "exps", "softmax_output", "weights", "output"):
        assert not np.isnan(getattr(row, name)).any(), name
    return row


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "s",
    [
        Settings(),
        Settings(causal=True, heads=2, dropout=0.1),
        Settings(causal=True, heads=4, padded=(5, 6), dropout=0.5, roll=3),
        Settings(causal=True, padded=(1,)),  # row 1 has nothing to look at
        Settings(heads=3, dropout=0.5, rescale=False),
        Settings(heads=2, dropout=0.5, training=False),
    ],
    ids=lambda s: str(s.to_query()),
)
def test_every_row_of_every_head_by_hand_equals_the_core(s, route):
    result = compute(s.replace(route=route))
    for head in range(s.heads):
        for query in range(len(result.tokens)):
            assert_row_matches_core(result, query, head)


@FAST
@given(
    words=st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=6), min_size=1, max_size=16),
    heads=st.sampled_from([1, 2, 3, 4, 6]),
    causal=st.booleans(),
    dropout=st.sampled_from([0.0, 0.1, 0.5, 0.9]),
    route=st.sampled_from(ROUTES),
    data=st.data(),
)
def test_row_by_hand_equals_the_core_for_random_settings(words, heads, causal, dropout, route, data):
    padded = data.draw(st.sets(st.integers(1, len(words)), max_size=len(words)))
    s = Settings(sentence=" ".join(words), heads=heads, causal=causal, dropout=dropout, route=route,
                 padded=tuple(sorted(padded)), roll=data.draw(st.integers(0, 20)))
    result = compute(s)
    query = data.draw(st.integers(0, len(words) - 1))
    head = data.draw(st.integers(0, heads - 1))
    with np.errstate(all="raise"):
        assert_row_matches_core(result, query, head)


def test_an_empty_row_is_all_zero_not_nan():
    result = compute(Settings(causal=True, padded=(1,)))
    row = lessons.row_by_hand(result, 0, 0)
    assert row.blocked.all() and row.total == 0.0 and row.shift == 0.0
    np.testing.assert_array_equal(row.weights, 0.0)
    np.testing.assert_array_equal(row.output, 0.0)


def test_dropout_that_drops_a_cell_and_doubles_the_rest():
    result = compute(Settings(heads=1, dropout=0.5))
    query = int(np.flatnonzero(result.dropped[0].any(axis=1))[0])
    row = assert_row_matches_core(result, query, 0)
    assert row.dropout_scale == 2.0
    assert (~row.kept).any() and (row.weights[~row.kept] == 0).all()
    np.testing.assert_array_equal(row.weights[row.kept], 2.0 * row.weights_before_dropout[row.kept])


def test_row_by_hand_refuses_a_head_or_word_that_does_not_exist():
    result = compute(Settings(heads=2))
    with pytest.raises(SettingsError):
        lessons.row_by_hand(result, 0, 2)
    with pytest.raises(SettingsError):
        lessons.row_by_hand(result, 6, 0)
