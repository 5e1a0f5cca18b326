"""What a run that gives the same numbers on every CPU costs: the training process's pinned BLAS kernel and the
core's own exp and log (attn_core/portable.py), against this CPU's own kernel and NumPy's exp and log.

usage: python3 bench/reproducible.py [--preset dropout] [--repeats 3]

Each variant trains the preset in a fresh child process (one BLAS thread, as the app's training process does);
the variants take turns, `repeats` times, and the figure is the median CPU time of a run and of a step. Only the
ratios of one run mean anything on a shared machine. It also prints each variant's result fingerprint: the
pinned runs must agree with each other and with the shipped file whatever this CPU is.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import hashlib, sys
import numpy as np
from attn_core import portable  # the core calls portable.exp / portable.log by attribute, so this swap reaches it
if sys.argv[2] == "numpy":  # put NumPy's own exp and log back where the core uses its portable ones
    portable.exp, portable.log = np.exp, np.log
from attn_core.training.experiments import run
from attn_core.training.presets import PRESETS
from attn_core.training.results import to_json
preset = PRESETS[sys.argv[1]]
text = to_json(run(preset.progress()))
print(hashlib.md5(text.encode()).hexdigest()[:10], text == preset.asset.read_text().strip())
"""


def own_kernel() -> str:
    out = subprocess.run([sys.executable, "-m", "attn_core.training.worker", "--kernel"], cwd=ROOT,
                         env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}, capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def one_run(preset: str, kernel: str | None, exp: str) -> tuple[float, str]:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    env.pop("OPENBLAS_CORETYPE", None)
    if kernel:
        env["OPENBLAS_CORETYPE"] = kernel
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, "-c", CHILD, preset, exp], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), out.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="dropout")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from attn_core.training.presets import PRESETS
    from attn_core.training.worker import BLAS_KERNEL

    preset = PRESETS[args.preset]
    steps = preset.config.train.steps * _models(preset)
    native = own_kernel()
    variants = {
        f"pinned {BLAS_KERNEL} + portable exp/log (the app)": (BLAS_KERNEL, "portable"),
        f"this CPU's {native} + portable exp/log": (None, "portable"),
        f"this CPU's {native} + NumPy exp/log (before)": (None, "numpy"),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    prints: dict[str, set[str]] = {name: set() for name in variants}
    for _ in range(args.repeats):
        for name, (kernel, exp) in variants.items():
            seconds, fingerprint = one_run(args.preset, kernel, exp)
            times[name].append(seconds)
            prints[name].add(fingerprint)
    base = statistics.median(times[f"this CPU's {native} + NumPy exp/log (before)"])
    print(f"preset {args.preset}: {steps} training steps a run, {args.repeats} runs a variant, median CPU")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<52} {median:6.1f} s  {1000 * median / steps:6.2f} ms/step  x{median / base:4.2f}"
              f"  result {', '.join(sorted(prints[name]))}")
    print(f"  (x: against the 'before' variant; 'True' = equal to the shipped {preset.asset.name};"
          f" md5 {hashlib.md5(preset.asset.read_bytes().strip()).hexdigest()[:10]})")


def _models(preset) -> int:
    rates = getattr(preset.config, "rates", None)
    return len(rates) if rates else 2 if preset.name == "mask" else 1


if __name__ == "__main__":
    main()
