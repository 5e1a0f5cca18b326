"""How long each training preset takes, against one training step of the same model in the same run.

usage: OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python3 bench/train.py [--repeats 3]
       python3 bench/train.py --estimates [--hog 2]   # how far the page's time estimates are from the real time

A preset must finish within 10 s on one core. The baseline is the CPU time of one forward + backward + Adam step on
one batch of the preset's model; the ratio (preset CPU / step CPU) says how many such steps a preset costs,
evaluations included. CPU time is what one core spends; the wall clock also counts waiting for a core on a shared
machine, so read the wall column only when the machine is quiet.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_core.training import experiments  # noqa: E402
from attn_core.training.choices import preset_choice  # noqa: E402
from attn_core.training.data import repeat_sequences, sample_sentences, toy_language  # noqa: E402
from attn_core.training.loop import adam_start, adam_update  # noqa: E402
from attn_core.training.model import ModelConfig, init_parameters, loss_and_gradients  # noqa: E402
from attn_core.training.presets import PRESETS  # noqa: E402


def model_and_batch(config):
    """The preset's model (its first run) and one training batch of its size."""
    rng = np.random.default_rng(0)
    if isinstance(config, experiments.HeadsExperiment):
        model = ModelConfig(config.vocab_size, config.length, config.d_model, config.heads, config.layers)
        batch = repeat_sequences(config.train.batch_size, config.length, config.vocab_size, config.stretch, rng).data
    else:
        language = toy_language()
        model = ModelConfig(len(language.vocabulary), language.length, config.d_model, config.heads, config.layers,
                            pad_id=0)
        batch = sample_sentences(language, config.train.batch_size, rng)
    return model, batch


def one_step_cpu_seconds(config, repeats: int = 300) -> float:
    """CPU seconds of one training step (forward, backward, Adam), averaged over `repeats`."""
    model, batch = model_and_batch(config)
    params = init_parameters(model, np.random.default_rng(0))
    adam = adam_start(params)
    start = time.process_time()
    for _ in range(repeats):
        _, grads = loss_and_gradients(params, batch.inputs, batch.targets, batch.counted, model)
        adam_update(params, grads, adam, 1e-3)
    return (time.process_time() - start) / repeats


HOG = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


def estimate_errors(hogs: int, hog_seconds: float, every: float) -> None:
    """Each preset through a run board, as the page trains it, with `hogs` busy processes beside it. The board's
    pace is measured first on the quiet machine (as a server's warm-up does at its first page view); then the hogs
    start and each preset trains. Every `every` seconds (the page's redraw) the bench reads what a watcher would
    show: the first estimate (what the status line showed before, through the whole run) and the whole run's
    time as now expected from its own pace (elapsed + time left). Error = shown / real - 1, real = the run's time."""
    import subprocess

    from attn_ui.views.training_runs import RunBoard

    board = RunBoard()
    board.warm_up().join()
    children = [subprocess.Popen([sys.executable, "-c", HOG.format(seconds=hog_seconds)]) for _ in range(hogs)]
    try:
        print(f"{hogs} busy processes beside the runs; a watcher's view every {every} s")
        print(f"{'preset':<8} {'real s':>7} {'first est.':>10} {'error':>7} | pace-based total at 25% 50% 75%"
              f" and the last shown, error")
        for name in PRESETS:
            choice = preset_choice(name)
            run = board.request(choice, "bench")
            seen = []  # (fraction, expected total s)
            while run.active:
                view = run.view()
                if view.status == "training" and view.stages:
                    seen.append((view.fraction, view.expected))
                time.sleep(every)
            real = run.view().elapsed
            first = run.estimate / real - 1
            marks = []
            for mark in (0.25, 0.5, 0.75):
                after = [total for fraction, total in seen if fraction >= mark]
                marks.append(f"{after[0] / real - 1:+6.0%}" if after else "    - ")
            last = f"{seen[-1][1] / real - 1:+6.0%}" if seen else "-"
            print(f"{name:<8} {real:>7.1f} {run.estimate:>10.1f} {first:>+7.0%} | {' '.join(marks)}  last {last}")
    finally:
        for child in children:
            child.kill()
            child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--estimates", action="store_true", help="measure the time estimates' error instead")
    parser.add_argument("--hog", type=int, default=2, help="busy processes beside the runs (--estimates)")
    parser.add_argument("--hog-seconds", type=float, default=300, help="the busy processes end after this")
    parser.add_argument("--every", type=float, default=0.4, help="seconds between two looks (--estimates)")
    args = parser.parse_args()
    if args.estimates:
        estimate_errors(args.hog, args.hog_seconds, args.every)
        return
    print(f"{'preset':<8} {'steps':>6} {'wall s':>7} {'cpu s':>6} {'1 step ms':>10} {'ratio':>7}  first Progress ms")
    for name, preset in PRESETS.items():
        walls, cpus, firsts = [], [], []
        for _ in range(args.repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            progress = preset.progress()
            next(progress)
            firsts.append(time.perf_counter() - wall)
            experiments.run(progress)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        step = one_step_cpu_seconds(preset.config)
        runs = len(getattr(preset.config, "rates", ())) or (2 if name == "mask" else 1)
        steps = preset.config.train.steps * runs
        cpu = statistics.median(cpus)
        print(f"{name:<8} {steps:>6} {statistics.median(walls):>7.2f} {cpu:>6.2f} {step * 1e3:>10.2f} "
              f"{cpu / step:>7.0f}  {statistics.median(firsts) * 1e3:.0f}")


if __name__ == "__main__":
    main()
