"""SLOW (about 11 s of CPU): each shipped preset in assets/training/ is exactly what a fresh run gives.

Marked `training_presets`; skip it with `-m "not training_presets"`. A mismatch means the training code or a
preset's config changed without `python3 scripts/precompute_training.py` being rerun. The figures were made on
this machine with one BLAS thread; a CPU with other vector units may round the last digits differently.
"""

from __future__ import annotations

import pytest

from attn_core.training.experiments import run
from attn_core.training.presets import ASSET_FOLDER, PRESETS
from attn_core.training.results import to_json

pytestmark = pytest.mark.training_presets


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_fresh_run_gives_exactly_the_shipped_preset(name):
    preset = PRESETS[name]
    fresh = run(preset.progress())
    assert to_json(fresh) == preset.asset.read_text().strip()
    assert preset.shipped() == fresh


def test_the_shipped_folder_is_small_and_holds_only_the_presets():
    files = sorted(path.name for path in ASSET_FOLDER.iterdir())
    assert files == sorted(f"{name}.json" for name in PRESETS)
    assert sum(path.stat().st_size for path in ASSET_FOLDER.iterdir()) < 200_000
