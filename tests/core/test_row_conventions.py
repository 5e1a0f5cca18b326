"""Indices inside the code count from 0; a quantity counted from 1 says so in its name."""

from __future__ import annotations

import numpy as np
import pytest

from attn_core import Settings, compute


@pytest.mark.parametrize(("padded", "rows"), [((1,), (0,)), ((1, 2), (0, 1)), ((2, 3), ()), ((), ())])
def test_empty_rows_are_indices_and_empty_row_numbers_count_from_one(padded, rows):
    result = compute(Settings(causal=True, padded=padded))
    assert result.empty_rows == rows
    assert result.empty_row_numbers == tuple(row + 1 for row in rows)
    for row in result.empty_rows:  # an index, so it picks the all-zero row of the weights directly
        assert result.blocked[0, row].all()
        np.testing.assert_array_equal(result.weights[0, row], 0.0)
