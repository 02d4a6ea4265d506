"""Running jobs: the job function, and a pool of worker processes that runs it N at a time.

:func:`run_job` solves one job and returns its CSV row: a puzzle of any kind (read as
:func:`fillsmt.formats.source.load` reads it) through :func:`fillsmt.engine.pipeline.solve` (or the rules plus
backtracking for ``--solver rules``); an optimisation kind (tilings) is solved when proven
optimal. It never raises for a bad puzzle file or a failing solver. :func:`run_pool` hands jobs to
worker processes and reports each row as it arrives. Each row also has the CPU time the job
used (:func:`cpu_columns`): the worker process and its children together, and the solver's
child processes alone where that is the solver's own CPU. A worker that dies (a crash in a solver
library) becomes an ``error`` row for its job and is replaced; a job that runs far past its
time-out is stopped and becomes a ``timeout`` row; either way the run goes on. When the run is
interrupted, every worker is stopped, and each stops its solver's whole process group first.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import resource
import signal
import time
from collections import deque
from typing import Callable

from fillsmt.bench.jobs import DEFAULT, RACE, STAGED, Job, on_off, searches
from fillsmt.bench.rows import BAD_INPUT, MEMOUT, STAGES, answer_of, job_driver, job_row, measured_columns, memout
from fillsmt.drivers import SOLVERS
from fillsmt.drivers.measure import measuring, pin_slot
from fillsmt.engine.interrupts import deferred, resending
from fillsmt.engine.pipeline import solve
from fillsmt.engine.result import PRESOLVE
from fillsmt.engine.schedule import limit_race_cpus, race_cpus_at_most
from fillsmt.errors import InputError
from fillsmt.formats.source import load
from fillsmt.kinds import kind_of
from fillsmt.protocol import Optimises, encoding_names

JobFunction = Callable[[Job, float], dict]
RowCallback = Callable[[Job, dict], None]


def _encoding(job: Job, kind) -> str:
    """The job's encoding for a puzzle of ``kind``: ``default`` is the kind's own default."""
    encoding = job.config.encoding
    if encoding == DEFAULT and job.config.solver in SOLVERS:
        return SOLVERS[job.config.solver]().encoding_for(kind) or kind.default_encoding
    if encoding == DEFAULT:
        return kind.default_encoding
    if encoding not in encoding_names(kind):
        raise InputError(
            f"{encoding!r} is not a {kind.name} encoding (those are {', '.join(encoding_names(kind))}; or {DEFAULT})"
        )
    return encoding


def _solve(job: Job, timeout: float, puzzle, kind):
    """One puzzle through the pipeline with the job's configuration."""
    if job.config.unique and isinstance(kind, Optimises):
        raise InputError(f"/unique is for puzzles with one answer, not for {kind.name} problems")
    return solve(
        puzzle,
        job_driver(job),
        None if searches(job.config.solver) else _encoding(job, kind),
        timeout,
        presolve=on_off(job.config.presolve),
        unique=job.config.unique,
    )


def result_row(job: Job, timeout: float, result) -> dict:
    """The CSV row of a result of any kind (an optimisation's row says whether it is proven)."""
    extra = result.kind.result_fields(result) if isinstance(result.kind, Optimises) else {}
    note = result.message
    if result.optimum is not None and not extra["optimal"]:
        note = f"best found covers {extra['covered']}; no tiling covers more than {extra['upper_bound']}"
    row = job_row(job, timeout, result.status.value, note)
    row["encoding"], row["answered_by"] = result.encoding, result.answered_by
    row["checked"] = result.grid is not None
    row["answer"] = answer_of(result.status, result.solver_output)
    row["presolved_cells"] = "" if result.presolved_cells is None else result.presolved_cells
    row.update({f"{stage}_s": round(result.times[stage], 4) for stage in STAGES if result.times.get(stage) is not None})
    if result.optimum is not None:  # the time to the proof, or to the end when not proven
        row.update(
            {
                "covered": extra["covered"],
                "optimal": extra["optimal"],
                "solve_s": round(result.times["proven"] if extra["optimal"] else result.times["total"], 4),
            }
        )
    if job.config.unique:
        row["unique"] = "" if result.unique is None else result.unique
        row["unique_s"] = round(result.times.get("unique", 0.0), 4)
    return row


def cpu_times() -> tuple[float, float]:
    """(user + system CPU seconds of this process, of its children that have been waited for)."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def _solver_alone_in_children(job: Job) -> bool:
    """Whether the job's child processes are its solver and nothing else: the solver runs in child
    processes (a binary, or an API in a worker process), and no race adds the rules' search (a
    forked child) or other solvers."""
    if searches(job.config.solver) or job.config.presolve in (RACE, STAGED):
        return False
    try:
        return not job_driver(job).in_process
    except InputError:  # an unknown solver name: the row says so already
        return False


def cpu_columns(job: Job, before: tuple[float, float], after: tuple[float, float]) -> dict:
    """The CPU columns of a job run in this process between ``before`` and ``after``
    (:func:`cpu_times`): ``cpu_s``, the process and its children (the presolve, encoding and check
    in Python, the solver, a race's search); ``solver_cpu_s``, the child processes alone when they
    are the solver alone (:func:`_solver_alone_in_children`), else empty. Meaningful only when
    the process runs one job at a time (the worker pool; not threads sharing a process)."""
    own, children = after[0] - before[0], after[1] - before[1]
    return {
        "cpu_s": round(own + children, 4),
        "solver_cpu_s": round(children, 4) if _solver_alone_in_children(job) else "",
    }


def run_job(job: Job, timeout: float) -> dict:
    """Read, encode, solve, decode and check one puzzle (or run one ``.smt2`` benchmark as it is:
    :mod:`fillsmt.bench.scripts`); the row says what happened, what CPU time it took
    (:func:`cpu_columns`) and how the solver's runs were measured (:func:`measure_columns`). A race
    runs one process at a time (a job is one CPU's work:
    :func:`fillsmt.engine.schedule.race_cpus_at_most`), in a pool's worker or a cluster's."""
    with race_cpus_at_most(1), measuring(job.limits) as ledger:
        if job.is_script:
            from fillsmt.bench.scripts import run_script

            row = run_script(job, timeout)
        else:
            row = _run_job(job, timeout)
    row.update(measure_columns(job, row, ledger))
    return row


def measure_columns(job: Job, row: dict, ledger: list) -> dict:
    """How the job's solver was measured: the one-shot runs BenchExec or the fallback measured
    (:func:`fillsmt.bench.rows.measured_columns`; a run stopped at its memory limit makes the row a
    ``memout``), or which of fillsmt's own measurements stands (``none``: no solver ran; ``race``;
    ``in-process``; ``session``)."""
    if ledger:
        columns = measured_columns(ledger)
        if memout(ledger):
            columns["status"], columns["answer"] = MEMOUT, ""
        return columns
    if row["status"] == BAD_INPUT or row.get("answered_by") == PRESOLVE or row.get("solve_s") == "":
        return {"measured": "none"}
    if searches(job.config.solver):
        return {"measured": "in-process"}
    if job.config.presolve in (RACE, STAGED):
        return {"measured": "race"}
    try:
        in_process = job_driver(job).in_process
    except InputError:
        in_process = False
    return {"measured": "in-process" if in_process else "session"}


def _run_job(job: Job, timeout: float) -> dict:
    before = cpu_times()
    try:
        puzzle = load(job.puzzle)
        kind = kind_of(puzzle)
    except InputError as e:
        return job_row(job, timeout, BAD_INPUT, str(e))
    try:
        row = result_row(job, timeout, _solve(job, timeout, puzzle, kind))
    except InputError as e:  # the configuration does not fit this puzzle
        row = job_row(job, timeout, "error", str(e))
    except Exception as e:  # one job's failure is a row, never the end of the run
        row = job_row(job, timeout, "error", f"{type(e).__name__}: {e}")
    row["kind"], row["height"], row["width"] = kind.name, puzzle.height, puzzle.width
    row.update(cpu_columns(job, before, cpu_times()))
    return row


def hard_limit(timeout: float) -> float:
    """Seconds after which a job is stopped from outside: its solver should have stopped itself
    at ``timeout``; this covers the stages around it, and a driver that fails to stop."""
    return 2 * timeout + 30


def died_message(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            how = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"killed by signal {-exitcode}"
    else:
        how = f"exit code {exitcode}"
    return f"the worker process died ({how}) while running this job"


def _stop_worker(signum, frame):
    if deferred(signum, frame):  # in a gc callback or finalizer SystemExit would be dropped
        return
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the cleanup is not stopped again
    raise SystemExit(0)  # unwinds the driver, which kills its solver's process group


def _serve(conn, job_fn: JobFunction, timeout: float, slot: int = 0) -> None:
    """A worker: run each job the parent sends, send back its row; ``None`` means stop. A race
    in a worker runs one process at a time (time slices), so ``--jobs N`` runs at most N
    CPU-bound processes in all. ``slot`` is the worker's place among those running at once (the
    cores its measured runs are pinned to: :func:`fillsmt.drivers.measure.pin_slot`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _stop_worker)
    limit_race_cpus(1)  # also for a job function other than run_job
    pin_slot(slot)
    try:
        with resending(_stop_worker, (signal.SIGTERM,)):  # however the job waits
            while (job := conn.recv()) is not None:
                _settle_heap()
                conn.send(job_fn(job, timeout))
    except (EOFError, BrokenPipeError):  # the parent is gone
        pass


def _settle_heap() -> None:
    """Before each job in a worker: collect what earlier jobs left in reference cycles, then
    move every object still alive (the imported modules, the caches, what earlier jobs kept)
    out of the cyclic collector's sight (``gc.freeze``), so that a job's collections scan only
    what the job itself makes, as in a fresh ``fillsmt solve`` process. Without it a worker that
    has run many jobs pauses up to 4-10 ms in a full collection during a 10 ms job (measured on
    janko-thesis100); the collection and the freeze run outside the job's timing."""
    gc.collect()
    gc.freeze()


class _Worker:
    """One worker process, its pipe, and the job it is running."""

    def __init__(self, ctx, job_fn: JobFunction, timeout: float, slot: int = 0):
        self.conn, child = ctx.Pipe()
        self.slot = slot
        self.process = ctx.Process(target=_serve, args=(child, job_fn, timeout, slot), name="fillsmt-bench")
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0

    def give(self, job: Job) -> None:
        self.job, self.started = job, time.monotonic()
        try:
            self.conn.send(job)
        except OSError:
            pass  # the worker is dead: its sentinel says so, and outcome() makes the row

    def stop(self, grace: float = 2.0) -> None:
        """Ask an idle worker to leave; stop a busy one (SIGTERM, then SIGKILL after ``grace``)."""
        if self.process.is_alive() and self.job is None:
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(grace)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()

    def outcome(self, ready: list, timeout: float, limit: float) -> tuple[dict | None, bool]:
        """(the finished job's row or None, whether the worker can take another job)."""
        job = self.job
        assert job is not None  # a worker in the pool always holds a job
        if self.conn in ready:
            try:
                return self.conn.recv(), True
            except (EOFError, OSError):
                pass
        if self.conn in ready or self.process.sentinel in ready:
            self.process.join(5.0)  # its pipes close a moment before it can be reaped
            return job_row(job, timeout, "error", died_message(self.process.exitcode)), False
        elapsed = time.monotonic() - self.started
        if elapsed >= limit:
            row = job_row(
                job,
                timeout,
                "timeout",
                f"no result after {limit:g} s in all (solver time-out {timeout:g} s); the job was stopped",
            )
            row["total_s"] = round(elapsed, 4)
            return row, False
        return None, True


def run_pool(jobs: list[Job], timeout: float, workers: int, on_row: RowCallback, job_fn: JobFunction = run_job) -> None:
    """Run ``job_fn(job, timeout)`` for every job in at most ``workers`` processes, calling
    ``on_row(job, row)`` in this process as each finishes. Whatever ends the run early (an
    interrupt, an exception from ``on_row``), every worker is stopped before it propagates."""
    ctx = multiprocessing.get_context("spawn")
    waiting = deque(jobs)
    pool: list[_Worker] = []
    limit = hard_limit(timeout)

    def next_job(worker: _Worker | None) -> None:
        if worker is None and waiting:
            taken = {w.slot for w in pool}
            worker = _Worker(ctx, job_fn, timeout, next(i for i in range(len(pool) + 1) if i not in taken))
            pool.append(worker)
        if worker is not None and waiting:
            worker.give(waiting.popleft())
        elif worker is not None:
            worker.stop()
            pool.remove(worker)

    try:
        for _ in range(min(workers, len(waiting))):
            next_job(None)
        while pool:
            deadline = min(w.started for w in pool) + limit
            ready = multiprocessing.connection.wait(
                [w.conn for w in pool] + [w.process.sentinel for w in pool],
                timeout=max(0.0, deadline - time.monotonic()),
            )
            for w in list(pool):
                job = w.job
                assert job is not None  # a worker in the pool always holds a job
                row, reusable = w.outcome(ready, timeout, limit)
                if row is None:
                    continue
                if reusable:
                    w.job = None
                    next_job(w)
                else:
                    w.stop()
                    pool.remove(w)
                    next_job(None)
                on_row(job, row)
    finally:
        for w in pool:
            w.stop()
