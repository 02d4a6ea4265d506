"""Random Fillomino solutions: the grid tiled with random connected regions (see
:mod:`fillsmt.fillomino.generate`, whose first stage this is).

Each region starts at a free cell with the fewest free neighbours (a random one of them: at first
a corner, then cells hemmed in by the regions made, so that few free cells are left alone in a
hole that only a 1 or a neighbour's extra cell could fill) and grows towards a size drawn with the
weights of the region sizes; a size no prefix of whose growth fits is dropped for another draw.
The default weights (:func:`~fillsmt.fillomino.published.region_weights`) are a size's share of
cells in published solutions of the grid's size divided by the size, so that the cells fall into
the sizes about as they do there."""

from __future__ import annotations

import random
from typing import Mapping

from fillsmt.errors import InputError
from fillsmt.fillomino.model import Grid
from fillsmt.fillomino.published import region_weights
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import neighbour_indices

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
    regions: str = "published",
) -> Grid:
    """A random valid filled grid (module text). ``size_weights`` maps region sizes to
    relative weights, the chance that a region grows towards each; by default those of
    :func:`~fillsmt.fillomino.published.region_weights` for the grid and ``regions`` (a style
    of :data:`~fillsmt.fillomino.published.REGION_STYLES`: ``big`` also makes sure of a
    region above 10 cells, starting the tiling again without one; ignored with ``size_weights``).
    ``max_region`` caps every region's size."""
    if height < 1 or width < 1:
        raise InputError(f"a grid needs at least one row and one column, not {height}x{width}")
    wants_big = regions == "big" and size_weights is None
    if size_weights is None:
        size_weights = region_weights(height, width, regions, max_region)
    sizes, weights = _size_table(max_region, size_weights)
    for _ in range(TILING_ATTEMPTS):
        grid = _Tiling(height, width, rng, sizes, weights).tile()
        if grid is None or check_solution([[0] * width] * height, grid):
            continue
        if wants_big and max(max(row) for row in grid) <= 10:
            continue
        return grid
    raise InputError(
        f"could not tile a {height}x{width} grid with regions of sizes "
        f"{', '.join(map(str, sizes))} in {TILING_ATTEMPTS} attempts; allow more sizes"
    )


def _size_table(max_region: int | None, size_weights: Mapping[int, float]) -> tuple[list[int], list[float]]:
    if max_region is not None and max_region < 1:
        raise InputError(f"the largest region must have at least 1 cell, not {max_region}")
    sizes = sorted(s for s, wt in size_weights.items() if wt > 0 and (max_region is None or s <= max_region))
    if not sizes or any(s < 1 for s in sizes):
        raise InputError(
            "the size weights must give a positive weight to some size of at least 1"
            + (f" and at most {max_region}" if max_region is not None else "")
        )
    return sizes, [float(size_weights[s]) for s in sizes]


class _FreeCells:
    """The cells not yet covered, by how many free neighbours each has, for the choice of the
    next region's first cell: one of the cells with the fewest (module text)."""

    def __init__(self, nbrs: list[list[int]]):
        self.nbrs = nbrs
        self.free_nbrs = [len(n) for n in nbrs]
        self.by_count: list[list[int]] = [[] for _ in range(5)]
        self.at = [-1] * len(nbrs)
        for x in range(len(nbrs)):
            self._file(x)

    def _file(self, x: int) -> None:
        bucket = self.by_count[self.free_nbrs[x]]
        self.at[x] = len(bucket)
        bucket.append(x)

    def _unfile(self, x: int) -> None:
        bucket = self.by_count[self.free_nbrs[x]]
        last = bucket.pop()
        if last != x:
            bucket[self.at[x]] = last
            self.at[last] = self.at[x]
        self.at[x] = -1

    def _count(self, y: int, change: int) -> None:
        if self.at[y] >= 0:
            self._unfile(y)
            self.free_nbrs[y] += change
            self._file(y)
        else:
            self.free_nbrs[y] += change

    def cover(self, x: int) -> None:
        self._unfile(x)
        for y in self.nbrs[x]:
            self._count(y, -1)

    def free(self, x: int) -> None:
        self._file(x)
        for y in self.nbrs[x]:
            self._count(y, +1)

    def most_hemmed_in(self, rng: random.Random) -> int | None:
        """A random free cell among those with the fewest free neighbours; None when none is free."""
        for bucket in self.by_count:
            if bucket:
                return rng.choice(bucket)
        return None


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
        self.free = _FreeCells(self.nbrs)

    def size_of(self, i: int) -> int:
        return len(self.members[i])

    def touching_sizes(self, x: int) -> set[int]:
        return {self.size_of(self.region[y]) for y in self.nbrs[x] if self.region[y] >= 0}

    def tile(self) -> Grid | None:
        """Cover every cell; None when the repairs run out (the caller starts over)."""
        repairs = len(self.region)
        while (start := self.free.most_hemmed_in(self.rng)) is not None:
            if self.place(start):
                continue
            if not repairs:
                return None
            repairs -= 1
            self.dissolve_around(start)
        return tuple(tuple(self.size_of(self.region[r * self.w + c]) for c in range(self.w)) for r in range(self.h))

    def place(self, start: int) -> bool:
        """Cover ``start`` with a new region, or with a neighbour's; False if neither works."""
        sizes, weights = list(self.sizes), list(self.weights)
        while sizes:
            k = self.rng.choices(range(len(sizes)), weights)[0]
            grown = self.grow(start, sizes[k])
            seen: set[int] = set()
            best = 0
            for s, x in enumerate(grown, start=1):
                seen |= self.touching_sizes(x)
                if s not in seen:
                    best = s
            if best:
                self.members.append([])
                for x in grown[:best]:
                    self.cover(x, len(self.members) - 1)
                return True
            del sizes[k], weights[k]  # no prefix fits: another size
        return self.join_neighbour(start)

    def cover(self, x: int, i: int) -> None:
        self.members[i].append(x)
        self.region[x] = i
        self.free.cover(x)

    def dissolve_around(self, x: int) -> None:
        """Free the cells of the regions next to x."""
        for i in sorted({self.region[y] for y in self.nbrs[x] if self.region[y] >= 0}):
            for y in self.members[i]:
                self.region[y] = -1
                self.free.free(y)
            self.members[i] = []

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
                self.cover(x, i)
                return True
        return False


__all__ = ["TILING_ATTEMPTS", "random_solution"]
