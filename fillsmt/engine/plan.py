"""A solving plan: what races for one presolved puzzle, as data.

A kind that :class:`~fillsmt.protocol.Searches` turns its presolved puzzle into a :class:`Plan`
(``Searches.plan``); the engine carries it out (:mod:`fillsmt.engine.race`). The plan names who
runs, when and with what share of the CPU; it holds no code. Every racer is an :class:`Entrant`:
the solver asked for (the *lead*, :data:`LEAD`), the kind's own search (the solver
:data:`SEARCH`, run in a child process), and any other SMT configuration. Its search options are
the kind's own (opaque here: the kind's ``search`` reads them).
"""

from __future__ import annotations

from typing import Any, NamedTuple

LEAD = ""
"""The solver of the entrant that stands for the solver asked for (and its encoding, unless the
plan names one)."""
SEARCH = "rules"
"""The registry name of the solver that runs the kind's own search (:mod:`fillsmt.drivers.rules`)."""
SEARCH_DELAY = 0.2
"""Seconds before the kind's search is forked where the plan does not say (a solver answer before
then costs nothing)."""


class Entrant(NamedTuple):
    """One racer: ``solver`` (a registry name, or :data:`LEAD`) on ``encoding`` ("" for the solver's
    own choice), started ``delay`` seconds after the race began unless it is settled by then.
    ``weight``: its share of the CPU against the other racers', after a ``head_start`` of that
    many seconds of slices alone (:mod:`fillsmt.engine.schedule`). A search's ``options`` are the
    kind's; it has stalled after ``stall_cpu`` seconds of its CPU without a better node and no
    solution, and where ``stall_hurries`` the waiting entrants then start at once."""

    solver: str
    encoding: str = ""
    delay: float = 0.0
    weight: float = 1.0
    head_start: float = 0.0
    options: Any = None
    stall_cpu: float = 2.0
    stall_hurries: bool = True

    def stalled(self, progress: Any) -> bool:
        """Whether the search, at ``progress`` (:class:`fillsmt.engine.racers.Progress`), has stalled."""
        return progress.solutions == 0 and progress.since_improved >= self.stall_cpu


def search_entrant(
    options: Any = None,
    delay: float = SEARCH_DELAY,
    weight: float = 1.0,
    head_start: float = 0.0,
    stall_cpu: float = 2.0,
    stall_hurries: bool = True,
) -> Entrant:
    """The kind's own search as an entrant (its solver :data:`SEARCH`, no encoding)."""
    return Entrant(SEARCH, "", delay, weight, head_start, options, stall_cpu, stall_hurries)


class QuickSearch(NamedTuple):
    """The kind's search in this process before any solver starts: ``options`` (the kind's),
    within ``seconds`` (measured on the options' clock). Its answer is taken only when decisive."""

    options: Any
    seconds: float


class Plan(NamedTuple):
    """What races for one presolved puzzle: ``racers`` in order, the lead first; ``quick`` runs
    before them, in this process."""

    racers: tuple[Entrant, ...] = (Entrant(LEAD),)
    quick: QuickSearch | None = None

    @classmethod
    def of(
        cls,
        encoding: str | None = None,
        quick: QuickSearch | None = None,
        search: Entrant | None = None,
        entrants: tuple[Entrant, ...] = (),
        weight: float = 1.0,
    ) -> Plan:
        """The plan from its parts: the lead on ``encoding`` (None: the solver's) with ``weight``,
        the kind's ``search`` (None: it does not race), the other ``entrants``, the ``quick`` search."""
        lead = Entrant(LEAD, encoding or "", weight=weight)
        return cls((lead, *(() if search is None else (search,)), *entrants), quick)

    @property
    def lead(self) -> Entrant:
        return self.racers[0]

    @property
    def encoding(self) -> str | None:
        """The encoding that replaces the lead's (None: it keeps the solver's)."""
        return self.lead.encoding or None

    @property
    def weight(self) -> float:
        return self.lead.weight

    @property
    def search(self) -> Entrant | None:
        """The kind's own search among the racers, if it races."""
        return next((e for e in self.racers[1:] if e.solver == SEARCH), None)

    @property
    def entrants(self) -> tuple[Entrant, ...]:
        """The racers other than the lead and the kind's search."""
        return tuple(e for e in self.racers[1:] if e.solver != SEARCH)

    def parts(self) -> dict[str, Any]:
        """The arguments of :meth:`of` that make this plan again."""
        return {
            "encoding": self.encoding,
            "quick": self.quick,
            "search": self.search,
            "entrants": self.entrants,
            "weight": self.weight,
        }

    def race_only(self) -> Plan:
        """This plan without what only the default solver and encoding get (a lead encoding,
        the quick search, the other entrants, the weights): the race of the named solver and the
        search, sharing the CPU equally, the search forked after its default delay."""
        search = self.search
        if search is not None:
            search = search._replace(delay=SEARCH_DELAY, weight=1.0, head_start=0.0)
        return Plan.of(search=search)


__all__ = ["LEAD", "SEARCH", "SEARCH_DELAY", "Entrant", "Plan", "QuickSearch", "search_entrant"]
