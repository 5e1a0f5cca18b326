"""Run every training preset and write its result to assets/training/<name>.json (compact JSON).

usage: OPENBLAS_NUM_THREADS=1 python3 scripts/precompute_training.py [name ...]

tests/core/test_training_presets.py reruns each preset and checks it gives exactly the shipped file.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_core.training.experiments import run  # noqa: E402
from attn_core.training.presets import ASSET_FOLDER, PRESETS  # noqa: E402
from attn_core.training.results import to_json  # noqa: E402


def main() -> None:
    names = sys.argv[1:] or list(PRESETS)
    ASSET_FOLDER.mkdir(parents=True, exist_ok=True)
    for name in names:
        preset = PRESETS[name]
        start = time.process_time()
        text = to_json(run(preset.progress()))
        preset.asset.write_text(text + "\n")
        print(f"{name:<8} {time.process_time() - start:5.1f} s CPU  {len(text) / 1024:6.1f} KB  -> {preset.asset}")


if __name__ == "__main__":
    main()
