"""The clues of a solution that the deduction rules need: the first stage of the generator.

:class:`RulesRemoval` visits the cells of a solution in a given order and removes each clue
while the rules (:func:`~fillsmt.fillomino.deduce.deduce`) seem to still solve the puzzle. A
puzzle the rules solve is unique (they never remove a value some solution uses), so no oracle is
asked here, and the result is proved by one last run of the rules over the whole grid.

Whether the rules still solve the puzzle without clue x is asked of a *window*: on grids of at
most :data:`WHOLE_GRID_CELLS` cells the window is the whole grid (the question asked exactly);
on larger ones it is the box of the cells at most :data:`WINDOW_RADIUS` rows and columns from x,
with the current clues, inside a frame of :data:`WINDOW_MARGIN` more rows and columns holding
the solution's values (a region cut by the frame's edge is left empty). The rules then run on
that small puzzle only, and the removal stands when they fix every cell of the box and the
frame's regions. The frame stands for what the rules fixed far from x before, so the window
answers as the whole grid would while no deduction from x's clue reaches beyond it.

When the visit ends, the rules run once over the whole grid. Where a window was wrong, cells
stay open: then, for each connected set of open cells, the clue of the one removed last comes
back, the rules go on from where they stopped (more clues only narrow the domains, so the run
goes on soundly), and so on until every cell is fixed; a last run from the puzzle alone
confirms it. The result is therefore always solved by the rules, so unique. It is *minimal*
among the clue sets the rules solve (no single clue can go with the rules still solving it)
when the windows were the whole grid and no clue came back (:attr:`RulesRemoval.exact`); on
larger grids each clue kept was refused by its window, which is near-minimal.

Deterministic: no clock is read but the ``deadline``; the windows and the clues restored
depend only on the solution, the order and the options.
"""

from __future__ import annotations

from fillsmt.errors import FillsmtError
from fillsmt.fillomino.deduce import Mask, deduce, propagate_masks
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.grid import equal_areas

WHOLE_GRID_CELLS = 100
"""Grids of at most this many cells ask every question of the whole grid (exact)."""

BATCH = 8
"""Removals between two checks of the whole grid, on grids larger than the windows."""

WINDOW_RADIUS = 3
"""The rows and columns on each side of the removed clue whose cells the window lets change."""

WINDOW_MARGIN = 5
"""The rows and columns of the frame of solution values around the window's box."""


class RulesRemoval:
    """Remove clues while the rules solve the puzzle (module text). ``cells``: the puzzle's
    values, row-major (0 for no clue), changed in place; ``region``: each cell's region of the
    solution, ``clues_in``: each region's clues (kept up to date)."""

    def __init__(self, solution: Grid, cells: list[int], region: list[int], clues_in: list[int]):
        self.h, self.w = len(solution), len(solution[0])
        self.flat = [v for row in solution for v in row]
        self.cells, self.region, self.clues_in = cells, region, clues_in
        self.boxes = _boxes(solution)
        self.whole = self.h * self.w <= WHOLE_GRID_CELLS
        self.steps = self.checked = 0
        self.removed_at: dict[int, int] = {}
        """The clues removed, with the step at which each went."""
        self.restored = 0
        """Clues given back because the whole grid's rules did not solve the puzzle."""
        self.windows = 0

    @property
    def exact(self) -> bool:
        """Was every removal asked of the whole grid, and none undone?"""
        return self.whole and not self.restored

    def puzzle(self, cells: list[int] | None = None) -> Puzzle:
        flat = self.cells if cells is None else cells
        w = self.w
        return Puzzle(self.h, w, tuple(tuple(flat[r * w : (r + 1) * w]) for r in range(self.h)))

    def try_remove(self, x: int) -> bool:
        """Remove clue x if its window says the rules still solve the puzzle without it; after
        every :data:`BATCH` such removals, check the whole grid (:meth:`settle`)."""
        self.windows += 1
        if not self._window_solves(x):
            return False
        self.cells[x] = 0
        self.clues_in[self.region[x]] -= 1
        self.removed_at[x] = self.steps
        self.steps += 1
        if not self.whole and self.steps - self.checked >= BATCH:
            self.settle()
        return True

    def _window_solves(self, x: int) -> bool:
        if self.whole:
            self.cells[x], v = 0, self.cells[x]
            try:
                return deduce(self.puzzle(), grid_last=True).solved
            finally:
                self.cells[x] = v
        r, c = divmod(x, self.w)
        reach = WINDOW_RADIUS + WINDOW_MARGIN
        top, bottom = max(0, r - reach), min(self.h - 1, r + reach)
        left, right = max(0, c - reach), min(self.w - 1, c + reach)
        width = right - left + 1
        sub = [0] * ((bottom - top + 1) * width)
        must = []  # the window's cells, which the rules must fix
        cut: dict[int, list[int]] = {}  # the frame's cells of regions that go beyond it
        for rr in range(top, bottom + 1):
            for cc in range(left, right + 1):
                y, i = rr * self.w + cc, (rr - top) * width + cc - left
                if abs(rr - r) <= WINDOW_RADIUS and abs(cc - c) <= WINDOW_RADIUS:
                    sub[i] = 0 if y == x else self.cells[y]
                    must.append(i)
                    continue
                r0, c0, r1, c1 = self.boxes[self.region[y]]
                if top <= r0 and r1 <= bottom and left <= c0 and c1 <= right:
                    sub[i] = self.flat[y]
                else:
                    cut.setdefault(self.region[y], []).append(i)
        _fill_cut(sub, width, [p for cells in cut.values() for p in _parts(cells, width)], set(must))
        rows = tuple(tuple(sub[i : i + width]) for i in range(0, len(sub), width))
        found = deduce(Puzzle(len(rows), width, rows), grid_last=True)
        if found.contradiction is not None:
            return False  # a frame cut from the rest of its grid may admit no solution
        return all(len(found.domains[i]) == 1 for i in must)

    def settle(self) -> None:
        """Check the whole grid; while the rules do not solve it, give back the first clue
        removed since the last check without which they do not (found by bisection)."""
        since, self.checked = self.checked, self.steps
        if self.whole:
            return  # every removal was checked on the whole grid
        batch = sorted((y for y, at in self.removed_at.items() if at >= since), key=self.removed_at.__getitem__)
        while not self._solved():
            lo, hi = 0, len(batch)  # without batch[:lo] the rules solve it, without batch[:hi] not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                for i, y in enumerate(batch):
                    self.cells[y] = 0 if i < mid else self.flat[y]
                lo, hi = (mid, hi) if self._solved() else (lo, mid)
            for y in batch:
                self.cells[y] = 0
            self._restore(batch.pop(hi - 1))

    def _solved(self) -> bool:
        found = deduce(self.puzzle(), grid_last=True)
        if found.contradiction is not None:
            raise FillsmtError(f"the rules refute a puzzle with a known solution: {found.contradiction}")
        return found.solved

    def _restore(self, x: int) -> None:
        self.cells[x] = self.flat[x]
        self.clues_in[self.region[x]] += 1
        del self.removed_at[x]
        self.restored += 1


def _propagate(puzzle: Puzzle, masks: list[Mask]) -> tuple[list[Mask], str | None]:
    found, _, contradiction = propagate_masks(puzzle, masks)
    return list(found), contradiction


def _parts(cells: list[int], width: int) -> list[list[int]]:
    """The orthogonally connected parts of a set of cells, in order of their first cell."""
    left = set(cells)
    parts = []
    for start in cells:
        if start not in left:
            continue
        left.discard(start)
        part, stack = [start], [start]
        while stack:
            x = stack.pop()
            r, c = divmod(x, width)
            for y in (x - width, x + width, x - 1 if c else -1, x + 1 if c + 1 < width else -1):
                if y in left:
                    left.discard(y)
                    part.append(y)
                    stack.append(y)
        parts.append(part)
    return parts


def _fill_cut(sub: list[int], width: int, parts: list[list[int]], window: set[int]) -> None:
    """Give each part of a region cut by the frame's edge a value that keeps the frame a valid
    grid: its own size; where a region of that size touches it, the two merge into one region
    of their joint size (again, until none touches); a part that would take in a window's cell
    stays open (0)."""
    for i in (i for part in parts for i in part):
        sub[i] = 0
    for part in parts:
        cells = set(part)
        while True:
            k = len(cells)
            touching = {j for i in cells for j in _around(i, width, len(sub)) if j not in cells and sub[j] == k}
            if not touching:
                for i in cells:
                    sub[i] = k
                break
            merged = _flood(sub, width, touching, k, cells)
            if merged & window:  # merge with another neighbouring region instead
                merged = next(
                    (
                        m
                        for j in sorted({j for i in cells for j in _around(i, width, len(sub))} - cells)
                        if sub[j]
                        for m in [_flood(sub, width, {j}, sub[j], cells)]
                        if not m & window
                    ),
                    set(),
                )
                if not merged:
                    break  # stays open
            cells |= merged


def _flood(sub: list[int], width: int, start: set[int], k: int, skip: set[int]) -> set[int]:
    """The cells of value k connected to ``start`` through cells of value k (not in ``skip``)."""
    found, stack = set(start), list(start)
    while stack:
        i = stack.pop()
        for j in _around(i, width, len(sub)):
            if sub[j] == k and j not in found and j not in skip:
                found.add(j)
                stack.append(j)
    return found


def _around(i: int, width: int, n: int) -> list[int]:
    c = i % width
    return [j for j in (i - width, i + width, i - 1 if c else -1, i + 1 if c + 1 < width else -1) if 0 <= j < n]


def _boxes(solution: Grid) -> list[tuple[int, int, int, int]]:
    """Each region's bounding box (top, left, bottom, right), by the region index of
    :func:`~fillsmt.grid.equal_areas`."""
    w = len(solution[0])
    out = []
    for cells in equal_areas(solution):
        rows = [x // w for x in cells]
        cols = [x % w for x in cells]
        out.append((min(rows), min(cols), max(rows), max(cols)))
    return out


def rules_solve(puzzle: Puzzle, solution: Grid) -> bool:
    """Do the rules alone fill ``puzzle`` with ``solution``?"""
    found = deduce(puzzle, grid_last=True)
    return found.solved and found.grid() == solution


__all__ = ["RulesRemoval", "WHOLE_GRID_CELLS", "WINDOW_MARGIN", "WINDOW_RADIUS", "rules_solve"]
