"""Random Fillomino solutions: the grid tiled with random connected regions (see
:mod:`fillsmt.fillomino.generate`, whose first stage this is)."""

from __future__ import annotations

import random
from typing import Mapping

from fillsmt.errors import InputError
from fillsmt.fillomino.model import Grid
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import neighbour_indices

DEFAULT_SIZE_WEIGHTS: Mapping[int, float] = {
    1: 2.0,
    2: 3.0,
    3: 4.0,
    4: 4.0,
    5: 3.5,
    6: 3.0,
    7: 2.0,
    8: 2.0,
    9: 1.5,
    10: 1.0,
}
"""Relative weights of the region sizes aimed at, by default (small and middle sizes most)."""

LARGE_SIZE_WEIGHT = 0.5
"""The default weight of each size above those of :data:`DEFAULT_SIZE_WEIGHTS`, up to
``max_region``."""

TILING_ATTEMPTS = 50
"""Tilings :func:`random_solution` starts before it gives up. With regions of up to 4 cells or
more, the first almost always succeeds; up to 3 cells rarely tile a grid beyond about 6x6 at
random, and 1s and 2s alone cannot tile most grids at all."""


def random_solution(
    height: int,
    width: int,
    rng: random.Random,
    *,
    max_region: int | None = None,
    size_weights: Mapping[int, float] | None = None,
) -> Grid:
    """A random valid filled grid (module text). ``size_weights`` maps region sizes to
    relative weights (default :data:`DEFAULT_SIZE_WEIGHTS`, sizes above it weighing
    :data:`LARGE_SIZE_WEIGHT` up to ``max_region``); ``max_region`` caps every region's size
    (default: the largest size weighted)."""
    if height < 1 or width < 1:
        raise InputError(f"a grid needs at least one row and one column, not {height}x{width}")
    sizes, weights = _size_table(max_region, size_weights)
    for _ in range(TILING_ATTEMPTS):
        grid = _Tiling(height, width, rng, sizes, weights).tile()
        if grid is not None and not check_solution([[0] * width] * height, grid):
            return grid
    raise InputError(
        f"could not tile a {height}x{width} grid with regions of sizes "
        f"{', '.join(map(str, sizes))} in {TILING_ATTEMPTS} attempts; allow more sizes"
    )


def _size_table(max_region: int | None, size_weights: Mapping[int, float] | None) -> tuple[list[int], list[float]]:
    if max_region is not None and max_region < 1:
        raise InputError(f"the largest region must have at least 1 cell, not {max_region}")
    table = dict(size_weights if size_weights is not None else DEFAULT_SIZE_WEIGHTS)
    if size_weights is None and max_region is not None:
        for s in range(max(table) + 1, max_region + 1):
            table[s] = LARGE_SIZE_WEIGHT
    sizes = sorted(s for s, wt in table.items() if wt > 0 and (max_region is None or s <= max_region))
    if not sizes or any(s < 1 for s in sizes):
        raise InputError(
            "the size weights must give a positive weight to some size of at least 1"
            + (f" and at most {max_region}" if max_region is not None else "")
        )
    return sizes, [float(table[s]) for s in sizes]


class _Tiling:
    """One attempt at covering the grid with regions (see the module text)."""

    def __init__(self, height: int, width: int, rng: random.Random, sizes: list[int], weights: list[float]):
        self.h, self.w, self.rng = height, width, rng
        self.sizes, self.weights = sizes, weights
        self.max_region = sizes[-1]
        n = height * width
        self.region = [-1] * n
        self.members: list[list[int]] = []
        self.nbrs = [neighbour_indices(height, width, x) for x in range(n)]

    def size_of(self, i: int) -> int:
        return len(self.members[i])

    def touching_sizes(self, x: int) -> set[int]:
        return {self.size_of(self.region[y]) for y in self.nbrs[x] if self.region[y] >= 0}

    def tile(self) -> Grid | None:
        """Cover every cell; None when the repairs run out (the caller starts over)."""
        queue = list(range(len(self.region)))
        self.rng.shuffle(queue)
        repairs = len(queue)
        for start in queue:  # grows when a repair frees cells
            if self.region[start] >= 0 or self.place(start):
                continue
            if not repairs:
                return None
            repairs -= 1
            freed = self.dissolve_around(start)
            queue.append(start)  # first, while it has free room around it
            queue.extend(freed)
        return tuple(tuple(self.size_of(self.region[r * self.w + c]) for c in range(self.w)) for r in range(self.h))

    def place(self, start: int) -> bool:
        """Cover ``start`` with a new region, or with a neighbour's; False if neither works."""
        target = self.rng.choices(self.sizes, self.weights)[0]
        grown = self.grow(start, target)
        seen: set[int] = set()
        best = 0
        for s, x in enumerate(grown, start=1):
            seen |= self.touching_sizes(x)
            if s not in seen:
                best = s
        if not best:
            return self.join_neighbour(start)
        self.members.append(grown[:best])
        for x in grown[:best]:
            self.region[x] = len(self.members) - 1
        return True

    def dissolve_around(self, x: int) -> list[int]:
        """Free the cells of the regions next to x, in a random order, and return them."""
        freed = []
        for i in sorted({self.region[y] for y in self.nbrs[x] if self.region[y] >= 0}):
            freed += self.members[i]
            for y in self.members[i]:
                self.region[y] = -1
            self.members[i] = []
        self.rng.shuffle(freed)
        return freed

    def grow(self, start: int, target: int) -> list[int]:
        """Up to ``target`` connected free cells from ``start``, in the order added, avoiding
        cells next to a finished region of ``target`` cells."""
        grown, inside = [start], {start}
        candidates: set[int] = set()

        def add_candidates(x: int) -> None:
            for y in self.nbrs[x]:
                if self.region[y] < 0 and y not in inside and target not in self.touching_sizes(y):
                    candidates.add(y)

        add_candidates(start)
        while len(grown) < target and candidates:
            x = self.rng.choice(sorted(candidates))
            candidates.discard(x)
            grown.append(x)
            inside.add(x)
            add_candidates(x)
        return grown

    def join_neighbour(self, x: int) -> bool:
        """Add cell x to a neighbouring region if the grid stays valid and within bounds."""
        for i in sorted({self.region[y] for y in self.nbrs[x] if self.region[y] >= 0}):
            new = self.size_of(i) + 1
            if new > self.max_region:
                continue
            cells = self.members[i] + [x]
            around = {self.region[z] for y in cells for z in self.nbrs[y]} - {i, -1}
            if all(self.size_of(j) != new for j in around):
                self.members[i].append(x)
                self.region[x] = i
                return True
        return False


__all__ = ["DEFAULT_SIZE_WEIGHTS", "LARGE_SIZE_WEIGHT", "TILING_ATTEMPTS", "random_solution"]
