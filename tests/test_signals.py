"""SIGINT, SIGTERM and SIGHUP to a running fillsmt: it ends within about a second, with exit
status 128 + the signal's number (130 for Ctrl-C), and no solver or worker process it started is
left (issue 20). Real processes: the PIDs are read from /proc and checked after the signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import DATA, INSTANCES, solver_or_skip
from procs import HAS_PROC, alive, descendants

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="needs Linux's /proc")

HARD = str(INSTANCES / "generated" / "30x30-1.txt")  # a minute for z3 without the presolve
HANG = f"{sys.executable} {DATA / 'fake_solver.py'} hang"
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
#: How long fillsmt may take to end after the signal: a second, plus slack for a loaded machine.
GRACE = 1.0


def signalled_run(args: list[str], sig: int, want_children: int = 1, wait: float = 60.0) -> tuple[int, float, set[int]]:
    """Start ``fillsmt ARGS``, wait until it has ``want_children`` descendants that are solvers
    (or workers), send ``sig``: (exit status, seconds to end, the descendants seen)."""
    proc = subprocess.Popen([sys.executable, "-m", "fillsmt", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and proc.poll() is None:
            seen |= descendants(proc.pid)
            if len([p for p in seen if alive(p)]) >= want_children:
                time.sleep(0.5)  # let the solvers start working
                seen |= descendants(proc.pid)
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"fillsmt ended before the signal: {proc.stderr.read()}"
        assert seen, "no solver process was started"
        start = time.monotonic()
        proc.send_signal(sig)
        code = proc.wait(timeout=30)
        return code, time.monotonic() - start, seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def assert_clean_end(code: int, seconds: float, seen: set[int], sig: int) -> None:
    print(f"\nSIGNAL-END {seconds:.3f}")
    assert code == 128 + sig
    assert seconds < GRACE
    deadline = time.monotonic() + 1.0
    while any(alive(p) for p in seen) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [p for p in seen if alive(p)], "solver processes were left running"


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_one_shot_z3_run(sig):
    solver_or_skip("z3")
    assert_clean_end(*signalled_run(["solve", "-s", "z3", "--no-presolve", HARD], sig), sig)


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_solver_command_and_its_children(sig):
    assert_clean_end(*signalled_run(["solve", "--solver-cmd", HANG, HARD], sig, want_children=2), sig)


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_unique_session(sig):
    solver_or_skip("yices")
    assert_clean_end(*signalled_run(["solve", "--unique", "-s", "yices", "--no-presolve", HARD], sig), sig)


def test_a_session_of_a_solver_command():
    sig = signal.SIGTERM
    assert_clean_end(*signalled_run(["count", "--solver-cmd", HANG, HARD], sig, want_children=2), sig)


def test_the_portfolio():
    solver_or_skip("yices"), solver_or_skip("z3")
    sig = signal.SIGTERM
    assert_clean_end(*signalled_run(["solve", "-s", "portfolio", "--no-presolve", HARD], sig, want_children=2), sig)


def test_the_pysmt_worker():
    solver_or_skip("pysmt")
    sig = signal.SIGTERM
    assert_clean_end(*signalled_run(["solve", "-s", "pysmt", "--no-presolve", HARD], sig), sig)


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_bench_with_two_jobs(sig, tmp_path):
    solver_or_skip("z3")
    csv = tmp_path / "runs.csv"
    args = ["bench", HARD, str(INSTANCES / "generated" / "30x30-1.txt"), str(INSTANCES / "generated" / "20x20-2.txt"),
            "-s", "z3", "-e", "tree", "--presolve", "off", "--jobs", "2", "--timeout", "120",
            "--csv", str(csv), "--no-progress"]
    # two workers, each with its z3
    assert_clean_end(*signalled_run(args, sig, want_children=4), sig)


def test_the_in_process_z3_api():
    solver_or_skip("z3-api")
    sig = signal.SIGTERM
    proc = subprocess.Popen([sys.executable, "-m", "fillsmt", "solve", "-s", "z3-api", "--no-presolve", HARD],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # reading, encoding, then z3 at work in this process
    assert proc.poll() is None
    start = time.monotonic()
    proc.send_signal(sig)
    assert proc.wait(timeout=30) == 128 + sig
    assert time.monotonic() - start < GRACE
