"""The outcome of solving one puzzle: :class:`SolveResult`, its exit code, and the check that
every solution passes before it is one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fillsmt.engine.solutions import Problem, differing_cells
from fillsmt.errors import (
    EXIT_NO_SOLUTION,
    EXIT_NOT_UNIQUE,
    EXIT_OK,
    EXIT_SOLVER,
    EXIT_UNKNOWN,
    FormatError,
)
from fillsmt.kinds import kind_of
from fillsmt.protocol import Kind
from fillsmt.smtlib.answer import Status

RULES_SOLVER = "rules"
"""The ``--solver`` name of the thesis' own solver: the deduction rules plus backtracking; also
who answered when the rules' search won a race."""
PRESOLVE = "presolve"
"""Who answered when no solver ran: the presolve settled the puzzle (or the kind built its
answer without any search)."""

EXIT_CODES = {
    Status.SAT: EXIT_OK,
    Status.UNSAT: EXIT_NO_SOLUTION,
    Status.UNKNOWN: EXIT_UNKNOWN,
    Status.TIMEOUT: EXIT_UNKNOWN,
    Status.ERROR: EXIT_SOLVER,
}


@dataclass
class SolveResult:
    """The outcome of solving one puzzle of any kind; ``grid`` is set only for a checked solution
    (for an optimisation kind: the best one found, and ``optimum`` says what is known of it)."""

    puzzle: Any
    status: Status
    solver: str
    """Who answered: the solver's name, :data:`RULES_SOLVER` or :data:`PRESOLVE`; before an
    answer (a time-out, an error), the solver asked for."""
    encoding: str
    grid: Any = None
    message: str = ""
    times: dict[str, float] = field(default_factory=dict)
    solver_output: str = ""
    presolved_cells: int | None = None
    unique: bool | None = None
    """True / False when ``unique`` was asked and settled; None when not asked or not settled."""
    second_grid: Any = None
    forced: Any = None
    """With ``forced``: each cell's number when every solution has it there, else 0."""
    checks: int = 0
    unique_asked: bool = False
    optimum: Any = None
    """An optimisation kind's report (bound, whether proven optimal, …); None otherwise."""
    settled_by_presolve: bool = False
    """No solver ran: the presolve alone solved the puzzle or proved it has no solution, or (a
    puzzle without clues) the kind built a valid grid."""

    @property
    def answered_by(self) -> str:
        """Whose answer this is: ``presolve`` (no solver ran, :attr:`settled_by_presolve`),
        ``rules`` (the rules' search, racing or alone), or ``SOLVER/ENCODING`` (the racer whose
        answer it is, not necessarily the solver asked for); "" when nothing was settled (a
        time-out, an error)."""
        if self.status not in (Status.SAT, Status.UNSAT):
            return ""
        if self.settled_by_presolve:
            return PRESOLVE
        if self.solver == RULES_SOLVER:
            return RULES_SOLVER
        return f"{self.solver}/{self.encoding}"

    @property
    def kind(self) -> Kind:
        return kind_of(self.puzzle)

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        """(row, column), 0-based, of the cells where the two solutions differ."""
        if self.grid is None or self.second_grid is None:
            return []
        return differing_cells(self.grid, self.second_grid)

    def _repr_svg_(self) -> str:
        """Jupyter shows the solution found (the puzzle alone when there is none)."""
        from fillsmt.pictures.notebook import picture

        return picture(self.puzzle, self.grid)

    @property
    def exit_code(self) -> int:
        code = EXIT_CODES[self.status]
        if code == EXIT_OK and self.unique_asked and self.unique is not True:
            return EXIT_NOT_UNIQUE if self.unique is False else EXIT_UNKNOWN
        return code


def checked(problem: Problem, values: dict, solver: str) -> tuple[Any, str]:
    """Decode a model and check it: (solution, "") or (None, why it was refused)."""
    try:
        solution = problem.decode(values)
    except FormatError as e:
        return None, str(e)
    problems = problem.check(solution)
    if problems:
        return None, f"{solver}'s answer fails the independent check: {'; '.join(problems)}"
    return solution, ""


__all__ = ["EXIT_CODES", "PRESOLVE", "RULES_SOLVER", "SolveResult", "checked"]
