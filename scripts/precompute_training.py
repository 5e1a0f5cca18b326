"""Run every training preset and write its result to assets/training/<name>.json (compact JSON).

usage: python3 scripts/precompute_training.py [name ...]

Each preset trains in the app's own training process (attn_core/training/worker.py), on its pinned BLAS kernel
and one thread, so the file holds what pressing Train gives on any x86-64 server.
tests/core/test_training_presets.py reruns each preset the same way and checks it gives exactly the shipped file.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_core.training.experiments import run  # noqa: E402
from attn_core.training.presets import ASSET_FOLDER, PRESETS  # noqa: E402
from attn_core.training.results import to_json  # noqa: E402
from attn_core.training.worker import progress_elsewhere  # noqa: E402


def main() -> None:
    names = sys.argv[1:] or list(PRESETS)
    ASSET_FOLDER.mkdir(parents=True, exist_ok=True)
    for name in names:
        preset = PRESETS[name]
        start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        text = to_json(run(progress_elsewhere(preset)))
        preset.asset.write_text(text + "\n")
        spent = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu
        print(f"{name:<8} {time.perf_counter() - start:5.1f} s ({spent:5.1f} s CPU)  {len(text) / 1024:6.1f} KB"
              f"  -> {preset.asset}")


if __name__ == "__main__":
    main()
