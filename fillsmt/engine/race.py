"""Carrying out a :class:`~fillsmt.engine.plan.Plan`: the quick search, then the race.

The solver asked for (``run``) races the kind's search in a forked child (when the plan has
one) and the plan's other entrants (each started in a thread after its delay); the first
decisive, checked answer wins and every other racer is stopped. The mechanism (the child, the
threads, closing sessions) is :mod:`fillsmt.engine.racers`; who races, when and how is the plan's.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from fillsmt.engine.attempt import Run, attempt, decisive, joining, search_answer
from fillsmt.engine.plan import Plan, QuickSearch, RacingSearch
from fillsmt.engine.racers import Entrants, RulesOutcome, RulesRace, SessionRace
from fillsmt.engine.result import SolveResult
from fillsmt.engine.schedule import TimeSlices
from fillsmt.errors import FillsmtError, SolverError
from fillsmt.protocol import Kind
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
    stop event, a session by closing it). The racers' processes share the CPUs of
    :func:`~fillsmt.engine.schedule.race_cpus` by time slices, each by its weight in the plan
    (:mod:`fillsmt.engine.schedule`). When the solver's own
    answer is decisive it stands; when it ends undecided (a time-out, unknown) and no one else has
    won, its result is the race's."""
    from fillsmt.drivers.registry import get_driver

    stop = threading.Event()
    search = plan.search
    entrants = [
        (get_driver(e.solver), e.encoding, e.delay, e.weight)
        for e in plan.entrants
        if (e.solver, e.encoding) != (run.driver.name, run.encoding)
    ]
    entrants = [entrant for entrant in entrants if entrant[0].available()]
    primary = SessionRace(run.driver)
    racers = [primary] + [SessionRace(driver) for driver, _, _, _ in entrants]

    def close_all() -> None:
        for racer in racers:
            racer.kill()

    def finished(result: SolveResult | None) -> bool:
        return decisive(result, unique, forced)

    with TimeSlices() as slices, Entrants(stop, finished, close_all) as others:
        watch = _StallWatch(search, others, time.perf_counter()) if search is not None else None
        search_share = None if search is None else slices.share("search", search.weight, search.head_start)
        rules = _rules_race(kind, search, target, run, unique, forced, watch, search_share)
        with rules:
            try:
                if search is not None:
                    rules.start(stop, on_decisive=close_all)
                for racer, (driver, encoding, delay, weight) in zip(racers[1:], entrants):
                    share = slices.share(f"{driver.name}/{encoding}", weight)
                    others.add(
                        f"{driver.name}/{encoding}",
                        delay,
                        lambda racer=racer, encoding=encoding, share=share: _working(
                            share, kind, target, hints, joining(run, racer, encoding, share), unique, forced, stop
                        ),
                    )
                try:
                    share = slices.share(run.driver.name, plan.weight)
                    own = replace(run, driver=primary, share=share)  # type: ignore[arg-type]
                    result = _working(share, kind, target, hints, own, unique, forced, stop)
                except FillsmtError:
                    if not primary.closed_by_race.is_set():
                        raise
                    result = None
            finally:  # also on a signal or the time limit: no racer's solver outlives the race
                stop.set()
                slices.close()
                close_all()
    answer = _race_answer(kind, run, result, others, rules, unique, forced)
    return watch.noting(answer) if watch is not None else answer


def _working(
    share, kind: Kind, target: Any, hints: Any, run: Run, unique: bool, forced: bool, stop
) -> SolveResult | None:
    """:func:`attempt` for a racer whose problem this process encodes: until its solver's
    process starts, that work holds one of the race's CPUs (:meth:`fillsmt.engine.schedule.Share.working`)."""
    with share.working():
        return attempt(kind, target, hints, run, unique, forced, stop)


def _rules_race(
    kind: Kind,
    search: RacingSearch | None,
    target: Any,
    run: Run,
    unique: bool,
    forced: bool,
    watch: "_StallWatch | None",
    share: Any,
) -> RulesRace:
    """The kind's search as a :class:`RulesRace` (started only when the plan has a search)."""
    settings = search or RacingSearch()
    options = settings.options

    def look(progress) -> None:
        if watch is not None:
            watch(progress)

    rules = RulesRace(
        lambda limit, deadline, progress: kind.search(target, limit, deadline, progress, options),
        lambda grid: kind.check(run.puzzle, grid),
        2 if unique or forced else 1,
        run.timeout,
        delay=settings.delay,
        exhaustive=forced,
        share=share,
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
    """What the race does with the search's progress: once the search has stalled
    (:meth:`RacingSearch.stalled`), where the plan says so, the waiting entrants start now; the
    race's answer says when it stalled. Only once."""

    def __init__(self, search: RacingSearch, others: Entrants, started: float):
        self.search, self.others, self.started = search, others, started
        self.stalled_at: float | None = None

    def __call__(self, progress) -> None:
        if self.stalled_at is not None or not self.search.stalled(progress):
            return
        self.stalled_at = time.perf_counter() - self.started
        if self.search.stall_hurries:
            self.others.hurry()

    def noting(self, result: SolveResult) -> SolveResult:
        """``result``, its message saying when the race judged its search stalled (if it did)."""
        if self.stalled_at is not None:
            note = f"the rules' search stalled {self.stalled_at:.2f} s into the race"
            result.message = f"{result.message}; {note}" if result.message else note
        return result


__all__ = ["carry_out", "quick_search", "race"]
