"""Grid geometry every kind shares: cell numbers, orthogonal neighbours, connected areas.

Cells are numbered row by row from the top-left corner, ``x = row * width + col``.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Sequence


def cell_index(width: int, row: int, col: int) -> int:
    return row * width + col


def neighbours(height: int, width: int, row: int, col: int) -> list[tuple[int, int]]:
    """Orthogonal neighbours in the thesis' order: up, down, left, right."""
    out = []
    if row - 1 >= 0:
        out.append((row - 1, col))
    if row + 1 < height:
        out.append((row + 1, col))
    if col - 1 >= 0:
        out.append((row, col - 1))
    if col + 1 < width:
        out.append((row, col + 1))
    return out


def neighbour_indices(height: int, width: int, x: int) -> list[int]:
    """The cell numbers of x's orthogonal neighbours, in :func:`neighbours`' order."""
    row, col = divmod(x, width)
    out = []
    if row:
        out.append(x - width)
    if row + 1 < height:
        out.append(x + width)
    if col:
        out.append(x - 1)
    if col + 1 < width:
        out.append(x + 1)
    return out


def connected_areas(height: int, width: int, inside: Callable[[int], bool]) -> list[list[int]]:
    """The orthogonally connected areas of the cells ``x`` for which ``inside(x)`` holds (flood
    fill), each a list of cell numbers starting at its first cell in row-major order."""
    seen = [False] * (height * width)
    areas = []
    for start in range(height * width):
        if seen[start] or not inside(start):
            continue
        seen[start] = True
        area, stack = [start], [start]
        while stack:
            x = stack.pop()
            for y in neighbour_indices(height, width, x):
                if not seen[y] and inside(y):
                    seen[y] = True
                    area.append(y)
                    stack.append(y)
        areas.append(area)
    return areas


def filled_cells(grid: Sequence[Sequence[int]]) -> Iterator[tuple[int, int, int]]:
    """Every non-zero cell of a grid as (row, column, value), row by row."""
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v:
                yield r, c, v


def grid_with(height: int, width: int, cells: Iterable[tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """A grid of zeros with each (row, column, value) of ``cells`` set."""
    rows = [[0] * width for _ in range(height)]
    for r, c, v in cells:
        rows[r][c] = v
    return tuple(map(tuple, rows))


def empty_count(grid: Sequence[Sequence[int]]) -> int:
    """How many cells of a grid are 0."""
    return sum(1 for row in grid for v in row if v == 0)


@lru_cache(maxsize=8)
def adjacency(height: int, width: int) -> tuple[tuple[int, ...], ...]:
    """Every cell's :func:`neighbour_indices`, computed once per grid shape (for loops that ask
    again and again)."""
    return tuple(tuple(neighbour_indices(height, width, x)) for x in range(height * width))


def equal_areas(grid: Sequence[Sequence[int]]) -> list[list[int]]:
    """The maximal orthogonally connected areas of equal values of a grid, each a list of cell
    numbers in breadth-first order from its first cell in row-major order."""
    adj = adjacency(len(grid), len(grid[0]))
    flat = [v for row in grid for v in row]
    seen = [False] * len(flat)
    out = []
    for start in range(len(flat)):
        if seen[start]:
            continue
        seen[start] = True
        cells, queue = [], deque([start])
        while queue:
            x = queue.popleft()
            cells.append(x)
            for y in adj[x]:
                if not seen[y] and flat[y] == flat[x]:
                    seen[y] = True
                    queue.append(y)
        out.append(cells)
    return out


def cell_groups(cells: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The orthogonally connected groups of a set of (row, col) cells (no board needed), each
    found from its first cell in sorted order."""
    cells = set(cells)
    seen: set[tuple[int, int]] = set()
    groups = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        group, todo = [start], [start]
        while todo:
            r, c = todo.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    group.append(nb)
                    todo.append(nb)
        groups.append(group)
    return groups


__all__ = [
    "adjacency",
    "cell_groups",
    "cell_index",
    "connected_areas",
    "empty_count",
    "equal_areas",
    "filled_cells",
    "grid_with",
    "neighbour_indices",
    "neighbours",
]
