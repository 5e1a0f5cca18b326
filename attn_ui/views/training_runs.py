"""Training runs shared by every session on the server: one run per choice, a bounded number training at once.

A session that presses Train asks the board for the run of its choice. If another session already started the
same run, it watches that one; if the run has finished before, its result comes from state.cached_training at
once. Otherwise a worker thread queues for a free slot (first come, first served), trains through
state.cached_training (which caches the result for everyone, and trains in a child process so that the server's
sessions keep their core) and tells every watcher each Progress. A watcher
that presses Stop leaves the run; a run nobody watches any more stops at its next Progress.

The board is a resource (st.cache_resource), not module state: it holds threads and locks, never a student's
data. Its numbers are wall-clock seconds measured on this server, so a slow host gives honest estimates.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from attn_core.training.choices import EXPERIMENTS, TrainChoice, preset_choice
from attn_core.training.experiments import STAGE_DONE, Curve, Progress
from attn_core.training.worker import progress_elsewhere
from attn_ui.widgets.state import RunStopped, cached_training

TRUST_PACE_AFTER = 0.1  # share of a run done from which its own pace alone sets the time left (before: blended)
SLOTS = 1  # runs training at once: each is a process that takes a whole core, and the server needs the other
FINISHED_KEPT = 128  # finished choices the board remembers; fewer than cached_training keeps, so it never misses
LOG = logging.getLogger(__name__)


@dataclass(eq=False)
class LiveRun:
    """One run, shared by its watchers. Every field is read and written under `condition`."""

    choice: TrainChoice
    estimate: float  # seconds of training, as estimated when it was queued
    status: str = "waiting"  # waiting -> training -> done | stopped | failed
    stages: list = field(default_factory=list)  # [(stage key, curves so far)], one entry a model trained
    fraction: float = 0.0
    result: object = None
    error: str = ""  # what went wrong, as the exception said it (shared by every watcher: not translated)
    version: int = 0  # counts changes, so a watcher redraws only when something moved
    watchers: set = field(default_factory=set)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)  # a test may slow time down
    queued_at: float | None = None  # set from `clock` when made
    started_at: float | None = None
    paced_from: tuple[float, float] | None = None  # (moment, fraction) of the first Progress: the pace counts from it
    finished_at: float | None = None
    condition: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def __post_init__(self) -> None:
        if self.queued_at is None:
            self.queued_at = self.clock()

    @property
    def active(self) -> bool:
        return self.status in ("waiting", "training")

    def publish(self, progress: Progress) -> bool:
        """Take one Progress; False when nobody watches any more, which stops the run."""
        with self.condition:
            if self.stages and self.stages[-1][0] == progress.stage or progress.stage == STAGE_DONE:
                if self.stages:
                    self.stages[-1] = (self.stages[-1][0], progress.curves)
            else:
                self.stages.append((progress.stage, progress.curves))
            self.fraction = progress.fraction
            if self.paced_from is None:  # the process has started and read its data: from here on it trains
                self.paced_from = (self.clock(), progress.fraction)
            self._changed()
            return bool(self.watchers)

    def set_status(self, status: str, result: object = None, error: str = "") -> None:
        with self.condition:
            self.status, self.result, self.error = status, result, error
            now = self.clock()
            if status == "training":
                self.started_at = now
            elif status in ("done", "stopped", "failed"):
                self.finished_at = now
            self._changed()

    def _changed(self) -> None:
        self.version += 1
        self.condition.notify_all()

    def wait_until_over(self, timeout: float) -> None:
        """Sleep until the run has ended, or `timeout` seconds (a watcher's rest between two redraws)."""
        with self.condition:
            self.condition.wait_for(lambda: not self.active, timeout)

    def view(self) -> RunView:
        with self.condition:
            now = self.clock()
            elapsed = (self.finished_at or now) - (self.started_at or now)
            paced = None if self.paced_from is None else (now - self.paced_from[0], self.paced_from[1])
            left = time_left(self.estimate, elapsed, self.fraction, paced) if self.active else 0.0
            return RunView(self.status, tuple(self.stages), self.fraction, self.result, self.error, self.version,
                           elapsed, now - self.queued_at, self.estimate, left)


def time_left(estimate: float, elapsed: float, fraction: float, paced: tuple[float, float] | None) -> float:
    """Seconds a run still needs, from its own pace: the time spent since its first Progress over the share of the
    run done since, times the share left. `paced` is (seconds since the first Progress, its fraction); None before
    it. Until TRUST_PACE_AFTER of the run is done, the first estimate still counts, less and less, so one early
    stretch (an evaluation, a busy moment) does not swing the figure."""
    prior = max(estimate - elapsed, 0.0) if fraction <= 0 else (1 - fraction) * estimate
    if paced is None:
        return prior
    spent, start_fraction = paced
    done = fraction - start_fraction
    if done <= 0:
        return max(prior, 0.0)
    own = spent / done * (1 - fraction)
    trust = min(1.0, done / TRUST_PACE_AFTER)
    return trust * own + (1 - trust) * prior


@dataclass(frozen=True)
class RunView:
    """What one watcher draws: a consistent copy of a LiveRun at one moment."""

    status: str
    stages: tuple[tuple[str, tuple[Curve, ...]], ...]
    fraction: float
    result: object
    error: str
    version: int
    elapsed: float  # seconds training so far (or in all, when finished)
    queued_for: float  # seconds since it was asked for
    estimate: float  # seconds of training, as first estimated (before it started)
    left: float  # seconds still to go, from the run's own pace so far (time_left); 0 once it has ended

    @property
    def expected(self) -> float:
        """The whole run's seconds as now expected: spent so far plus still to go."""
        return self.elapsed + self.left


class RunBoard:
    """The server's runs: live ones by choice, a first-come queue for the training slots, measured speeds."""

    def __init__(self, slots: int = SLOTS, clock: Callable[[], float] = time.monotonic) -> None:
        self.slots, self.clock = slots, clock  # the runs' clock (a test may slow it down)
        self.lock = threading.Condition()
        self.live: dict[str, LiveRun] = {}  # repr(choice) -> the run, while waiting or training
        self.queue: collections.deque[LiveRun] = collections.deque()  # waiting runs, oldest first
        self.running: list[LiveRun] = []
        self.finished: collections.OrderedDict[str, None] = collections.OrderedDict()  # in cached_training
        self.pace: dict[tuple, tuple[float, float]] = {}  # shape -> (s a step of one model, s to start)
        self.calibrating = threading.Lock()
        self.warming: threading.Thread | None = None

    def warm_up(self) -> threading.Thread:
        """Time the presets' shapes in the background, so the first class to press Train on a preset never waits
        for a calibration (measured: it had pushed the p95 time to curves from 0.4 to 2 s on a busy machine). Once
        a server: a later call returns the same thread. The training page calls it after its panel is drawn, so the
        timing runs (a training process each) do not compete with drawing the first page view."""
        with self.lock:
            if self.warming is not None:
                return self.warming
            self.warming = threading.Thread(target=self._calibrate_presets, name="calibrate presets", daemon=True)
        self.warming.start()
        return self.warming

    def _calibrate_presets(self) -> None:
        for experiment in EXPERIMENTS:
            try:
                self._pace(preset_choice(experiment))
            except Exception:  # a failed warm-up only means the first press calibrates, as before
                LOG.exception("warming up the training estimate of %s failed", experiment)

    # --- asking for runs -------------------------------------------------------------------------------

    def request(self, choice: TrainChoice, watcher: str) -> LiveRun:
        """The run of this choice, watched by `watcher`: live, finished, or newly queued."""
        key = repr(choice)
        with self.lock:
            run = self.live.get(key)
            if run is not None:
                with run.condition:
                    run.watchers.add(watcher)
                return run
            finished = key in self.finished
            if finished:
                self.finished.move_to_end(key)
        if finished:
            run = LiveRun(choice, 0.0, watchers={watcher}, clock=self.clock)
            run.set_status("done", cached_training(choice))
            return run
        run = LiveRun(choice, self.estimate(choice), watchers={watcher}, clock=self.clock)
        with self.lock:
            self.live[key] = run
            self.queue.append(run)
        threading.Thread(target=self._work, args=(run,), name=f"train {choice.experiment}", daemon=True).start()
        return run

    def release(self, run: LiveRun, watcher: str) -> None:
        """`watcher` leaves the run; with nobody left, it stops (in the queue at once, training at its next step)."""
        with run.condition:
            run.watchers.discard(watcher)
        with self.lock:
            self.lock.notify_all()

    def is_finished(self, choice: TrainChoice) -> bool:
        with self.lock:
            return repr(choice) in self.finished

    def ahead_of(self, run: LiveRun) -> tuple[int, float]:
        """(runs before this one, seconds until it can start), from their estimates and how far they are."""
        with self.lock:
            before = [*self.running, *self.queue]
        seconds, count = 0.0, 0
        for other in before:
            if other is run:
                break
            seconds += other.view().left
            count += 1
        return count, seconds

    # --- the worker --------------------------------------------------------------------------------------

    def _work(self, run: LiveRun) -> None:
        key = repr(run.choice)
        if not self._take_slot(run):
            run.set_status("stopped")
            self._forget(run, key)
            return
        run.set_status("training")
        try:
            result = cached_training(run.choice, _live=run)
        except RunStopped:
            run.set_status("stopped")
        except Exception as error:  # a failed run must reach its watchers as a message, not kill the server
            LOG.exception("training run failed: %r", run.choice)
            run.set_status("failed", error=str(error))
        else:
            with self.lock:
                self.finished[key] = None
                while len(self.finished) > FINISHED_KEPT:
                    self.finished.popitem(last=False)
            self._measured(run)
            run.set_status("done", result)
        finally:
            with self.lock:
                if run in self.running:
                    self.running.remove(run)
                self.lock.notify_all()
            self._forget(run, key)

    def _take_slot(self, run: LiveRun) -> bool:
        """Wait at the queue until this run is first and a slot is free; False if everyone left meanwhile."""
        def ready() -> bool:
            return not run.watchers or (self.queue[0] is run and len(self.running) < self.slots)

        with self.lock:
            self.lock.wait_for(ready)
            self.queue.remove(run)
            self.lock.notify_all()
            if not run.watchers:
                return False
            self.running.append(run)
            return True

    def _forget(self, run: LiveRun, key: str) -> None:
        with self.lock:
            if self.live.get(key) is run:
                del self.live[key]

    # --- how long a run takes ----------------------------------------------------------------------------

    def estimate(self, choice: TrainChoice) -> float:
        """Seconds the run will train on this server, from the measured pace of its model's shape."""
        per_step, start = self._pace(choice)
        return start + per_step * choice.steps * choice.models

    def known_estimate(self, choice: TrainChoice) -> float | None:
        """The estimate when its shape's pace is known already, else None (estimate() would time it first)."""
        with self.lock:
            known = self.pace.get(_shape(choice))
        if known is None:
            return None
        per_step, start = known
        return start + per_step * choice.steps * choice.models

    def _pace(self, choice: TrainChoice) -> tuple[float, float]:
        shape = _shape(choice)
        with self.lock:
            known = self.pace.get(shape)
        if known is not None:
            return known
        with self.calibrating:  # one session measures; the others wait for its figure
            with self.lock:
                known = self.pace.get(shape)
            if known is None:
                known = calibrate(choice)
                with self.lock:
                    self.pace[shape] = known
        return known

    def _measured(self, run: LiveRun) -> None:
        """A finished run's own pace replaces the calibration: it counts every evaluation and the final scores."""
        view = run.view()
        steps = run.choice.steps * run.choice.models
        with self.lock:
            __, start = self.pace.get(_shape(run.choice), (0.0, 0.0))
            self.pace[_shape(run.choice)] = (max(view.elapsed - start, 0.0) / steps, start)


def _shape(choice: TrainChoice) -> tuple:
    return choice.experiment, choice.heads, choice.layers


CALIBRATION_STRETCHES = 3  # training stretches timed for a first estimate; their median is the pace


def calibrate(choice: TrainChoice) -> tuple[float, float]:
    """(seconds a training step of one model, seconds before the first step), timed on the choice's own run in
    a training process, as a real run is: its first Progress (the process starting, the data and the first
    evaluation), then the median of the next few stretches (log_every steps and one evaluation each), so one
    stretch slowed by other work on the machine does not double the estimate. Leaving the run kills the process."""
    stretches = []
    with contextlib.closing(progress_elsewhere(choice)) as steps:
        begin = time.perf_counter()
        next(steps)
        started = last = time.perf_counter()
        for progress in steps:
            now = time.perf_counter()
            stretches.append(now - last)
            last = now
            if len(stretches) == CALIBRATION_STRETCHES or progress.result is not None:
                break
    per_step = statistics.median(stretches) / choice.config.train.log_every
    return per_step, started - begin


@st.cache_resource(show_spinner=False)
def run_board() -> RunBoard:
    """The one board of the server (a resource: threads and locks, shared on purpose); the training page starts
    measuring its presets' pace (warm_up) once its first view is drawn."""
    return RunBoard()
