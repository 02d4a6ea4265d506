"""Cutting a board into blocks: the plan (pure), and the split method against plain bounds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import solver_or_skip
from fillsmt.errors import InputError
from fillsmt.tiling import split
from fillsmt.tiling.plain_format import parse_problem
from fillsmt.tiling.optimize import optimize
from fillsmt.tiling.verify import check_tiling


@pytest.mark.parametrize("n, parts", [(5, [5]), (19, [19]), (20, [10, 10]), (21, [11, 10]), (41, [11, 10, 10, 10]),
                                      (61, [11, 10, 10, 10, 10, 10]), (39, [13, 13, 13])])
def test_sides_cut_near_the_target(n, parts):
    assert split.sides(n) == parts and sum(parts) == n


def test_blocks_cover_the_board_once_with_their_blocked_cells():
    problem = parse_problem("board 23 41\nblocked 0 0, 12 39, 22 40\npiece I\n####\n", "p")
    blocks = split.blocks(problem)
    cells = [(b.top + r, b.left + c) for b in blocks for r in range(b.problem.height) for c in range(b.problem.width)]
    assert len(cells) == len(set(cells)) == 23 * 41
    blocked = {(b.top + r, b.left + c) for b in blocks for r, c in b.problem.blocked}
    assert blocked == set(problem.blocked)
    assert len({split.key(b.problem) for b in blocks}) > 2  # the blocked cells make blocks differ


def test_copy_limits_or_a_small_board_are_not_split():
    limited = parse_problem("board 30 30\npiece I max 3\n####\n", "p")
    assert not split.can_split(limited)
    assert not split.can_split(parse_problem("board 19 19\npiece I\n####\n", "p"))
    assert split.can_split(parse_problem("board 19 20\npiece I\n####\n", "p"))
    with pytest.raises(InputError, match="needs pieces without copy limits"):
        optimize(limited, "yices", method="split")


@pytest.mark.parametrize("solver", ["yices", "z3"])
def test_split_finds_the_same_optimum_as_the_plain_bound_search(solver):
    solver_or_skip(solver)
    # 20x3 with vertical-only I-trominoes and blocked cells: the blocks cannot all be full,
    # and the bound search has to finish the job from the blocks' tiling.
    problem = parse_problem("board 3 20\nblocked 0 3, 1 9, 2 10, 1 15\npiece I\n#\n#\n#\n", "p")
    plain = optimize(problem, solver, 60, method="bounds")
    both = optimize(problem, solver, 60, method="split")
    assert plain.optimal and both.optimal and both.covered == plain.covered == 3 * 16
    assert both.method == "split+bounds" and any("block" in step[1] for step in both.log)
    placed = [(problem.pieces[p.piece].name, p.cells) for p in both.placements]
    assert check_tiling(problem.height, problem.width, problem.blocked, {"I": problem.pieces[0].cells}, {"I": None},
                        False, False, placed, both.covered) == []


def test_a_block_tiling_that_reaches_the_bound_ends_the_search():
    solver_or_skip("yices")
    problem = replace(parse_problem("board 20 20\npiece O\n##\n##\n", "p"))
    found = optimize(problem, "yices", 60)
    assert (found.covered, found.optimal, found.method) == (400, True, "split+bounds")
    assert all("block" in step[1] for step in found.log)  # no bound check on the whole board
