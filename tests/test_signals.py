"""SIGINT, SIGTERM and SIGHUP to a running fillsmt: it ends within about a second, with exit
status 128 + the signal's number (130 for Ctrl-C), and no solver or worker process it started is
left. Real processes: the PIDs are read from /proc and checked after the signal."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import DATA, INSTANCES, solver_or_skip
from procs import HAS_PROC, alive, cpu_seconds, descendants

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="needs Linux's /proc")

HARD = str(INSTANCES / "generated" / "30x30-1.txt")  # a minute for z3 without the presolve
TILING_41 = str(INSTANCES.parent / "tiling" / "kalvelagen-41x41.txt")
HANG = f"{sys.executable} {DATA / 'fake_solver.py'} hang"
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
#: How long fillsmt may take to end after the signal: the issue's second (measured: at most
#: 0.5 s at a load average of 7-10 on two cores, most runs under 0.2 s).
GRACE = 1.0


def signalled_run(args: list[str], sig: int, want_children: int = 1, wait: float = 60.0,
                  settle: float = 0.5, cpu: float = 0.0,
                  python: tuple[str, ...] = ("-m", "fillsmt"),
                  stderr: list[str] | None = None) -> tuple[int, float, set[int]]:
    """Start ``fillsmt ARGS``, wait until it has ``want_children`` descendants that are solvers
    (or workers) and ``settle`` seconds more (with ``want_children`` 0: ``settle`` seconds, for a
    command busy in Python or an in-process solver) and until it has used ``cpu`` seconds of CPU
    time (past its imports and its signal handlers' installation, whatever the machine's load),
    send ``sig``: (exit status, seconds to end, the descendants seen). ``python``: how the
    interpreter starts fillsmt; ``stderr``: a list that gets what fillsmt printed there."""
    proc = subprocess.Popen([sys.executable, *python, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and proc.poll() is None:
            seen |= descendants(proc.pid)
            if len([p for p in seen if alive(p)]) >= want_children:
                break
            time.sleep(0.05)
        settled = time.monotonic() + settle  # let the solvers start working
        while proc.poll() is None and time.monotonic() < deadline and (
                time.monotonic() < settled or cpu_seconds(proc.pid) < cpu):
            seen |= descendants(proc.pid)
            time.sleep(0.05)
        assert proc.poll() is None, f"fillsmt ended before the signal: {proc.stderr.read()}"
        assert seen or not want_children, "no solver process was started"
        start = time.monotonic()
        proc.send_signal(sig)
        code = proc.wait(timeout=30)
        seconds = time.monotonic() - start
        if stderr is not None:
            stderr.append(proc.stderr.read())
        return code, seconds, seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def assert_clean_end(code: int, seconds: float, seen: set[int], sig: int, grace: float = GRACE) -> None:
    assert code == 128 + sig
    assert seconds < grace
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


@pytest.mark.parametrize("solver", ["yices", "cvc5", "bitwuzla"])
def test_a_one_shot_run_of_each_solver_binary(solver):
    solver_or_skip(solver)
    sig = signal.SIGTERM
    # Bitwuzla decides no integers (no Fillomino encoding): a long tiling search instead
    puzzle = ["--method", "bounds", TILING_41] if solver == "bitwuzla" else ["--no-presolve", "--no-race", HARD]
    assert_clean_end(*signalled_run(["solve", "-s", solver, *puzzle], sig), sig)


@pytest.mark.parametrize("solver", ["z3-api", "yices-api"])
def test_the_in_process_solvers(solver):
    solver_or_skip(solver)
    sig = signal.SIGTERM
    # reading, encoding, then the solver at work in this process (in a thread)
    assert_clean_end(*signalled_run(["solve", "-s", solver, "--no-presolve", "--no-race", HARD], sig,
                                    want_children=0, settle=3.0, cpu=1.5), sig)


@pytest.mark.parametrize("solver", ["z3-api", "yices-api"])
def test_ctrl_c_stops_the_in_process_solvers(solver):
    # Z3 puts a SIGINT handler of its own in place while it searches: Ctrl-C must still stop
    # fillsmt (exit 130), not end the search with "unknown" (exit 3)
    solver_or_skip(solver)
    sig = signal.SIGINT
    assert_clean_end(*signalled_run(["solve", "-s", solver, "--no-presolve", "--no-race", HARD], sig,
                                    want_children=0, settle=3.0, cpu=1.5), sig)


def test_a_libyices_search_left_running_at_the_signal():
    # with no time to let the search stop, fillsmt leaves it its context and exits with os._exit:
    # no SIGSEGV either (the path a search that ignores the stop request for LET_GO seconds takes)
    solver_or_skip("yices-api")
    sig = signal.SIGTERM
    no_wait = "import fillsmt.engine.interrupts as i; i.LET_GO = 0.0; from fillsmt.cli import main; main()"
    assert_clean_end(*signalled_run(["solve", "-s", "yices-api", "--no-presolve", "--no-race", HARD], sig,
                                    want_children=0, settle=3.0, cpu=1.5, python=("-c", no_wait)), sig)


@pytest.fixture(scope="module")
def empty_grid(tmp_path_factory):
    path = tmp_path_factory.mktemp("signals") / "empty-300.txt"
    path.write_text("300 300\n" + "\n".join(" ".join(["0"] * 300) for _ in range(300)) + "\n")
    return str(path)


@pytest.mark.parametrize("command", [["encode"], ["rate"], ["explain"], ["hint"]], ids=lambda c: c[0])
def test_commands_busy_in_python(command, empty_grid):
    # a minute of presolving, encoding or propagating over 90000 open cells, no solver yet
    sig = signal.SIGTERM
    assert_clean_end(*signalled_run([*command, empty_grid], sig, want_children=0, settle=2.0), sig)


@pytest.mark.parametrize("command", [["count", "-s", "yices", "--no-presolve"], ["minimize"], ["repair"],
                                     ["generate", "--size", "40x40", "--seed", "1"]], ids=lambda c: c[0])
def test_commands_with_solver_sessions(command, tmp_path):
    solver_or_skip("yices")
    sig = signal.SIGINT
    args = [*command] if command[0] == "generate" else [*command, HARD]
    assert_clean_end(*signalled_run(args, sig, want_children=0, settle=3.0), sig)


def test_export(tmp_path):
    solver_or_skip("yices")
    sig = signal.SIGHUP
    args = ["export", "-o", str(tmp_path / "out"), HARD]
    assert_clean_end(*signalled_run(args, sig, want_children=0, settle=3.0), sig)


CLUSTER = """
import sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None)
print(cluster.scheduler_address, flush=True)
time.sleep(600)
"""


def test_bench_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed", reason='needs pip install "dask[distributed]"')
    solver_or_skip("z3")
    cluster = subprocess.Popen([sys.executable, "-c", CLUSTER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    try:
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        sig = signal.SIGTERM
        args = ["bench", HARD, "-s", "z3", "-e", "tree", "--presolve", "off", "--timeout", "120",
                "--csv", str(tmp_path / "runs.csv"), "--no-progress", "--dask", address]
        # fillsmt is the cluster's client: its z3 runs under the cluster, which stops the job at its time-out
        code, seconds, _ = signalled_run(args, sig, want_children=0, settle=4.0)
        assert code == 128 + sig
        assert seconds < GRACE
    finally:
        # the job's z3 runs under the cluster, not fillsmt: end it first, so that the cluster's
        # job sees its solver end and removes its run folders, then end the cluster (killed
        # first, the cluster would leave z3 running on for a minute, orphaned)
        for pid in descendants(cluster.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(1.0)
        cluster.kill()
        cluster.wait()
        cluster.stdout.close()
