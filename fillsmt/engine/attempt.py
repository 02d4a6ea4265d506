"""Running one configuration, a :class:`Racer`: the request's solver (or a plan's entrant) on the
presolved puzzle, to a checked result.

An SMT solver gets the puzzle encoded and runs it one-shot (stopped by the race's ``stop``), or in
a session for ``unique``, ``forced`` or a lazy encoding (the solve-block-solve loop of
:mod:`fillsmt.engine.solutions`). A solver that takes the puzzle itself (the kind's own search,
``Driver.searches``) runs the search: in this process when it runs alone, in a forked child
(:class:`~fillsmt.engine.racers.SearchChild`) when it races. Every result is built by
:mod:`fillsmt.engine.result`.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from fillsmt.drivers.base import Driver
from fillsmt.engine import result as results
from fillsmt.engine.request import Request
from fillsmt.engine.result import SearchOutcome, SessionOutcome, SolveResult
from fillsmt.protocol import Searches
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:  # a session's machinery loads when a session opens
    from fillsmt.engine.solutions import Found, Problem, Search


class Racer(NamedTuple):
    """One configuration at work on a request: what it solves (``target``, the presolved puzzle,
    with the presolve's ``hints``; ``puzzle``, the puzzle as given, which every grid is checked
    against), with which ``driver`` and ``encoding``, within what is left of the ``timeout``.
    ``context`` says what it races ("racing yices", "before any solver started"; None alone),
    ``share`` is its part of the CPU (:class:`fillsmt.engine.schedule.Share`), ``options`` a
    search's options (the kind's), ``watch`` is told of a search's progress."""

    request: Request
    puzzle: Any
    target: Any
    hints: Any
    driver: Driver
    encoding: str
    timeout: float | None
    presolved_cells: int | None
    started: float
    """When the solve began (``time.perf_counter()``)."""
    encoding_started: float
    """When this configuration's work began (the presolve is over)."""
    context: str | None = None
    share: Any = None
    options: Any = None
    budget: float | None = None
    """A search's budget in seconds of its options' clock (the quick search's)."""
    watch: Callable[[Any], None] | None = None

    @property
    def unique(self) -> bool:
        return self.request.unique

    @property
    def forced(self) -> bool:
        return self.request.forced

    @property
    def label(self) -> str:
        """How a race names this racer: ``SOLVER/ENCODING``, or a searching solver's title."""
        return self.driver.title if self.driver.searches else f"{self.driver.name}/{self.encoding}"

    def joining(self, driver: Driver, encoding: str, context: str | None, share: Any = None, **more: Any) -> Racer:
        """This racer's request for a racer that joins now: its driver, encoding and share of the
        CPU, the time-out's remainder."""
        left = None if self.timeout is None else max(0.001, self.timeout - (time.perf_counter() - self.started))
        return self._replace(driver=driver, encoding=encoding, timeout=left, context=context, share=share, **more)

    def stopped_message(self) -> str:
        return f"{self.driver.name} gave no answer within {self.timeout:g} s and was stopped" if self.timeout else ""


def decisive(result: SolveResult | None, unique: bool, forced: bool) -> bool:
    """Whether ``result`` settles everything asked: a checked solution (and its uniqueness, its
    forced cells when asked) or the proof that there is none."""
    if result is None:
        return False
    if result.status is Status.UNSAT:
        return True
    if result.status is not Status.SAT or result.grid is None:
        return False
    return (not unique or result.unique is not None) and (not forced or result.forced is not None)


def attempt(racer: Racer, stop: threading.Event | None = None) -> SolveResult | None:
    """The racer's checked result; None when ``stop`` (the race's) came before it answered (a
    one-shot run stopped before it started, a search child killed)."""
    if racer.driver.searches:
        return search(racer, stop)
    kind = racer.request.kind
    tp = time.perf_counter()
    racer = racer._replace(encoding_started=tp)
    script = kind.encode(racer.target, racer.encoding, racer.hints)
    problem = kind.problem(racer.puzzle, script, racer.encoding, racer.driver.name)
    if racer.request.proof or kind.encoding(racer.encoding).lazy:
        return solve_in_session(problem, racer)
    text = _text(script, stop)
    if text is None:
        return None
    t1 = time.perf_counter()
    ran = racer.driver.run(text, racer.timeout, stop, racer.share)
    t2 = time.perf_counter()
    return results.from_run(racer, ran, problem, {"presolve": tp - racer.started, "encode": t1 - tp, "solve": t2 - t1})


def _text(script, stop: threading.Event | None) -> str | None:
    """The script's text, piece by piece; None as soon as ``stop`` is set (a huge grid's script
    takes a second to write: a race that ended, or a signal, does not wait for it)."""
    pieces = []
    for piece in script.chunks():
        if stop is not None and stop.is_set():
            return None
        pieces.append(piece)
    return None if stop is not None and stop.is_set() else "".join(pieces)


def search(racer: Racer, stop: threading.Event | None = None) -> SolveResult | None:
    """The kind's own search on the target: up to two solutions with ``unique`` or ``forced``
    (where only an exhausted search settles the forced cells). In this process without ``stop``;
    else in a forked child that the race can stop (None then, or when the child fails)."""
    kind = Searches.of(racer.request.kind, racer.puzzle.source)
    limit = 2 if racer.request.proof else 1
    tp = time.perf_counter()
    if stop is None:
        deadline = None if racer.timeout is None else time.monotonic() + racer.timeout
        found = kind.search(racer.target, limit, deadline, options=racer.options, budget=racer.budget)
        outcome: SearchOutcome | None = SearchOutcome.of(found, limit, racer.forced)
    else:
        from fillsmt.engine.racers import SearchChild  # a fork, pickle: only for a race

        options, target = racer.options, racer.target
        with SearchChild(
            lambda limit, deadline, progress: kind.search(target, limit, deadline, progress, options),
            lambda grid: kind.check(racer.puzzle, grid),
            limit,
            racer.timeout,
            exhaustive=racer.forced,
            share=racer.share,
            watch=racer.watch,
        ) as child:
            outcome = child.run(stop)
        if outcome is None:
            return None
    assert outcome is not None  # the search in this process always answers
    times = {"presolve": tp - racer.started, "solve": time.perf_counter() - tp}
    if racer.presolved_cells is None:  # alone, on the puzzle as given: the search's root is its presolve
        times = {"presolve": 0.0, "encode": 0.0, "solve": times["solve"] + times["presolve"]}
    return results.from_search(racer, kind, outcome, times)


def solve_in_session(problem: Problem, racer: Racer) -> SolveResult:
    """The first solution in a session, then what was asked after it (uniqueness, forced cells)."""
    from fillsmt.drivers.session import SessionTimeout
    from fillsmt.engine.solutions import Search, WrongAnswer

    t1 = time.perf_counter()
    deadline = None if racer.timeout is None else time.monotonic() + racer.timeout
    driver = racer.driver
    found = SessionOutcome(
        times={"presolve": racer.encoding_started - racer.started, "encode": t1 - racer.encoding_started}
    )
    with driver.open_session(racer.share) as session:
        loop = Search(problem, session, deadline)
        try:
            loop.start()
            first_status, first = loop.next_solution()
            t2 = time.perf_counter()
            found.times["solve"] = t2 - t1
            found.status = first_status
            if first is None:
                found.message = {
                    Status.UNSAT: "no solution",
                    Status.TIMEOUT: racer.stopped_message(),
                    Status.UNKNOWN: f"{driver.name} answered unknown",
                }.get(first_status, "")
            else:
                found.grid = first.grid
                if racer.unique:
                    settle_uniqueness(loop, found)
                    found.times["unique"] = time.perf_counter() - t2
                if racer.forced and found.unique is not True:
                    t3 = time.perf_counter()
                    settle_forced(loop, first, found)
                    found.times["forced"] = time.perf_counter() - t3
                elif racer.forced:
                    found.forced = first.grid
        except WrongAnswer as e:
            found.status, found.grid, found.message = Status.ERROR, None, str(e)
        except SessionTimeout as e:
            if found.grid is None:
                found.status = Status.TIMEOUT
                found.message = racer.stopped_message() or str(e)
            else:  # solved; what was asked after the solution stays unsettled
                found.status, found.message = Status.SAT, f"not settled: {e}"
        found.checks, found.cuts = loop.checks, loop.cuts
    found.times.setdefault("solve", time.perf_counter() - t1)
    return results.from_session(racer, found)


def settle_uniqueness(loop: Search, found: SessionOutcome) -> None:
    second_status, second = loop.next_solution()
    if second_status is Status.UNSAT:
        found.unique = True
    elif second is not None:
        found.unique, found.second_grid = False, second.grid
    else:
        found.message = f"uniqueness not settled: {second_status.value}"


def settle_forced(loop: Search, first: Found, found: SessionOutcome) -> None:
    from fillsmt.engine.solutions import backbone

    bones = backbone(loop, first)
    if bones.status is Status.UNSAT:
        found.forced = tuple(
            tuple(v if bones.forced.get((r, c), False) else 0 for c, v in enumerate(row))
            for r, row in enumerate(first.grid)
        )
    else:
        found.message = f"forced cells not settled: {bones.status.value}"


__all__ = ["Racer", "attempt", "decisive", "search", "solve_in_session"]
