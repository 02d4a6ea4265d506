"""How Fillomino is solved by default: the :class:`~fillsmt.engine.plan.Plan` for a presolved puzzle.

The choice reads two cheap features of the presolved grid, its open cells and its largest
connected area of open cells, against one table of thresholds (:class:`Thresholds`). Why each
number is what it is was measured on the benchmark sets (``benchmarks/README.md``); the table
is the one place to change them, and :func:`plan` takes another table for experiments.
"""

from __future__ import annotations

import time
from typing import Callable, NamedTuple

from fillsmt.engine.plan import Entrant, Plan, QuickSearch, search_entrant
from fillsmt.fillomino.model import Puzzle

LAZY = "lazy-local-general"
"""The lazy region cuts: a relaxation refined in a yices session (:mod:`fillsmt.fillomino.lazy`)."""


class Thresholds(NamedTuple):
    """Every number the default plan is chosen by (cells are open cells of the presolved grid;
    an area is a 4-connected set of open cells)."""

    lazy_area: int = 100
    """Areas all below it, on :attr:`lead_open` open cells or more: the lazy cuts lead."""
    lazy_delay: float = 10.0
    """Seconds after which the lazy cuts join a race the default encoding leads (sooner when they
    are the race's slack behind their equal share of the CPU: :mod:`fillsmt.engine.schedule`)."""
    lead_area: int = 180
    """Largest area from which the lazy cuts replace the default encoding (at once)."""
    lead_open: int = 100
    """Open cells from which they replace it where every area is below :attr:`lazy_area`."""
    small_open: int = 150
    """Open cells up to which the quick search runs (in this process, before the race)."""
    search_open: int = 1000
    """Open cells above which the rules' search does not race."""
    quick_base: float = 0.02
    """Seconds of CPU of the quick search, plus :attr:`quick_per_cell` per cell of the grid."""
    quick_per_cell: float = 20e-6
    quick_proof_first: int = 120
    """With a proof asked: nodes within which the quick search must find a first solution."""
    quick_proof: float = 3.0
    """With a proof asked: seconds of CPU (plus :attr:`quick_per_cell` per cell) in all; the engine
    gives any quick search at most the race's slack (:data:`fillsmt.engine.schedule.SLACK`)."""
    stall_cpu: float = 2.0
    """CPU seconds of the racing search without a better node (and no solution): stalled."""
    search_weight: float = 5.0
    """The racing search's share of the CPU against the default encoding's 1: it settles most
    puzzles first."""
    lazy_weight: float = 5.0
    """The lazy region cuts' share of the CPU where they lead, against the search's 1: such a race
    takes about the search's head start plus (1 + 1/weight) × the cuts' time alone."""
    search_head_start: float = 0.15
    """Seconds of CPU slices the racing search has alone before the lazy cuts where they lead
    (within the race's slack: the schedule lets no racer fall further behind its equal share)."""
    stall_hurries_proof: bool = False
    """Whether a stalled search starts the waiting entrants at once when the race must prove."""


THRESHOLDS = Thresholds()
"""The default table."""

QUICK_CLOCK: Callable[[], float] = time.process_time
"""The clock of the quick search's seconds: this process's CPU time."""


def largest_open_area(puzzle: Puzzle) -> int:
    """The number of cells of the largest 4-connected area of empty (0) cells."""
    h, w = puzzle.height, puzzle.width
    empty = [v == 0 for row in puzzle.cells for v in row]
    seen = [False] * (h * w)
    best = 0
    for start in range(h * w):
        if not empty[start] or seen[start]:
            continue
        seen[start], stack, size = True, [start], 0
        while stack:
            x = stack.pop()
            size += 1
            r, c = divmod(x, w)
            for y, ok in ((x - w, r > 0), (x + w, r < h - 1), (x - 1, c > 0), (x + 1, c < w - 1)):
                if ok and empty[y] and not seen[y]:
                    seen[y] = True
                    stack.append(y)
        best = max(best, size)
    return best


def open_cells(puzzle: Puzzle) -> int:
    """The number of empty (0) cells."""
    return sum(1 for row in puzzle.cells for v in row if v == 0)


def quick_search_budget(presolved: Puzzle, table: Thresholds = THRESHOLDS) -> float:
    """Seconds of the quick search for a solution (0: none, on more than ``small_open`` cells)."""
    if open_cells(presolved) > table.small_open:
        return 0.0
    return table.quick_base + table.quick_per_cell * presolved.height * presolved.width


def quick_proof_budget(presolved: Puzzle, table: Thresholds = THRESHOLDS) -> tuple[int, float]:
    """With a proof asked: (nodes to a first solution, seconds in all); (0, 0.0) where
    :func:`quick_search_budget` is 0."""
    if quick_search_budget(presolved, table) <= 0:
        return 0, 0.0
    return table.quick_proof_first, table.quick_proof + table.quick_per_cell * presolved.height * presolved.width


def entrants(presolved: Puzzle, proof: bool, table: Thresholds = THRESHOLDS) -> tuple[Entrant, ...]:
    """Beside the default encoding, the lazy region cuts, after ``lazy_delay`` (or as soon as they
    are the race's slack behind their equal share of the CPU, :mod:`fillsmt.engine.schedule`), so
    that the bound holds against them too; where the cuts lead (:func:`lead_encoding`: a large open
    area, whose default encoding is large to write and slow to solve), nothing more."""
    if lead_encoding(presolved, table) == LAZY:
        return ()
    return (Entrant("yices", LAZY, table.lazy_delay),)


def lead_encoding(presolved: Puzzle, table: Thresholds = THRESHOLDS) -> str | None:
    """The lazy region cuts in place of the default encoding on an area of at least
    ``lead_area`` cells, or on at least ``lead_open`` open cells in areas all smaller than
    ``lazy_area``; else None."""
    area = largest_open_area(presolved)
    if area >= table.lead_area or (area < table.lazy_area and open_cells(presolved) >= table.lead_open):
        return LAZY
    return None


class SearchUse(NamedTuple):
    """Which of the search's option sets a plan runs (``"quick"``, ``"quick-proof"``, ``"race"``:
    :meth:`fillsmt.fillomino.kind.Fillomino.search` reads it) and, for a quick proof, the nodes
    within which it must find a first solution."""

    name: str
    first_nodes: int | None = None


def plan(presolved: Puzzle, proof: bool, table: Thresholds = THRESHOLDS) -> Plan:
    """The default plan for ``presolved``; ``proof``: the race must also prove (``--unique``,
    ``--forced``)."""
    quick = None
    if proof:
        first, seconds = quick_proof_budget(presolved, table)
        if seconds > 0:
            quick = QuickSearch(SearchUse("quick-proof", first), seconds)
    else:
        seconds = quick_search_budget(presolved, table)
        if seconds > 0:
            quick = QuickSearch(SearchUse("quick"), seconds)
    lead = lead_encoding(presolved, table)
    lazy_leads = lead == LAZY
    search = None
    if open_cells(presolved) <= table.search_open:
        search = search_entrant(
            SearchUse("race"),
            delay=0.0,  # the search forks at once: it settles most puzzles first
            weight=1.0 if lazy_leads else table.search_weight,
            head_start=table.search_head_start if lazy_leads else 0.0,
            stall_cpu=table.stall_cpu,
            stall_hurries=table.stall_hurries_proof or not proof,
        )
    weight = table.lazy_weight if lazy_leads else 1.0
    return Plan.of(lead, quick, search, entrants(presolved, proof, table), weight)


__all__ = [
    "LAZY",
    "QUICK_CLOCK",
    "THRESHOLDS",
    "SearchUse",
    "Thresholds",
    "entrants",
    "largest_open_area",
    "lead_encoding",
    "open_cells",
    "plan",
    "quick_proof_budget",
    "quick_search_budget",
]
