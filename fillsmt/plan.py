"""A solving plan: what races for one presolved puzzle, as data.

A kind turns its presolved puzzle into a :class:`Plan` (``Kind.plan``); the pipeline carries it
out (:mod:`fillsmt.racing`). The plan names who runs, when and with what budget; it holds no
code. Its search options are the kind's own (opaque here: the kind's ``search`` reads them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Entrant:
    """Another SMT configuration in the race: ``solver`` on ``encoding``, started ``delay``
    seconds after the race began unless it is settled by then."""

    solver: str
    encoding: str
    delay: float = 0.0


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
    solver answer before then costs nothing). With ``leads`` the search is the strong racer: a
    solver still running ``yield_after`` seconds after it started gets ``yield_niceness`` added,
    until the search stalls — ``stall_cpu`` seconds of the child's CPU without a better node and
    no solution — when the solver gets its priority back, the search goes to ``behind_niceness``
    and, where ``stall_hurries``, the waiting entrants start at once. Without ``leads`` the search
    runs at ``behind_niceness`` from its start."""

    options: Any = None
    delay: float = 0.2
    leads: bool = False
    yield_after: float = 0.5
    yield_niceness: int = 5
    behind_niceness: int = 19
    stall_cpu: float = 2.0
    stall_hurries: bool = True

    def stalled(self, progress: Any) -> bool:
        """Whether the search, at ``progress`` (:class:`fillsmt.race.Progress`), has stalled."""
        return progress.solutions == 0 and progress.since_improved >= self.stall_cpu


@dataclass(frozen=True)
class Plan:
    """What races for one presolved puzzle.

    ``encoding`` replaces the default encoding of the solver asked for (None: keep it);
    ``quick`` runs first, in this process; ``search`` races in a child (None: it does not race);
    ``entrants`` join after their delays."""

    encoding: str | None = None
    quick: QuickSearch | None = None
    search: RacingSearch | None = None
    entrants: tuple[Entrant, ...] = ()

    def race_only(self) -> "Plan":
        """This plan without what only the default solver and encoding get (a lead encoding,
        the quick search, the other entrants): the race of the named solver and the search."""
        return replace(self, encoding=None, quick=None, entrants=())


__all__ = ["Entrant", "Plan", "QuickSearch", "RacingSearch"]
