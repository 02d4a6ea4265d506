"""What came back from one solve: :class:`SolveResult`, built in this module and nowhere else.

Every way a solve can end has its builder here: the presolve settled the puzzle
(:func:`presolved`), the kind built a clue-less grid's answer (:func:`quick_answer`), a one-shot
run answered (:func:`from_run`), a solver session answered (:func:`from_session`), the kind's own
search answered (:func:`from_search`), the optimiser reported (:func:`from_optimum`), the time ran
out (:func:`timed_out`), or the race closed a session (:func:`closed_by_race`). A result is
frozen: what a later stage adds (the whole command's time, a note) makes a new one here too.
No builder lets a grid through that the kind's independent checker refused.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from fillsmt.errors import (
    EXIT_NO_SOLUTION,
    EXIT_NOT_UNIQUE,
    EXIT_OK,
    EXIT_SOLVER,
    EXIT_UNKNOWN,
    FormatError,
)
from fillsmt.kinds import kind_of
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:
    from fillsmt.engine.attempt import Racer
    from fillsmt.engine.solutions import Problem
    from fillsmt.protocol import Kind

PRESOLVE = "presolve"
"""Who answered when no solver ran: the presolve settled the puzzle (or the kind built its
answer without any search)."""
NO_ENCODING = "none"
"""The encoding of a solver that takes the puzzle itself, not a script (the kind's own search)."""

EXIT_CODES = {
    Status.SAT: EXIT_OK,
    Status.UNSAT: EXIT_NO_SOLUTION,
    Status.UNKNOWN: EXIT_UNKNOWN,
    Status.TIMEOUT: EXIT_UNKNOWN,
    Status.ERROR: EXIT_SOLVER,
}


@dataclass(frozen=True)
class SolveResult:
    """The outcome of solving one puzzle of any kind; ``grid`` is set only for a checked solution
    (for an optimisation kind: the best one found, and ``optimum`` says what is known of it)."""

    puzzle: Any
    status: Status
    solver: str
    """Who answered: the solver's name, or :data:`PRESOLVE`; before an answer (a time-out, an
    error), the solver asked for."""
    encoding: str
    grid: Any = None
    message: str = ""
    times: dict[str, float] = field(default_factory=dict)
    solver_output: str = ""
    presolved_cells: int | None = None
    unique: bool | None = None
    """True / False when ``unique`` was asked and settled; None when not asked or not settled
    (:attr:`settled_unique` also counts what the forced cells settle)."""
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
    searched: bool = False
    """The answer is the kind's own search's (a solver that takes the puzzle itself)."""

    @property
    def answered_by(self) -> str:
        """Whose answer this is: ``presolve`` (no solver ran, :attr:`settled_by_presolve`), the
        searching solver's name (``rules``: the kind's own search, racing or alone), or
        ``SOLVER/ENCODING`` (the racer whose answer it is, not necessarily the solver asked
        for); "" when nothing was settled (a time-out, an error)."""
        if self.status not in (Status.SAT, Status.UNSAT):
            return ""
        if self.settled_by_presolve:
            return PRESOLVE
        if self.searched:
            return self.solver
        return f"{self.solver}/{self.encoding}"

    @property
    def kind(self) -> Kind:
        return kind_of(self.puzzle)

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        """(row, column), 0-based, of the cells where the two solutions differ."""
        from fillsmt.engine.solutions import differing_cells

        if self.grid is None or self.second_grid is None:
            return []
        return differing_cells(self.grid, self.second_grid)

    def _repr_svg_(self) -> str:
        """Jupyter shows the solution found (the puzzle alone when there is none)."""
        from fillsmt.pictures.notebook import picture

        return picture(self.puzzle, self.grid)

    @property
    def unforced_cells(self) -> list[tuple[int, int]]:
        """(row, column), 0-based, of the cells the solutions do not agree on (with ``forced``)."""
        if self.forced is None:
            return []
        return [(r, c) for r, row in enumerate(self.forced) for c, v in enumerate(row) if not v]

    @property
    def settled_unique(self) -> bool | None:
        """Is the solution the only one, as far as was settled: :attr:`unique`, or else the
        forced cells (every cell forced: one solution; a cell not forced: several)."""
        if self.unique is not None or self.forced is None:
            return self.unique
        return not self.unforced_cells

    @property
    def exit_code(self) -> int:
        """The status's code; 5 (not unique) when ``unique`` was asked and a second solution
        found, or when the forced cells show several solutions; 3 when ``unique`` was asked and
        not settled."""
        code = EXIT_CODES[self.status]
        if code == EXIT_OK and self.settled_unique is False:
            return EXIT_NOT_UNIQUE
        if code == EXIT_OK and self.unique_asked and self.settled_unique is not True:
            return EXIT_UNKNOWN
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


def agreement(grids: list) -> tuple:
    """Each cell's number where every grid of ``grids`` has it, else 0."""
    return tuple(
        tuple(v if all(g[r][c] == v for g in grids) else 0 for c, v in enumerate(row)) for r, row in enumerate(grids[0])
    )


# --- the builders ---------------------------------------------------------------------------------------


def presolved(kind: Kind, puzzle: Any, found: Any, encoding: str, started: float, unique: bool, forced: bool):
    """The presolve alone settled the puzzle (``found``, a :class:`~fillsmt.protocol.Presolved`):
    its grid, checked (every cell forced: no other solution), or its proof that there is none."""
    done_presolve = time.perf_counter()
    grid, unique_found, forced_grid = None, None, None
    if found.contradiction is not None:
        status, message = Status.UNSAT, f"the deduction rules prove there is no solution: {found.contradiction}"
    else:
        problems = kind.check(puzzle, found.grid)
        if problems:
            status = Status.ERROR
            message = f"the deduction rules' grid fails the independent check: {'; '.join(problems)}"
        else:
            status, message, grid = Status.SAT, "solved by the deduction rules alone", found.grid
            unique_found = True if unique else None
            forced_grid = found.grid if forced else None
    done = time.perf_counter()
    return SolveResult(
        puzzle,
        status,
        PRESOLVE,
        encoding,
        grid=grid,
        message=message,
        times={"presolve": done_presolve - started, "check": done - done_presolve, "total": done - started},
        presolved_cells=found.fixed_cells,
        unique=unique_found,
        forced=forced_grid,
        unique_asked=unique,
        settled_by_presolve=True,
    )


def quick_answer(puzzle: Any, grid: Any, encoding: str, started: float, made: float) -> SolveResult:
    """A clue-less puzzle's checked answer, built by its kind without any search."""
    done = time.perf_counter()
    return SolveResult(
        puzzle,
        Status.SAT,
        PRESOLVE,
        encoding,
        grid=grid,
        message="no clues: any valid grid is a solution",
        times={"presolve": made - started, "check": done - made, "total": done - started},
        presolved_cells=0,
        settled_by_presolve=True,
    )


def timed_out(puzzle: Any, solver: str, encoding: str, unique: bool, message: str, started: float) -> SolveResult:
    """No answer within the time limit (the engine stopped whatever stage was running)."""
    return SolveResult(
        puzzle,
        Status.TIMEOUT,
        solver,
        encoding,
        message=message,
        times={"total": time.perf_counter() - started},
        unique_asked=unique,
    )


def credited(message: str, by: str, context: str | None) -> str:
    """``message`` of an answer, saying who answered first when the racer raced (``context``:
    "racing yices", "before any solver started"; None for a racer alone)."""
    if context is None:
        return message
    return f"answered first by {by}, {context}" + (f" ({message})" if message else "")


def from_run(racer: Racer, ran: Any, problem: Problem, times: dict[str, float]) -> SolveResult:
    """A one-shot run's answer (``ran``, a :class:`~fillsmt.drivers.base.RunResult`; ``times``: its
    stages so far): on SAT the model decoded and checked (a model the checker refuses is an ERROR)."""
    solved = time.perf_counter()
    status, message, grid = ran.status, ran.message, None
    if ran.status is Status.SAT:
        grid, why = checked(problem, ran.values, racer.driver.name)
        if grid is None:
            status, message = Status.ERROR, why
    if status in (Status.SAT, Status.UNSAT):
        message = credited(message, racer.label, racer.context)
    done = time.perf_counter()
    return SolveResult(
        racer.puzzle,
        status,
        racer.driver.name,
        racer.encoding,
        grid=grid,
        message=message,
        times={**times, "check": done - solved, "total": done - racer.started},
        solver_output=ran.output,
        presolved_cells=racer.presolved_cells,
    )


class SessionOutcome:
    """What a solver session settled, before it is a result (:func:`from_session`): set as the
    session goes (the status, the first grid and what was asked after it, the checks and cuts of
    a lazy encoding, the times by stage)."""

    __slots__ = ("status", "grid", "message", "unique", "second_grid", "forced", "checks", "cuts", "times")

    def __init__(self, status: Status = Status.ERROR, times: dict[str, float] | None = None) -> None:
        self.status = status
        self.grid: Any = None
        self.message = ""
        self.unique: bool | None = None
        self.second_grid: Any = None
        self.forced: Any = None
        self.checks = 0
        self.cuts = 0
        self.times: dict[str, float] = {} if times is None else times


def from_session(racer: Racer, outcome: SessionOutcome) -> SolveResult:
    """A session's answer: its first (checked) solution, and what was asked after it."""
    message = outcome.message
    if outcome.cuts and not message:
        message = f"{outcome.checks} checks, {outcome.cuts} region cuts"
    if outcome.status in (Status.SAT, Status.UNSAT):
        message = credited(message, racer.label, racer.context)
    return SolveResult(
        racer.puzzle,
        outcome.status,
        racer.driver.name,
        racer.encoding,
        grid=outcome.grid,
        message=message,
        times={**outcome.times, "total": time.perf_counter() - racer.started},
        presolved_cells=racer.presolved_cells,
        unique=outcome.unique,
        second_grid=outcome.second_grid,
        forced=outcome.forced,
        checks=outcome.checks,
        unique_asked=racer.unique,
    )


class SearchOutcome(NamedTuple):
    """What the kind's own search found (in this process or in the race's child): up to ``limit``
    grids, and whether the search space was exhausted (then they are every solution)."""

    solutions: list[Any]
    exhausted: bool
    nodes: int
    max_depth: int
    guesses: int = 0
    root_fixed: int = 0
    timed_out: bool = False
    limit: int = 1
    exhaustive: bool = False

    @classmethod
    def of(cls, found: Any, limit: int, exhaustive: bool) -> SearchOutcome:
        """From the kind's search result (solutions, exhausted, nodes, max_depth, guesses, …)."""
        return cls(
            list(found.solutions),
            bool(found.exhausted),
            found.nodes,
            found.max_depth,
            getattr(found, "guesses", 0),
            getattr(found, "root_fixed", 0),
            bool(getattr(found, "timed_out", False)),
            limit,
            exhaustive,
        )

    @property
    def decisive(self) -> bool:
        """It settles what was asked: ``limit`` solutions found, or all of them (exhausted). An
        ``exhaustive`` question (which cells every solution shares) needs all of them."""
        return self.exhausted or (not self.exhaustive and len(self.solutions) >= self.limit)


def from_search(racer: Racer, kind: Kind, outcome: SearchOutcome, times: dict[str, float]) -> SolveResult:
    """The kind's search's answer, its grids checked again here. Alone (no ``racer.context``) it
    says the nodes, guesses and depth, and the cells its root fixed when no presolve ran before
    it; racing, who answered first. With ``forced`` only an exhausted search settles the forced
    cells: its solutions are then all there are."""
    checking = time.perf_counter()
    status = Status.SAT if outcome.solutions else Status.UNSAT if outcome.exhausted else Status.UNKNOWN
    if not outcome.solutions and not outcome.exhausted and outcome.timed_out:
        status = Status.TIMEOUT
    grid = second = forced = unique = None
    n, g, d = outcome.nodes, outcome.guesses, outcome.max_depth
    message = f"{n} node{'s' if n != 1 else ''}, {g} guess{'es' if g != 1 else ''}, depth {d}"
    if racer.context is not None:
        message = f"answered first by {racer.driver.title} ({n} nodes, depth {d}), {racer.context}"
    if outcome.solutions:
        problems = kind.check(racer.puzzle, outcome.solutions[0])
        if problems:  # the search checks too: this would be a bug
            status, message = Status.ERROR, f"the search's grid fails the check: {problems[0]}"
        else:
            grid = outcome.solutions[0]
            if racer.unique:
                if len(outcome.solutions) > 1 and not kind.check(racer.puzzle, outcome.solutions[1]):
                    unique, second = False, outcome.solutions[1]
                elif outcome.exhausted and len(outcome.solutions) == 1:
                    unique = True
            if racer.forced and outcome.exhausted:  # every grid passed the check on arrival
                forced = agreement(outcome.solutions)
    done = time.perf_counter()
    return SolveResult(
        racer.puzzle,
        status,
        racer.driver.name,
        racer.encoding,
        grid=grid,
        message=message,
        times={**times, "check": done - checking, "total": done - racer.started},
        presolved_cells=outcome.root_fixed if racer.presolved_cells is None else racer.presolved_cells,
        unique=unique,
        second_grid=second,
        forced=forced,
        unique_asked=racer.unique,
        searched=True,
    )


def closed_by_race(racer: Racer) -> SolveResult:
    """The solver asked for, whose session the race closed, when no one else settled the puzzle."""
    return SolveResult(
        racer.puzzle,
        Status.ERROR,
        racer.driver.name,
        racer.encoding,
        message=f"the {racer.driver.name} session was closed and the search did not settle the puzzle",
        times={"total": time.perf_counter() - racer.started},
        unique_asked=racer.unique,
    )


def from_optimum(puzzle: Any, solver: str, encoding: str, found: Any, started: float) -> SolveResult:
    """An optimisation kind's report as a result: SAT when proven optimal, else TIMEOUT or
    UNKNOWN with the best answer found (checked by the optimiser)."""
    status = Status.SAT if found.optimal else Status.TIMEOUT if found.status.value == "timeout" else Status.UNKNOWN
    return SolveResult(
        puzzle,
        status,
        found.solver or solver,
        found.amo or encoding,
        grid=found.solution,
        checks=found.checks,
        optimum=found,
        times={
            "first": found.time_first,
            "best": found.time_best,
            "proven": found.time_proven,
            "total": time.perf_counter() - started,
        },
    )


def decoded(puzzle: Any, encoding: str, solution: Any) -> SolveResult:
    """A saved answer, decoded and checked (``fillsmt decode``)."""
    return SolveResult(puzzle, Status.SAT, "", encoding, grid=solution)


def noted(result: SolveResult, note: str) -> SolveResult:
    """``result`` with ``note`` added to its message."""
    return replace(result, message=f"{result.message}; {note}" if result.message else note)


def with_total(result: SolveResult, seconds: float) -> SolveResult:
    """``result`` whose total time is ``seconds`` (the whole command's, or the whole race's)."""
    return replace(result, times={**result.times, "total": seconds})


__all__ = [
    "EXIT_CODES",
    "NO_ENCODING",
    "PRESOLVE",
    "SearchOutcome",
    "SessionOutcome",
    "SolveResult",
    "agreement",
    "checked",
    "closed_by_race",
    "credited",
    "decoded",
    "from_optimum",
    "from_run",
    "from_search",
    "from_session",
    "noted",
    "presolved",
    "quick_answer",
    "timed_out",
    "with_total",
]
