"""SLOW (about a minute of CPU): each shipped preset in assets/training/ is exactly what pressing Train gives, on
this machine and on a machine that differs from it.

Marked `training_presets`; skip it with `-m "not training_presets"`. Each preset trains in the app's own training
process (attn_core/training/worker.py), as the page does. A preset's run used to change with the CPU: OpenBLAS
picks its matrix kernel by CPU and NumPy its exp and log loops, and training grows their different last bits
into other curves. The worker now pins one BLAS kernel and the core computes exp and log itself
(attn_core/portable.py), so the numbers must not move when the machine does. The test moves it twice over:

- "as found": this machine's CPU features and environment;
- "another CPU": NumPy's SIMD loops cut down to its baseline (NPY_DISABLE_CPU_FEATURES, as on an older CPU)
  while the environment asks OpenBLAS for the Haswell kernel (the pin must win over it).

A mismatch means the training code or a preset's config changed without `python3 scripts/precompute_training.py`
being rerun, or something in the run depends on the CPU again.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from attn_core.training import worker
from attn_core.training.experiments import run
from attn_core.training.presets import ASSET_FOLDER, PRESETS
from attn_core.training.results import to_json

pytestmark = pytest.mark.training_presets


def _simd_above_baseline() -> str:
    """NumPy's optional CPU feature groups this machine has, the ones NPY_DISABLE_CPU_FEATURES can switch off."""
    from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__

    return " ".join(name for name in __cpu_dispatch__ if __cpu_features__.get(name) and name not in __cpu_baseline__)


MACHINES = {
    "as found": {},
    "another CPU": {"NPY_DISABLE_CPU_FEATURES": _simd_above_baseline(), "OPENBLAS_CORETYPE": "Haswell"},
}


@pytest.fixture(params=sorted(MACHINES))
def machine(request, monkeypatch):
    for key, value in MACHINES[request.param].items():
        monkeypatch.setenv(key, value)
    return request.param


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_pressing_train_gives_exactly_the_shipped_preset(name, machine):
    preset = PRESETS[name]
    fresh = run(worker.progress_elsewhere(preset))
    assert to_json(fresh) == preset.asset.read_text().strip(), f"{name} on {machine!r} differs from the shipped file"
    assert preset.shipped() == fresh


def test_the_training_process_runs_on_the_pinned_kernel_whatever_the_environment_asks(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    env = worker._child_env()
    kernel = subprocess.run([sys.executable, "-m", "attn_core.training.worker", "--kernel"], env=env,
                            capture_output=True, text=True, check=True, cwd=str(worker.PACKAGE_ROOT)).stdout.strip()
    assert kernel == worker.BLAS_KERNEL


def test_the_other_machine_really_differs_from_this_one():
    """'another CPU' must change something NumPy does here, or the test above proves nothing on this machine."""
    if not _simd_above_baseline():
        pytest.skip("this CPU has only NumPy's baseline features: there is nothing to switch off")
    code = ("from numpy._core._multiarray_umath import __cpu_features__ as f;"
            "print(sorted(k for k, v in f.items() if v))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    cut = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, **MACHINES["another CPU"]}).stdout
    assert found != cut


def test_the_shipped_folder_is_small_and_holds_only_the_presets():
    files = sorted(path.name for path in ASSET_FOLDER.iterdir())
    assert files == sorted(f"{name}.json" for name in PRESETS)
    assert sum(path.stat().st_size for path in ASSET_FOLDER.iterdir()) < 200_000


def test_numpy_is_the_one_the_presets_were_made_with():
    """Another NumPy may bundle another OpenBLAS, whose kernel could round differently: requirements.txt pins it."""
    lines = (worker.PACKAGE_ROOT / "requirements.txt").read_text().splitlines()
    pinned = next(line.split("==")[1].split()[0] for line in lines if line.startswith("numpy=="))
    assert np.__version__ == pinned
