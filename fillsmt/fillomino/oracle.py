"""Exact uniqueness oracles for the generator: cheap proofs first, a solver for the rest.

:func:`~fillsmt.fillomino.generate.generate` asks, clue after clue, whether the puzzle without
one more clue still has the known solution as its only one. :class:`UniquenessOracle` answers
in layers, each exact (a proof or a checked second solution), so the answers, and with them the
generated puzzles, do not depend on which layer or which solver settled a question:

1. **Known unique superset.** The oracle remembers the clue sets it has proved unique (and the
   full grid, trivially unique). When the clues of the puzzle asked about are a subset of such
   a set U, a second solution must differ from the known one in a cell of D = U's clues minus
   the puzzle's (otherwise it would also solve U). The generator removes one clue at a time, so
   D is usually one cell x.
2. **Probe** (D is one cell x holding v): the deduction rules run from the puzzle's domains
   with v taken from x (:func:`~fillsmt.fillomino.deduce.propagate_masks`). A contradiction proves
   that every solution has v at x, so the puzzle is unique.
3. **Local second solution.** A second solution usually differs from the first only near the
   removed clue: the rules-plus-backtracking search (``avoid`` the known solution, a node cap
   of :data:`LOCAL_NODES`) on the puzzle with every cell farther than R steps from D fixed to
   its known value, for each R of :data:`LOCAL_RADII`. A grid found there solves the puzzle
   and differs from the known solution (both checked by the independent checker): not unique.
4. **Exact check** by an :class:`ExactCheck`: :class:`SmtCheck` sends the puzzle to a solver
   session (:mod:`fillsmt.engine.solutions`): the tree-bfs encoding with the rules' domains (after the
   probe), plus "some cell of D differs from the known solution", then ``check-sat``: ``unsat``
   proves uniqueness; on ``sat`` the model is decoded and must pass the checker, a second
   solution. :class:`SearchCheck` uses the exact search
   (:func:`~fillsmt.fillomino.generate.search_oracle`) instead.

A time-out or a solver's ``unknown`` raises :class:`~fillsmt.errors.OracleUndecided` (the
generator then keeps the clue). Measured (see ``benchmarks/README.md``): layers 2 and 3 settle
most questions, and the exact checks left take a third of the time at 10x10, half or more at
20x20; starting a solver process costs a few milliseconds of a check, and keeping one session
per puzzle (push/pop or ``check-sat-assuming`` over clue literals) was slower, so each check
gets its own session.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine import solutions
from fillsmt.engine.solutions import Search, WrongAnswer
from fillsmt.errors import FillsmtError, OracleUndecided, SolverError
from fillsmt.fillomino.deduce import Mask, deduce, initial_masks, propagate_masks
from fillsmt.fillomino.generate import search_oracle
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.names import number_vars
from fillsmt.fillomino.rules_clues import rules_solve
from fillsmt.fillomino.search import solve_by_search
from fillsmt.fillomino.verify import check_solution
from fillsmt.smtlib.script import disj, render_term
from fillsmt.smtlib.status import Status

LOCAL_RADII: tuple[int, ...] = (3, 6)
"""How far (in steps) from the removed clues the local search may change the solution."""

LOCAL_NODES = 200
"""The node cap of each local search."""

ORACLE_ENCODING = "tree-bfs"
"""The encoding of the exact SMT checks (an integer one: the blocking clause writes numbers)."""

KNOWN_SETS = 32
"""How many proven-unique clue sets the oracle remembers (the most recent)."""


class ExactCheck(Protocol):
    """The last layer: is ``solution`` the only solution of ``puzzle``?

    ``differ_in`` holds the cells where any second solution must differ from ``solution``;
    ``masks`` the rules' domains (bit masks) of the puzzle's cells, with that knowledge applied.
    Raises :class:`~fillsmt.errors.OracleUndecided` when it cannot tell by ``deadline``."""

    @property
    def name(self) -> str: ...

    def __call__(
        self, puzzle: Puzzle, solution: Grid, differ_in: frozenset[int], masks: list[Mask], deadline: float | None
    ) -> bool: ...


@dataclass
class OracleStats(solutions.OracleStats):
    """What the oracle's questions cost, layer by layer (seconds are wall-clock)."""

    calls: int = 0
    by_probe: int = 0
    by_local: int = 0
    exact_unique: int = 0
    exact_multiple: int = 0
    probe_seconds: float = 0.0
    local_seconds: float = 0.0
    exact_seconds: float = 0.0


@dataclass
class UniquenessOracle:
    """``oracle(puzzle, solution) -> bool`` in layers (module text); ``deadline`` is a
    :func:`time.monotonic` value after which the exact check raises
    :class:`~fillsmt.errors.OracleUndecided`."""

    exact: ExactCheck
    deadline: float | None = None
    local_radii: tuple[int, ...] = LOCAL_RADII
    local_nodes: int = LOCAL_NODES
    stats: OracleStats = field(default_factory=OracleStats)
    _known: dict[Grid, list[frozenset[int]]] = field(default_factory=dict)
    """The clue sets proved unique, by solution (the most recent :data:`KNOWN_SETS` each)."""

    def __call__(self, puzzle: Puzzle, solution: Grid) -> bool:
        self.stats.calls += 1
        if check_solution(puzzle.cells, solution):
            return False  # not even a solution
        clues = _clue_cells(puzzle)
        differ_in = self._differ_in(clues, solution)
        if not differ_in:
            return True  # proved before (or the full grid)
        flat = [v for row in solution for v in row]
        start = time.perf_counter()
        masks = initial_masks(puzzle)
        if len(differ_in) == 1:
            (x,) = differ_in
            masks[x] &= ~(1 << flat[x])
        masks, _, contradiction = propagate_masks(puzzle, masks)
        self.stats.probe_seconds += time.perf_counter() - start
        if contradiction is not None:
            if len(differ_in) != 1:
                raise FillsmtError(f"{puzzle.source}: the rules refute a puzzle with a known solution: {contradiction}")
            self.stats.by_probe += 1
            return self._proved(clues, solution)
        start = time.perf_counter()
        second = self._local_second_solution(puzzle, solution, differ_in)
        self.stats.local_seconds += time.perf_counter() - start
        if second is not None:
            self.stats.by_local += 1
            return False
        start = time.perf_counter()
        try:
            unique = self.exact(puzzle, solution, differ_in, masks, self.deadline)
        finally:
            self.stats.exact_seconds += time.perf_counter() - start
        if unique:
            self.stats.exact_unique += 1
            return self._proved(clues, solution)
        self.stats.exact_multiple += 1
        return False

    def known_unique(self, puzzle: Puzzle, solution: Grid) -> bool:
        """Note ``puzzle`` as unique if the rules alone fill it with ``solution`` (then later
        questions about its subsets have it as their known superset); is it?"""
        if rules_solve(puzzle, solution):
            return self._proved(_clue_cells(puzzle), solution)
        return False

    def proved_unique(self, puzzle: Puzzle, solution: Grid) -> bool:
        """Has this oracle proved that ``puzzle`` has ``solution`` as its only solution?"""
        return _clue_cells(puzzle) in self._known.get(solution, [])

    def close(self) -> None:
        """Nothing to end: each exact check has its own session (as the BlockNumber oracle's
        ``close``, so either kind's oracle can be used the same way)."""

    # -- the layers --------------------------------------------------------------------------
    def _differ_in(self, clues: frozenset[int], solution: Grid) -> frozenset[int]:
        """The cells where a second solution must differ: D of the smallest known superset."""
        full = frozenset(range(len(solution) * len(solution[0])))  # always a unique superset
        known = self._known.get(solution, [])
        return min((u - clues for u in [full, *known] if clues <= u), key=len)

    def _proved(self, clues: frozenset[int], solution: Grid) -> bool:
        known = self._known.setdefault(solution, [])
        if clues not in known:
            self._known[solution] = [*known, clues][-KNOWN_SETS:]
        return True

    def _local_second_solution(self, puzzle: Puzzle, solution: Grid, differ_in: frozenset[int]) -> Grid | None:
        h, w = puzzle.height, puzzle.width
        near = [[min(abs(r - x // w) + abs(c - x % w) for x in differ_in) for c in range(w)] for r in range(h)]
        for radius in self.local_radii:
            cells = tuple(
                tuple(v if near[r][c] <= radius else solution[r][c] for c, v in enumerate(row))
                for r, row in enumerate(puzzle.cells)
            )
            found = solve_by_search(
                Puzzle(h, w, cells, puzzle.source), limit=1, max_nodes=self.local_nodes, avoid=solution
            )
            if found.solutions:
                grid = found.solutions[0]
                if grid == solution or check_solution(puzzle.cells, grid):
                    raise FillsmtError(
                        f"{puzzle.source}: the local search returned a grid that is not a second solution"
                    )
                return grid
            if radius >= h + w:
                break  # the whole grid was free already
        return None


def _clue_cells(puzzle: Puzzle) -> frozenset[int]:
    return frozenset(r * puzzle.width + c for r, c, _ in puzzle.clues())


def _values(mask: Mask) -> frozenset[int]:
    return frozenset(v for v in range(mask.bit_length()) if mask >> v & 1)


# --- exact checks -------------------------------------------------------------------------------


@dataclass
class SmtCheck:
    """The exact check in an SMT solver session (module text)."""

    driver: Driver
    encoding: str = ORACLE_ENCODING

    @property
    def name(self) -> str:
        return self.driver.name

    def __call__(
        self, puzzle: Puzzle, solution: Grid, differ_in: frozenset[int], masks: list[Mask], deadline: float | None
    ) -> bool:
        from fillsmt.kinds import get_kind

        kind = get_kind(Puzzle.kind)  # through the registry: this package's Kind imports this module

        domains = [_values(m) for m in masks]
        w = puzzle.width
        fixed = tuple(
            tuple(min(d) if len(d) == 1 else 0 for d in domains[r * w : (r + 1) * w]) for r in range(puzzle.height)
        )
        script = kind.encode(Puzzle(puzzle.height, w, fixed, puzzle.source), self.encoding, domains)
        n = number_vars(puzzle.height, w)
        blocking = render_term(disj([("not", ("=", n[x], solution[x // w][x % w])) for x in sorted(differ_in)]))
        problem = kind.problem(puzzle, script, self.encoding, self.driver.name)
        try:
            with Search.opened(problem, self.driver, deadline) as search:
                status, found = search.ask([blocking])  # a second solution: decoded, checked against the puzzle
                if found is not None:
                    if all(found.grid[x // w][x % w] == solution[x // w][x % w] for x in differ_in):
                        raise SolverError(f"{self.driver.name}'s model ignores the blocking clause")
                    return False
        except SessionTimeout:
            raise OracleUndecided(f"{puzzle.source}: {self.driver.name} ran out of time") from None
        except WrongAnswer as e:
            raise SolverError(str(e)) from None
        if status is Status.UNSAT:
            return True
        raise OracleUndecided(f"{puzzle.source}: {self.driver.name} answered {status.value}")


@dataclass
class SearchCheck:
    """The exact check by the rules plus backtracking
    (:func:`~fillsmt.fillomino.generate.search_oracle`); slow on sparse large grids."""

    name: str = "search"

    def __call__(
        self, puzzle: Puzzle, solution: Grid, differ_in: frozenset[int], masks: list[Mask], deadline: float | None
    ) -> bool:
        return search_oracle(puzzle, solution, deadline)


def smt_oracle(driver: Driver, deadline: float | None = None) -> UniquenessOracle:
    """The layered oracle with an SMT solver session as its exact check."""
    return UniquenessOracle(SmtCheck(driver), deadline)


def search_based_oracle(deadline: float | None = None) -> UniquenessOracle:
    """The layered oracle with the exact search as its exact check (no solver needed)."""
    return UniquenessOracle(SearchCheck(), deadline)


def uniqueness_proof(oracle: UniquenessOracle, puzzle: Puzzle, solution: Grid) -> str:
    """How ``puzzle`` is known to have ``solution`` as its only solution: ``"rules"`` (the
    deduction rules fill every cell with it), ``"oracle"`` (the oracle proved it while
    generating, or does now). Raises :class:`~fillsmt.errors.FillsmtError` if it is not unique."""
    if check_solution(puzzle.cells, solution):
        raise FillsmtError(f"{puzzle.source}: the generated solution fails the checker")
    deduction = deduce(puzzle)
    if deduction.solved and deduction.grid() == solution:
        return "rules"
    if oracle.proved_unique(puzzle, solution) or oracle(puzzle, solution):
        return "oracle"
    raise FillsmtError(f"{puzzle.source}: the generated puzzle is not unique (a bug)")


__all__ = [
    "ExactCheck",
    "LOCAL_NODES",
    "LOCAL_RADII",
    "OracleStats",
    "SearchCheck",
    "SmtCheck",
    "UniquenessOracle",
    "search_based_oracle",
    "smt_oracle",
    "uniqueness_proof",
]
