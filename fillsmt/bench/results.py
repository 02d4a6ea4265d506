"""The results CSV: one row per job, appended and flushed as each job finishes.

An interrupted run keeps every row it finished. An existing file is never emptied unless asked
(``overwrite``); with ``resume`` its complete rows are kept and their jobs are not run again.
A row is complete when it has every column and its last one, the timestamp, is filled: a line
cut short by a kill is ignored, and run again on resume.
"""

from __future__ import annotations

import csv
import io
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

from fillsmt.errors import InputError

COLUMNS = [
    "key",
    "puzzle",
    "set",
    "kind",
    "height",
    "width",
    "solver",
    "encoding",
    "answered_by",
    "presolve",
    "timeout_s",
    "memlimit_mb",
    "status",
    "checked",
    "presolved_cells",
    "presolve_s",
    "encode_s",
    "solve_s",
    "check_s",
    "total_s",
    "cpu_s",
    "solver_cpu_s",
    "solver_wall_s",
    "memory_mb",
    "measured",
    "expected",
    "answer",
    "unique",
    "unique_s",
    "covered",
    "optimal",
    "solver_version",
    "message",
    "timestamp",
]
"""The CSV header; ``timestamp`` (UTC, when the job finished) stays last. ``covered`` and
``optimal`` are for tilings (the cells the best tiling covers, and whether that is proven the
most); ``unique`` and ``unique_s`` for /unique configurations. ``solver`` is the configuration's;
``encoding`` and ``answered_by`` are the answer's (see ``SolveResult.answered_by``: ``presolve``,
``rules`` or SOLVER/ENCODING, the racer whose answer it is; empty when none was settled).
``cpu_s`` is the CPU time (user + system) of the worker process and its child processes for the
run, beside its wall-clock ``total_s``; ``solver_cpu_s`` the CPU time of the solver's own child
processes, filled only where those are the solver alone (presolve on or off, a solver that runs
as a separate process: not yices-api or z3-api, which run inside the worker, and not a race);
where BenchExec measured the run, the CPU time of the solver and every process it started.
``measured`` says how the solver's run was measured (``benchexec``, ``rlimit``, or
:data:`fillsmt.drivers.measure.NOT_MEASURED`: ``session``, ``race``, ``in-process``, ``none``);
``memlimit_mb`` is the run's memory limit (empty: none),
``solver_wall_s`` and ``memory_mb`` that measurement's wall time and peak memory (MB), for
``benchexec`` and ``rlimit`` rows. ``expected`` is the status the run is judged against, where the
input says it (an ``.smt2`` file's ``:status``; an incremental file's, one per ``check-sat``,
space-separated), ``answer`` what the solver answered (``sat``, ``unsat``, ``unknown``, ``error``
for an ``(error …)`` reply, empty for none; an incremental file's answers space-separated)."""

_MEASURE = ("memlimit_mb", "solver_wall_s", "memory_mb", "measured", "expected", "answer")
_BEFORE_MEASURE = [c for c in COLUMNS if c not in _MEASURE]
_BEFORE_CPU = [c for c in _BEFORE_MEASURE if c not in ("cpu_s", "solver_cpu_s")]
OLDER_HEADERS = [
    [c for c in _BEFORE_CPU if c not in ("unique", "unique_s", "kind", "covered", "optimal", "answered_by")],
    [c for c in _BEFORE_CPU if c not in ("kind", "covered", "optimal", "answered_by")],
    [c for c in _BEFORE_CPU if c != "answered_by"],
    _BEFORE_CPU,
    _BEFORE_MEASURE,
]
"""Headers of earlier fillsmt versions: read with the new columns empty; on --resume the file is
first rewritten (every row kept) with the current header."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _cell(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _complete(row: dict) -> bool:
    return None not in row and all(row.get(c) is not None for c in COLUMNS) and bool(row["timestamp"])


def read_rows(path: str | Path) -> list[dict]:
    """The complete rows of a results CSV, as strings, in file order.

    Raises InputError when the file is not a CSV with fillsmt bench's columns.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a results CSV (not UTF-8 text)") from None
    if not text.strip():
        return []
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if reader.fieldnames != COLUMNS and reader.fieldnames not in OLDER_HEADERS:
        raise InputError(
            f"{path}: not a results CSV of fillsmt bench (its first line should be "
            f"{','.join(COLUMNS)}); give another --csv file"
        )
    rows = []
    for row in reader:
        if None in row:
            continue
        row = {c: row.get(c, "") for c in COLUMNS}
        if _complete(row):
            rows.append(row)
    return rows


def _header(path: Path) -> list[str]:
    """The first row of ``path``; [] when it is not CSV text (a binary file, say)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return next(csv.reader(f), [])
    except (UnicodeDecodeError, csv.Error):
        return []


def _upgrade(path: Path) -> None:
    """Rewrite a CSV of an older header with the current one, keeping every complete row."""
    rows = read_rows(path)
    tmp = path.with_name(f".{path.name}.upgrade.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def latest_by_key(rows: Iterable[dict]) -> dict[str, dict]:
    """The last complete row of each key (a key appears twice only in hand-edited files)."""
    return {row["key"]: row for row in rows}


class ResultsFile:
    """Appends rows to the CSV, each flushed to the file at once."""

    def __init__(self, path: str | Path, *, resume: bool = False, overwrite: bool = False):
        self.path = Path(path)
        if resume and overwrite:
            raise InputError("give --resume or --overwrite, not both")
        if self.path.is_dir():
            raise InputError(f"{path}: is a folder; give a CSV file name")
        exists = self.path.exists() and self.path.stat().st_size > 0
        if exists and not (resume or overwrite):
            raise InputError(
                f"{path}: already exists; use --resume to keep its rows and run only "
                "the missing jobs, or --overwrite to start it again"
            )
        if exists and resume and _header(self.path) != COLUMNS:
            read_rows(self.path)  # refuses a file that is not a results CSV at all
            _upgrade(self.path)
        self.done: dict[str, dict] = latest_by_key(read_rows(self.path)) if exists and resume else {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append = exists and resume
        self._file = open(self.path, "a" if append else "w", encoding="utf-8", newline="")
        if append and not self._ends_with_newline():
            self._file.write("\n")  # after a line cut short by a kill; that line is ignored
        self._writer = csv.DictWriter(self._file, COLUMNS, lineterminator="\n")
        if not append:
            self._writer.writeheader()
        self._file.flush()

    def _ends_with_newline(self) -> bool:
        with open(self.path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"

    def write(self, row: dict) -> dict:
        """Write one row (the timestamp is set now, when missing) and flush it; returns it as
        it would be read back."""
        out = {c: _cell(row.get(c)) for c in COLUMNS}
        out["timestamp"] = out["timestamp"] or now()
        self._writer.writerow(out)
        self._file.flush()
        return out

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "ResultsFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
