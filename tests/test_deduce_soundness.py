"""Soundness of the deduction rules, checked independently of their own tests.

A rule may only remove values no solution uses. Puzzles made from a known solution must keep
that solution's value in every cell's domain, and published unique solutions must survive too.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED
from gridgen import random_solution
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import parse_grid, read_puzzle
from fillsmt.fillomino.verify import check_solution


def _assert_keeps(puzzle: Puzzle, solution) -> None:
    d = deduce(puzzle)
    assert d.contradiction is None, (puzzle.cells, d.contradiction)
    for r, row in enumerate(solution):
        for c, v in enumerate(row):
            assert v in d.domains[r * puzzle.width + c], (puzzle.cells, solution, r, c)
    if d.solved:
        assert check_solution(puzzle.cells, d.grid()) == []


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), height=st.integers(1, 8), width=st.integers(1, 8),
       keep=st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.9]), max_size=st.sampled_from([3, 6, 12, 25]))
def test_a_known_solution_survives_deduction(seed, height, width, keep, max_size):
    rng = random.Random(seed)
    solution = random_solution(rng, height, width, max_size=max_size)
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    _assert_keeps(Puzzle(height, width, cells), solution)


def test_published_janko_solutions_survive_deduction():
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        import pytest
        pytest.skip(f"{folder} is absent")
    for path in sorted((folder / "puzzles").glob("*.txt")):
        _, _, solution = parse_grid((folder / "solutions" / path.name).read_text())
        _assert_keeps(read_puzzle(str(path)), solution)


def test_contradictory_clues_are_found():
    d = deduce(Puzzle(1, 2, ((1, 1),)))
    assert d.contradiction
