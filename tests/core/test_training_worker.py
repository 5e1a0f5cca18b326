"""Training in a child process (attn_core/training/worker.py): the same Progress as in this process, the child
at its set priority, killed when the caller leaves, a failure reported with the child's own words, and a host
that cannot start processes still trains."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from attn_core.training import worker
from attn_core.training.choices import TrainChoice, coerce


def short(experiment: str = "mask", **changes) -> TrainChoice:
    choice, notes = coerce(experiment, steps=100, seed=7, **changes)
    assert not notes
    return choice


def workers_of_this_process() -> list[int]:
    """Running children of this process that are training processes."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        state = stat.rsplit(")", 1)[1].split()[0]
        if parent == os.getpid() and b"attn_core.training.worker" in command and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("experiment", ["mask", "heads", "dropout"])
def test_a_run_in_a_child_is_the_run_in_this_process(experiment):
    choice = short(experiment)
    elsewhere = list(worker.progress_elsewhere(choice))
    here = list(choice.progress())
    assert elsewhere == here
    assert elsewhere[-1].result is not None and elsewhere[-1].result == here[-1].result
    assert workers_of_this_process() == []


def test_the_child_runs_at_its_set_priority_and_dies_when_the_caller_leaves():
    choice = short("heads")
    with contextlib.closing(worker.progress_elsewhere(choice)) as steps:
        next(steps)
        (pid,) = workers_of_this_process()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        # field 19 of stat: nice. The kernel caps nice at 19, so a caller already niced (a CI runner under
        # `nice -n 19`) gets a child at 19, not above it
        assert int(stat[16]) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + worker.NICE)
    deadline = time.monotonic() + 5
    while workers_of_this_process() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert workers_of_this_process() == [], "leaving the run must kill its process"


def test_a_failing_run_reports_the_childs_error():
    forged = TrainChoice(experiment="nonsense")  # no such preset: the child's run raises at its start
    with pytest.raises(worker.WorkerFailed, match=r"exit code 1\): KeyError: 'nonsense'$") as failure:
        list(worker.progress_elsewhere(forged))
    assert "Traceback" not in str(failure.value) and "\n" not in str(failure.value)
    assert workers_of_this_process() == []


def test_a_killed_child_is_a_failure_not_a_hang():
    with contextlib.closing(worker.progress_elsewhere(short("mask"))) as steps:
        next(steps)
        (pid,) = workers_of_this_process()
        os.kill(pid, 9)
        with pytest.raises(worker.WorkerFailed, match="exit code -9"):
            for _ in steps:
                pass


def test_a_child_that_stops_sending_is_killed_and_reported():
    # the stall counts from the child's start too: 5 s leaves room for its imports on a busy machine (1 s did not)
    steps = worker.progress_elsewhere(short("heads"), stall=5.0)
    next(steps)
    (pid,) = workers_of_this_process()
    os.kill(pid, signal.SIGSTOP)  # alive, but silent: the way a stuck run looks from outside
    began = time.monotonic()
    with pytest.raises(worker.WorkerFailed, match=r"stalled \(nothing for 5 s\)"):
        for _ in steps:
            pass
    assert time.monotonic() - began < 20
    assert workers_of_this_process() == []


def test_where_no_process_can_start_the_run_happens_here(monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise PermissionError("processes are not allowed here")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    choice = short("dropout")
    assert list(worker.progress_elsewhere(choice)) == list(choice.progress())
    assert "training in this process instead" in caplog.text
