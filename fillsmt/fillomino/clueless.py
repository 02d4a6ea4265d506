"""Clue-less Fillomino grids: answered by a valid tiling, without a solver.

A puzzle without a single clue accepts every valid filled grid, so the generator's random
tiling (:func:`fillsmt.fillomino.generate.random_solution`, fixed seed) answers it directly: a
1x1000 or 100x100 empty grid takes well under a second, where the solver's search over domains
1..cells did not end in 60 s. Only the answer comes from here, after the checker accepted it;
uniqueness and forced cells still go through the solver.
"""

from __future__ import annotations

from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.verify import check_solution


def clueless_solution(puzzle: Puzzle) -> Grid | None:
    """A checked solution of a puzzle without clues (module text), or None when it has clues."""
    if any(v for row in puzzle.cells for v in row):
        return None
    import random

    from fillsmt.errors import InputError
    from fillsmt.fillomino.generate import random_solution  # only now: 25 ms of imports a solve with clues never needs

    try:
        grid = random_solution(puzzle.height, puzzle.width, random.Random(0))
    except InputError:
        return None
    return None if check_solution(puzzle.cells, grid) else grid


__all__ = ["clueless_solution"]
