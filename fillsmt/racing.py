"""Carrying out a :class:`~fillsmt.plan.Plan`: the quick search, then the race.

The solver asked for (``run``) races the kind's search in a forked child (when the plan has
one) and the plan's other entrants (each started in a thread after its delay); the first
decisive, checked answer wins and every other racer is stopped. The mechanism (the child, the
threads, closing sessions) is :mod:`fillsmt.race`; who races, when and how is the plan's.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from fillsmt.attempt import Run, attempt, decisive, joining, search_answer
from fillsmt.drivers.process import SolverYield
from fillsmt.errors import FillsmtError, SolverError
from fillsmt.kind import Kind
from fillsmt.plan import Plan, QuickSearch, RacingSearch
from fillsmt.race import Entrants, RulesOutcome, RulesRace, SessionRace
from fillsmt.result import SolveResult
from fillsmt.smtlib.answer import Status


def carry_out(kind: Kind, plan: Plan, target: Any, hints: Any, run: Run, unique: bool, forced: bool) -> SolveResult:
    """The plan's quick search (its answer when decisive), else its race."""
    if plan.quick is not None:
        early = quick_search(kind, plan.quick, target, run, unique, forced)
        if early is not None:
            return early
    return race(kind, plan, target, hints, run, unique, forced)


def quick_search(
    kind: Kind, quick: QuickSearch, target: Any, run: Run, unique: bool, forced: bool
) -> SolveResult | None:
    """The kind's search within the plan's small budget, before any solver or encoding: its
    result when decisive (``limit`` solutions, or an exhausted search; with ``forced`` only an
    exhausted one) and its grids pass the check, else None (the race follows). "Unique" then
    rests on the search being complete and every rule sound, "not unique" on two distinct
    grids, both checked."""
    limit = 2 if unique or forced else 1
    found = kind.search(target, limit, options=quick.options, budget=quick.seconds)
    outcome = RulesOutcome(found.solutions, found.exhausted, found.nodes, found.max_depth, limit, forced)
    if not outcome.decisive:
        return None
    result = search_answer(
        kind,
        run.puzzle,
        outcome,
        run,
        unique,
        {"solve": time.perf_counter() - run.encoding_started},
        forced,
        f"answered first by the rules' search ({found.nodes} nodes, depth "
        f"{found.max_depth}), before any solver started",
    )
    return result if result.status in (Status.SAT, Status.UNSAT) else None


def race(kind: Kind, plan: Plan, target: Any, hints: Any, run: Run, unique: bool, forced: bool) -> SolveResult:
    """The solver (``run``) against the plan's search in a forked child (up to two solutions with
    ``unique`` or ``forced``, where only an exhausted search is decisive) and against each of the
    plan's entrants (another driver and encoding, started in a thread after its delay): the first
    decisive, checked answer wins and every other racer is stopped (a one-shot run by the race's
    stop event, a session by closing it). When the solver's own answer is decisive it stands;
    when it ends undecided (a time-out, unknown) and no one else has won, its result is the
    race's."""
    from fillsmt.drivers.registry import get_driver

    stop = threading.Event()
    search = plan.search
    priority = SolverYield(search.yield_after, search.yield_niceness) if search and search.leads else None
    entrants = [
        (get_driver(e.solver), e.encoding, e.delay)
        for e in plan.entrants
        if (e.solver, e.encoding) != (run.driver.name, run.encoding)
    ]
    entrants = [(driver, encoding, delay) for driver, encoding, delay in entrants if driver.available()]
    primary = SessionRace(run.driver)
    racers = [primary] + [SessionRace(driver) for driver, _, _ in entrants]

    def close_all() -> None:
        for racer in racers:
            racer.kill()

    def finished(result: SolveResult | None) -> bool:
        return decisive(result, unique, forced)

    with Entrants(stop, finished, close_all) as others:
        watch = (
            _StallWatch(search, priority, others, time.perf_counter())
            if search is not None and priority is not None
            else None
        )
        rules = _rules_race(kind, search, target, run, unique, forced, watch)
        with rules:
            try:
                if search is not None:
                    rules.start(stop, on_decisive=close_all)
                for racer, (driver, encoding, delay) in zip(racers[1:], entrants):
                    others.add(
                        f"{driver.name}/{encoding}",
                        delay,
                        lambda racer=racer, encoding=encoding: attempt(
                            kind, target, hints, joining(run, racer, encoding), unique, forced, stop
                        ),
                    )
                try:
                    own = replace(run, driver=primary, priority=priority)  # type: ignore[arg-type]
                    result = attempt(kind, target, hints, own, unique, forced, stop)
                except FillsmtError:
                    if not primary.closed_by_race.is_set():
                        raise
                    result = None
            finally:  # also on a signal or the time limit: no racer's solver outlives the race
                stop.set()
                close_all()
    answer = _race_answer(kind, run, result, others, rules, unique, forced)
    return watch.noting(answer) if watch is not None else answer


def _rules_race(
    kind: Kind,
    search: RacingSearch | None,
    target: Any,
    run: Run,
    unique: bool,
    forced: bool,
    watch: "_StallWatch | None",
) -> RulesRace:
    """The kind's search as a :class:`RulesRace` (started only when the plan has a search)."""
    settings = search or RacingSearch()
    options = settings.options

    def look(progress) -> None:
        if watch is not None:
            watch(rules, progress)

    rules = RulesRace(
        lambda limit, deadline, progress: kind.search(target, limit, deadline, progress, options),
        lambda grid: kind.check(run.puzzle, grid),
        2 if unique or forced else 1,
        run.timeout,
        delay=settings.delay,
        exhaustive=forced,
        niceness=0 if settings.leads else settings.behind_niceness,
        watch=None if watch is None else look,
    )
    return rules


def _race_answer(
    kind: Kind, run: Run, result: SolveResult | None, others: Entrants, rules: RulesRace, unique: bool, forced: bool
) -> SolveResult:
    """Who won the race: the solver's own decisive answer (it stands, even when another came at
    the same time), else another configuration's, else the search's, else the solver's undecided
    one; none at all (the solver's session closed and the search unsettled) is an error."""
    if result is not None and others.decisive(result):
        return result
    if others.winner is not None:
        won = others.winner
        won.message = f"answered first by {others.winner_name}, racing {run.driver.name}" + (
            f" ({won.message})" if won.message else ""
        )
        won.times["total"] = time.perf_counter() - run.started
        return won
    if rules.outcome is not None and rules.outcome.decisive:
        return search_answer(
            kind, run.puzzle, rules.outcome, run, unique, {"solve": time.perf_counter() - run.encoding_started}, forced
        )
    if result is None:
        raise SolverError(f"the {run.driver.name} session was closed and the search did not settle the puzzle")
    return result


class _StallWatch:
    """What the race does with the search's progress where the solver yields to it: once the
    search has stalled (:meth:`RacingSearch.stalled`) the solver takes its priority back, the
    search child runs behind it, and where the plan says so the waiting entrants start now. Only
    once: a search judged stalled stays behind."""

    def __init__(self, search: RacingSearch, priority: SolverYield, others: Entrants, started: float):
        self.search, self.priority, self.others, self.started = search, priority, others, started
        self.stalled_at: float | None = None

    def __call__(self, rules: RulesRace, progress) -> None:
        if self.stalled_at is not None or not self.search.stalled(progress):
            return
        self.stalled_at = time.perf_counter() - self.started
        self.priority.take_back()
        rules.renice(self.search.behind_niceness)
        if self.search.stall_hurries:
            self.others.hurry()

    def noting(self, result: SolveResult) -> SolveResult:
        """``result``, its message saying when the race judged its search stalled (if it did)."""
        if self.stalled_at is not None:
            note = f"the rules' search stalled {self.stalled_at:.2f} s into the race"
            result.message = f"{result.message}; {note}" if result.message else note
        return result


__all__ = ["carry_out", "quick_search", "race"]
