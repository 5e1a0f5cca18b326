"""Train a choice in a child Python process and stream its Progress back, so a server's sessions keep their core.

Why a process: the models are 32 wide, so a training step spends most of its time in Python, holding the
interpreter's lock. A run in a server thread therefore slows every session's reruns, and under a whole class
they starve each other. A child has its own interpreter, on a two-core machine its own core, and it runs at a
priority set by NICE (measured below).

    for progress in progress_elsewhere(choice):   # choice.progress()'s values, on the one pinned BLAS kernel
        ...
    # leaving the loop early (break, an exception, close()) kills the child at once

The protocol: the parent starts `python -m attn_core.training.worker` and writes the pickled choice to its
stdin; the child writes each Progress as a frame (8-byte length, then the pickle) to its stdout and exits.
Pickle is safe here: both ends are this code and the pipes belong to the parent alone.

Where a host refuses to start a process, `progress_elsewhere` says so in its log and trains in the caller's
thread instead (slower for the other sessions, but the run still happens, on this CPU's own BLAS kernel).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import pickle
import platform
import select
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

# The child's niceness above its parent's: the server's sessions come first, a run takes what they leave. Measured
# with bench/load_training.py on a replica of one core (--cores 1: 150 preset presses, 8 custom, 20 Lab sessions;
# the slower of two machines), at 0 / +10: Train -> curves p95 10.8 / 1.27 s, Lab clicks p95 4.7 / 1.2 s, and the
# runs finished no later (median 110 / 98 s), since the core was full either way. Earlier, on two cores with two
# busy processes of other work beside it, +5 / +2 / 0 had the runs finish after 48 / 21 / 14 s (median) with Lab
# clicks p95 215 / 438 / 495 ms: on a host shared with other work a niced run waits longer.
NICE = 10
FRAME = struct.Struct(">Q")  # a frame's length
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds attn_core
STALL_SECONDS = 60.0  # a Progress comes every few hundred steps, under 1 s of CPU; a minute of nothing is a stuck run
STDERR_KEPT = 2000  # characters of a failed child's stderr kept in the error
LOG = logging.getLogger(__name__)


class WorkerFailed(RuntimeError):
    """The child ended without its last Progress (a crash, a kill, an error in the run)."""


ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")  # BLAS's own threads would spin on
# 32-wide matrices (measured: three times the CPU for the same run) and take the server's core


# The child's BLAS kernel, the same on every x86-64 machine. OpenBLAS picks a matrix kernel by CPU (here Haswell
# on an AVX2 EPYC, SkylakeX on an AVX-512 Xeon) and each rounds the last bit of a product its own way; training
# grows those bits into other curves (the dropout preset differed from step 125 on). Nehalem's kernel runs on
# every CPU NumPy 2 itself runs on (its wheels need x86-64-v2, Nehalem's instruction set), so pinning it gives
# one answer everywhere. Measured on the dropout preset, one core: 18.2-19.5 s against 18.2 s on Haswell's
# kernel, within the noise of that machine (docs/training.md).
BLAS_KERNEL = "Nehalem"


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(dict.fromkeys(ONE_THREAD, "1"))
    if platform.machine().lower() in ("x86_64", "amd64"):
        env["OPENBLAS_CORETYPE"] = BLAS_KERNEL  # read by OpenBLAS when NumPy loads it, so only at a start
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _start(choice, errors) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-m", "attn_core.training.worker", str(NICE)], bufsize=0,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=_child_env(),
                             cwd=str(PACKAGE_ROOT))  # unbuffered: select() then sees every byte not yet read
    with contextlib.suppress(OSError):  # a child that died before reading: its stderr says why, later
        child.stdin.write(pickle.dumps(choice, protocol=pickle.HIGHEST_PROTOCOL))
        child.stdin.close()
    return child


def _read_exactly(stream, size: int, stall: float) -> bytes | None:
    """`size` bytes from the child's unbuffered stdout; None at its end. Raises TimeoutError when no byte comes
    for `stall` seconds (where the platform can wait on a pipe: not on Windows)."""
    data = bytearray()
    while len(data) < size:
        if os.name != "nt":
            ready, __, __ = select.select([stream], [], [], stall)
            if not ready:
                raise TimeoutError
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _failure(child: subprocess.Popen, errors) -> WorkerFailed:
    code = child.wait()
    errors.seek(0)
    tail = errors.read().decode("utf-8", "replace")[-STDERR_KEPT:].strip()
    if tail:
        LOG.error("the training process ended early (exit code %s):\n%s", code, tail)
    last = tail.splitlines()[-1][:200] if tail else ""  # the error's own line, never a traceback on screen
    return WorkerFailed(f"the training process ended early (exit code {code}){': ' + last if last else ''}")


def progress_elsewhere(choice, stall: float = STALL_SECONDS) -> Iterator:
    """choice.progress(), computed in a child process. Raises WorkerFailed if the child ends before the last
    Progress (the one with the result), or sends nothing for `stall` seconds (then it is killed): a stuck run
    must not hold the server's one training slot for ever."""
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a chatty child can never block on it
        try:
            child = _start(choice, errors)
        except OSError as error:
            LOG.warning("cannot start a training process (%s); training in this process instead, on this CPU's own "
                        "BLAS kernel, so its last digits may differ from the shipped presets'", error)
            yield from choice.progress()
            return
        try:
            while True:
                try:
                    header = _read_exactly(child.stdout, FRAME.size, stall)
                    body = None if header is None else _read_exactly(child.stdout, FRAME.unpack(header)[0], stall)
                except TimeoutError:
                    child.kill()
                    child.wait()
                    LOG.error("the training process sent nothing for %.0f s and was stopped: %r", stall, choice)
                    raise WorkerFailed(f"the training process stalled (nothing for {stall:.0f} s)") from None
                if body is None:
                    raise _failure(child, errors)
                progress = pickle.loads(body)
                yield progress
                if progress.result is not None:
                    return
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
            child.stdout.close()


def blas_kernel() -> str | None:
    """The matrix kernel NumPy's OpenBLAS runs in this process ("Nehalem", "Haswell", ...); None if unknown."""
    import numpy  # noqa: F401 (loads OpenBLAS)

    folder = Path(numpy.__file__).resolve().parent.parent / "numpy.libs"
    for library in sorted(folder.glob("*openblas*.so*")):
        with contextlib.suppress(OSError):
            loaded = ctypes.CDLL(str(library))
            for symbol in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename", "openblas_get_corename64_",
                           "openblas_get_corename"):
                function = getattr(loaded, symbol, None)
                if function is not None:
                    function.restype = ctypes.c_char_p
                    return function().decode().strip()
    return None


def _serve(nice: int) -> None:
    """The child: read a choice from stdin, write its Progress frames to stdout."""
    if nice:
        with contextlib.suppress(OSError):  # a host may refuse; the run is the same, only its priority differs
            os.nice(nice)
    choice = pickle.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer
    for progress in choice.progress():
        body = pickle.dumps(progress, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(FRAME.pack(len(body)) + body)
        out.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["--kernel"]:  # what a child of this machine trains on (tests/core/test_training_presets.py)
        print(blas_kernel())
    else:
        _serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
