"""``--solver rules``: a puzzle solved by its kind's own search, without an SMT solver
(Fillomino: the deduction rules plus backtracking, the thesis' sections 6.1–6.2)."""

from __future__ import annotations

import time
from typing import Any

from fillsmt.engine.interrupts import run_within
from fillsmt.engine.result import RULES_SOLVER, SolveResult
from fillsmt.errors import InputError
from fillsmt.kinds import kind_of
from fillsmt.smtlib.answer import Status


def require_rules_apply(puzzle: Any) -> None:
    """Raise InputError unless ``puzzle``'s kind has a search of its own (Fillomino)."""
    kind = kind_of(puzzle)
    if not kind.has_search:
        raise InputError(
            f"{puzzle.source}: --solver {RULES_SOLVER} solves Fillomino puzzles only; this is a {kind.name} puzzle"
        )


def solve_with_rules(
    puzzle: Any, timeout: float | None = None, unique: bool = False, forced: bool = False
) -> SolveResult:
    """Solve a puzzle without an SMT solver, by its kind's own search (Fillomino: the deduction
    rules plus backtracking, the thesis' sections 6.1–6.2). With ``unique`` the search goes on to
    a second solution or to the end of the search space."""
    require_rules_apply(puzzle)
    if forced:
        raise InputError(f"--forced needs an SMT solver session; --solver {RULES_SOLVER} does not offer it")
    kind = kind_of(puzzle)
    t0 = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    found = run_within(timeout, lambda: kind.search(puzzle, 2 if unique else 1, deadline), lambda: None)
    if found is None:
        result = SolveResult(
            puzzle,
            Status.TIMEOUT,
            RULES_SOLVER,
            "none",
            unique_asked=unique,
            message=f"no answer within the time-out of {timeout:g} s",
        )
        result.times = {"total": time.perf_counter() - t0}
        return result
    t1 = time.perf_counter()
    if found.solutions:
        status = Status.SAT
    elif found.exhausted:
        status = Status.UNSAT
    else:
        status = Status.TIMEOUT if found.timed_out else Status.UNKNOWN
    message = (
        f"{found.nodes} node{'s' if found.nodes != 1 else ''}, {found.guesses} "
        f"guess{'es' if found.guesses != 1 else ''}, depth {found.max_depth}"
    )
    result = SolveResult(
        puzzle, status, RULES_SOLVER, "none", message=message, presolved_cells=found.root_fixed, unique_asked=unique
    )
    if found.solutions:
        problems = kind.check(puzzle, found.solutions[0])
        if problems:  # the search checks too: this would be a bug
            result.status, result.message = Status.ERROR, f"the search's grid fails the check: {problems[0]}"
        else:
            result.grid = found.solutions[0]
            if unique:
                result.unique = found.unique
                result.second_grid = found.solutions[1] if len(found.solutions) > 1 else None
    t2 = time.perf_counter()
    result.times = {"presolve": 0.0, "encode": 0.0, "solve": t1 - t0, "check": t2 - t1, "total": t2 - t0}
    return result


__all__ = ["require_rules_apply", "solve_with_rules"]
