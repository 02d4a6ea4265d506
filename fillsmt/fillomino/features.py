"""Cheap features of a presolved Fillomino puzzle that choose when the staged race's extra
racers start (``Fillomino.staged_racers``).

Measured after the presolve (benchmarks/README.md, "Issue 17, sixth session"): the largest
connected area of open cells is 186–596 on the hard-tail puzzles the lazy region cuts win or tie
(207, 330, 620), 156 on 299 (the tree encoding wins), 61–72 on 266 and 485, at most 44 on the
scaling puzzles and at most 38 on janko-thesis100, where the tree encoding wins.
"""

from __future__ import annotations

from fillsmt.fillomino.model import Puzzle

LAZY_AREA = 100
"""Open cells in one connected area from which the lazy racer starts at once."""
LAZY_DELAY = 1.0
"""Seconds the lazy racer waits on a puzzle without such an area (a puzzle settled by then never
pays for it: janko-thesis100's median is 0.05 s, the 30×30 scaling puzzles' about 1.1 s)."""


def largest_open_area(puzzle: Puzzle) -> int:
    """The number of cells of the largest 4-connected area of empty (0) cells."""
    h, w = puzzle.height, puzzle.width
    empty = [v == 0 for row in puzzle.cells for v in row]
    seen = [False] * (h * w)
    best = 0
    for start in range(h * w):
        if not empty[start] or seen[start]:
            continue
        seen[start], stack, size = True, [start], 0
        while stack:
            x = stack.pop()
            size += 1
            r, c = divmod(x, w)
            for y, ok in ((x - w, r > 0), (x + w, r < h - 1), (x - 1, c > 0), (x + 1, c < w - 1)):
                if ok and empty[y] and not seen[y]:
                    seen[y] = True
                    stack.append(y)
        best = max(best, size)
    return best


def lazy_delay(presolved: Puzzle) -> float:
    """When the lazy racer starts: at once on a large open area, else after :data:`LAZY_DELAY`."""
    return 0.0 if largest_open_area(presolved) >= LAZY_AREA else LAZY_DELAY


__all__ = ["LAZY_AREA", "LAZY_DELAY", "largest_open_area", "lazy_delay"]
