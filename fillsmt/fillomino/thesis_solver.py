"""The thesis' own rules-plus-backtracking solver, rebuilt from its text, for its difficulty measure.

The thesis (seed ``002``, sections 5.2-5.4 and 6) rates a puzzle by the deepest run of nested
guesses its C++ solver makes (6.2). fillsmt's own solver (:mod:`~fillsmt.fillomino.search`
over :mod:`~fillsmt.fillomino.deduce`) reasons over every cell's set of possible numbers and is
much stronger: it solves every Puzzle Baron puzzle of the thesis without a guess, so its depth
cannot order them. This module works as the thesis describes, on the grid of numbers itself
(0 = empty), so its depth is the thesis' measure:

``single-exit`` (5.2, Algorithm 1)
    An incomplete group (connected equal numbers, fewer cells than the number) with exactly one
    empty neighbour grows into it.
``forced-cell`` (5.3, Algorithm 2)
    Every way to complete an incomplete group of number k: connected sets of k cells holding the
    group and otherwise empty cells or cells of number k (the BFS "moves through" both). An
    empty cell in all of them is filled with k. As in the thesis a completion is not required to
    stay clear of other k's next to it; that is what leaves its hard puzzles to guessing.
``reachability`` (5.4, basic variant)
    A group of k with b cells still missing reaches the empty cells within b steps through empty
    cells (cells of number k cost nothing). Every region holds a clue, so an empty cell holds one
    of the numbers that reach it, without making a group larger than its number or leaving an
    incomplete group with no empty neighbour. One such number: it is written; none: the board
    is invalid.

The rules run in that order, each move starting the loop again, until none applies. Then the
search (6.1) takes the first empty cell row by row and tries each number the reachability rule
allows there, smallest first, each a guess one level deeper, until a board is full; an invalid
board sends it back. ``max_depth`` is the deepest guess made before the first solution (6.2).

Scope: the reachability rule and the guesses assume the *basic* variant (every region holds a
clue; Puzzle Baron's). A puzzle whose solution has an unclued region (the janko.at puzzles) has
no solution here. Single-exit and forced-cell are sound for every Fillomino. A group with more
than :data:`COMPLETION_CAP` partial completions of one size is skipped by forced-cell (the thesis
has no cap; on the 60 Baron puzzles a cap of 20,000 gives the same depths, and a larger one makes
a large unclued area, as in janko 291, slow at one node; benchmarks/README.md).
Every solution returned has passed :func:`~fillsmt.fillomino.verify.check_solution`.

Measured (``fillsmt rate --method thesis`` on ``../shared/instances/fillomino/baron-thesis60``, beside
its ``thesis-times.csv``): on the 60 Baron puzzles this solver needs no guess on
the 56 the thesis solved by its strategies alone, and depths 1, 5, 9, 12 on the four the thesis
gives 1, 6, 11, 17: the same order.

The module is pure: a puzzle in, a :class:`~fillsmt.fillomino.search.SearchResult` out.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass

from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.names import neighbour_indices
from fillsmt.fillomino.search import SearchError, SearchResult
from fillsmt.fillomino.verify import check_solution

THESIS_STRATEGIES: tuple[str, ...] = ("single-exit", "forced-cell", "reachability")
"""The thesis' strategies, in the order its loop applies them."""

COMPLETION_CAP = 2_000
"""The most partial completions of one size forced-cell enumerates for one group (module text)."""


class _Invalid(Exception):
    """The board breaks a rule: a group too large, a group that cannot grow, a cell nothing reaches."""


class _Stop(Exception):
    """The deadline or the node cap came first."""


@dataclass(frozen=True)
class _Group:
    value: int
    cells: tuple[int, ...]

    @property
    def incomplete(self) -> bool:
        return len(self.cells) < self.value


class _Board:
    def __init__(self, height: int, width: int):
        self.neighbours = [tuple(neighbour_indices(height, width, x)) for x in range(height * width)]
        self.completions: dict[tuple[int, tuple[int, ...]], tuple] = {}
        """forced-cell's memory: group -> (the cells it read with their numbers, whether a
        completion exists, the cells in all of them or None past the cap)."""

    def _group_at(self, grid: list[int], start: int, seen: set[int]) -> tuple[list[int], bool]:
        """The group of ``start`` (added to ``seen``) and whether it has an empty neighbour."""
        v = grid[start]
        seen.add(start)
        cells, stack, exits = [start], [start], False
        while stack:
            x = stack.pop()
            for y in self.neighbours[x]:
                if grid[y] == 0:
                    exits = True
                elif grid[y] == v and y not in seen:
                    seen.add(y)
                    cells.append(y)
                    stack.append(y)
        return cells, exits

    @staticmethod
    def _broken(v: int, cells: list[int], exits: bool) -> bool:
        """Larger than its number, or incomplete with no empty neighbour."""
        return len(cells) > v or (len(cells) < v and not exits)

    def groups(self, grid: list[int]) -> list[_Group]:
        """Every group; a broken one (:meth:`_broken`) makes the board invalid."""
        seen: set[int] = set()
        out = []
        for start, v in enumerate(grid):
            if v and start not in seen:
                cells, exits = self._group_at(grid, start, seen)
                if self._broken(v, cells, exits):
                    raise _Invalid
                out.append(_Group(v, tuple(cells)))
        return out

    def valid_with(self, grid: list[int], x: int, v: int) -> bool:
        """Whether writing v in the empty cell x of a valid board leaves it valid: only x's new
        group and the neighbouring groups that lose x as an exit can break."""
        grid[x] = v
        try:
            seen: set[int] = set()
            for start in (x, *(y for y in self.neighbours[x] if grid[y] not in (0, v))):
                if start not in seen and self._broken(grid[start], *self._group_at(grid, start, seen)):
                    return False
            return True
        finally:
            grid[x] = 0


def _single_exit(board: _Board, grid: list[int], groups: list[_Group]) -> bool:
    for g in groups:
        if g.incomplete:
            exits = {y for x in g.cells for y in board.neighbours[x] if grid[y] == 0}
            if len(exits) == 1:
                grid[exits.pop()] = g.value
                return True
    return False


def _in_every_completion(board: _Board, grid: list[int], g: _Group) -> frozenset[int] | None:
    """The cells in every connected set of g.value cells that holds g and otherwise only empty
    cells or cells of g's number; None past :data:`COMPLETION_CAP` partial ones of one size.
    No such set: the board is invalid.

    Remembered per group with the cells the enumeration read: the strategies' loop asks again
    after every move, and most moves are far from most groups."""
    key = (g.value, g.cells)
    kept = board.completions.get(key)
    if kept is not None and all(grid[y] == v for y, v in kept[0]):
        possible, common = kept[1:]
    else:
        level, looked = {frozenset(g.cells)}, set(g.cells)
        possible, common = True, None
        for _ in range(g.value - len(g.cells)):
            grown = set()
            for cells in level:
                for x in cells:
                    for y in board.neighbours[x]:
                        if y not in cells and grid[y] in (0, g.value):
                            grown.add(cells | {y})
            if len(grown) > COMPLETION_CAP:
                break
            level = grown
            looked.update(*level)
        else:
            possible = bool(level)
            common = frozenset.intersection(*level) if level else frozenset()
        read = {y for x in looked for y in board.neighbours[x]} | looked
        board.completions[key] = (tuple((y, grid[y]) for y in read), possible, common)
    if not possible:
        raise _Invalid
    return common


def _forced_cell(board: _Board, grid: list[int], groups: list[_Group]) -> bool:
    for g in groups:
        if not g.incomplete:
            continue
        common = _in_every_completion(board, grid, g)
        empty = [x for x in common or () if grid[x] == 0]
        if empty:
            for x in empty:
                grid[x] = g.value
            return True
    return False


def _reaching(board: _Board, grid: list[int], groups: list[_Group]) -> dict[int, set[int]]:
    """Per empty cell, the numbers of the incomplete groups that reach it within their budget."""
    reach: dict[int, set[int]] = {}
    for g in groups:
        if not g.incomplete:
            continue
        budget = g.value - len(g.cells)
        steps = dict.fromkeys(g.cells, 0)
        queue = deque(g.cells)
        while queue:  # 0-1 BFS: an empty cell costs a step, a cell of g's number nothing
            x = queue.popleft()
            for y in board.neighbours[x]:
                if y in steps:
                    continue
                if grid[y] == 0 and steps[x] < budget:
                    steps[y] = steps[x] + 1
                    queue.append(y)
                elif grid[y] == g.value:
                    steps[y] = steps[x]
                    queue.appendleft(y)
        for x in steps:
            if grid[x] == 0:
                reach.setdefault(x, set()).add(g.value)
    return reach


def _candidates(board: _Board, grid: list[int], reach: dict[int, set[int]], x: int) -> list[int]:
    return [v for v in sorted(reach.get(x, ())) if board.valid_with(grid, x, v)]


def _reachability(board: _Board, grid: list[int], groups: list[_Group]) -> bool:
    reach = _reaching(board, grid, groups)
    for x, v in enumerate(grid):
        if v == 0:
            allowed = _candidates(board, grid, reach, x)
            if not allowed:
                raise _Invalid
            if len(allowed) == 1:
                grid[x] = allowed[0]
                return True
    return False


_STRATEGIES = (("single-exit", _single_exit), ("forced-cell", _forced_cell), ("reachability", _reachability))


class _Search:
    def __init__(self, puzzle: Puzzle, deadline: float | None, max_nodes: int | None):
        self.puzzle, self.board = puzzle, _Board(puzzle.height, puzzle.width)
        self.deadline, self.max_nodes = deadline, max_nodes
        self.result = SearchResult(rules_used=dict.fromkeys(THESIS_STRATEGIES, 0))

    def _propagate(self, grid: list[int], used: dict[str, int]) -> None:
        while True:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Stop
            groups = self.board.groups(grid)
            for name, strategy in _STRATEGIES:
                empty = grid.count(0)
                if strategy(self.board, grid, groups):
                    used[name] += empty - grid.count(0)
                    break
            else:
                return

    def run(self, grid: list[int]) -> list[int] | None:
        """Depth first from ``grid`` (an explicit stack, so no recursion limit): each node runs the
        strategies, then its children are the candidates of its first empty cell, smallest first."""
        r = self.result
        stack: list[tuple[list[int], int]] = [(grid, 0)]
        while stack:
            grid, depth = stack.pop()
            if self.max_nodes is not None and r.nodes >= self.max_nodes:
                raise _Stop
            r.nodes += 1
            r.guesses += depth > 0
            r.max_depth = max(r.max_depth, depth)
            used = dict.fromkeys(THESIS_STRATEGIES, 0)
            try:
                self._propagate(grid, used)
            except _Invalid:
                continue
            finally:
                for name, n in used.items():
                    r.rules_used[name] += n
                if depth == 0:  # also when stopped or refuted there: as far as the rules got
                    r.root_rules = {name: n for name, n in used.items() if n}
                    r.root_fixed = len(grid) - grid.count(0)
            if depth == 0:
                r.root_solved = 0 not in grid
            if 0 not in grid:
                r.solution_depth = depth
                return grid
            x = grid.index(0)
            reach = _reaching(self.board, grid, self.board.groups(grid))
            for v in reversed(_candidates(self.board, grid, reach, x)):
                child = list(grid)
                child[x] = v
                stack.append((child, depth + 1))
        return None


def solve_as_thesis(puzzle: Puzzle, *, deadline: float | None = None, max_nodes: int | None = None) -> SearchResult:
    """The thesis' solver on ``puzzle`` until its first solution (module text).

    ``deadline`` (a :func:`time.monotonic` value) and ``max_nodes`` stop it early
    (``timed_out`` / not ``exhausted``, no solution, depths as far as it got). ``exhausted``
    with no solution: none in the basic variant. A solution is checked by the independent
    checker; ``SearchError`` if it fails (a bug).
    """
    search = _Search(puzzle, deadline, max_nodes)
    grid = [v for row in puzzle.cells for v in row]
    r = search.result
    try:
        found = search.run(grid)
    except _Stop:
        r.timed_out = deadline is not None and time.monotonic() > deadline
        return r
    if found is None:
        r.exhausted = True
        if r.nodes == 1:
            r.root_contradiction = "the thesis' rules find the board invalid"
        return r
    w = puzzle.width
    solution: Grid = tuple(tuple(found[i * w : (i + 1) * w]) for i in range(puzzle.height))
    problems = check_solution(puzzle.cells, solution)
    if problems:
        raise SearchError(f"{puzzle.source}: the thesis' solver filled a grid the checker rejects: {problems[0]}")
    r.solutions.append(solution)
    return r


__all__ = ["COMPLETION_CAP", "THESIS_STRATEGIES", "solve_as_thesis"]
