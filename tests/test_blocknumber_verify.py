"""The BlockNumber referee: accepts valid grids, names every kind of rule break, stays independent."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fillsmt.blocknumber.verify as verify_module
from fillsmt.blocknumber.generate import random_solution
from fillsmt.blocknumber.verify import check_solution

# The tiny puzzle of the golden files: a 2x2 block and a block of two, its unique solution.
GIVENS = ((1, 0, 2), (0, 4, 0))
BLOCKS = ((3, 3, 8), (3, 3, 8))
SOLVED = ((1, 3, 2), (2, 4, 1))


def test_accepts_the_solution():
    assert check_solution(GIVENS, BLOCKS, SOLVED) == []


def test_accepts_any_integer_labels():
    assert check_solution(GIVENS, ((-1, -1, 0), (-1, -1, 0)), SOLVED) == []


@pytest.mark.parametrize("grid, problems", [
    (((1, 3, 2),), ["the solution is 1x3, the puzzle is 2x3"]),
    (((1, 3, 2), (2, 4)), ["the solution is not rectangular, the puzzle is 2x3"]),
    (((1, 3, 2), (2, 0, 1)), ["row 2, column 2 is empty or not a positive integer (0)"]),
    (((1, 3, 2), (2, -4, 1)), ["row 2, column 2 is empty or not a positive integer (-4)"]),
    (((1, 3, 2), (2, True, 1)), ["row 2, column 2 is empty or not a positive integer (True)"]),
    (((1, 3, 2), (2, 4, "1")), ["row 2, column 3 is empty or not a positive integer ('1')"]),
])
def test_shape_and_cell_problems(grid, problems):
    assert check_solution(GIVENS, BLOCKS, grid) == problems


def test_a_given_changed():
    assert check_solution(((3, 0, 2), (0, 4, 0)), BLOCKS, SOLVED) == ["row 1, column 1 holds 1, but the given is 3"]


def test_a_number_above_the_block_size():
    assert check_solution(GIVENS, BLOCKS, ((1, 3, 2), (2, 4, 5))) == [
        "row 2, column 3 holds 5, more than the size of the block of 2 cells at row 1, column 3",
        "the block of 2 cells at row 1, column 3 lacks 1",
    ]


def test_a_number_twice_in_a_block():
    problems = check_solution(((0, 0, 0), (0, 0, 0)), BLOCKS, ((1, 3, 2), (3, 4, 1)))
    assert problems[:2] == [
        "the block of 4 cells at row 1, column 1 holds 3 twice (row 1, column 2 and row 2, column 1)",
        "the block of 4 cells at row 1, column 1 lacks 2",
    ]


def test_touching_equal_numbers_side_by_side_and_diagonally():
    # Two blocks of one cell side by side, both 1.
    assert check_solution(((0, 0),), ((1, 2),), ((1, 1),)) == [
        "row 1, column 1 and row 1, column 2 touch and both hold 1"]
    # Two vertical dominoes: 1 2 / 2 1 keeps each block right but the diagonals touch.
    assert check_solution(((0, 0), (0, 0)), ((1, 2), (1, 2)), ((1, 2), (2, 1))) == [
        "row 1, column 1 and row 2, column 2 touch and both hold 1",
        "row 1, column 2 and row 2, column 1 touch and both hold 2",
    ]


def test_a_block_that_is_not_connected():
    assert check_solution(((0, 0, 0),), ((7, 8, 7),), ((1, 1, 2),)) == [
        "the block labelled 7 is not connected (row 1, column 1 and row 1, column 3)",
        "row 1, column 1 and row 1, column 2 touch and both hold 1",
    ]


def test_givens_and_blocks_of_different_shapes():
    assert check_solution(GIVENS, ((3, 3), (3, 3)), SOLVED) == [
        "the puzzle's givens and block labels are not two grids of one shape"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 7), st.integers(1, 7), st.data())
def test_generated_solutions_pass_and_any_single_change_fails(seed, height, width, data):
    blocks, grid = random_solution(height, width, random.Random(seed))
    assert check_solution([[0] * width] * height, blocks, grid) == []
    r, c = data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1))
    new = data.draw(st.integers(1, 9).filter(lambda v: v != grid[r][c]))
    broken = [list(row) for row in grid]
    broken[r][c] = new
    assert check_solution([[0] * width] * height, blocks, broken) != []


def test_the_referee_imports_nothing_from_fillsmt():
    tree = ast.parse(Path(verify_module.__file__).read_text())
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m and m.startswith("fillsmt")]
