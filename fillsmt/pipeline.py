"""The one pipeline, for every kind: presolve → encode → one-shot run or session → decode → check.

Everything here talks to a :class:`~fillsmt.kind.Kind` (found through the registry) and to a
:class:`~fillsmt.drivers.base.Driver`; nothing asks what class a puzzle is. :func:`solve` covers
a plain solve, ``unique`` and ``forced`` (one incremental session) and, for an optimisation kind,
the kind's optimiser; :func:`count` enumerates solutions. Every result is a :class:`SolveResult`,
and no solution leaves this module unless the kind's independent checker accepted it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from fillsmt.drivers.base import Driver
from fillsmt.drivers.process import YIELD_TO_SEARCH, SolverYield
from fillsmt.drivers.registry import require_runs
from fillsmt.drivers.session import SessionTimeout
from fillsmt.errors import (EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE, EXIT_OK, EXIT_SOLVER,
                            EXIT_UNKNOWN, FillsmtError, FormatError, InputError, NoSolution, SolverError)
from fillsmt.interrupts import run_within
from fillsmt.kind import MAXIMIZE, Kind
from fillsmt.race import Entrants, RulesOutcome, RulesRace, SessionRace, can_race
from fillsmt.registry import kind_of
from fillsmt.smtlib import Script
from fillsmt.smtlib.answer import Status
from fillsmt.solutions import (Enumeration, Problem, Search, WrongAnswer, backbone, differing_cells,
                               enumerate_solutions)

DEFAULT_SOLVER = "yices"
DEFAULT_PRESOLVE = True
"""Whether ``solve`` runs the kind's presolve (Fillomino: the deduction rules) unless told otherwise."""

RULES_SOLVER = "rules"
"""The ``--solver`` name of the thesis' own solver: the deduction rules plus backtracking."""

DEFAULT_RACE = True
"""Whether ``solve`` races the kind's own search against the solver (:mod:`fillsmt.race`)."""
DEFAULT_STAGED = True
"""Whether the race also starts the kind's other SMT configurations (``Kind.staged_racers``),
each after its delay."""
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
            return "presolve"
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
        from fillsmt.notebook import picture

        return picture(self.puzzle, self.grid)

    @property
    def exit_code(self) -> int:
        code = EXIT_CODES[self.status]
        if code == EXIT_OK and self.unique_asked and self.unique is not True:
            return EXIT_NOT_UNIQUE if self.unique is False else EXIT_UNKNOWN
        return code


# --- the stages -----------------------------------------------------------------------------------

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


def presolved_script(puzzle: Any, encoding: str | None = None) -> Script:
    """The script after the kind's presolve (fixed cells written in, domains as bounds); a
    presolve that proves there is no solution raises :class:`NoSolution`."""
    kind = kind_of(puzzle)
    found = kind.presolve(puzzle)
    if found is None:
        return kind.encode(puzzle, encoding)
    if found.contradiction is not None:
        raise NoSolution(f"{puzzle.source}: the deduction rules prove there is no solution: {found.contradiction}")
    return kind.encode(puzzle if found.puzzle is None else found.puzzle, encoding, found.hints)


def encode_presolved(puzzle: Any, encoding: str) -> str:
    """The script text after the presolve (see :func:`presolved_script`)."""
    return presolved_script(puzzle, encoding).text()


def encode_script(puzzle: Any, encoding: str | None = None, hints: Any = None) -> Script:
    """The SMT-LIB script of ``puzzle`` under ``encoding``, as data (``hints`` from a presolve)."""
    return kind_of(puzzle).encode(puzzle, encoding, hints)


def encode(puzzle: Any, encoding: str | None = None, hints: Any = None) -> str:
    """The SMT-LIB text of ``puzzle`` under ``encoding``."""
    return encode_script(puzzle, encoding, hints).text()


def _settled(kind: Kind, puzzle: Any, found, driver: Driver, encoding: str, started: float,
             unique: bool, forced: bool) -> SolveResult:
    """The result when the presolve alone settled the puzzle (solved and checked, or no solution)."""
    result = SolveResult(puzzle, Status.UNSAT, driver.name, encoding, presolved_cells=found.fixed_cells,
                         unique_asked=unique, settled_by_presolve=True)
    if found.contradiction is not None:
        result.message = f"the deduction rules prove there is no solution: {found.contradiction}"
    else:
        problems = kind.check(puzzle, found.grid)
        result.status = Status.ERROR if problems else Status.SAT
        result.grid = None if problems else found.grid
        result.message = "solved by the deduction rules alone" if not problems else \
            f"the deduction rules' grid fails the independent check: {'; '.join(problems)}"
        if result.grid is not None:  # every cell forced: no other solution exists
            result.unique = True if unique else None
            result.forced = result.grid if forced else None
    elapsed = time.perf_counter() - started
    result.times = {"presolve": elapsed, "encode": 0.0, "solve": 0.0, "check": 0.0, "total": elapsed}
    return result


def solve(puzzle: Any, driver: Driver, encoding: str | None = None, timeout: float | None = None,
          presolve: bool | str = DEFAULT_PRESOLVE, unique: bool = False, forced: bool = False,
          method: str = "auto", race: bool | None = None, staged: bool | None = None) -> SolveResult:
    """Presolve, encode, solve, decode and check one puzzle of any kind.

    With ``unique`` (or ``forced``) the work happens in one incremental session: after the first
    solution, is there another (``unique``)? Which cells hold the same number in every solution
    (``forced``)? ``timeout`` is the solver's, and bounds every stage too: whatever still runs
    :data:`~fillsmt.interrupts.GRACE` seconds past it (the presolve, the encoding, a solver that
    does not stop) is stopped, and the result is a TIMEOUT. An optimisation kind (tilings) is
    handed to its optimiser (``method`` picks how), which keeps its best answer at the time-out.
    With ``presolve`` and ``race``, a kind with a search of its own runs it beside the solver
    (with ``forced`` it wins only by exhausting its search), and with ``staged`` (and the default
    solver and encoding) it first tries in this process within the kind's small budget
    (``Kind.quick_search``) and the kind's other
    SMT configurations (``Kind.staged_racers``) join that race after their delays; ``presolve``
    may also be a name of :data:`PRESOLVE_LEVELS`, which sets all three; ``race`` and ``staged``
    None mean :data:`DEFAULT_RACE` and :data:`DEFAULT_STAGED`."""
    if isinstance(presolve, str):
        presolve, race, staged = presolve != "off", presolve in ("race", "staged"), presolve == "staged"
    race = DEFAULT_RACE if race is None else race
    staged = DEFAULT_STAGED if staged is None else staged
    t0 = time.perf_counter()
    kind = kind_of(puzzle)
    if kind.problem_type == MAXIMIZE:
        return optimise(puzzle, driver, encoding, timeout, method, unique=unique, forced=forced)
    return _within(timeout, lambda: _solve(kind, puzzle, driver, encoding, timeout, presolve, unique, forced, t0,
                                           race, staged),
                   lambda why: _timed_out(SolveResult(puzzle, Status.TIMEOUT, driver.name, encoding or "",
                                                      unique_asked=unique, message=why), t0))


def _within(timeout: float | None, run: Callable[[], Any], timed_out: Callable[[str], Any]) -> Any:
    """``run()``, stopped :data:`~fillsmt.interrupts.GRACE` seconds past ``timeout`` whatever
    stage it is in: then ``timed_out(message)``."""
    return run_within(timeout, run, lambda: timed_out(f"no answer within the time-out of {timeout:g} s (it covers "
                                                      f"the presolve, the encoding and the solver)"))


def _timed_out(result: SolveResult, t0: float) -> SolveResult:
    result.times = {"total": time.perf_counter() - t0}
    return result


def _solve(kind: Kind, puzzle: Any, driver: Driver, encoding: str | None, timeout: float | None,
           presolve: bool, unique: bool, forced: bool, t0: float, race: bool = False,
           staged: bool = False) -> SolveResult:
    encoding = kind.encoding(encoding or driver.encoding_for(kind.name, None)).name
    require_runs(driver, kind.encoding(encoding))
    lazy = kind.encoding(encoding).lazy  # a relaxation refined in a session, never one-shot
    if not (unique or forced):
        quick = _quick(kind, puzzle, driver, encoding, t0)
        if quick is not None:
            return quick
    target, hints, fixed = puzzle, None, None
    found = kind.presolve(puzzle) if presolve else None
    if found is not None:
        if found.contradiction is not None or found.grid is not None:
            return _settled(kind, puzzle, found, driver, encoding, t0, unique, forced)
        target, hints, fixed = found.puzzle, found.hints, found.fixed_cells
    if unique or forced or lazy:
        driver.require_session()
    driver.require()  # only now: a puzzle the presolve settles needs no solver
    racing = race and found is not None and kind.has_search
    run = _Run(puzzle, driver, encoding, timeout, fixed, t0, time.perf_counter())
    if racing and (unique or forced or lazy or can_race(driver)):
        extra = staged and _default_choice(kind, driver, encoding)
        lead = kind.staged_lead(target) if extra else None
        if lead is not None:  # the kind's choice for this grid replaces the default encoding
            if kind.encoding(lead).lazy:
                driver.require_session()
            run = replace(run, encoding=lead)
        entrants = _staged_entrants(kind, target, driver.name, run.encoding, unique or forced) if extra else []
        search = not extra or kind.races_search(target)
        early = _quick_search(kind, target, run, unique, forced) if search and extra else None
        if early is not None:
            return early
        return _race(kind, target, hints, run, unique, forced, entrants, search)
    return _attempt(kind, target, hints, run, unique, forced)


def _attempt(kind: Kind, target: Any, hints: Any, run: "_Run", unique: bool, forced: bool,
             stop: threading.Event | None = None) -> SolveResult | None:
    """Encode ``target`` (the presolved puzzle) in ``run.encoding`` and solve it with
    ``run.driver``: one-shot (stopped by ``stop``; None when it is set before the run starts),
    or in a session for ``unique``, ``forced`` or a lazy encoding. The result's grid is checked."""
    tp = time.perf_counter()
    run = replace(run, encoding_started=tp)
    script = kind.encode(target, run.encoding, hints)
    problem = kind.problem(run.puzzle, script, run.encoding, run.driver.name)
    if unique or forced or kind.encoding(run.encoding).lazy:
        return _solve_in_session(problem, run, unique, forced)
    text = script.text()
    if stop is not None and stop.is_set():
        return None
    t1 = time.perf_counter()
    ran = run.driver.run(text, run.timeout, stop) if stop is not None else run.driver.run(text, run.timeout)
    t2 = time.perf_counter()
    result = SolveResult(run.puzzle, ran.status, run.driver.name, run.encoding, message=ran.message,
                         solver_output=ran.output, presolved_cells=run.presolved_cells)
    if ran.status is Status.SAT:
        solution, why = checked(problem, ran.values, run.driver.name)
        if solution is None:
            result.status, result.message = Status.ERROR, why
        result.grid = solution
    t3 = time.perf_counter()
    result.times = {"presolve": tp - run.started, "encode": t1 - tp, "solve": t2 - t1, "check": t3 - t2,
                    "total": t3 - run.started}
    return result


def _default_choice(kind: Kind, driver: Driver, encoding: str) -> bool:
    """Whether the solver and encoding are the defaults: only then does a staged race add the
    kind's other configurations (a solver or an encoding the user named is what runs)."""
    return driver.name == DEFAULT_SOLVER and encoding == kind.encoding(driver.encoding_for(kind.name, None)).name


def _staged_entrants(kind: Kind, target: Any, solver: str, encoding: str, proof: bool) -> list[tuple[Any, str, float]]:
    """The kind's other SMT configurations for a staged race of the presolved ``target``
    (``proof``: one that must also prove), (driver, encoding, delay), those not already racing
    and whose solver is installed."""
    from fillsmt.drivers.registry import get_driver

    chosen = []
    for name, other, delay in kind.staged_racers(target, proof):
        if (name, other) == (solver, encoding):
            continue
        driver = get_driver(name)
        if driver.available():
            chosen.append((driver, other, delay))
    return chosen


def _decisive(result: SolveResult | None, unique: bool, forced: bool) -> bool:
    """Whether ``result`` settles everything asked: a checked solution (and its uniqueness, its
    forced cells when asked) or the proof that there is none."""
    if result is None:
        return False
    if result.status is Status.UNSAT:
        return True
    if result.status is not Status.SAT or result.grid is None:
        return False
    return (not unique or result.unique is not None) and (not forced or result.forced is not None)


#: (seconds, niceness): where the rules' search is the strong racer (``Kind.search_first``), a
#: solver still running after 0.5 s gets niceness + 5 (:class:`fillsmt.drivers.process.SolverYield`),
#: until the search stalls (``Kind.search_stalled``: :func:`_stall_watch`); elsewhere the search
#: child yields from its start (:data:`SEARCH_BEHIND`). Measured in benchmarks/README.md ("Who
#: gets the CPU in a race"): 2 bench jobs, hard-tail 266 7.9-8.5 s -> 5.5-6.8 s, janko unchanged.
YIELD = (0.5, 5)
#: The niceness the search child takes from its start where the solver leads (not
#: ``Kind.search_first``): 19, so that with every core busy (two bench jobs) it runs on what the
#: solvers leave, and at full speed on an idle core. Measured in benchmarks/README.md ("issue 17,
#: ninth session: big"): at 5 (the seventh session's choice) it took about a quarter of a core
#: from the solvers on the 20×20 and 30×30 scaling puzzles, where it rarely wins.
SEARCH_BEHIND = 19


def _race(kind: Kind, target: Any, hints: Any, run: "_Run", unique: bool, forced: bool,
          entrants: list[tuple[Any, str, float]], search: bool = True) -> SolveResult:
    """The solver (``run``) against the kind's search in a forked child (:class:`RulesRace`,
    up to two solutions with ``unique`` or ``forced``, where only an exhausted search is
    decisive) and against each of ``entrants`` (another driver and encoding, started in a thread
    after its delay): the first decisive, checked answer wins and every other racer is stopped
    (a one-shot run by the race's stop event, a session by closing it). When the solver's own
    answer is decisive it stands; when it ends undecided (a time-out, unknown) and no one else
    has won, its result is the race's. Without ``search`` the kind's search does not start."""
    stop = threading.Event()
    first = search and kind.search_first(target)  # who yields the CPU: the solver, or the search
    plan = SolverYield(*YIELD) if first else None
    primary = SessionRace(run.driver)
    racers = [primary] + [SessionRace(driver) for driver, _, _ in entrants]

    def close_all() -> None:
        for racer in racers:
            racer.kill()

    with Entrants(stop, lambda result: _decisive(result, unique, forced), close_all) as others:
        watch = _stall_watch(kind, plan, others, unique or forced) if first else None
        rules = RulesRace(lambda limit, deadline, progress: kind.search(target, limit, deadline, progress),
                          lambda grid: kind.check(run.puzzle, grid), 2 if unique or forced else 1, run.timeout,
                          exhaustive=forced, niceness=0 if first else SEARCH_BEHIND,
                          watch=None if watch is None else lambda progress: watch(rules, progress))
        with rules:
            try:
                if search:
                    rules.start(stop, on_decisive=close_all)
                for racer, (driver, encoding, delay) in zip(racers[1:], entrants):
                    others.add(f"{driver.name}/{encoding}", delay,
                               lambda racer=racer, encoding=encoding: _attempt(kind, target, hints,
                                                                               _joining(run, racer, encoding), unique,
                                                                               forced, stop))
                token = YIELD_TO_SEARCH.set(plan)
                try:
                    result = _attempt(kind, target, hints, replace(run, driver=primary), unique, forced, stop)
                except FillsmtError:
                    if not primary.closed_by_race.is_set():
                        raise
                    result = None
                finally:
                    YIELD_TO_SEARCH.reset(token)
            finally:  # also on a signal or the time limit: no racer's solver outlives the race
                stop.set()
                close_all()
    return _noting_stall(_race_answer(kind, run, result, others, rules, unique, forced), watch)


def _race_answer(kind: Kind, run: "_Run", result: SolveResult | None, others: Entrants, rules: RulesRace,
                 unique: bool, forced: bool) -> SolveResult:
    """Who won the race: the solver's own decisive answer (it stands, even when another came at
    the same time), else another configuration's, else the search's, else the solver's undecided
    one; none at all (the solver's session closed and the search unsettled) is an error."""
    if others.decisive(result):
        return result
    if others.winner is not None:
        won = others.winner
        won.message = f"answered first by {others.winner_name}, racing {run.driver.name}" + \
            (f" ({won.message})" if won.message else "")
        won.times["total"] = time.perf_counter() - run.started
        return won
    if rules.outcome is not None and rules.outcome.decisive:
        return _search_answer(kind, run.puzzle, rules.outcome, run, unique,
                              {"solve": time.perf_counter() - run.encoding_started}, forced)
    if result is None:
        raise SolverError(f"the {run.driver.name} session was closed and the search did not settle the puzzle")
    return result


def _noting_stall(result: SolveResult, watch) -> SolveResult:
    """``result``, its message saying when the race judged its search stalled (if it did)."""
    at = getattr(watch, "stalled_at", None)
    if at is not None:
        note = f"the rules' search stalled {at:.2f} s into the race"
        result.message = f"{result.message}; {note}" if result.message else note
    return result


def _stall_watch(kind: Kind, plan: SolverYield, others: Entrants, proof: bool):
    """What the race does with the search's progress where the solver yields to it: once the
    search has stalled (``Kind.search_stalled``; ``proof``: the race must also prove) the solver
    takes its priority back (``plan``), the search child runs behind it (niceness
    :data:`SEARCH_BEHIND`), and where ``Kind.stall_hurries`` says so the staged racers join now.
    Only once: a search judged stalled stays behind."""
    started = time.perf_counter()

    def watch(rules: RulesRace, progress) -> None:
        if watch.stalled_at is not None or not kind.search_stalled(progress):
            return
        watch.stalled_at = time.perf_counter() - started
        plan.take_back()
        rules.renice(SEARCH_BEHIND)
        if kind.stall_hurries(proof):
            others.hurry()

    watch.stalled_at = None
    return watch


def _quick_search(kind: Kind, target: Any, run: "_Run", unique: bool, forced: bool) -> SolveResult | None:
    """The kind's search within its small budget (``Kind.quick_search``), before any solver or
    encoding: its result when decisive (the same rule as the race's search: ``limit`` solutions,
    or an exhausted search; with ``forced`` only an exhausted one) and its grids pass the check,
    else None (the race follows). With ``unique`` or ``forced`` the kind's budget may let a search
    that found a solution early go on to exhaust its tree: "unique" then rests on the search being
    complete and every rule sound (each removes only numbers no solution has there; see
    :mod:`fillsmt.fillomino.backtrack`), "not unique" on two distinct grids, both checked."""
    limit = 2 if unique or forced else 1
    found = kind.quick_search(target, limit)
    if found is None:
        return None
    outcome = RulesOutcome(found.solutions, found.exhausted, found.nodes, found.max_depth, limit, forced)
    if not outcome.decisive:
        return None
    result = _search_answer(kind, run.puzzle, outcome, run, unique,
                            {"solve": time.perf_counter() - run.encoding_started}, forced,
                            f"answered first by the rules' search ({found.nodes} nodes, depth "
                            f"{found.max_depth}), before any solver started")
    return result if result.status in (Status.SAT, Status.UNSAT) else None


def _joining(run: "_Run", driver, encoding: str) -> "_Run":
    """``run`` for a racer that joins now: its driver and encoding, the time-out's remainder."""
    left = None if run.timeout is None else max(0.001, run.timeout - (time.perf_counter() - run.started))
    return replace(run, driver=driver, encoding=encoding, timeout=left)


def _quick(kind: Kind, puzzle: Any, driver: Driver, encoding: str, t0: float) -> SolveResult | None:
    """A checked answer the kind finds without any search (a clue-less Fillomino grid), or None."""
    grid = kind.quick_answer(puzzle)
    if grid is None or kind.check(puzzle, grid):
        return None
    result = SolveResult(puzzle, Status.SAT, driver.name, encoding, grid=grid, presolved_cells=0,
                         message="no clues: any valid grid is a solution", settled_by_presolve=True)
    elapsed = time.perf_counter() - t0
    result.times = {"presolve": elapsed, "encode": 0.0, "solve": 0.0, "check": 0.0, "total": elapsed}
    return result


def _search_answer(kind: Kind, puzzle: Any, outcome, run: "_Run", unique: bool, times: dict,
                   forced: bool = False, message: str = "") -> SolveResult:
    """The result from the racing search's decisive outcome (its grids checked again here). With
    ``forced`` the outcome is exhausted, so its solutions (at most two) are all there are: a cell
    is forced where they agree."""
    result = SolveResult(puzzle, Status.UNSAT, RULES_SOLVER, run.encoding, presolved_cells=run.presolved_cells,
                         unique_asked=unique,
                         message=message or f"answered first by the rules' search ({outcome.nodes} nodes, "
                                            f"depth {outcome.max_depth}), racing {run.driver.name}")
    if outcome.solutions:
        problems = kind.check(puzzle, outcome.solutions[0])
        if problems:
            result.status, result.message = Status.ERROR, f"the search's grid fails the check: {problems[0]}"
        else:
            result.status, result.grid = Status.SAT, outcome.solutions[0]
            if unique:
                if len(outcome.solutions) > 1 and not kind.check(puzzle, outcome.solutions[1]):
                    result.unique, result.second_grid = False, outcome.solutions[1]
                elif outcome.exhausted and len(outcome.solutions) == 1:
                    result.unique = True
            if forced and outcome.exhausted:  # every grid passed the race's check on arrival
                result.forced = _agreement(outcome.solutions)
    result.times = {"presolve": run.encoding_started - run.started, "encode": 0.0, "solve": 0.0, "check": 0.0,
                    **times, "total": time.perf_counter() - run.started}
    return result


def _agreement(grids: list) -> tuple:
    """Each cell's number where every grid of ``grids`` has it, else 0."""
    return tuple(tuple(v if all(g[r][c] == v for g in grids) else 0 for c, v in enumerate(row))
                 for r, row in enumerate(grids[0]))


@dataclass
class _Run:
    """What one session run needs besides the problem: the puzzle, the driver, the time-out and
    the clock readings so far."""

    puzzle: Any
    driver: Driver
    encoding: str
    timeout: float | None
    presolved_cells: int | None
    started: float
    encoding_started: float

    def stopped_message(self) -> str:
        return f"{self.driver.name} gave no answer within {self.timeout:g} s and was stopped" if self.timeout else ""


def _solve_in_session(problem: Problem, run: _Run, unique: bool, forced: bool) -> SolveResult:
    t1 = time.perf_counter()
    deadline = None if run.timeout is None else time.monotonic() + run.timeout
    driver = run.driver
    result = SolveResult(run.puzzle, Status.ERROR, driver.name, run.encoding, presolved_cells=run.presolved_cells,
                         unique_asked=unique)
    times = {"presolve": run.encoding_started - run.started, "encode": t1 - run.encoding_started}
    with driver.open_session() as session:
        search = Search(problem, session, deadline)
        try:
            search.start()
            first_status, first = search.next_solution()
            t2 = time.perf_counter()
            times["solve"] = t2 - t1
            result.status = first_status
            if first is None:
                result.message = {Status.UNSAT: "no solution", Status.TIMEOUT: run.stopped_message(),
                                  Status.UNKNOWN: f"{driver.name} answered unknown"}.get(first_status, "")
            else:
                result.grid = first.grid
                if unique:
                    _settle_uniqueness(search, result)
                    times["unique"] = time.perf_counter() - t2
                if forced and result.unique is not True:
                    t3 = time.perf_counter()
                    _settle_forced(search, first, result)
                    times["forced"] = time.perf_counter() - t3
                elif forced:
                    result.forced = first.grid
        except WrongAnswer as e:
            result.status, result.grid, result.message = Status.ERROR, None, str(e)
        except SessionTimeout as e:
            if result.grid is None:
                result.status = Status.TIMEOUT
                result.message = run.stopped_message() or str(e)
            else:  # solved; what was asked after the solution stays unsettled
                result.status, result.message = Status.SAT, f"not settled: {e}"
        result.checks = search.checks
        if search.cuts and not result.message:
            result.message = f"{search.checks} checks, {search.cuts} region cuts"
    times.setdefault("solve", time.perf_counter() - t1)
    times["check"] = 0.0
    times["total"] = time.perf_counter() - run.started
    result.times = times
    return result


def _settle_uniqueness(search: Search, result: SolveResult) -> None:
    second_status, second = search.next_solution()
    if second_status is Status.UNSAT:
        result.unique = True
    elif second is not None:
        result.unique, result.second_grid = False, second.grid
    else:
        result.message = f"uniqueness not settled: {second_status.value}"


def _settle_forced(search: Search, first, result: SolveResult) -> None:
    bones = backbone(search, first)
    if bones.status is Status.UNSAT:
        result.forced = tuple(tuple(v if bones.forced.get((r, c), False) else 0 for c, v in enumerate(row))
                              for r, row in enumerate(first.grid))
    else:
        result.message = f"forced cells not settled: {bones.status.value}"


def count(puzzle: Any, driver: Driver, limit: int = 2, encoding: str | None = None,
          timeout: float | None = None, presolve: bool = DEFAULT_PRESOLVE) -> Enumeration:
    """Up to ``limit`` distinct checked solutions of ``puzzle``, and whether that is all of them;
    ``timeout`` bounds every stage, as for :func:`solve`."""
    kind = kind_of(puzzle)
    if kind.problem_type == MAXIMIZE:
        raise InputError(f"{puzzle.source}: count is for puzzles with one answer, not for {kind.name}s "
                         "(solve one for the best answer with `fillsmt solve`)")
    return _within(timeout, lambda: _count(kind, puzzle, driver, limit, encoding, timeout, presolve),
                   lambda why: Enumeration([], False, Status.TIMEOUT, 0, why))


def _count(kind: Kind, puzzle: Any, driver: Driver, limit: int, encoding: str | None,
           timeout: float | None, presolve: bool) -> Enumeration:
    encoding = kind.encoding(encoding or driver.encoding_for(kind.name, None)).name
    require_runs(driver, kind.encoding(encoding))
    target, hints = puzzle, None
    found = kind.presolve(puzzle) if presolve else None
    if found is not None and found.contradiction is not None:
        return Enumeration([], True, Status.UNSAT, 0, f"the deduction rules prove there is no solution: "
                                                     f"{found.contradiction}")
    if found is not None and found.puzzle is not None:
        target, hints = found.puzzle, found.hints
        if kind.has_search and DEFAULT_STAGED and _default_choice(kind, driver, encoding):
            quick = _quick_count(kind, puzzle, target, limit)
            if quick is not None:
                return quick
    driver.require_session()
    driver.require()
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
    """The count by the kind's quick search (:meth:`Kind.quick_search`, as ``solve`` runs it
    before any solver in the default plan) of the presolved ``target``, asked for ``limit`` + 1
    solutions: decisive when it found that many (the count is then ``limit``+, as the solver's
    extra check would say) or exhausted its tree (the count is exact: the search is complete and
    every rule sound); else None, and the solver counts. Every grid is checked."""
    found = kind.quick_search(target, limit + 1)
    if found is None or not (found.exhausted or len(found.solutions) > limit):
        return None
    for grid in found.solutions:
        problems = kind.check(puzzle, grid)
        if problems:
            return Enumeration([], False, Status.ERROR, 0, f"the search's grid fails the check: {problems[0]}")
    complete = len(found.solutions) <= limit
    return Enumeration(found.solutions[:limit], complete, Status.UNSAT if complete else Status.SAT, 0,
                       f"counted by the rules' search ({found.nodes} nodes), before any solver started")


def optimise(puzzle: Any, driver: Driver, encoding: str | None = None, timeout: float | None = None,
             method: str = "auto", *, unique: bool = False, forced: bool = False) -> SolveResult:
    """An optimisation kind's best checked answer, as a :class:`SolveResult` whose ``optimum`` is
    the kind's report: status SAT when proven optimal, else TIMEOUT or UNKNOWN with the best found."""
    t0 = time.perf_counter()
    kind = kind_of(puzzle)
    if unique or forced:
        raise InputError(f"{puzzle.source}: --unique and --forced are for puzzles with one answer, "
                         f"not for {kind.name}s (which look for the best answer)")
    encoding = kind.encoding(encoding or driver.encoding_for(kind.name, None)).name
    driver.require()
    found = kind.optimize(puzzle, driver, timeout, encoding, method)
    status = Status.SAT if found.optimal else Status.TIMEOUT if found.status.value == "timeout" else Status.UNKNOWN
    result = SolveResult(puzzle, status, found.solver or driver.name, found.amo or encoding, grid=found.solution,
                         checks=found.checks, optimum=found)
    result.times = {"first": found.time_first, "best": found.time_best, "proven": found.time_proven,
                    "total": time.perf_counter() - t0}
    return result


# --- the rules solver (Fillomino's search, no SMT) --------------------------------------------------

def require_rules_apply(puzzle: Any) -> None:
    """Raise InputError unless ``puzzle``'s kind has a search of its own (Fillomino)."""
    kind = kind_of(puzzle)
    if not kind.has_search:
        raise InputError(f"{puzzle.source}: --solver {RULES_SOLVER} solves Fillomino puzzles only; "
                         f"this is a {kind.name} puzzle")


def solve_with_rules(puzzle: Any, timeout: float | None = None, unique: bool = False,
                     forced: bool = False) -> SolveResult:
    """Solve a puzzle without an SMT solver, by its kind's own search (Fillomino: the deduction
    rules plus backtracking, the thesis' sections 6.1–6.2). With ``unique`` the search goes on to
    a second solution or to the end of the search space."""
    require_rules_apply(puzzle)
    if forced:
        raise InputError(f"--forced needs an SMT solver session; --solver {RULES_SOLVER} does not offer it")
    kind = kind_of(puzzle)
    t0 = time.perf_counter()
    deadline = None if timeout is None else time.monotonic() + timeout
    found = _within(timeout, lambda: kind.search(puzzle, 2 if unique else 1, deadline), lambda why: None)
    if found is None:
        return _timed_out(SolveResult(puzzle, Status.TIMEOUT, RULES_SOLVER, "none", unique_asked=unique,
                                      message=f"no answer within the time-out of {timeout:g} s"), t0)
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


__all__ = ["DEFAULT_PRESOLVE", "DEFAULT_RACE", "DEFAULT_SOLVER", "DEFAULT_STAGED", "PRESOLVE_LEVELS", "presolve_level", "EXIT_BAD_INPUT", "EXIT_CODES", "NoSolution", "RULES_SOLVER",
           "SolveResult", "checked", "count", "encode", "encode_presolved", "encode_script", "optimise",
           "presolved_script", "require_rules_apply", "solve", "solve_with_rules"]
