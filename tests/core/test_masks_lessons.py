"""The lesson maths of the mask and dropout pages, checked against compute() and the step functions."""

import numpy as np
import pytest

from attn_core import Settings, SettingsError, compute, maths
from attn_core.lessons import masks as lessons
from attn_core.tokens import embed

DEFAULT = "Your journey starts with one step"
SENTENCES = [DEFAULT, "the cat sat on a mat", "a b c d e f g h i j", "attention is all you need today"]
PAGE = Settings(causal=True, d_model=4)  # the settings page 1 runs on


# --- the cheating head ---------------------------------------------------------------------------


@pytest.mark.parametrize("sentence", SENTENCES)
def test_cheating_head_without_mask_copies_the_next_word(sentence):
    cheat = lessons.cheating_head(sentence, causal=False)
    length = len(cheat.tokens)
    expected = np.exp(lessons.CHEAT_SCORE) / (np.exp(lessons.CHEAT_SCORE) + length - 1)
    np.testing.assert_allclose(cheat.weight_on_next, expected, rtol=1e-12)
    assert expected > 0.99
    x = embed(cheat.tokens)
    np.testing.assert_allclose(cheat.output[:-1], x[1:], atol=0.02)  # output at t is nearly word t + 1
    assert cheat.hit_count == cheat.positions == length - 1
    assert (np.triu(cheat.weights, k=1) > 0).any()  # it looks at later words


@pytest.mark.parametrize("sentence", SENTENCES)
def test_cheating_head_with_mask_gets_only_the_average_of_the_past(sentence):
    cheat = lessons.cheating_head(sentence, causal=True)
    x = embed(cheat.tokens)
    np.testing.assert_array_equal(cheat.weight_on_next, 0.0)
    past_means = np.cumsum(x, axis=0) / np.arange(1, len(x) + 1)[:, None]  # (T, 3)
    np.testing.assert_allclose(cheat.output, past_means, rtol=0, atol=1e-12)
    assert not (np.triu(cheat.weights, k=1) > 0).any()
    assert cheat.hit_count < lessons.cheating_head(sentence, causal=False).hit_count


def test_cheating_head_on_the_default_sentence_guesses_five_of_five_then_one_of_five():
    off, on = lessons.cheating_head(DEFAULT, False), lessons.cheating_head(DEFAULT, True)
    assert (off.hit_count, off.positions) == (5, 5)
    assert off.guesses == ("journey", "starts", "with", "one", "step")
    assert (on.hit_count, on.positions) == (1, 5)
    assert on.guesses == ("Your", "starts", "starts", "starts", "starts")  # journey ~ starts: a lucky hit
    assert on.hits.tolist() == [False, True, False, False, False]


def test_cheating_head_hands_the_map_a_valid_head():
    cheat = lessons.cheating_head(DEFAULT, True)
    view = cheat.head_map()
    np.testing.assert_array_equal(view.blocked, maths.causal_mask(6))
    np.testing.assert_allclose(view.weights.sum(axis=-1), 1.0, atol=1e-12)
    assert int(view.blocked.sum()) == 15 and not view.dropped.any() and view.padded == ()
    assert not cheat.weights.flags.writeable
    with pytest.raises(SettingsError):
        lessons.cheating_head("   ", False)


def test_nearest_word_is_the_closest_embedding():
    words = ("Your", "one", "step")
    for vector in embed(words):
        assert lessons.nearest_word(vector + 0.01, words) == words[int(np.argmin(np.abs(embed(words) - vector).sum(1)))]
    assert lessons.nearest_word(embed(("one",))[0], words) == "one"


# --- change a later word -------------------------------------------------------------------------


@pytest.mark.parametrize("position", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("new_word", lessons.REPLACEMENTS)
def test_earlier_rows_stay_put_with_minus_infinity_and_move_otherwise(position, new_word):
    change = lessons.change_later_word(PAGE, position, new_word)
    earlier = position - 1
    assert change.earlier_rows == earlier
    assert change.old_word == DEFAULT.split()[position - 1] and change.new_word == new_word
    np.testing.assert_array_equal(change.output_change[1, :earlier], 0.0)  # not one bit moves
    np.testing.assert_array_equal(change.weight_change[1, :earlier], 0.0)
    assert change.earlier_rows_moved("mask: -inf before softmax") == 0
    assert change.earlier_rows_moved("no mask") == earlier
    assert change.earlier_rows_moved("mask: zero after softmax") == earlier  # the denominator carries the future
    assert change.earlier_weights_moved("mask: zero after softmax") == earlier
    assert change.earlier_rows_moved("mask: blocked score set to 0") == earlier  # its value flows in
    assert change.earlier_weights_moved("mask: blocked score set to 0") == 0  # e^0 = 1 whatever the word
    assert change.output_change[:, position - 1].min() > 0  # the changed word's own row moves everywhere


def test_change_later_word_matches_compute_row_by_row():
    change = lessons.change_later_word(PAGE, 4, "leap")
    before = compute(PAGE.replace(route="zero_after"))
    after = compute(PAGE.replace(route="zero_after", sentence="Your journey starts leap one step"))
    np.testing.assert_allclose(change.output_change[2], np.abs(after.output - before.output).max(axis=-1))


def test_change_later_word_refuses_bad_input():
    with pytest.raises(SettingsError):
        lessons.change_later_word(PAGE, 7, "leap")
    with pytest.raises(SettingsError):
        lessons.change_later_word(PAGE, 3, "two words")
    with pytest.raises(SettingsError):
        lessons.change_later_word(PAGE, 3, "  ")
    assert lessons.replacement_for("leap") == "cat" and lessons.replacement_for("step") == "leap"


# --- the four routes -----------------------------------------------------------------------------


@pytest.mark.parametrize("row", range(6))
def test_four_routes_on_one_row(row):
    rows = lessons.route_rows(PAGE, row)
    result = compute(PAGE)
    scores = result.scores[0, row]  # (T,)
    legal = ~rows.blocked
    np.testing.assert_array_equal(rows.blocked, np.arange(6) > row)
    np.testing.assert_allclose(rows.of("neg_inf"), result.weights[0, row], rtol=0, atol=0)
    np.testing.assert_allclose(rows.of("renormalize"), rows.of("neg_inf"), rtol=0, atol=1e-12)
    np.testing.assert_allclose(rows.sums[[0, 2, 3]], 1.0, atol=1e-12)
    np.testing.assert_allclose(rows.sums[1], maths.softmax(scores)[legal].sum(), rtol=1e-12)
    blocked = int(rows.blocked.sum())
    leak = blocked / (np.exp(scores[legal]).sum() + blocked)
    np.testing.assert_allclose(rows.leaked, [0, 0, 0, leak], atol=1e-12)
    if blocked:
        assert rows.sums[1] < 1 - 1e-9 and rows.leaked[3] > 0


def test_the_worked_example_gives_the_pad_about_29_percent():
    example = lessons.worked_example()
    assert [round(float(e), 2) for e in example.exps] == [1.40, 1.05, 1.0]
    assert round(example.total, 2) == 3.46
    assert example.pad_share == pytest.approx(1 / (np.exp(0.34) + np.exp(0.05) + 1), abs=1e-12)
    assert round(example.pad_share, 2) == 0.29
    first = np.exp(0.34) / (np.exp(0.34) + np.exp(0.05))
    np.testing.assert_allclose(example.with_neg_inf, [first, 1 - first, 0.0], atol=1e-12)
    assert round(first, 2) == 0.57
    assert example.with_neg_inf[2] == 0.0


# --- A @ V with the future in V ------------------------------------------------------------------


@pytest.mark.parametrize("row", range(6))
def test_future_values_are_there_but_their_terms_are_exactly_zero(row):
    result = compute(PAGE)
    terms = lessons.row_times_values(result, row)
    np.testing.assert_allclose(terms.terms.sum(axis=0), terms.context, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(terms.context, result.per_head_context[0, row])
    assert (terms.terms[terms.future] == 0).all()
    assert terms.future_term_size == 0.0
    assert terms.future_value_size == (np.abs(result.values[0, row + 1 :]).max() if row < 5 else 0.0)
    if row < 5:
        assert terms.future_value_size > 0.1


# --- padding --------------------------------------------------------------------------------------


def test_two_sentence_batch_shapes_and_masks():
    batch = lessons.two_sentence_batch(DEFAULT, 3, causal=False)
    assert batch.grid[1] == ("Small", "steps", "add", "PAD", "PAD", "PAD")
    assert batch.lengths == (6, 3)
    assert batch.shapes == ((2, 6), (2, 1, 6), (2, 6, 6))
    assert not batch.broadcast[0].any()
    assert batch.broadcast[1][:, 3:].all() and not batch.broadcast[1][:, :3].any()
    np.testing.assert_array_equal(batch.combined, batch.broadcast)
    causal = lessons.two_sentence_batch(DEFAULT, 3, causal=True)
    np.testing.assert_array_equal(causal.combined[0], maths.causal_mask(6))
    np.testing.assert_array_equal(causal.combined[1], maths.causal_mask(6) | causal.broadcast[1])
    assert int(causal.combined[0].sum()) == 15
    assert int(causal.combined[1].sum()) == 15 + 18 - 12  # future, PAD columns, minus the cells both block


def test_batch_pads_to_the_longest_sentence():
    batch = lessons.padded_batch(("a b", "c d e f", "g"), causal=False)
    assert batch.shapes == ((3, 4), (3, 1, 4), (3, 4, 4))
    assert batch.lengths == (2, 4, 1)
    assert batch.grid[2] == ("g", "PAD", "PAD", "PAD")
    assert lessons.two_sentence_batch(DEFAULT, 99, True).lengths == (6, 5)  # clamped to the sentence
    assert lessons.two_sentence_batch(DEFAULT, 0, True).lengths == (6, 1)


def test_pad_rows_still_spread_weight_over_real_words():
    result = compute(Settings(causal=True, padded=(1, 5)))
    rows = lessons.pad_rows(result)
    assert list(rows) == [4]  # row 1 is empty (it may see only itself, a PAD), so only row 5 is listed
    np.testing.assert_allclose(rows[4].sum(), 1.0, atol=1e-12)
    assert rows[4][0] == 0 and rows[4][4] == 0 and rows[4][5] == 0
    assert lessons.pad_rows(compute(Settings())) == {}


def test_an_empty_row_is_nan_for_a_plain_softmax_and_zero_in_the_app():
    result = compute(Settings(causal=True, padded=(1,)))
    assert result.empty_row_numbers == (1,)
    assert np.isnan(lessons.naive_empty_row(result, 0)).all()
    np.testing.assert_array_equal(result.weights[0, 0], 0.0)
    assert not np.isnan(lessons.naive_empty_row(result, 1)).any()


# --- dropout --------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0.1, 0.5])
def test_mean_row_sum_is_about_one_with_rescale_and_one_minus_p_without(p):
    rolls = lessons.dropout_rolls(Settings(dropout=p))
    assert len(rolls.with_rescale) == lessons.ROLLS
    assert abs(rolls.mean_with - 1.0) < 0.03
    assert abs(rolls.mean_without - (1 - p)) < 0.03
    np.testing.assert_allclose(rolls.without_rescale, (1 - p) * rolls.with_rescale, rtol=1e-12)
    np.testing.assert_allclose(rolls.running_with[-1], rolls.mean_with, rtol=1e-12)
    assert rolls.with_rescale.std() > 0  # the patterns really differ
    first = compute(Settings(dropout=p, roll=0))
    assert rolls.with_rescale[0] == pytest.approx(first.row_sums[0].mean(), abs=1e-12)


def test_at_inference_every_roll_sums_to_exactly_one():
    rolls = lessons.dropout_rolls(Settings(dropout=0.5, training=False), rolls=20)
    np.testing.assert_allclose(rolls.with_rescale, 1.0, atol=1e-12)
    np.testing.assert_allclose(rolls.without_rescale, 1.0, atol=1e-12)


def test_mean_row_sum_skips_empty_rows():
    result = compute(Settings(causal=True, padded=(1,)))
    assert lessons.mean_row_sum(result) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("p", "training", "rescale", "scale"),
    [(0.5, True, True, 2.0), (0.1, True, True, 1 / 0.9), (0.5, True, False, 1.0), (0.5, False, True, 1.0),
     (0.0, True, True, 1.0)],
)  # fmt: skip
def test_survivor_scale(p, training, rescale, scale):
    result = compute(Settings(dropout=p, training=training, rescale=rescale))
    assert lessons.survivor_scale(result) == pytest.approx(scale, rel=1e-12)


def test_inference_gives_one_map_whatever_the_roll_and_training_gives_many():
    assert lessons.different_maps(Settings(dropout=0.5)) == lessons.PATTERN_ROLLS
    assert lessons.different_maps(Settings(dropout=0.5, training=False)) == 1
    assert lessons.different_maps(Settings(dropout=0.0)) == 1


# --- re-rolls drawn from one forward pass agree with a forward pass per roll ---------------------------------


@pytest.mark.parametrize("settings", [
    Settings(dropout=0.5), Settings(dropout=0.3, causal=True, padded=(5, 6)), Settings(dropout=0.5, training=False),
    Settings(dropout=0.9, heads=4, view=3, seed=7), Settings(dropout=0.2, route="zero_score", causal=True),
], ids=lambda s: str(s.to_query()))
def test_rolls_and_pattern_counts_equal_a_full_forward_pass_per_roll(settings):
    from attn_core.lessons.masks import different_maps, dropout_rolls, mean_row_sum

    rolls = dropout_rolls(settings, rolls=25)
    for roll in range(25):
        rolled = settings.replace(roll=roll)
        assert rolls.with_rescale[roll] == mean_row_sum(compute(rolled.replace(rescale=True)))
        assert rolls.without_rescale[roll] == mean_row_sum(compute(rolled.replace(rescale=False)))
    tables = {compute(settings.replace(roll=roll)).weights.tobytes() for roll in range(10)}
    assert different_maps(settings, rolls=10) == len(tables)
