"""Measuring one-shot solver runs as SMT-COMP does: BenchExec where cgroups can be used, else an
address-space limit and ``getrusage``.

A benchmark worker turns measurement on for one job (:func:`measuring`); while it is on, every
one-shot run of a solver as a command on a script (:func:`fillsmt.drivers.process.run_process`
with no stop event and no CPU share: a solver binary, a ``--solver-cmd`` command, an API
solver's worker process) goes through one of two runners, and what each run cost is kept in the
job's ledger (:func:`taken`):

* ``benchexec``: BenchExec's :class:`~benchexec.runexecutor.RunExecutor` (cgroups; no container)
  runs the command under the wall-clock time-out (the run is stopped at it here: BenchExec's own
  wall-time limit acts up to a second late), a CPU-time limit of the time-out times the
  cores it may use, the memory limit and the pinned cores, and reports the CPU time of the
  solver and every process it started, its wall time and its peak memory. It needs root (or a
  delegated cgroup) and the cpuacct, memory and freezer cgroups.
* ``rlimit``: where BenchExec cannot use cgroups, the same process runner as always, with the
  memory limit set as the solver's address-space limit (``RLIMIT_AS``) and the solver's CPU time
  and peak resident memory read by ``wait4``. The limit counts address space, not memory used, and
  the memory is the solver process's alone (not its children's): both are approximate, and a run
  is a memout only when the solver says it ran out of memory or dies of a failed allocation.

Interactive sessions, races and solvers inside fillsmt's process do not come here: they keep
fillsmt's own measurement, and a row says which (:data:`NOT_MEASURED`).
"""

from __future__ import annotations

import functools
import logging
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from fillsmt import limits
from fillsmt.drivers import process
from fillsmt.drivers.process import OWN_GROUP, ProcessOutcome
from fillsmt.engine.interrupts import uninterrupted

BENCHEXEC = "benchexec"
RLIMIT = "rlimit"
AUTO = "auto"
MODES = (AUTO, BENCHEXEC, RLIMIT)
NOT_MEASURED = ("session", "race", "in-process", "none")
"""The ``measured`` values of rows whose solver did not run as a one-shot command: an incremental
session, a race, a solver inside fillsmt's process, no solver at all (the presolve answered)."""

_OUT_OF_MEMORY = re.compile(
    r"out of memory|bad_alloc|MemoryError|cannot allocate|memory exhausted|memory limit|ENOMEM", re.IGNORECASE
)
_ALLOCATION_DEATHS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGKILL)
_POLL = 0.05
"""Seconds between looks at a BenchExec run (its end is seen at once) for its wall-clock time-out."""


class Limits(NamedTuple):
    """How the runs of one job are measured: ``mode`` (:data:`MODES`), the memory limit in MB of
    10^6 bytes (None: none), and how many cores BenchExec pins each run to (None: not pinned; the
    cores are the worker's own, :func:`pin_slot`)."""

    mode: str = AUTO
    memlimit_mb: int | None = None
    cores: int | None = None


@dataclass
class Measurement:
    """What one solver run cost: how it was measured, wall and CPU seconds, peak memory in bytes
    (None when not measured), and whether it hit the memory limit."""

    how: str
    wall: float
    cpu: float | None
    memory: int | None
    memout: bool = False
    memlimit_mb: int | None = None


class _State(threading.local):
    """What this thread measures (a Dask worker runs jobs in threads): the job's limits, its
    ledger, the worker's slot, and its RunExecutor (BenchExec keeps one per thread)."""

    def __init__(self) -> None:
        self.limits: Limits | None = None
        self.ledger: list[Measurement] = []
        self.slot = 0
        self.executor = None


_state = _State()


@functools.lru_cache(maxsize=1)
def _probe() -> str:
    """Why BenchExec cannot use cgroups in this process, or "" (tried once)."""
    if not logging.getLogger().handlers:  # BenchExec logs on the root logger; its notes are not ours
        logging.getLogger().addHandler(logging.NullHandler())
    try:
        from benchexec.runexecutor import RunExecutor
    except ImportError:
        return "the benchexec package is not installed (pip install benchexec)"
    try:
        executor = RunExecutor(use_namespaces=False)
    except BaseException as e:  # BenchExec exits (SystemExit) when a cgroup it needs is missing
        return f"BenchExec cannot use cgroups here ({' '.join(str(e).split()) or type(e).__name__})"
    cgroups = executor.cgroups
    missing = [name for name in ("CPU", "MEMORY", "FREEZE") if getattr(cgroups, name) not in cgroups]
    if missing:
        return f"BenchExec cannot use the {', '.join(m.lower() for m in missing)} cgroups here"
    _state.executor = executor
    return ""


def _executor():
    """This thread's RunExecutor, or None and the one-line reason BenchExec cannot use cgroups here."""
    reason = _probe()
    if reason:
        return None, reason
    if _state.executor is None:
        from benchexec.runexecutor import RunExecutor

        _state.executor = RunExecutor(use_namespaces=False)
    return _state.executor, ""


def benchexec_reason() -> str:
    """Why BenchExec cannot measure runs in this process ("" when it can)."""
    return _executor()[1]


def resolve(mode: str) -> str:
    """The runner a mode picks here: ``auto`` is BenchExec where it can run, else ``rlimit``."""
    if mode == AUTO:
        return RLIMIT if benchexec_reason() else BENCHEXEC
    return mode


def can_pin() -> bool:
    """Whether BenchExec can pin runs to cores here (the cpuset cgroup)."""
    executor, _ = _executor()
    return executor is not None and executor.cgroups.CPUSET in executor.cgroups


def pin_slot(slot: int) -> None:
    """This process is the ``slot``-th of the workers running at once: with ``cores`` = N, its runs
    get the N cores from the ``slot`` × N-th of the cores this process may use."""
    _state.slot = slot


def run_cores(count: int | None) -> tuple[int, ...] | None:
    """The cores a run of this worker is pinned to, for ``count`` cores a run (None: not pinned)."""
    if not count:
        return None
    usable = sorted(os.sched_getaffinity(0))
    chosen = usable[_state.slot * count : (_state.slot + 1) * count]
    return tuple(chosen) if len(chosen) == count else tuple(usable[:count])


@contextmanager
def measuring(chosen: Limits | None) -> Iterator[list[Measurement]]:
    """Measure every one-shot solver run inside the block under ``chosen`` (nothing when None);
    yields the ledger the runs are added to."""
    ledger: list[Measurement] = []
    before = (_state.limits, _state.ledger)
    _state.limits, _state.ledger = chosen, ledger
    if chosen is not None:
        process.measure_one_shot_runs(_run)
    try:
        yield ledger
    finally:
        _state.limits, _state.ledger = before


def _run(argv: list[str], stdin_text: str, timeout: float | None) -> ProcessOutcome | None:
    """A one-shot run, measured when this thread measures (else None: run as always)."""
    chosen = _state.limits
    if chosen is None:
        return None
    if resolve(chosen.mode) == BENCHEXEC:
        outcome, measured = _benchexec(argv, stdin_text, timeout, chosen)
    else:
        outcome, measured = _rlimit(argv, stdin_text, timeout, chosen)
    _state.ledger.append(measured)
    return outcome


def _cpu_limit(timeout: float | None, cores: tuple[int, ...] | None) -> float | None:
    """The CPU-time limit of a run: the time-out on every core it may use (a solver with several
    threads may answer within the wall-clock time-out; the sequential score then drops it)."""
    if timeout is None:
        return None
    return timeout * (len(cores) if cores else os.cpu_count() or 1)


def _benchexec(argv, stdin_text, timeout, chosen: Limits) -> tuple[ProcessOutcome, Measurement]:
    executor, reason = _executor()
    if executor is None:
        raise OSError(reason)
    cores = run_cores(chosen.cores)
    with _run_folder() as folder:
        script, out, err = (os.path.join(folder, name) for name in ("script.smt2", "stdout", "stderr"))
        with open(script, "w", encoding="utf-8") as f:
            f.write(stdin_text)
        with open(script, "rb") as stdin:
            result, stopped_at_timeout = _execute(
                executor,
                dict(
                    args=argv,
                    output_filename=out,
                    error_filename=err,
                    write_header=False,
                    stdin=stdin,
                    walltimelimit=None if timeout is None else max(timeout, 0.001),
                    hardtimelimit=_cpu_limit(timeout, cores),
                    memlimit=None if chosen.memlimit_mb is None else chosen.memlimit_mb * 1_000_000,
                    cores=list(cores) if cores else None,
                    maxLogfileSize=limits.max_output(),
                ),
                timeout,
                chosen,
            )
        stdout, stderr = (_read(path) for path in (out, err))
    reason = result.get("terminationreason", "")
    code = result.get("exitcode")
    returncode = None if code is None else (code.value if code.signal is None else -code.signal)
    measured = _measurement(result, chosen)
    wall = measured.wall
    outcome = ProcessOutcome(
        stdout,
        stderr,
        returncode,
        reason in ("cputime", "cputime-soft", "walltime") or (stopped_at_timeout and not measured.memout),
        wall,
        overflowed="WARNING: YOUR LOGFILE WAS TOO LONG" in stdout,
        memout=measured.memout,
    )
    return outcome, measured


@contextmanager
def _run_folder() -> Iterator[str]:
    """A folder of its own for one BenchExec run (its script and output files), removed after
    it, also when a time limit or a signal ends the run: the removal is not interrupted
    (:func:`fillsmt.engine.interrupts.uninterrupted`), which would leave the folder behind."""
    folder = tempfile.mkdtemp(prefix="fillsmt-run-")
    try:
        yield folder
    finally:
        _remove_folder(folder)


@uninterrupted
def _remove_folder(folder: str) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def _measurement(result: dict, chosen: Limits) -> Measurement:
    return Measurement(
        BENCHEXEC,
        float(result.get("walltime", 0.0)),
        float(result.get("cputime", 0.0)),
        result.get("memory"),
        result.get("terminationreason", "") == "memory",
        chosen.memlimit_mb,
    )


def _execute(executor, arguments: dict, timeout: float | None, chosen: Limits) -> tuple[dict, bool]:
    """``executor.execute_run(**arguments)`` in a thread of its own: (BenchExec's result, whether
    the run was stopped at its wall-clock ``timeout``).

    BenchExec enforces its wall-time limit only to the second (it checks again a second after the
    limit is due), so a solver still running at ``timeout`` is stopped here, as the unmeasured
    runner stops its solver. Whatever stops this thread meanwhile (the job's time-out, SIGTERM in a benchmark
    worker) first stops the run and its cgroup, and waits for BenchExec to finish it; the run is
    added to the ledger as it was measured, and the interruption raised again. A time limit that
    fires again while the stopped run ends is the same interruption, not another."""
    box: dict = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["result"] = executor.execute_run(**arguments)
        except BaseException as e:  # handed to the caller below
            box["error"] = e
        finally:
            done.set()

    started = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    thread = threading.Thread(target=target, name="fillsmt-benchexec", daemon=True)
    thread.start()
    stopped_at_timeout = False
    try:
        while not done.wait(_POLL if deadline is None or stopped_at_timeout else _until(deadline)):
            if deadline is not None and not stopped_at_timeout and time.monotonic() >= deadline:
                stopped_at_timeout = _stop_running(executor)
    except BaseException as interrupted:
        _finish_stopped(executor, done, box, started, chosen, interrupted)
    thread.join()
    if "error" in box:
        raise OSError(f"BenchExec could not run {arguments['args'][0]}: {box['error']}")
    return box["result"], stopped_at_timeout


def _stop_running(executor) -> bool:
    """Stop the run's solver if it is running (BenchExec holds its pid from its start to its end;
    after the end BenchExec still reads the cgroups, and a solver that ended in time keeps its
    answer): whether it was stopped."""
    with executor.SUB_PROCESS_PIDS_LOCK:
        running = bool(executor.SUB_PROCESS_PIDS)
    if running:
        executor.stop()
    return running


def _until(deadline: float) -> float:
    return max(0.0, min(_POLL, deadline - time.monotonic()))


def _finish_stopped(executor, done: threading.Event, box: dict, started: float, chosen: Limits, interrupted):
    """Stop an interrupted run, wait for BenchExec to end it, add it to the ledger, raise ``interrupted``.

    The wait is on ``done``, not on the thread: a ``Thread.join`` that an exception interrupts may
    take the thread for ended while it still runs (CPython 3.11)."""
    measured: Measurement | None = None
    while True:
        try:
            executor.stop()
            done.wait()
            if measured is None:
                measured = (
                    _measurement(box["result"], chosen)
                    if "result" in box  # else BenchExec failed as it was stopped: the wall time is known
                    else Measurement(BENCHEXEC, time.perf_counter() - started, None, None, False, chosen.memlimit_mb)
                )
            if not _state.ledger or _state.ledger[-1] is not measured:
                _state.ledger.append(measured)
            break
        except BaseException:  # the time limit again (it repeats until its block is left): the same stop
            continue
    raise interrupted


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def _rlimit(argv, stdin_text, timeout, chosen: Limits) -> tuple[ProcessOutcome, Measurement]:
    cap = None if chosen.memlimit_mb is None else chosen.memlimit_mb * 1_000_000

    def limit_address_space() -> None:  # in the child, before it runs the solver
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limit_address_space,
        **OWN_GROUP,
    )
    try:
        outcome = process.exchange(proc, stdin_text, timeout, None, start, usage=True)
    except BaseException:  # stopped from outside: its wall time is known, its usage was not read
        _state.ledger.append(Measurement(RLIMIT, time.perf_counter() - start, None, None, False, chosen.memlimit_mb))
        raise
    usage = outcome.usage
    cpu = usage.ru_utime + usage.ru_stime if usage is not None else 0.0
    memory = usage.ru_maxrss * 1024 if usage is not None else None
    memout = cap is not None and not outcome.timed_out and _ran_out_of_memory(outcome)
    outcome.memout = memout
    return outcome, Measurement(RLIMIT, outcome.seconds, cpu, memory, memout, chosen.memlimit_mb)


def _ran_out_of_memory(outcome: ProcessOutcome) -> bool:
    """Whether a run under an address-space limit ended for want of memory: it said so, or it died
    of a signal a failed allocation brings (approximate: a crash of another cause looks the same)."""
    if _OUT_OF_MEMORY.search(outcome.stderr[-4000:]) or _OUT_OF_MEMORY.search(outcome.stdout[-4000:]):
        return True
    return outcome.returncode is not None and -outcome.returncode in _ALLOCATION_DEATHS


__all__ = [
    "AUTO",
    "BENCHEXEC",
    "Limits",
    "MODES",
    "Measurement",
    "NOT_MEASURED",
    "RLIMIT",
    "benchexec_reason",
    "can_pin",
    "measuring",
    "pin_slot",
    "resolve",
    "run_cores",
]
