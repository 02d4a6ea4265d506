"""The referee: is a filled grid a solution of a BlockNumber puzzle?

Deliberately shares no code with the encoders (nor their naming, geometry or model): it reads
only the puzzle's givens, its block labels (any integers) and the candidate grid, and applies the
rules directly.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence

Rows = Sequence[Sequence[int]]


def _at(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


def _shape(rows: Rows) -> tuple[int, int] | None:
    """(height, width) of a rectangular grid, else None."""
    widths = {len(row) for row in rows}
    return (len(rows), widths.pop() if widths else 0) if len(widths) <= 1 else None


def check_solution(givens: Rows, blocks: Rows, grid: Rows) -> list[str]:
    """Every rule the grid breaks, as readable sentences; an empty list means valid.

    Rules: the givens, the blocks and the grid have one shape; every block is connected; every
    cell holds a positive integer; every given is kept; a block of n cells holds each of 1..n
    exactly once; no two touching cells (diagonals included) hold the same number.
    """
    shape = _shape(givens)
    if shape is None or _shape(blocks) != shape:
        return ["the puzzle's givens and block labels are not two grids of one shape"]
    if _shape(grid) != shape:
        got = _shape(grid)
        return [
            f"the solution is {'not rectangular' if got is None else '%dx%d' % got}, "
            f"the puzzle is {shape[0]}x{shape[1]}"
        ]
    height, width = shape
    problems = _cell_problems(givens, grid, height, width)
    if problems:
        return problems
    members = _members(blocks, height, width)
    problems += _connectivity_problems(blocks, members, height, width)
    problems += _block_problems(grid, members)
    problems += _touching_problems(grid, height, width)
    return problems


def _cell_problems(givens: Rows, grid: Rows, height: int, width: int) -> list[str]:
    problems = []
    for r in range(height):
        for c in range(width):
            v, k = grid[r][c], givens[r][c]
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                problems.append(f"{_at(r, c)} is empty or not a positive integer ({v!r})")
            elif k and v != k:
                problems.append(f"{_at(r, c)} holds {v}, but the given is {k}")
    return problems


def _members(blocks: Rows, height: int, width: int) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for r in range(height):
        for c in range(width):
            out.setdefault(blocks[r][c], []).append((r, c))
    return out


def _connectivity_problems(blocks: Rows, members, height: int, width: int) -> list[str]:
    problems = []
    for label, cells in members.items():
        start = cells[0]
        seen, queue = {start}, deque([start])
        while queue:
            r, c = queue.popleft()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in seen and blocks[nr][nc] == label:
                    seen.add((nr, nc))
                    queue.append((nr, nc))
        if len(seen) != len(cells):
            apart = next(cell for cell in cells if cell not in seen)
            problems.append(f"the block labelled {label} is not connected ({_at(*start)} and {_at(*apart)})")
    return problems


def _block_problems(grid: Rows, members) -> list[str]:
    problems = []
    for label, cells in members.items():
        size = len(cells)
        where = f"the block of {size} cell{'s' if size != 1 else ''} at {_at(*cells[0])}"
        first: dict[int, tuple[int, int]] = {}
        for r, c in cells:
            v = grid[r][c]
            if v > size:
                problems.append(f"{_at(r, c)} holds {v}, more than the size of {where}")
            elif v in first:
                problems.append(f"{where} holds {v} twice ({_at(*first[v])} and {_at(r, c)})")
            else:
                first[v] = (r, c)
        missing = [v for v in range(1, size + 1) if v not in first]
        if missing:
            problems.append(f"{where} lacks {', '.join(map(str, missing))}")
    return problems


def _touching_problems(grid: Rows, height: int, width: int) -> list[str]:
    problems = []
    for r in range(height):
        for c in range(width):
            for nr, nc in ((r, c + 1), (r + 1, c - 1), (r + 1, c), (r + 1, c + 1)):
                if 0 <= nr < height and 0 <= nc < width and grid[r][c] == grid[nr][nc]:
                    problems.append(f"{_at(r, c)} and {_at(nr, nc)} touch and both hold {grid[r][c]}")
    return problems
