"""Running an SMT-LIB benchmark file as it is: one solver on one ``.smt2`` file, judged by its
``:status``.

The file goes to the solver unchanged (for a file with more than one ``check-sat``, the solver's
incremental command: ``yices-smt2 --incremental``, which otherwise refuses the second check and
still exits 0). Its expected answers are its ``:status`` values, one per ``check-sat`` (the last
``(set-info :status …)`` before it; ``unknown`` where there is none), and the solver's answers are
read in order: a one-shot file's row is ``sat``, ``unsat``, ``unknown``, ``timeout``, ``memout``
or ``error``; an incremental file's answers are scored up to the first wrong one
(:mod:`fillsmt.bench.scoring`).

Where the file came from ``fillsmt export`` (a ``manifest.csv`` in its folder or one above names
it, with the puzzle, the kind, the encoding and the question), a ``sat`` answer's model is asked
for (``get-value`` after the ``check-sat``, models on before ``set-logic``), decoded and checked
by the kind's independent checker, as a puzzle run's is.
"""

from __future__ import annotations

import csv
import functools
import re
import time
from dataclasses import dataclass
from pathlib import Path

from fillsmt import limits
from fillsmt.bench.jobs import Job
from fillsmt.bench.rows import BAD_INPUT, ERROR_REPLY, answer_of, job_driver, job_row
from fillsmt.errors import FillsmtError, InputError
from fillsmt.smtlib.sexpr import SExprError, StringLit, iter_all
from fillsmt.smtlib.status import Status

MANIFEST = "manifest.csv"
CHECKED_FAMILIES = ("plain", "unique")
"""The exported families whose ``sat`` models fillsmt decodes and checks (one ``check-sat``)."""
_COMMAND = re.compile(r"\(\s*set-info\s+:status\s+(sat|unsat|unknown)\s*\)|\(\s*check-sat\s*\)|;[^\n]*")
_LEVELS_UP = 4
"""How far up from a file its family's manifest may be: the library layout puts a file three
folders below the family's root (``non-incremental/LOGIC/DATE-APPLICATION/``)."""


@dataclass
class Benchmark:
    """An ``.smt2`` file: its text and the status expected of each of its ``check-sat`` commands."""

    path: str
    text: str
    expected: list[str]

    @property
    def incremental(self) -> bool:
        return len(self.expected) > 1


def read_benchmark(path: str) -> Benchmark:
    """The file's text and expected answers (InputError when it cannot be read or has no check-sat)."""
    try:
        size = Path(path).stat().st_size
        if size > limits.max_input():
            raise InputError(f"{path}: {size} bytes, more than FILLSMT_MAX_INPUT={limits.max_input()}")
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not an SMT-LIB script (not UTF-8 text)") from None
    expected, status = [], "unknown"
    for match in _COMMAND.finditer(text):
        word = match.group(1)
        if word:
            status = word
        elif match.group(0).startswith("("):
            expected.append(status)
            status = "unknown"
    if not expected:
        raise InputError(f"{path}: no (check-sat) in this file: not an SMT-LIB benchmark")
    return Benchmark(path, text, expected)


def answers(output: str) -> list[str]:
    """The solver's answers in order: ``sat``, ``unsat``, ``unknown``, and ``error`` for each
    ``(error …)`` reply (models and other replies skipped); what cannot be read ends the list."""
    found = []
    try:
        for item in iter_all(output):
            x = item.value
            if isinstance(x, str) and not isinstance(x, StringLit) and x in ("sat", "unsat", "unknown"):
                found.append(x)
            elif isinstance(x, list) and x and x[0] == "error":
                found.append(ERROR_REPLY)
    except SExprError:
        pass
    return found


# --- where an exported file came from ---------------------------------------------------------


@dataclass
class Origin:
    """What ``export``'s manifest says of a file: its puzzle, kind, encoding and family."""

    puzzle: str
    kind: str
    encoding: str
    family: str


@functools.lru_cache(maxsize=64)
def _manifest(folder: str) -> dict[str, dict]:
    path = Path(folder) / MANIFEST
    try:
        with path.open(newline="", encoding="utf-8") as f:
            return {row["file"]: row for row in csv.DictReader(f) if row.get("file")}
    except (OSError, KeyError, csv.Error, UnicodeDecodeError):
        return {}


def origin(path: str) -> Origin | None:
    """The manifest entry of ``path`` in its folder or one of the :data:`_LEVELS_UP` above it."""
    file = Path(path).absolute()
    for folder in list(file.parents)[:_LEVELS_UP]:
        row = _manifest(str(folder)).get(file.relative_to(folder).as_posix())
        if row is not None:
            puzzle = row.get("puzzle", "")
            if puzzle and not Path(puzzle).exists() and (folder / puzzle).exists():
                puzzle = str(folder / puzzle)
            return Origin(puzzle, row.get("kind", ""), row.get("encoding", ""), row.get("family", ""))
    return None


# --- one run ------------------------------------------------------------------------------------


def _driver(job: Job, incremental: bool):
    """The job's solver, in its incremental mode for a file of several ``check-sat``: a binary's
    session arguments (``yices-smt2 --incremental``) added to its one-shot command."""
    from fillsmt.drivers.binaries import CommandDriver

    driver = job_driver(job)
    if incremental and isinstance(driver, CommandDriver) and driver.session_args:
        return CommandDriver([*driver.argv, *driver.session_args], name=driver.name)
    return driver


class _Checker:
    """The decoder and checker of an exported file's ``sat`` model, and the text that asks for it."""

    def __init__(self, source: Origin, solver: str):
        from fillsmt.engine.solutions import get_value_terms
        from fillsmt.formats.source import load
        from fillsmt.kinds import kind_of

        puzzle = load(source.puzzle)
        kind = kind_of(puzzle)
        script = kind.encode(puzzle, source.encoding)
        self.problem = kind.problem(puzzle, script, source.encoding, solver)
        self.terms = get_value_terms(script)
        self.puzzle, self.kind = puzzle, kind.name

    def asking(self, text: str) -> str:
        """``text`` with models produced and the puzzle's terms asked for after its check-sat."""
        at = text.rindex("(check-sat)") + len("(check-sat)")
        ask = f"\n(get-value ({' '.join(self.terms)}))" if self.terms else ""
        return "(set-option :produce-models true)\n" + text[:at] + ask + text[at:]

    def check(self, values: dict, solver: str) -> tuple[bool, str]:
        from fillsmt.engine.result import checked

        solution, why = checked(self.problem, values, solver)
        return solution is not None, why


def _checker(benchmark: Benchmark, solver: str) -> tuple[_Checker | None, str]:
    """The model checker of an exported one-shot file, or None and why there is none."""
    source = origin(benchmark.path)
    if source is None or source.family not in CHECKED_FAMILIES or benchmark.incremental:
        return None, ""
    try:
        return _Checker(source, solver), ""
    except FillsmtError as e:
        return None, f"the model cannot be checked: {e}"


def run_script(job: Job, timeout: float) -> dict:
    """Run the job's solver on its ``.smt2`` file; the row of what happened (never raises for a bad
    file or a failing solver)."""
    start = time.perf_counter()
    try:
        benchmark = read_benchmark(job.puzzle)
    except InputError as e:
        return job_row(job, timeout, BAD_INPUT, str(e))
    row = job_row(job, timeout, "error")
    row["expected"] = " ".join(benchmark.expected)
    try:
        driver = _driver(job, benchmark.incremental)
        checker, note = _checker(benchmark, driver.name)
        text = checker.asking(benchmark.text) if checker else benchmark.text
        if checker:
            row["kind"], row["height"], row["width"] = checker.kind, checker.puzzle.height, checker.puzzle.width
        read = time.perf_counter()
        ran = driver.run(text, timeout)
        solved = time.perf_counter()
    except FillsmtError as e:
        row["message"] = str(e)
        return row
    except Exception as e:  # one job's failure is a row, never the end of the run
        row["message"] = f"{type(e).__name__}: {e}"
        return row
    said = answers(ran.output)
    row.update(status=ran.status.value, message=ran.message or note, checked="")
    if benchmark.incremental:
        _incremental(row, ran, said, benchmark)
    else:
        row["answer"] = answer_of(ran.status, ran.output)
        if checker is not None and ran.status is Status.SAT:
            ok, why = checker.check(ran.values, driver.name)
            row["checked"] = ok
            if not ok:
                row["status"], row["message"] = Status.ERROR.value, why
    done = time.perf_counter()
    row.update(
        encode_s=round(read - start, 4),
        solve_s=round(solved - read, 4),
        check_s=round(done - solved, 4),
        total_s=round(done - start, 4),
    )
    return row


def _incremental(row: dict, ran, said: list[str], benchmark: Benchmark) -> None:
    """An incremental file's row: its answers in order; its status the last answer when every
    check had a sat or unsat answer, else why not (a time-out, an error reply, ``unknown``)."""
    row["answer"] = " ".join(said)
    row["message"] = f"{len(said)} answers to {len(benchmark.expected)} check-sat commands" + (
        f"; {ran.message}" if ran.message and ran.status is not Status.SAT else ""
    )
    if len(said) == len(benchmark.expected) and all(a in ("sat", "unsat") for a in said):
        row["status"] = said[-1]
    elif ran.status is Status.TIMEOUT:
        row["status"] = Status.TIMEOUT.value
    elif ERROR_REPLY in said or ran.status is Status.ERROR:
        row["status"] = Status.ERROR.value
    else:
        row["status"] = Status.UNKNOWN.value


__all__ = ["Benchmark", "Origin", "answers", "origin", "read_benchmark", "run_script"]
