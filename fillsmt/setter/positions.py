"""A solution for a given clue layout: ``generate --positions``, for every kind with clues.

The setter gives the cells P where the clues go; wanted is a solution S whose numbers at P make a
puzzle with S as its only solution. A counterexample-guided search in one incremental session
over the clue-free grid:

1. the session proposes a solution S (a model, checked by the kind's checker);
2. a second solution T with S's numbers at P is asked for, inside ``push``/``pop``
   (:class:`~fillsmt.setter.repair._Checks`); ``unsat`` proves S's numbers at P a unique puzzle;
3. otherwise T is narrowed (as ``repair`` narrows: a solution that differs from S on fewer cells
   D, all outside P) and every solution with S's numbers at P has a twin, so none of them can be
   the answer: "some cell of P differs from S" is asserted for good; and where the kind names
   the swap's context (:meth:`~fillsmt.protocol.Clues.swap_context`), "some cell of the context
   and D differs from S" (a solution agreeing with S there takes T's numbers on D and stays a
   solution, with the same numbers at P: not unique), and the same from T's side.

The assertions of step 3 hold for every solution that makes P a unique puzzle, and none speaks
of a cell where a twin asked about at step 2 differs from the solution proposed. ``unsat`` at
step 1 proves that no solution makes P a unique layout. Each round rules out little, so it is
slow: a 5x5 layout of 11 clues took 136 rounds (about 35 s with yices), a published 10x10
layout did not finish in 200 s; the time limit stops it with
:class:`~fillsmt.setter.clues.RepairUndecided`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.errors import InputError
from fillsmt.setter.clues import Cell, Grid, RepairUndecided, cell_is, clue_kind, open_search, settled, with_clues
from fillsmt.smtlib.status import Status


@dataclass(frozen=True)
class Layout:
    """The solution found for a layout, the puzzle it makes, and the rounds it took."""

    solution: Grid
    puzzle: Any
    rounds: int


def solve_layout(puzzle: Any, positions: frozenset[Cell], driver: Driver, deadline: float | None) -> Layout:
    """A solution of the clue-free ``puzzle`` whose numbers at ``positions`` make a unique
    puzzle (module text)."""
    from fillsmt.setter.repair import _Checks

    empty = with_clues(puzzle, [])
    kind = clue_kind(puzzle)
    cells = sorted(positions)
    search = open_search(empty, driver, deadline)
    try:
        checks = _Checks(empty, search)
        rounds = 0
        while True:
            if deadline is not None and time.monotonic() >= deadline:
                raise RepairUndecided(f"the time limit came after {rounds} solutions were refuted for the layout")
            rounds += 1
            status, found = search.solution()
            if settled(status, "proposing a solution for the layout") is Status.UNSAT:
                raise InputError(
                    f"no solution makes a unique puzzle with clues at these {len(cells)} cells "
                    f"(proven after {rounds - 1} solutions refuted)"
                )
            assert found is not None  # a SAT answer comes with its solution
            solution = found.grid
            twin = checks.other(solution, cells)
            if twin is None:
                clues = [(r, c, solution[r][c]) for r, c in cells]
                return Layout(solution, with_clues(empty, clues), rounds)
            twin = checks.narrowed(solution, twin)
            changed = {(r, c) for r, row in enumerate(solution) for c, v in enumerate(row) if twin[r][c] != v}
            for a, b in ((solution, twin), (twin, solution)):
                context = kind.swap_context(empty, a, b)
                for near in ([] if context is None else [context | changed]) + [set(cells)]:
                    _rule_out(search, empty, a, sorted(near))
    finally:
        search.session.close()


def _rule_out(search, puzzle: Any, grid: Grid, cells: list[Cell]) -> None:
    """Assert for good: some cell of ``cells`` differs from ``grid``."""
    differ = [f"(not {cell_is(puzzle, r, c, grid[r][c])})" for r, c in cells]
    search.session.assert_term(f"(or {' '.join(differ)})" if len(differ) > 1 else differ[0], search._remaining())


__all__ = ["Layout", "solve_layout"]
