"""The clues of a solution that the deduction rules need: the first stage of the generator.

:class:`RulesRemoval` visits the cells of a solution in a given order and removes each clue
while the rules (:func:`~fillsmt.fillomino.deduce.deduce`) seem to still solve the puzzle. A
puzzle the rules solve is unique (they never remove a value some solution uses), so no oracle is
asked here, and the result is proved by one last run of the rules over the whole grid.

Whether the rules still solve the puzzle without clue x is asked of a *window*: on grids of at
most :data:`WHOLE_GRID_CELLS` cells the window is the whole grid (the question asked exactly);
on larger ones it is the box of the cells at most :data:`WINDOW_RADIUS` rows and columns from x,
with the current clues, inside a frame of :data:`WINDOW_MARGIN` more rows and columns holding
the solution's values (the part of a region cut by the frame's edge gets a value that keeps
the frame a valid grid, or stays empty: :func:`_fill_cut`). The rules then run on that small
puzzle only, and the removal stands when they fix every cell of the box. The frame stands for
what the rules fixed far from x before, so the window answers as the whole grid would while no
deduction from x's clue reaches beyond it.

A window can be wrong: a deduction from x's clue may reach beyond it. So after every
:data:`BATCH` removals the rules run over the whole grid, from the puzzle alone. When they
leave cells open, a clue of the batch comes back, found by bisection over the batch in the
order of removal: the first clue without which the rules do not solve the puzzle. Each question
of the bisection starts from the last fixpoint that failed, with the clues asked about written
in (a :meth:`~fillsmt.fillomino.deduce.state.State.fork`, whose rules look only at what
changed): that fixpoint came from fewer clues, so its domains hold every solution of the puzzle
asked about (sound), and only the clues whose cells it left open can change it, so only those
are bisected. With that clue given back, the rules go on from the fixpoint without the batch,
and so on until they fix every cell.

A fixpoint reached from narrower domains need not be the one reached from the puzzle alone
(the rules are not monotone in where they start), so when the visit ends the rules run once more
from the puzzle alone (:meth:`RulesRemoval.finish`), and if they leave cells open, clues come
back as above with every question asked from the puzzle alone. The result is therefore always
solved by the rules, so unique. It is *minimal* among the clue sets the rules solve (no single
clue can go with the rules still solving it) when the windows were the whole grid
(:attr:`RulesRemoval.exact`); on larger grids each clue kept was refused by its window or given
back by the bisection, which is near-minimal.

Deterministic: no clock is read; the windows and the clues given back depend only on the
solution, the order and the options.
"""

from __future__ import annotations

from fillsmt.errors import FillsmtError
from fillsmt.fillomino.deduce import ALL_RULES, deduce, initial_masks
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.masks import bit, is_single
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.grid import cell_groups, equal_areas, neighbour_indices

WHOLE_GRID_CELLS = 100
"""Grids of at most this many cells ask every question of the whole grid (exact)."""

BATCH = 64
"""Removals between two checks of the whole grid, on grids larger than the windows."""

WINDOW_RADIUS = 4
"""The rows and columns on each side of the removed clue whose cells the window lets change."""

WINDOW_MARGIN = 5
"""The rows and columns of the frame of solution values around the window's box."""


class RulesRemoval:
    """Remove clues while the rules solve the puzzle (module text). ``cells``: the puzzle's
    values, row-major (0 for no clue), changed in place; ``region``: each cell's region of the
    solution, ``clues_in``: each region's clues (kept up to date); ``rules``: the deduction rules
    that must solve it (all of them by default)."""

    def __init__(
        self,
        solution: Grid,
        cells: list[int],
        region: list[int],
        clues_in: list[int],
        rules: tuple[str, ...] = ALL_RULES,
    ):
        self.rules = tuple(r for r in ALL_RULES if r in rules)
        self.h, self.w = len(solution), len(solution[0])
        self.flat = [v for row in solution for v in row]
        self.cells, self.region, self.clues_in = cells, region, clues_in
        self.boxes = _boxes(solution)
        self.board = Board.of(self.h, self.w)
        self.whole = self.h * self.w <= WHOLE_GRID_CELLS
        self.steps = self.checked = 0
        self.removed_at: dict[int, int] = {}
        """The clues removed, with the step at which each went."""
        self.restored = 0
        """Clues given back because the whole grid's rules did not solve the puzzle."""
        self.windows = 0

    @property
    def exact(self) -> bool:
        """Was every removal asked of the whole grid?"""
        return self.whole

    def puzzle(self, cells: list[int] | None = None) -> Puzzle:
        flat = self.cells if cells is None else cells
        w = self.w
        return Puzzle(self.h, w, tuple(tuple(flat[r * w : (r + 1) * w]) for r in range(self.h)))

    def try_remove(self, x: int) -> bool:
        """Remove clue x if its window says the rules still solve the puzzle without it; after
        every :data:`BATCH` such removals, check the whole grid (:meth:`settle`)."""
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
        self.windows += 1
        if self.whole:
            self.cells[x], v = 0, self.cells[x]
            try:
                return deduce(self.puzzle(), self.rules, grid_last=True).solved
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
        found = deduce(Puzzle(len(rows), width, rows), self.rules, grid_last=True)
        if found.contradiction is not None:
            return False  # a frame cut from the rest of its grid may admit no solution
        return all(len(found.domains[i]) == 1 for i in must)

    def settle(self) -> None:
        """Check the whole grid from the puzzle alone; while the rules do not solve it, give
        back clues removed since the last check (:meth:`_give_back`)."""
        since, self.checked = self.checked, self.steps
        if self.whole:
            return  # every removal was checked on the whole grid
        batch = sorted((y for y, at in self.removed_at.items() if at >= since), key=self.removed_at.__getitem__)
        self._give_back(batch, self._run(self._start(self.cells)), fresh=False)

    def _give_back(self, batch: list[int], failed: State | None, fresh: bool) -> None:
        """Give back clues of ``batch`` (in removal order) while ``failed``, the fixpoint with
        them gone, fixes not every cell: the first clue without which the rules do not solve it
        (by bisection). ``fresh``: each question from the puzzle alone; else from the last
        fixpoint that failed, and only among the clues whose cells it left open."""
        while failed is not None and batch:
            every = failed
            live = batch if fresh else [y for y in batch if not is_single(failed.dom[y])] or batch
            lo, hi = 0, len(live)  # without live[:lo] the rules solve it, without live[:hi] not
            while hi - lo > 1:
                mid = (lo + hi) // 2
                found = self._ask(failed, live[mid:], fresh)
                lo, hi, failed = (mid, hi, failed) if found is None else (lo, mid, found)
            y = live[hi - 1]
            batch.remove(y)
            self._restore(y)
            failed = self._ask(every, [y], fresh)

    def _ask(self, failed: State, back: list[int], fresh: bool) -> State | None:
        """The fixpoint with the clues of ``back`` given back (None: solved)."""
        if not fresh:
            child = failed.fork()
            for y in back:
                child.assume(y, bit(self.flat[y]))
            return self._run(child)
        cells = self.cells[:]
        for y in back:
            cells[y] = self.flat[y]
        return self._run(self._start(cells))

    def finish(self) -> None:
        """Settle the last batch, then check from the puzzle alone (module text): when this
        returns, the rules solve the puzzle, so it is unique."""
        self.settle()
        if self.whole:
            return
        batch = sorted(self.removed_at, key=self.removed_at.__getitem__)
        self._give_back(batch, self._run(self._start(self.cells)), fresh=True)

    def _start(self, cells: list[int]) -> State:
        """The rules' start on the puzzle of ``cells`` alone."""
        return State(self.board, initial_masks(self.puzzle(cells)), list(self.rules))

    def _run(self, state: State) -> State | None:
        """The rules' fixpoint from ``state``: None when it fixes every cell, else the state."""
        found = self._settled(state)
        return None if all(is_single(m) for m in found.dom) else found

    def _settled(self, state: State) -> State:
        contradiction = fixpoint(state, self.rules, grid_last=True)
        if contradiction is not None:
            raise FillsmtError(f"the rules refute a puzzle with a known solution: {contradiction}")
        return state

    def _restore(self, x: int) -> None:
        self.cells[x] = self.flat[x]
        self.clues_in[self.region[x]] += 1
        del self.removed_at[x]
        self.restored += 1


def _parts(cells: list[int], width: int) -> list[list[int]]:
    """The orthogonally connected parts of a set of cells, in order of their first cell."""
    return [[r * width + c for r, c in group] for group in cell_groups(divmod(x, width) for x in cells)]


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
    """Cell i's neighbours in a grid of n cells, ``width`` to a row."""
    return neighbour_indices(n // width, width, i)


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
