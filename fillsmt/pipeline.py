"""The pipeline: Puzzle → encoder → SMT-LIB → driver → answer → decoder → grid → checker.

No grid leaves :func:`solve` unless the independent checker accepted it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from fillsmt.drivers.base import Driver
from fillsmt.errors import (EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, EXIT_SOLVER, EXIT_UNKNOWN,
                            FillsmtError, InputError)
from fillsmt.fillomino.decode import AnswerError, decode_grid
from fillsmt.fillomino.encodings import DEFAULT_ENCODING, ENCODINGS
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.answer import Status

DEFAULT_SOLVER = "yices"
DEFAULT_PRESOLVE = True
"""Whether ``solve`` runs the deduction rules first unless told otherwise."""

EXIT_CODES = {
    Status.SAT: EXIT_OK,
    Status.UNSAT: EXIT_NO_SOLUTION,
    Status.UNKNOWN: EXIT_UNKNOWN,
    Status.TIMEOUT: EXIT_UNKNOWN,
    Status.ERROR: EXIT_SOLVER,
}


class NoSolution(FillsmtError):
    """The puzzle is proven to have no solution."""

    exit_code = EXIT_NO_SOLUTION


@dataclass
class SolveResult:
    """The outcome of solving one puzzle; ``grid`` is set only for a checked solution."""

    puzzle: Puzzle
    status: Status
    solver: str
    encoding: str
    grid: Grid | None = None
    message: str = ""
    times: dict[str, float] = field(default_factory=dict)
    solver_output: str = ""
    presolved_cells: int | None = None

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]


def encode_presolved(puzzle: Puzzle, encoding: str) -> str:
    """The script after the deduction rules: fixed cells become clues, domains bound the rest."""
    from fillsmt.fillomino.deduce import deduce

    deduction = deduce(puzzle)
    if deduction.contradiction is not None:
        raise NoSolution(f"{puzzle.source}: the deduction rules prove there is no solution: "
                         f"{deduction.contradiction}")
    return encode(deduction.filled_puzzle(puzzle), encoding, deduction.domains)


def encode(puzzle: Puzzle, encoding: str, domains=None) -> str:
    """The SMT-LIB text of ``puzzle`` under ``encoding`` (``domains`` from a presolve, or None)."""
    if encoding not in ENCODINGS:
        raise InputError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    return ENCODINGS[encoding](puzzle, domains).text()


def checked_grid(puzzle: Puzzle, values: dict, solver: str) -> tuple[Grid | None, str]:
    """Decode and check a model. Returns (grid, "") or (None, why it was refused)."""
    try:
        grid = decode_grid(puzzle, values, source=f"{solver}'s answer")
    except AnswerError as e:
        return None, str(e)
    problems = check_solution(puzzle.cells, grid)
    if problems:
        return None, f"{solver}'s answer fails the independent check: {'; '.join(problems)}"
    return grid, ""


def _presolved(puzzle: Puzzle, driver: Driver, encoding: str, started: float) -> tuple[SolveResult | None, object]:
    """Run the deduction rules. Returns (a finished result, None) when logic alone settles the
    puzzle (solved and checked, or proven to have no solution), else (None, the deduction)."""
    from fillsmt.fillomino.deduce import deduce

    deduction = deduce(puzzle)
    if deduction.contradiction is None and not deduction.solved:
        return None, deduction
    result = SolveResult(puzzle, Status.UNSAT, driver.name, encoding, presolved_cells=deduction.fixed_count)
    if deduction.contradiction is not None:
        result.message = f"the deduction rules prove there is no solution: {deduction.contradiction}"
    else:
        grid = deduction.grid()
        problems = check_solution(puzzle.cells, grid)
        result.status = Status.ERROR if problems else Status.SAT
        result.grid = None if problems else grid
        result.message = "solved by the deduction rules alone" if not problems else \
            f"the deduction rules' grid fails the independent check: {'; '.join(problems)}"
    elapsed = time.perf_counter() - started
    result.times = {"presolve": elapsed, "encode": 0.0, "solve": 0.0, "check": 0.0, "total": elapsed}
    return result, deduction


def solve(puzzle: Puzzle, driver: Driver, encoding: str = DEFAULT_ENCODING, timeout: float | None = None,
          presolve: bool = DEFAULT_PRESOLVE) -> SolveResult:
    """Encode, solve, decode and check one puzzle; with ``presolve``, deduce what logic forces first."""
    t0 = time.perf_counter()
    domains, target, fixed = None, puzzle, None
    if presolve:
        finished, deduction = _presolved(puzzle, driver, encoding, t0)
        if finished is not None:
            return finished
        domains, target, fixed = deduction.domains, deduction.filled_puzzle(puzzle), deduction.fixed_count
    tp = time.perf_counter()
    script = encode(target, encoding, domains)
    t1 = time.perf_counter()
    run = driver.run(script, timeout)
    t2 = time.perf_counter()
    result = SolveResult(puzzle, run.status, driver.name, encoding, message=run.message,
                         solver_output=run.output, presolved_cells=fixed)
    if run.status is Status.SAT:
        grid, why = checked_grid(puzzle, run.values, driver.name)
        if grid is None:
            result.status, result.message = Status.ERROR, why
        result.grid = grid
    t3 = time.perf_counter()
    result.times = {"presolve": tp - t0, "encode": t1 - tp, "solve": t2 - t1, "check": t3 - t2, "total": t3 - t0}
    return result


__all__ = ["EXIT_BAD_INPUT", "SolveResult", "checked_grid", "encode", "solve"]
