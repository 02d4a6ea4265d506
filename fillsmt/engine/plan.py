"""A solving plan: what races for one presolved puzzle, as data.

A kind turns its presolved puzzle into a :class:`Plan` (``Kind.plan``); the pipeline carries it
out (:mod:`fillsmt.engine.race`). The plan names who runs, when and with what budget; it holds no
code. Its search options are the kind's own (opaque here: the kind's ``search`` reads them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Entrant:
    """Another SMT configuration in the race: ``solver`` on ``encoding``, started ``delay``
    seconds after the race began unless it is settled by then; ``weight``: its share of the CPU
    against the other racers' (:mod:`fillsmt.engine.schedule`)."""

    solver: str
    encoding: str
    delay: float = 0.0
    weight: float = 1.0


@dataclass(frozen=True)
class QuickSearch:
    """The kind's search in this process before any solver starts: ``options`` (the kind's),
    within ``seconds`` (measured on the options' clock). Its answer is taken only when decisive."""

    options: Any
    seconds: float


@dataclass(frozen=True)
class RacingSearch:
    """The kind's search in a child process beside the solver.

    ``options`` are the kind's search options. ``delay``: seconds before the child is forked (a
    solver answer before then costs nothing). ``weight``: its share of the CPU against the other
    racers', after a ``head_start`` of that many seconds of slices alone (:mod:`fillsmt.engine.schedule`).
    The search has stalled after ``stall_cpu`` seconds of the
    child's CPU without a better node and no solution; where ``stall_hurries``, the waiting
    entrants then start at once."""

    options: Any = None
    delay: float = 0.2
    weight: float = 1.0
    head_start: float = 0.0
    stall_cpu: float = 2.0
    stall_hurries: bool = True

    def stalled(self, progress: Any) -> bool:
        """Whether the search, at ``progress`` (:class:`fillsmt.engine.racers.Progress`), has stalled."""
        return progress.solutions == 0 and progress.since_improved >= self.stall_cpu


@dataclass(frozen=True)
class Plan:
    """What races for one presolved puzzle.

    ``encoding`` replaces the default encoding of the solver asked for (None: keep it), which
    races with ``weight``; ``quick`` runs first, in this process; ``search`` races in a child
    (None: it does not race); ``entrants`` join after their delays."""

    encoding: str | None = None
    quick: QuickSearch | None = None
    search: RacingSearch | None = None
    entrants: tuple[Entrant, ...] = ()
    weight: float = 1.0

    def race_only(self) -> "Plan":
        """This plan without what only the default solver and encoding get (a lead encoding,
        the quick search, the other entrants, the weights): the race of the named solver and the
        search, sharing the CPU equally, the search forked after its default delay."""
        search = self.search
        if search is not None:
            search = replace(search, delay=RacingSearch.delay, weight=1.0, head_start=0.0)
        return replace(self, encoding=None, weight=1.0, quick=None, search=search, entrants=())


__all__ = ["Entrant", "Plan", "QuickSearch", "RacingSearch"]
