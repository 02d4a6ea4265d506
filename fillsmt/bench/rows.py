"""A benchmark run's CSV row: its own columns, what the solver answered, and how it was measured.

Shared by the job function of puzzle files (:mod:`fillsmt.bench.run`) and that of ``.smt2``
benchmarks (:mod:`fillsmt.bench.scripts`).
"""

from __future__ import annotations

from fillsmt.bench.jobs import Job, on_off
from fillsmt.drivers import get_driver
from fillsmt.drivers.base import Driver
from fillsmt.drivers.measure import Measurement
from fillsmt.smtlib.answer import SExprError, Status, parse_answer

BAD_INPUT = "bad-input"
"""The status of a job whose puzzle file cannot be read (the others are ``Status`` values)."""
MEMOUT = "memout"
"""The status of a run stopped at its memory limit."""
ERROR_REPLY = "error"
"""The ``answer`` of a solver that replied ``(error …)`` to the script."""

STAGES = ("presolve", "encode", "solve", "check", "total")


def job_row(job: Job, timeout: float, status: str, message: str = "") -> dict:
    """A row with the job's own columns filled, for ``status``; times, size and check left empty."""
    row = {
        "key": job.key,
        "puzzle": job.puzzle,
        "set": job.set,
        "kind": "",
        "height": "",
        "width": "",
        "solver": job.config.solver,
        "encoding": job.config.encoding,
        "answered_by": "",
        "presolve": on_off(job.config.presolve),
        "timeout_s": repr(float(timeout)).removesuffix(".0"),
        "status": status,
        "checked": False,
        "presolved_cells": "",
        "cpu_s": "",
        "solver_cpu_s": "",
        "unique": "",
        "unique_s": "",
        "covered": "",
        "optimal": "",
        "message": message,
    }
    row.update({f"{stage}_s": "" for stage in STAGES})
    return row


def job_driver(job: Job) -> Driver:
    """The job's solver: its ``--solver-cmd`` command under the name the user gave, or the
    registered solver of that name."""
    if job.command is None:
        return get_driver(job.config.solver)
    driver = get_driver(job.config.solver, solver_cmd=job.command)
    driver.name = job.config.solver
    return driver


def answer_of(status: Status, output: str) -> str:
    """What a solver answered, for the ``answer`` column: ``sat``, ``unsat`` or ``unknown`` (a sat
    whose model failed the checker is still ``sat``), ``error`` for an ``(error …)`` reply before any
    answer, or "" for none (a time-out, a crash)."""
    try:
        said = parse_answer(output) if output else None
    except SExprError:
        said = None
    if said is not None and said.status is not None:
        return said.status.value
    if said is not None and said.early_errors:
        return ERROR_REPLY
    return status.value if status in (Status.SAT, Status.UNSAT, Status.UNKNOWN) else ""


def measured_columns(ledger: list[Measurement]) -> dict:
    """The measurement columns of a job whose solver ran as one-shot commands (the runs in
    ``ledger``, added up: their wall and CPU times, the largest peak memory); {} for none."""
    if not ledger:
        return {}
    memory, cpu = [m.memory for m in ledger], [m.cpu for m in ledger]
    return {
        "measured": ledger[0].how,
        "solver_wall_s": round(sum(m.wall for m in ledger), 4),
        "solver_cpu_s": "" if None in cpu else round(sum(c for c in cpu if c is not None), 4),
        "memory_mb": "" if None in memory else round(max(m for m in memory if m is not None) / 1e6, 1),
        "memlimit_mb": "" if ledger[0].memlimit_mb is None else ledger[0].memlimit_mb,
    }


def memout(ledger: list[Measurement]) -> bool:
    return any(m.memout for m in ledger)


__all__ = [
    "BAD_INPUT",
    "ERROR_REPLY",
    "MEMOUT",
    "STAGES",
    "answer_of",
    "job_driver",
    "job_row",
    "measured_columns",
    "memout",
]
