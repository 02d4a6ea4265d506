"""The pipeline: Puzzle → encoder → SMT-LIB → driver → answer → decoder → grid → checker.

No grid leaves :func:`solve` unless the independent checker accepted it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.errors import (EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE, EXIT_OK, EXIT_SOLVER,
                            EXIT_UNKNOWN, FillsmtError, InputError, SolverError)
from fillsmt.fillomino.decode import AnswerError, decode_grid
from fillsmt.fillomino.names import cell_of_number_var
from fillsmt.fillomino.encodings import DEFAULT_ENCODING, ENCODINGS
from fillsmt.fillomino.race import RulesRace, SessionRace, can_race, clueless_solution, run_racing
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.answer import Status
from fillsmt.solutions import (Problem, Search, WrongAnswer, backbone, differing_cells,
                               enumerate_solutions)

DEFAULT_SOLVER = "yices"
DEFAULT_PRESOLVE = True
"""Whether ``solve`` runs the deduction rules first unless told otherwise."""
DEFAULT_RACE = False
"""Whether ``solve`` races the rules' search against the solver (:mod:`fillsmt.fillomino.race`)."""
PRESOLVE_LEVELS = ("off", "on", "race")
"""How much Fillomino-specific reasoning ``solve`` adds (bench configurations): none, the rules
before encoding, or those and the rules' search racing the solver."""


def presolve_level(presolve: bool, race: bool) -> str:
    """The name in :data:`PRESOLVE_LEVELS` of ``solve``'s two switches."""
    return "race" if presolve and race else "on" if presolve else "off"

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
    unique: bool | None = None
    """True / False when ``unique`` was asked and settled; None when not asked or not settled."""
    second_grid: Grid | None = None
    forced: Grid | None = None
    """With ``forced``: each cell's number when every solution has it there, else 0."""
    checks: int = 0
    unique_asked: bool = False

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        """(row, column), 0-based, of the cells where the two solutions differ."""
        if self.grid is None or self.second_grid is None:
            return []
        return differing_cells(self.grid, self.second_grid)

    @property
    def exit_code(self) -> int:
        code = EXIT_CODES[self.status]
        if code == EXIT_OK and self.unique_asked and self.unique is not True:
            return EXIT_NOT_UNIQUE if self.unique is False else EXIT_UNKNOWN
        return code


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
    return encode_script(puzzle, encoding, domains).text()


def encode_script(puzzle: Puzzle, encoding: str, domains=None):
    """The SMT-LIB script of ``puzzle`` under ``encoding``, as data."""
    if encoding not in ENCODINGS:
        raise InputError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    return ENCODINGS[encoding](puzzle, domains)


def fillomino_problem(puzzle: Puzzle, script, solver: str) -> Problem:
    """What a session needs to find, block and check solutions of ``puzzle`` from ``script``."""
    width = puzzle.width

    def term_cell(term: str) -> tuple[int, int]:
        return divmod(cell_of_number_var(term), width)

    return Problem(script=script,
                   decode=lambda values: decode_grid(puzzle, values, source=f"{solver}'s answer"),
                   check=lambda grid: check_solution(puzzle.cells, grid),
                   term_cell=term_cell)


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


def solve(puzzle, driver: Driver, encoding: str | None = None, timeout: float | None = None,
          presolve: bool | str = DEFAULT_PRESOLVE, unique: bool = False, forced: bool = False,
          race: bool = DEFAULT_RACE) -> SolveResult:
    """Encode, solve, decode and check one puzzle; with ``presolve``, deduce what logic forces first.

    With ``unique`` (or ``forced``) the work happens in one incremental session: after the first
    solution, is there another (``unique``)? Which cells hold the same number in every solution
    (``forced``)? ``timeout`` then bounds the whole session. With ``presolve`` and ``race`` (a
    Fillomino puzzle, not ``forced``), the rules' search races the solver; ``presolve`` may also
    be a name of :data:`PRESOLVE_LEVELS`, which sets both."""
    if isinstance(presolve, str):
        presolve, race = presolve != "off", presolve == "race"
    t0 = time.perf_counter()
    from fillsmt.tiling.model import TilingProblem

    if isinstance(puzzle, TilingProblem):
        raise InputError(f"{puzzle.source}: a tiling problem is optimised, not solved: "
                         "use fillsmt.solve or fillsmt.tiling.optimize.optimize")
    if not isinstance(puzzle, Puzzle):
        return _solve_other_kind(puzzle, driver, encoding, timeout, unique, forced, t0)
    encoding = encoding or DEFAULT_ENCODING
    if not (unique or forced):
        done = _clueless(puzzle, driver, encoding, t0)
        if done is not None:
            return done
    domains, target, fixed = None, puzzle, None
    if presolve:
        finished, deduction = _presolved(puzzle, driver, encoding, t0)
        if finished is not None:
            finished.unique_asked = unique
            if finished.grid is not None:  # the rules forced every cell: no other solution exists
                finished.unique = True if unique else None
                finished.forced = finished.grid if forced else None
            return finished
        domains, target, fixed = deduction.domains, deduction.filled_puzzle(puzzle), deduction.fixed_count
    if unique or forced:
        tp = time.perf_counter()
        problem = fillomino_problem(puzzle, encode_script(target, encoding, domains), driver.name)
        if race and presolve and not forced:
            return _session_racing(puzzle, target, problem, fixed, driver, encoding, timeout, unique, t0, tp)
        return _solve_in_session(puzzle, problem, fixed, driver, encoding, timeout, unique, forced, t0, tp)
    tp = time.perf_counter()
    if race and presolve and can_race(driver):
        run, rules, encoded = run_racing(target, driver, lambda: encode(target, encoding, domains), timeout)
        t1 = tp + encoded
        if run is None:
            return _rules_answer(puzzle, rules, driver, encoding, fixed, False, {
                "presolve": tp - t0, "encode": encoded, "solve": time.perf_counter() - t1, "check": 0.0}, t0)
    else:
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


def _clueless(puzzle: Puzzle, driver: Driver, encoding: str, t0: float) -> SolveResult | None:
    """A puzzle without clues answered by a checked valid grid (:mod:`fillsmt.fillomino.race`)."""
    grid = clueless_solution(puzzle)
    if grid is None:
        return None
    result = SolveResult(puzzle, Status.SAT, driver.name, encoding, grid=grid, presolved_cells=0,
                         message="no clues: any valid grid is a solution")
    elapsed = time.perf_counter() - t0
    result.times = {"presolve": elapsed, "encode": 0.0, "solve": 0.0, "check": 0.0, "total": elapsed}
    return result


def _rules_answer(puzzle: Puzzle, rules, driver: Driver, encoding: str, fixed, unique: bool,
                  times: dict, t0: float) -> SolveResult:
    """The result from the racing search's decisive outcome (its grids checked again here)."""
    result = SolveResult(puzzle, Status.UNSAT, driver.name, encoding, presolved_cells=fixed, unique_asked=unique,
                         message=f"answered first by the rules' search ({rules.nodes} nodes, depth {rules.max_depth})")
    if rules.solutions:
        problems = check_solution(puzzle.cells, rules.solutions[0])
        if problems:
            result.status, result.message = Status.ERROR, f"the search's grid fails the check: {problems[0]}"
        else:
            result.status, result.grid = Status.SAT, rules.solutions[0]
            if unique:
                if len(rules.solutions) > 1 and not check_solution(puzzle.cells, rules.solutions[1]):
                    result.unique, result.second_grid = False, rules.solutions[1]
                elif rules.exhausted and len(rules.solutions) == 1:
                    result.unique = True
    times["total"] = time.perf_counter() - t0
    result.times = times
    return result


def _session_racing(puzzle, target, problem, fixed, driver, encoding, timeout, unique, t0, tp) -> SolveResult:
    """``_solve_in_session`` with the rules' search (up to two solutions) racing it; a decisive
    search answer closes the session."""
    stop = threading.Event()
    with RulesRace(target, 2 if unique else 1, timeout) as race:
        racing = SessionRace(driver, race)
        race.start(stop, on_decisive=racing.kill)
        try:
            result = _solve_in_session(puzzle, problem, fixed, racing, encoding, timeout, unique, False, t0, tp)
        except FillsmtError:
            if not racing.closed_by_race.is_set():
                raise
            result = None
        stop.set()
    settled = result is not None and not racing.closed_by_race.is_set()
    if settled or race.outcome is None or not race.outcome.decisive:
        if result is None:
            raise SolverError(f"the {driver.name} session was closed and the rules' search did not settle the puzzle")
        return result
    times = {"presolve": tp - t0, "encode": 0.0, "solve": time.perf_counter() - tp, "check": 0.0}
    return _rules_answer(puzzle, race.outcome, driver, encoding, fixed, unique, times, t0)


def _solve_other_kind(puzzle, driver, encoding, timeout, unique, forced, t0) -> SolveResult:
    """A puzzle of a kind without presolve (BlockNumber): encode, run or open a session, check."""
    from fillsmt.kinds import kind_of

    kind = kind_of(puzzle)
    encoding = encoding or kind.default_encoding
    script = kind.encode(puzzle, encoding)
    problem = kind.problem(puzzle, script, encoding, driver.name)
    if unique or forced:
        return _solve_in_session(puzzle, problem, None, driver, encoding, timeout, unique, forced, t0, t0)
    t1 = time.perf_counter()
    run = driver.run(script.text(), timeout)
    t2 = time.perf_counter()
    result = SolveResult(puzzle, run.status, driver.name, encoding, message=run.message, solver_output=run.output)
    if run.status is Status.SAT:
        try:
            grid = problem.decode(run.values)
            problems = problem.check(grid)
        except AnswerError as e:
            grid, problems = None, [str(e)]
        if problems:
            result.status, result.message = Status.ERROR, \
                f"{driver.name}'s answer fails the independent check: {'; '.join(problems)}"
        else:
            result.grid = grid
    t3 = time.perf_counter()
    result.times = {"presolve": 0.0, "encode": t1 - t0, "solve": t2 - t1, "check": t3 - t2, "total": t3 - t0}
    return result


def _solve_in_session(puzzle, problem, fixed, driver, encoding, timeout, unique, forced, t0, tp) -> SolveResult:
    t1 = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    result = SolveResult(puzzle, Status.ERROR, driver.name, encoding, presolved_cells=fixed, unique_asked=unique)
    times = {"presolve": tp - t0, "encode": t1 - tp}
    with driver.open_session() as session:
        search = Search(problem, session, deadline)
        try:
            search.start()
            first_status, first = search.next_solution()
            t2 = time.perf_counter()
            times["solve"] = t2 - t1
            result.status = first_status
            if first is None:
                result.message = {Status.UNSAT: "no solution", Status.TIMEOUT:
                                  f"{driver.name} gave no answer within {timeout:g} s and was stopped" if timeout else "",
                                  Status.UNKNOWN: f"{driver.name} answered unknown"}.get(first_status, "")
            else:
                result.grid = first.grid
                if unique:
                    second_status, second = search.next_solution()
                    times["unique"] = time.perf_counter() - t2
                    if second_status is Status.UNSAT:
                        result.unique = True
                    elif second is not None:
                        result.unique, result.second_grid = False, second.grid
                    else:
                        result.message = f"uniqueness not settled: {second_status.value}"
                if forced and result.unique is not True:
                    t3 = time.perf_counter()
                    bones = backbone(search, first)
                    times["forced"] = time.perf_counter() - t3
                    if bones.status is Status.UNSAT:
                        result.forced = tuple(tuple(v if bones.forced.get((r, c), False) else 0
                                                    for c, v in enumerate(row)) for r, row in enumerate(first.grid))
                    else:
                        result.message = f"forced cells not settled: {bones.status.value}"
                elif forced:
                    result.forced = first.grid
        except WrongAnswer as e:
            result.status, result.grid, result.message = Status.ERROR, None, str(e)
        except SessionTimeout as e:
            if result.grid is None:
                result.status = Status.TIMEOUT
                result.message = f"{driver.name} gave no answer within {timeout:g} s and was stopped" if timeout else str(e)
            else:  # solved; what was asked after the solution stays unsettled
                result.status, result.message = Status.SAT, f"not settled: {e}"
        result.checks = search.checks
    times.setdefault("solve", time.perf_counter() - t1)
    times["check"] = 0.0
    times["total"] = time.perf_counter() - t0
    result.times = times
    return result


def count(puzzle, driver: Driver, limit: int = 2, encoding: str | None = None,
          timeout: float | None = None, presolve: bool = DEFAULT_PRESOLVE):
    """Up to ``limit`` distinct checked solutions of ``puzzle``, and whether that is all of them."""
    from fillsmt.solutions import Enumeration

    if not isinstance(puzzle, Puzzle):
        from fillsmt.kinds import kind_of

        kind = kind_of(puzzle)
        encoding = encoding or kind.default_encoding
        return _count(kind.problem(puzzle, kind.encode(puzzle, encoding), encoding, driver.name),
                      driver, limit, timeout)
    encoding = encoding or DEFAULT_ENCODING
    domains, target = None, puzzle
    if presolve:
        from fillsmt.fillomino.deduce import deduce

        deduction = deduce(puzzle)
        if deduction.contradiction is not None:
            return Enumeration([], True, Status.UNSAT, 0, f"the deduction rules prove there is no solution: "
                                                         f"{deduction.contradiction}")
        domains, target = deduction.domains, deduction.filled_puzzle(puzzle)
    return _count(fillomino_problem(puzzle, encode_script(target, encoding, domains), driver.name),
                  driver, limit, timeout)


def _count(problem: Problem, driver: Driver, limit: int, timeout: float | None):
    from fillsmt.solutions import Enumeration

    deadline = None if timeout is None else time.monotonic() + timeout
    with driver.open_session() as session:
        search = Search(problem, session, deadline)
        try:
            search.start()
            return enumerate_solutions(search, limit)
        except WrongAnswer as e:
            return Enumeration([f.grid for f in search.solutions], False, Status.ERROR, search.checks, str(e))
        except SessionTimeout as e:
            return Enumeration([f.grid for f in search.solutions], False, Status.TIMEOUT, search.checks, str(e))



RULES_SOLVER = "rules"
"""The ``--solver`` name of the thesis' own solver: the deduction rules plus backtracking."""


def require_rules_apply(puzzle) -> None:
    """Raise InputError unless ``puzzle`` is one the rules solver can solve (Fillomino)."""
    if not isinstance(puzzle, Puzzle):
        from fillsmt.kinds import kind_of

        raise InputError(f"{puzzle.source}: --solver {RULES_SOLVER} solves Fillomino puzzles only; "
                         f"this is a {kind_of(puzzle).name} puzzle")


def solve_with_rules(puzzle: Puzzle, timeout: float | None = None, unique: bool = False,
                     forced: bool = False) -> SolveResult:
    """Solve a Fillomino puzzle without an SMT solver: the deduction rules plus backtracking
    (:mod:`fillsmt.fillomino.backtrack`, the thesis' sections 6.1–6.2). With ``unique`` the
    search goes on to a second solution or to the end of the search space."""
    from fillsmt.fillomino.backtrack import solve_by_search

    require_rules_apply(puzzle)
    if forced:
        raise InputError(f"--forced needs an SMT solver session; --solver {RULES_SOLVER} does not offer it")
    t0 = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    found = solve_by_search(puzzle, limit=2 if unique else 1, deadline=deadline)
    t1 = time.perf_counter()
    if found.solutions:
        status = Status.SAT
    elif found.exhausted:
        status = Status.UNSAT
    else:
        status = Status.TIMEOUT if found.timed_out else Status.UNKNOWN
    message = (f"{found.nodes} node{'s' if found.nodes != 1 else ''}, {found.guesses} "
               f"guess{'es' if found.guesses != 1 else ''}, depth {found.max_depth}")
    result = SolveResult(puzzle, status, RULES_SOLVER, "none", message=message,
                         presolved_cells=found.root_fixed, unique_asked=unique)
    if found.solutions:
        problems = check_solution(puzzle.cells, found.solutions[0])
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


__all__ = ["EXIT_BAD_INPUT", "RULES_SOLVER", "SolveResult", "checked_grid", "count", "encode", "encode_script",
           "require_rules_apply", "solve", "solve_with_rules"]
