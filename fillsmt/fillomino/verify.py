"""The referee: is a filled grid a solution of a Fillomino puzzle?

Deliberately shares no code with the encoders (nor their naming or geometry helpers): it reads
only the puzzle's clue grid and the candidate grid and applies the rules directly.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence


def check_solution(clues: Sequence[Sequence[int]], grid: Sequence[Sequence[int]]) -> list[str]:
    """Every rule the grid breaks, as readable sentences; an empty list means valid.

    Rules: same shape as the puzzle; every cell holds a positive number; every clue is kept;
    every maximal orthogonally connected region of equal numbers has exactly that many cells.
    """
    height, width = len(clues), len(clues[0]) if clues else 0
    if len(grid) != height or any(len(row) != width for row in grid):
        shape = f"{len(grid)}x{len(grid[0]) if grid else 0}"
        return [f"the solution is {shape}, the puzzle is {height}x{width}"]
    problems = []
    for r in range(height):
        for c in range(width):
            v, k = grid[r][c], clues[r][c]
            if v < 1:
                problems.append(f"row {r + 1}, column {c + 1} is empty or not positive ({v})")
            elif k and v != k:
                problems.append(f"row {r + 1}, column {c + 1} holds {v}, but the clue is {k}")
    if problems:
        return problems
    return _region_problems(grid, height, width)


def _region_problems(grid, height: int, width: int) -> list[str]:
    seen = [[False] * width for _ in range(height)]
    problems = []
    for r0 in range(height):
        for c0 in range(width):
            if seen[r0][c0]:
                continue
            value = grid[r0][c0]
            size = _flood(grid, seen, r0, c0, height, width)
            if size != value:
                problems.append(
                    f"the region of {value}s at row {r0 + 1}, column {c0 + 1} has {size} cell"
                    f"{'s' if size != 1 else ''}, not {value}"
                )
    return problems


def _flood(grid, seen, r0: int, c0: int, height: int, width: int) -> int:
    value = grid[r0][c0]
    seen[r0][c0] = True
    queue, size = deque([(r0, c0)]), 0
    while queue:
        r, c = queue.popleft()
        size += 1
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < height and 0 <= nc < width and not seen[nr][nc] and grid[nr][nc] == value:
                seen[nr][nc] = True
                queue.append((nr, nc))
    return size
