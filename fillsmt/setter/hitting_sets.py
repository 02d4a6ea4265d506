"""The smallest set of cells that meets every set of a family (a minimum hitting set), for
:mod:`fillsmt.setter.repair`: each set is where a second solution differs from the solution to be made
unique, and a clue in each set rules each second solution out."""

from __future__ import annotations

import time
from typing import Iterable

Cell = tuple[int, int]


class OutOfTime(Exception):
    """The search for the smallest set ran past its deadline."""


def fewest_cells(sets: Iterable[Iterable[Cell]], deadline: float | None = None) -> list[Cell]:
    """A smallest set of cells that holds a cell of every set in ``sets`` (sorted), by branch
    and bound: branch on the cells of a smallest set not yet met; bound by sets that share no
    cell (each needs a cell of its own). Raises :class:`OutOfTime` once ``deadline`` passes."""
    todo = sorted({frozenset(s) for s in sets}, key=len)
    if any(not s for s in todo):
        raise ValueError("an empty set cannot be met")
    best = _greedy(todo)
    nodes = [0]

    def apart(left: list[frozenset]) -> int:
        used: set[Cell] = set()
        n = 0
        for s in left:
            if used.isdisjoint(s):
                used |= s
                n += 1
        return n

    def branch(chosen: list[Cell], left: list[frozenset]) -> None:
        nonlocal best
        nodes[0] += 1
        if deadline is not None and nodes[0] % 256 == 0 and time.monotonic() > deadline:
            raise OutOfTime("the time limit came during the choice of cells")
        if not left:
            if len(chosen) < len(best):
                best = list(chosen)
            return
        if len(chosen) + apart(left) >= len(best):
            return
        for cell in sorted(left[0]):
            branch(chosen + [cell], [s for s in left if cell not in s])

    branch([], todo)
    return sorted(best)


def _greedy(sets: list[frozenset]) -> list[Cell]:
    """A set of cells meeting every set: the cell in most sets not yet met, again and again."""
    chosen: list[Cell] = []
    left = list(sets)
    while left:
        counts: dict[Cell, int] = {}
        for s in left:
            for cell in s:
                counts[cell] = counts.get(cell, 0) + 1
        cell = min(counts, key=lambda x: (-counts[x], x))
        chosen.append(cell)
        left = [s for s in left if cell not in s]
    return chosen


__all__ = ["OutOfTime", "fewest_cells"]
