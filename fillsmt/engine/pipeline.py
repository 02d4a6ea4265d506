"""The one pipeline, for every kind: presolve → encode → one-shot run or session → decode → check.

Everything here talks to a :class:`~fillsmt.protocol.Kind` (found through the registry) and to a
:class:`~fillsmt.drivers.base.Driver`; nothing asks what class a puzzle is. :func:`solve` covers
a plain solve, ``unique`` and ``forced`` (one incremental session) and, for an optimisation kind,
the kind's optimiser; :func:`count` enumerates solutions. Every result is a :class:`SolveResult`,
and no solution leaves this module unless the kind's independent checker accepted it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable

from fillsmt.drivers.base import Driver
from fillsmt.drivers.registry import require_runs
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine.attempt import Run, attempt
from fillsmt.engine.interrupts import run_within
from fillsmt.engine.race import carry_out
from fillsmt.engine.racers import can_race
from fillsmt.engine.result import EXIT_CODES, PRESOLVE, RULES_SOLVER, SolveResult, checked
from fillsmt.engine.rules import require_rules_apply, solve_with_rules
from fillsmt.engine.solutions import Enumeration, Search, WrongAnswer, enumerate_solutions
from fillsmt.errors import InputError, NoSolution
from fillsmt.kinds import kind_of
from fillsmt.protocol import MAXIMIZE, Kind
from fillsmt.smtlib import Script
from fillsmt.smtlib.answer import Status

DEFAULT_SOLVER = "yices"
DEFAULT_PRESOLVE = True
"""Whether ``solve`` runs the kind's presolve (Fillomino: the deduction rules) unless told otherwise."""

DEFAULT_RACE = True
"""Whether ``solve`` races the kind's own search against the solver (:mod:`fillsmt.engine.racers`)."""
DEFAULT_STAGED = True
"""Whether the race carries out the kind's whole plan (``Kind.plan``: its quick search, lead
encoding and other configurations), not only its search against the solver."""
PRESOLVE_LEVELS = ("off", "on", "race", "staged")
"""How much kind-specific reasoning ``solve`` adds (bench configurations): none, the presolve
before encoding, the presolve and the kind's search racing the solver, or that race with the
kind's other SMT configurations joining it after their delays, preceded by the kind's quick
search in this process (``staged``; both with the default solver and encoding only)."""


def presolve_level(presolve: bool, race: bool, staged: bool = False) -> str:
    """The name in :data:`PRESOLVE_LEVELS` of ``solve``'s three switches."""
    if presolve and race:
        return "staged" if staged else "race"
    return "on" if presolve else "off"


# --- the stages -----------------------------------------------------------------------------------


def resolve_encoding(kind: Kind, driver: Driver, named: str | None) -> str:
    """The encoding a solve of a ``kind`` puzzle with ``driver`` runs: the one ``named``, else the
    driver's choice for the kind (:meth:`~fillsmt.drivers.base.Driver.encoding_for`), else the
    kind's default. A solver that decides one logic only, for a kind with no encoding in it, is
    refused (an InputError) unless an encoding is named."""
    if named is None and driver.theory and driver.theory not in kind.theory_encodings:
        raise InputError(
            f"{driver.name} decides {driver.theory} only, and {kind.name.capitalize()} has none of its "
            "encodings in it; name an encoding with -e, or choose another solver"
        )
    return kind.encoding(named or driver.encoding_for(kind)).name


def encode_script(puzzle: Any, encoding: str | None = None, hints: Any = None) -> Script:
    """The SMT-LIB script of ``puzzle`` under ``encoding``, as data (``hints`` from a presolve)."""
    return kind_of(puzzle).encode(puzzle, encoding, hints)


def encode(puzzle: Any, encoding: str | None = None, hints: Any = None) -> str:
    """The SMT-LIB text of ``puzzle`` under ``encoding``."""
    return encode_script(puzzle, encoding, hints).text()


def _settled(
    kind: Kind, puzzle: Any, found, driver: Driver, encoding: str, started: float, unique: bool, forced: bool
) -> SolveResult:
    """The result when the presolve alone settled the puzzle (solved and checked, or no solution)."""
    result = SolveResult(
        puzzle,
        Status.UNSAT,
        PRESOLVE,
        encoding,
        presolved_cells=found.fixed_cells,
        unique_asked=unique,
        settled_by_presolve=True,
    )
    presolved = time.perf_counter()
    if found.contradiction is not None:
        result.message = f"the deduction rules prove there is no solution: {found.contradiction}"
    else:
        problems = kind.check(puzzle, found.grid)
        result.status = Status.ERROR if problems else Status.SAT
        result.grid = None if problems else found.grid
        result.message = (
            "solved by the deduction rules alone"
            if not problems
            else f"the deduction rules' grid fails the independent check: {'; '.join(problems)}"
        )
        if result.grid is not None:  # every cell forced: no other solution exists
            result.unique = True if unique else None
            result.forced = result.grid if forced else None
    done = time.perf_counter()
    result.times = {"presolve": presolved - started, "check": done - presolved, "total": done - started}
    return result


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
    """Presolve, encode, solve, decode and check one puzzle of any kind.

    With ``unique`` (or ``forced``) the work happens in one incremental session: after the first
    solution, is there another (``unique``)? Which cells hold the same number in every solution
    (``forced``)? ``timeout`` is the solver's, and bounds every stage too: whatever still runs
    :data:`~fillsmt.engine.interrupts.GRACE` seconds past it (the presolve, the encoding, a solver that
    does not stop) is stopped, and the result is a TIMEOUT. An optimisation kind (tilings) is
    handed to its optimiser (``method`` picks how), which keeps its best answer at the time-out.
    With ``presolve`` and ``race``, a kind with a search of its own carries out its plan for the
    presolved puzzle (``Kind.plan``, :mod:`fillsmt.engine.race`): its search races the solver (with
    ``forced`` it wins only by exhausting its search), and with ``staged`` (and the default
    solver and encoding) the plan's quick search runs first in this process, its lead encoding
    replaces the default one, and its other configurations join the race after their delays.
    ``presolve`` may also be a name of :data:`PRESOLVE_LEVELS`, which sets all three; ``race``
    and ``staged`` None mean :data:`DEFAULT_RACE` and :data:`DEFAULT_STAGED`."""
    if isinstance(presolve, str):
        level = presolve
    else:
        level = presolve_level(
            presolve, DEFAULT_RACE if race is None else race, DEFAULT_STAGED if staged is None else staged
        )
    t0 = time.perf_counter()
    kind = kind_of(puzzle)
    if kind.problem_type == MAXIMIZE:
        return optimise(puzzle, driver, encoding, timeout, method, unique=unique, forced=forced)
    return _within(
        timeout,
        lambda: _solve(kind, puzzle, driver, encoding, timeout, level, unique, forced, t0),
        lambda why: _timed_out(
            SolveResult(puzzle, Status.TIMEOUT, driver.name, encoding or "", unique_asked=unique, message=why), t0
        ),
    )


def _within(timeout: float | None, run: Callable[[], Any], timed_out: Callable[[str], Any]) -> Any:
    """``run()``, stopped :data:`~fillsmt.engine.interrupts.GRACE` seconds past ``timeout`` whatever
    stage it is in: then ``timed_out(message)``."""
    return run_within(
        timeout,
        run,
        lambda: timed_out(
            f"no answer within the time-out of {timeout:g} s (it covers the presolve, the encoding and the solver)"
        ),
    )


def _timed_out(result: SolveResult, t0: float) -> SolveResult:
    result.times = {"total": time.perf_counter() - t0}
    return result


def _solve(
    kind: Kind,
    puzzle: Any,
    driver: Driver,
    encoding: str | None,
    timeout: float | None,
    level: str,
    unique: bool,
    forced: bool,
    t0: float,
) -> SolveResult:
    """:func:`solve` after its checks; ``level`` is one of :data:`PRESOLVE_LEVELS`."""
    encoding = resolve_encoding(kind, driver, encoding)
    require_runs(driver, kind.encoding(encoding))
    lazy = kind.encoding(encoding).lazy  # a relaxation refined in a session, never one-shot
    if unique or forced or lazy:
        driver.require_session()
    driver.require()  # before any work: a solver that cannot run is an error whatever the rules could do
    if not (unique or forced):
        quick = _quick(kind, puzzle, driver, encoding, t0)
        if quick is not None:
            return quick
    target, hints, fixed = puzzle, None, None
    found = kind.presolve(puzzle) if level != "off" else None
    if found is not None:
        if found.contradiction is not None or found.grid is not None:
            return _settled(kind, puzzle, found, driver, encoding, t0, unique, forced)
        target, hints, fixed = found.puzzle, found.hints, found.fixed_cells
    racing = level in ("race", "staged") and found is not None and kind.has_search
    run = Run(puzzle, driver, encoding, timeout, fixed, t0, time.perf_counter())
    if racing and (unique or forced or lazy or can_race(driver)):
        plan = kind.plan(target, unique or forced)
        if not (level == "staged" and _default_choice(kind, driver, encoding)):
            plan = plan.race_only()
        if plan.encoding is not None:  # the kind's choice for this grid replaces the default encoding
            if kind.encoding(plan.encoding).lazy:
                driver.require_session()
            run = replace(run, encoding=plan.encoding)
        return carry_out(kind, plan, target, hints, run, unique, forced)
    result = attempt(kind, target, hints, run, unique, forced)
    assert result is not None  # None only for a run stopped before it started: no stop here
    return result


def _default_choice(kind: Kind, driver: Driver, encoding: str) -> bool:
    """Whether the solver and encoding are the defaults: only then does a staged race add the
    kind's other configurations (a solver or an encoding the user named is what runs)."""
    return driver.name == DEFAULT_SOLVER and encoding == resolve_encoding(kind, driver, None)


def _quick(kind: Kind, puzzle: Any, driver: Driver, encoding: str, t0: float) -> SolveResult | None:
    """A checked answer the kind finds without any search (a clue-less Fillomino grid), or None."""
    grid = kind.quick_answer(puzzle)
    if grid is None:
        return None
    made = time.perf_counter()
    if kind.check(puzzle, grid):
        return None
    result = SolveResult(
        puzzle,
        Status.SAT,
        PRESOLVE,
        encoding,
        grid=grid,
        presolved_cells=0,
        message="no clues: any valid grid is a solution",
        settled_by_presolve=True,
    )
    done = time.perf_counter()
    result.times = {"presolve": made - t0, "check": done - made, "total": done - t0}
    return result


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
    if kind.problem_type == MAXIMIZE:
        raise InputError(
            f"{puzzle.source}: count is for puzzles with one answer, not for {kind.name}s "
            "(solve one for the best answer with `fillsmt solve`)"
        )
    return _within(
        timeout,
        lambda: _count(kind, puzzle, driver, limit, encoding, timeout, presolve),
        lambda why: Enumeration([], False, Status.TIMEOUT, 0, why),
    )


def _count(
    kind: Kind, puzzle: Any, driver: Driver, limit: int, encoding: str | None, timeout: float | None, presolve: bool
) -> Enumeration:
    encoding = resolve_encoding(kind, driver, encoding)
    require_runs(driver, kind.encoding(encoding))
    driver.require_session()
    driver.require()  # before any work, as for solve
    target, hints = puzzle, None
    found = kind.presolve(puzzle) if presolve else None
    if found is not None and found.contradiction is not None:
        return Enumeration(
            [], True, Status.UNSAT, 0, f"the deduction rules prove there is no solution: {found.contradiction}"
        )
    if found is not None and found.puzzle is not None:
        target, hints = found.puzzle, found.hints
        if kind.has_search and DEFAULT_STAGED and _default_choice(kind, driver, encoding):
            quick = _quick_count(kind, puzzle, target, limit)
            if quick is not None:
                return quick
    problem = kind.problem(puzzle, kind.encode(target, encoding, hints), encoding, driver.name)
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


def _quick_count(kind: Kind, puzzle: Any, target: Any, limit: int) -> Enumeration | None:
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
            return Enumeration([], False, Status.ERROR, 0, f"the search's grid fails the check: {problems[0]}")
    complete = len(found.solutions) <= limit
    return Enumeration(
        found.solutions[:limit],
        complete,
        Status.UNSAT if complete else Status.SAT,
        0,
        f"counted by the rules' search ({found.nodes} nodes), before any solver started",
    )


def optimise(
    puzzle: Any,
    driver: Driver,
    encoding: str | None = None,
    timeout: float | None = None,
    method: str = "auto",
    *,
    unique: bool = False,
    forced: bool = False,
) -> SolveResult:
    """An optimisation kind's best checked answer, as a :class:`SolveResult` whose ``optimum`` is
    the kind's report: status SAT when proven optimal, else TIMEOUT or UNKNOWN with the best found."""
    t0 = time.perf_counter()
    kind = kind_of(puzzle)
    if unique or forced:
        raise InputError(
            f"{puzzle.source}: --unique and --forced are for puzzles with one answer, "
            f"not for {kind.name}s (which look for the best answer)"
        )
    encoding = resolve_encoding(kind, driver, encoding)
    driver.require()
    found = kind.optimize(puzzle, driver, timeout, encoding, method)
    status = Status.SAT if found.optimal else Status.TIMEOUT if found.status.value == "timeout" else Status.UNKNOWN
    result = SolveResult(
        puzzle,
        status,
        found.solver or driver.name,
        found.amo or encoding,
        grid=found.solution,
        checks=found.checks,
        optimum=found,
    )
    result.times = {
        "first": found.time_first,
        "best": found.time_best,
        "proven": found.time_proven,
        "total": time.perf_counter() - t0,
    }
    return result


__all__ = [
    "DEFAULT_PRESOLVE",
    "DEFAULT_RACE",
    "DEFAULT_SOLVER",
    "DEFAULT_STAGED",
    "EXIT_CODES",
    "NoSolution",
    "PRESOLVE_LEVELS",
    "RULES_SOLVER",
    "SolveResult",
    "checked",
    "count",
    "encode",
    "encode_script",
    "optimise",
    "presolve_level",
    "require_rules_apply",
    "solve",
    "solve_with_rules",
]
