"""The one pipeline, for every kind: presolve → a plan or one attempt → decode → check.

:func:`run` takes a puzzle and a :class:`~fillsmt.engine.request.Request` (what was asked, of
which solver, how) and returns a :class:`~fillsmt.engine.result.SolveResult`: the kind's presolve
(where it :class:`~fillsmt.protocol.Presolves` and the request asks for it) may settle the puzzle
alone; else, where the kind :class:`~fillsmt.protocol.Searches` and the request races, the kind's
plan is carried out (:mod:`fillsmt.engine.race`); else one attempt runs
(:mod:`fillsmt.engine.attempt`). An optimisation kind (:class:`~fillsmt.protocol.Optimises`) goes
to its optimiser; :func:`count` enumerates solutions. Everything talks to the kind and the
driver; nothing asks what class a puzzle is, and no solution leaves the engine unless the kind's
independent checker accepted it. :func:`solve` is the same with the request's parts as arguments.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from fillsmt.drivers.base import Driver
from fillsmt.engine import result as results
from fillsmt.engine.attempt import Racer, attempt
from fillsmt.engine.interrupts import run_within
from fillsmt.engine.request import (
    DEFAULT_PRESOLVE,
    DEFAULT_RACE,
    DEFAULT_SOLVER,
    DEFAULT_STAGED,
    PRESOLVE_LEVELS,
    Request,
    ask,
    level_of,
    presolve_level,
    resolve_encoding,
)
from fillsmt.engine.result import EXIT_CODES, NO_ENCODING, PRESOLVE, SolveResult, checked
from fillsmt.errors import InputError, NoSolution
from fillsmt.kinds import kind_of
from fillsmt.protocol import Optimises, Presolves, Searches
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:
    from fillsmt.engine.solutions import Enumeration
    from fillsmt.smtlib import Script


def encode_script(puzzle: Any, encoding: str | None = None, hints: Any = None) -> Script:
    """The SMT-LIB script of ``puzzle`` under ``encoding``, as data (``hints`` from a presolve)."""
    return kind_of(puzzle).encode(puzzle, encoding, hints)


def encode(puzzle: Any, encoding: str | None = None, hints: Any = None) -> str:
    """The SMT-LIB text of ``puzzle`` under ``encoding``."""
    return encode_script(puzzle, encoding, hints).text()


def solve(
    puzzle: Any,
    driver: Driver,
    encoding: str | None = None,
    timeout: float | None = None,
    presolve: bool | str = DEFAULT_PRESOLVE,
    unique: bool = False,
    forced: bool = False,
    method: str = "auto",
    race: bool | None = None,
    staged: bool | None = None,
) -> SolveResult:
    """Presolve, encode, solve, decode and check one puzzle of any kind: :func:`run` of the
    request these arguments make (:func:`fillsmt.engine.request.ask`).

    With ``unique`` (or ``forced``) the work happens in one incremental session: after the first
    solution, is there another (``unique``)? Which cells hold the same number in every solution
    (``forced``)? ``timeout`` is the solver's, and bounds every stage too: whatever still runs
    :data:`~fillsmt.engine.interrupts.GRACE` seconds past it (the presolve, the encoding, a solver that
    does not stop) is stopped, and the result is a TIMEOUT. An optimisation kind (tilings) is
    handed to its optimiser (``method`` picks how), which keeps its best answer at the time-out.
    With ``presolve`` and ``race``, a kind with a search of its own carries out its plan for the
    presolved puzzle (``Searches.plan``, :mod:`fillsmt.engine.race`): its search races the solver (with
    ``forced`` it wins only by exhausting its search), and with ``staged`` (and the default
    solver and encoding) the plan's quick search runs first in this process, its lead encoding
    replaces the default one, and its other configurations join the race after their delays.
    ``presolve`` may also be a name of :data:`PRESOLVE_LEVELS`, which sets all three; ``race``
    and ``staged`` None mean :data:`DEFAULT_RACE` and :data:`DEFAULT_STAGED`."""
    t0 = time.perf_counter()
    request = ask_for(
        puzzle, driver, encoding, timeout, presolve, race, staged, unique=unique, forced=forced, method=method
    )
    return run(puzzle, request, t0)


def ask_for(
    puzzle: Any,
    driver: Driver,
    encoding: str | None = None,
    timeout: float | None = None,
    presolve: bool | str = DEFAULT_PRESOLVE,
    race: bool | None = None,
    staged: bool | None = None,
    *,
    unique: bool = False,
    forced: bool = False,
    method: str = "auto",
) -> Request:
    """The request of :func:`solve`'s arguments for ``puzzle`` (:func:`fillsmt.engine.request.ask`),
    refusing what cannot be asked of its kind."""
    kind = kind_of(puzzle)
    if isinstance(kind, Optimises) and (unique or forced):
        raise InputError(
            f"{puzzle.source}: --unique and --forced are for puzzles with one answer, "
            f"not for {kind.name}s (which look for the best answer)"
        )
    level = level_of(presolve, race, staged)
    return ask(kind, driver, encoding, level=level, unique=unique, forced=forced, timeout=timeout, method=method)


def run(puzzle: Any, request: Request, started: float | None = None) -> SolveResult:
    """The result of ``request`` for ``puzzle`` (made by :func:`~fillsmt.engine.request.ask`);
    ``started``: when the solve began (``time.perf_counter()``; default now)."""
    t0 = time.perf_counter() if started is None else started
    if isinstance(request.kind, Optimises):
        return optimise(puzzle, request, t0)
    return _within(
        request.timeout,
        lambda: _solve(puzzle, request, t0),
        lambda why: results.timed_out(puzzle, request.driver.name, request.encoding, request.unique, why, t0),
    )


def _within(timeout: float | None, work: Callable[[], Any], timed_out: Callable[[str], Any]) -> Any:
    """``work()``, stopped :data:`~fillsmt.engine.interrupts.GRACE` seconds past ``timeout`` whatever
    stage it is in: then ``timed_out(message)``."""
    return run_within(
        timeout,
        work,
        lambda: timed_out(
            f"no answer within the time-out of {timeout:g} s (it covers the presolve, the encoding and the solver)"
        ),
    )


def _solve(puzzle: Any, request: Request, t0: float) -> SolveResult:
    """:func:`run` within the time limit."""
    kind = request.kind
    racer = Racer(request, puzzle, puzzle, None, request.driver, request.encoding, request.timeout, None, t0, t0)
    if request.driver.searches:  # it takes the puzzle itself: the search's root is its presolve
        found = attempt(racer)
        assert found is not None  # None only for a run stopped before it started: no stop here
        return found
    if not request.proof:
        quick = _quick(puzzle, request, t0)
        if quick is not None:
            return quick
    presolved = kind.presolve(puzzle) if request.presolves and isinstance(kind, Presolves) else None
    if presolved is not None:
        if presolved.contradiction is not None or presolved.grid is not None:
            return results.presolved(kind, puzzle, presolved, request.encoding, t0, request.unique, request.forced)
        racer = Racer(
            request,
            puzzle,
            presolved.puzzle,
            presolved.hints,
            request.driver,
            request.encoding,
            request.timeout,
            presolved.fixed_cells,
            t0,
            time.perf_counter(),
        )
        if (
            request.races
            and isinstance(kind, Searches)
            and (request.proof or request.lazy or request.driver.supports_stop)
        ):
            plan = kind.plan(presolved.puzzle, request.proof)
            if not request.staged:
                plan = plan.race_only()
            from fillsmt.engine.race import carry_out

            if plan.encoding is not None:  # the kind's choice for this grid replaces the default encoding
                if kind.encoding(plan.encoding).lazy:
                    request.driver.require_session()
                racer = racer._replace(encoding=plan.encoding)
            return carry_out(plan, racer)
    found = attempt(racer)
    assert found is not None  # None only for a run stopped before it started: no stop here
    return found


def _quick(puzzle: Any, request: Request, t0: float) -> SolveResult | None:
    """A checked answer the kind finds without any search (a clue-less Fillomino grid), or None."""
    kind = request.kind
    grid = kind.quick_answer(puzzle) if isinstance(kind, Presolves) else None
    if grid is None:
        return None
    made = time.perf_counter()
    if kind.check(puzzle, grid):
        return None
    return results.quick_answer(puzzle, grid, request.encoding, t0, made)


def count(
    puzzle: Any,
    driver: Driver,
    limit: int = 2,
    encoding: str | None = None,
    timeout: float | None = None,
    presolve: bool = DEFAULT_PRESOLVE,
) -> Enumeration:
    """Up to ``limit`` distinct checked solutions of ``puzzle``, and whether that is all of them;
    ``timeout`` bounds every stage, as for :func:`solve`."""
    kind = kind_of(puzzle)
    if isinstance(kind, Optimises):
        raise InputError(
            f"{puzzle.source}: count is for puzzles with one answer, not for {kind.name}s "
            "(solve one for the best answer with `fillsmt solve`)"
        )
    from fillsmt.engine.solutions import Enumeration

    request = ask(kind, driver, encoding, level="staged" if presolve else "off", timeout=timeout, limit=limit)
    return _within(
        timeout,
        lambda: _count(puzzle, request),
        lambda why: Enumeration([], False, Status.TIMEOUT, 0, why),
    )


def _count(puzzle: Any, request: Request) -> Enumeration:
    from fillsmt.drivers.session import SessionTimeout
    from fillsmt.engine.solutions import Enumeration, Search, WrongAnswer, enumerate_solutions

    kind, driver, encoding, limit = request.kind, request.driver, request.encoding, request.limit
    target, hints = puzzle, None
    found = kind.presolve(puzzle) if request.presolves and isinstance(kind, Presolves) else None
    if found is not None and found.contradiction is not None:
        return Enumeration(
            [], True, Status.UNSAT, 0, f"the deduction rules prove there is no solution: {found.contradiction}"
        )
    if found is not None and found.puzzle is not None:
        target, hints = found.puzzle, found.hints
        if isinstance(kind, Searches) and DEFAULT_STAGED and request.default_choice:
            quick = _quick_count(kind, puzzle, target, limit)
            if quick is not None:
                return quick
    problem = kind.problem(puzzle, kind.encode(target, encoding, hints), encoding, driver.name)
    deadline = None if request.timeout is None else time.monotonic() + request.timeout
    with driver.open_session() as session:
        search = Search(problem, session, deadline)
        try:
            search.start()
            return enumerate_solutions(search, limit)
        except WrongAnswer as e:
            return Enumeration([f.grid for f in search.solutions], False, Status.ERROR, search.checks, str(e))
        except SessionTimeout as e:
            return Enumeration([f.grid for f in search.solutions], False, Status.TIMEOUT, search.checks, str(e))


def _quick_count(kind: Searches, puzzle: Any, target: Any, limit: int) -> Enumeration | None:
    """The count by the quick search of the kind's plan for a proof (as ``solve --unique`` runs
    it before any solver) of the presolved ``target``, asked for ``limit`` + 1 solutions:
    decisive when it found that many (the count is then ``limit``+, as the solver's extra check
    would say) or exhausted its tree (the count is exact: the search is complete and every rule
    sound); else None, and the solver counts. Every grid is checked."""
    quick = kind.plan(target, True).quick
    if quick is None:
        return None
    found = kind.search(target, limit + 1, options=quick.options, budget=quick.seconds)
    if not (found.exhausted or len(found.solutions) > limit):
        return None
    for grid in found.solutions:
        problems = kind.check(puzzle, grid)
        if problems:
            from fillsmt.engine.solutions import Enumeration

            return Enumeration([], False, Status.ERROR, 0, f"the search's grid fails the check: {problems[0]}")
    from fillsmt.engine.solutions import Enumeration

    complete = len(found.solutions) <= limit
    return Enumeration(
        found.solutions[:limit],
        complete,
        Status.UNSAT if complete else Status.SAT,
        0,
        f"counted by the rules' search ({found.nodes} nodes), before any solver started",
    )


def optimise(puzzle: Any, request: Request, started: float) -> SolveResult:
    """An optimisation kind's best checked answer, as a :class:`SolveResult` whose ``optimum`` is
    the kind's report: status SAT when proven optimal, else TIMEOUT or UNKNOWN with the best found."""
    kind = Optimises.of(request.kind, puzzle.source)
    found = kind.optimize(puzzle, request.driver, request.timeout, request.encoding, request.method)
    return results.from_optimum(puzzle, request.driver.name, request.encoding, found, started)


def solve_with_rules(
    puzzle: Any, timeout: float | None = None, unique: bool = False, forced: bool = False
) -> SolveResult:
    """Solve a puzzle by its kind's own search, without an SMT solver (``--solver rules``)."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.plan import SEARCH

    return solve(puzzle, get_driver(SEARCH), timeout=timeout, unique=unique, forced=forced)


__all__ = [
    "DEFAULT_PRESOLVE",
    "DEFAULT_RACE",
    "DEFAULT_SOLVER",
    "DEFAULT_STAGED",
    "EXIT_CODES",
    "NO_ENCODING",
    "NoSolution",
    "PRESOLVE",
    "PRESOLVE_LEVELS",
    "Request",
    "SolveResult",
    "ask_for",
    "checked",
    "count",
    "encode",
    "encode_script",
    "optimise",
    "presolve_level",
    "resolve_encoding",
    "run",
    "solve",
    "solve_with_rules",
]
