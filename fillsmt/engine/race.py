"""Carrying out a :class:`~fillsmt.engine.plan.Plan`: the quick search, then the race.

Every racer of the plan is an :class:`~fillsmt.engine.plan.Entrant`, a solver of the registry on
an encoding: the lead (the solver asked for) runs in this thread, every other one in a thread of
its own (:class:`~fillsmt.engine.racers.Entrants`) after its delay, the kind's own search among
them (a solver that takes the puzzle itself, in a forked child). The first decisive, checked
answer wins and every other racer is stopped. Their processes share the CPUs of
:func:`~fillsmt.engine.schedule.race_cpus` by time slices, each by its weight in the plan
(:mod:`fillsmt.engine.schedule`). When the lead's own answer is decisive it stands; when it ends
undecided (a time-out, unknown) and no one else has won, its result is the race's.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

from fillsmt.engine import result as results
from fillsmt.engine.attempt import Racer, attempt, decisive, search
from fillsmt.engine.plan import LEAD, Entrant, Plan, QuickSearch
from fillsmt.engine.result import SolveResult
from fillsmt.errors import FillsmtError
from fillsmt.smtlib.status import Status

if TYPE_CHECKING:
    from fillsmt.engine.racers import Entrants

BEFORE_ANY_SOLVER = "before any solver started"


def carry_out(plan: Plan, racer: Racer) -> SolveResult:
    """The plan's quick search (its answer when decisive), else its race."""
    before = 0.0
    if plan.quick is not None:
        started = time.thread_time()
        early = quick_search(plan.quick, racer)
        if early is not None:
            return early
        before = time.thread_time() - started
    return race(plan, racer, before)


def quick_search(quick: QuickSearch, racer: Racer) -> SolveResult | None:
    """The kind's search within the plan's small budget, in this process, before any solver or
    encoding: its result when decisive (``limit`` solutions, or an exhausted search; with
    ``forced`` only an exhausted one) and its grids pass the check, else None (the race follows).
    "Unique" then rests on the search being complete and every rule sound, "not unique" on two
    distinct grids, both checked."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.plan import SEARCH
    from fillsmt.engine.schedule import SLACK

    budget = min(quick.seconds, SLACK)  # counted inside the race's bound (docs/solving.md)
    searcher = racer.joining(
        get_driver(SEARCH), racer.encoding, BEFORE_ANY_SOLVER, options=quick.options, budget=budget
    )
    found = search(searcher)
    if found is None or found.status not in (Status.SAT, Status.UNSAT):
        return None
    return found if decisive(found, racer.unique, racer.forced) else None


def race(plan: Plan, racer: Racer, searched: float = 0.0) -> SolveResult:
    """The plan's racers against each other (the lead is ``racer``, its encoding the plan's where
    it names one); see the module's text. ``searched``: the CPU seconds the quick search used
    before, counted as the search's racer's (within the bound, docs/solving.md)."""
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.racers import Entrants, SessionRace
    from fillsmt.engine.schedule import TimeSlices

    lead_driver = racer.driver
    seen = {(lead_driver.name, racer.encoding)}
    others: list[tuple[Entrant, Any]] = []
    for entrant in plan.racers[1:]:
        driver = get_driver(entrant.solver)
        encoding = entrant.encoding or racer.encoding  # a search's result names the race's encoding
        if (driver.name, encoding) in seen or not driver.available():
            continue
        seen.add((driver.name, encoding))
        others.append((entrant, SessionRace(driver)))
    primary = SessionRace(lead_driver)
    sessions = [primary] + [session for _, session in others]
    stop = threading.Event()
    context = f"racing {lead_driver.name}"

    def close_all() -> None:
        for session in sessions:
            session.kill()

    with TimeSlices() as slices, Entrants(stop, lambda r: decisive(r, racer.unique, racer.forced), close_all) as run:

        def share_of(driver, name: str, entrant: Entrant):
            share = slices.share(name, entrant.weight, entrant.head_start)
            if driver.searches:  # the quick search's CPU was this racer's
                share.charge(searched)
            return share

        watch = _StallWatch(run, time.perf_counter())
        try:
            for entrant, driver in others:
                encoding = entrant.encoding or racer.encoding
                name = driver.name if driver.searches else f"{driver.name}/{encoding}"
                share = share_of(driver, name, entrant)
                joined = racer.joining(
                    driver, encoding, context, share, options=entrant.options, watch=watch.of(entrant, driver.title)
                )
                run.add(
                    name, entrant.delay, lambda joined=joined, share=share: _working(share, joined, stop), share.due
                )
            share = share_of(lead_driver, lead_driver.name, plan.lead)
            own = racer._replace(driver=primary, share=share)  # type: ignore[arg-type]  # its answer names no race
            try:
                lead = _working(share, own, stop)
            except FillsmtError:
                if not primary.closed_by_race.is_set():
                    raise
                lead = None
        finally:  # also on a signal or the time limit: no racer's solver outlives the race
            stop.set()
            close_all()  # every session killed, stopped for its slice or not
            run.close()  # every racer's thread ended: a search child killed and reaped
            slices.close()  # what is still stopped runs again, to end as any process does
    return watch.noting(_answer(racer, lead, run))


def _working(share, racer: Racer, stop: threading.Event) -> SolveResult | None:
    """:func:`attempt` for a racer; until its solver's process starts, the work this process does
    for it (encoding its problem, starting the solver) holds one of the race's CPUs
    (:meth:`fillsmt.engine.schedule.Share.working`); when it ends, the others share the CPU."""
    try:
        with share.working():
            return attempt(racer, stop)
    finally:
        share.finish()


def _answer(racer: Racer, lead: SolveResult | None, run: Entrants) -> SolveResult:
    """Who won the race: the lead's own decisive answer (it stands, even when another came at the
    same time), else another racer's, else the lead's undecided one; none at all (the lead's
    session closed and no one settled the puzzle) is an error."""
    if lead is not None and run.decisive(lead):
        return lead
    if run.winner is not None:
        return results.with_total(run.winner, time.perf_counter() - racer.started)
    if lead is None:
        return results.closed_by_race(racer)
    return lead


class _StallWatch:
    """What the race does with a search's progress: once the search has stalled
    (:meth:`Entrant.stalled`), where its entrant says so, the waiting entrants start now; the
    race's answer says when it stalled. Only once."""

    def __init__(self, run: Entrants, started: float):
        self.run, self.started = run, started
        self.stalled_at: float | None = None
        self.who = ""

    def of(self, entrant: Entrant, title: str):
        """The watch of ``entrant``'s progress (the kind's search tells it; other racers do not);
        ``title``: how a message names the racer."""

        def look(progress) -> None:
            if self.stalled_at is not None or not entrant.stalled(progress):
                return
            self.stalled_at, self.who = time.perf_counter() - self.started, title
            if entrant.stall_hurries:
                self.run.hurry()

        return look

    def noting(self, result: SolveResult) -> SolveResult:
        """``result``, its message saying when the race judged its search stalled (if it did)."""
        if self.stalled_at is None:
            return result
        return results.noted(result, f"{self.who} stalled {self.stalled_at:.2f} s into the race")


__all__ = ["BEFORE_ANY_SOLVER", "LEAD", "carry_out", "quick_search", "race"]
