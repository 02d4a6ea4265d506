"""The independent checker: valid grids pass, every kind of broken grid is caught."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED
from gridgen import random_solution
from fillsmt.fillomino import verify
from fillsmt.fillomino.plain_format import parse_grid, read_puzzle
from fillsmt.fillomino.verify import check_solution

G12_CLUES = ((1, 0, 0, 0, 1), (0, 0, 0, 1, 0), (2, 4, 0, 0, 0), (1, 0, 2, 1, 0), (3, 0, 1, 0, 2))
G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


def test_valid_solution_passes():
    assert check_solution(G12_CLUES, G12_SOLUTION) == []


def test_changed_clue_is_reported():
    grid = [list(r) for r in G12_SOLUTION]
    grid[0][0] = 4
    assert "row 1, column 1 holds 4, but the clue is 1" in check_solution(G12_CLUES, grid)


def test_wrong_region_size_is_reported():
    clues = ((0, 0), (0, 0))
    assert check_solution(clues, ((3, 3), (3, 3))) == ["the region of 3s at row 1, column 1 has 4 cells, not 3"]


def test_touching_equal_regions_count_as_one():
    assert check_solution(((0, 0),), ((1, 1),)) == ["the region of 1s at row 1, column 1 has 2 cells, not 1"]


def test_empty_cells_and_wrong_shape():
    assert check_solution(((0, 0),), ((1, 0),)) == ["row 1, column 2 is empty or not positive (0)"]
    assert check_solution(((0, 0),), ((1,), (1,))) == ["the solution is 2x1, the puzzle is 1x2"]


def test_checker_shares_no_code_with_the_encoders():
    tree = ast.parse(Path(verify.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.startswith("fillsmt") for m in imported), imported


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 7), st.integers(1, 7))
def test_generated_solutions_pass_and_every_single_cell_mutation_fails(seed, h, w):
    rng = random.Random(seed)
    grid = random_solution(rng, h, w)
    clues = tuple((0,) * w for _ in range(h))
    assert check_solution(clues, grid) == []
    r, c = rng.randrange(h), rng.randrange(w)
    mutated = [list(row) for row in grid]
    mutated[r][c] = grid[r][c] + rng.randint(1, 3)
    assert check_solution(clues, mutated) != []


def test_published_janko_solutions_pass():
    folder = SHARED / "janko-thesis100"
    if not folder.exists():
        pytest.skip(f"{folder} is absent")
    for path in sorted((folder / "puzzles").glob("*.txt")):
        puzzle = read_puzzle(str(path))
        _, _, grid = parse_grid((folder / "solutions" / path.name).read_text())
        assert check_solution(puzzle.cells, grid) == [], path.name
