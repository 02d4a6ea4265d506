"""Property: any puzzle made by blanking cells of a valid solution is solved, and the answer checks.

The puzzle always has at least the original solution, so an `unsat` here would mean the
encoding lost a solution (incompleteness); a grid that fails the checker would mean unsoundness.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import solver_or_skip
from gridgen import random_solution
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import solve
from fillsmt.smtlib.answer import Status


def derived_puzzle(seed: int, height: int, width: int, keep: float) -> tuple[Puzzle, tuple]:
    rng = random.Random(seed)
    solution = random_solution(rng, height, width, max_size=min(6, height * width))
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    return Puzzle(height, width, cells, f"random-{seed}"), solution


@pytest.mark.parametrize("solver", ["z3-api", "yices"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), height=st.integers(1, 5), width=st.integers(1, 5),
       keep=st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
def test_blanked_solutions_are_solved_and_checked(solver, seed, height, width, keep):
    driver = solver_or_skip(solver)
    puzzle, solution = derived_puzzle(seed, height, width, keep)
    assert check_solution(puzzle.cells, solution) == []
    result = solve(puzzle, driver, "thesis", timeout=60, presolve=False)
    assert result.status is Status.SAT, (puzzle.cells, result.message)
    assert result.grid is not None
    assert check_solution(puzzle.cells, result.grid) == []
    if keep == 1.0:
        assert result.grid == solution
