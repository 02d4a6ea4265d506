"""Fillomino's "another solution" clause (fillsmt.fillomino.blocking): it blocks the solution it
was made from and no other, checked on every pair of grids of small shapes (brute force), and
through real solver sessions, where counting every solution of random tiny puzzles must give
exactly the brute-force solutions under every formulation and several encodings."""

from __future__ import annotations

import random
import re

import pytest

from conftest import solver_or_skip
from test_backtrack import ALL_GRIDS, count_matching
from test_race import _random_puzzle
from fillsmt.fillomino import blocking
from fillsmt.fillomino.blocking import boundary_clause, tree_clause
from fillsmt.fillomino.encodings import CANONICAL_TREES
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.model import Puzzle
from fillsmt.engine.pipeline import count, solve

LITERAL = re.compile(r"(\(not )?\(= n_(\d+)_(\d+) n_(\d+)_(\d+)\)")


def holds(clause: str, grid) -> bool:
    """The clause's truth in ``grid`` (the clause is a disjunction of (not) (= n_R_C n_R2_C2))."""
    if clause == "false":
        return False
    literals = LITERAL.findall(clause)
    assert literals, clause
    return any((grid[int(r)][int(c)] == grid[int(r2)][int(c2)]) != bool(negated)
               for negated, r, c, r2, c2 in literals)


@pytest.mark.parametrize("shape", [(1, 1), (1, 4), (2, 3), (2, 4), (3, 3)])
def test_the_clause_blocks_its_grid_and_no_other(shape):
    grids = ALL_GRIDS[shape]
    for a in grids:
        clause = boundary_clause(a)
        assert not holds(clause, a)
        assert all(holds(clause, b) for b in grids if b != a)


def test_pinned_pairs_are_left_out_and_the_clause_still_separates():
    rng = random.Random(5)
    grids = ALL_GRIDS[3, 3]
    for _ in range(60):
        a = rng.choice(grids)
        pinned = {x for x in range(9) if rng.random() < 0.5}
        clause = boundary_clause(a, pinned)
        for x, y in ((int(r) * 3 + int(c), int(r2) * 3 + int(c2)) for _, r, c, r2, c2 in LITERAL.findall(clause)):
            assert not (x in pinned and y in pinned)
        # the other grids a script with these pins allows: those that agree with a there
        others = [b for b in grids if b != a and all(b[x // 3][x % 3] == a[x // 3][x % 3] for x in pinned)]
        assert not holds(clause, a)
        assert all(holds(clause, b) for b in others)


def test_a_grid_whose_every_cell_is_pinned_has_no_other():
    assert boundary_clause(((2, 2), (1, 3)), pinned=range(4)) == "false"
    assert boundary_clause(((1,),)) == "false"


@pytest.mark.parametrize("formulation", blocking.BLOCKINGS)
@pytest.mark.parametrize("solver", ["yices", "z3"])
@pytest.mark.parametrize("presolve", [False, True])
def test_counting_every_solution_agrees_with_brute_force(formulation, solver, presolve, monkeypatch):
    driver = solver_or_skip(solver)
    monkeypatch.setattr(blocking, "BLOCKING", formulation)
    for seed in range(12):
        puzzle, expected = _random_puzzle(random.Random(300 + seed), seed)
        if len(expected) > 30:  # a few clues on a 3x3: hundreds of solutions, a slow count
            continue
        found = count(puzzle, driver, limit=len(expected) + 1, presolve=presolve)
        assert found.complete, puzzle
        assert sorted(found.grids) == sorted(expected), puzzle


def test_the_tree_clause_flips_each_value():
    assert tree_clause({"p_1_0": "true", "t_0": "false"}) == "(or (not p_1_0) t_0)"
    assert tree_clause({"t_0": "true"}) == "(not t_0)"
    assert tree_clause({}) == "false"
    with pytest.raises(ValueError):
        tree_clause({"t_0": "1"})


def test_the_trees_are_blocked_only_where_each_grid_has_one_tree(monkeypatch):
    monkeypatch.setattr(blocking, "BLOCKING", "trees")
    puzzle, _ = _random_puzzle(random.Random(3), 3)
    for encoding in ("tree-bfs", "tree", "thesis", "lazy-local-general", "onehot-prop"):
        problem = KIND.problem(puzzle, KIND.encode(puzzle, encoding), encoding, "yices")
        assert (problem.block is not None) is (encoding in CANONICAL_TREES), encoding
    assert {"tree-bfs"} <= CANONICAL_TREES
    assert not {"tree", "thesis", "onehot-prop"} & CANONICAL_TREES


@pytest.mark.parametrize("formulation", ["boundaries", "trees"])
@pytest.mark.parametrize("encoding", ["thesis", "tree", "tree-bfs", "lazy-local-general"])
def test_every_encoding_counts_the_same_with_either_clause(formulation, encoding, monkeypatch):
    driver = solver_or_skip("yices")
    monkeypatch.setattr(blocking, "BLOCKING", formulation)
    for seed in range(6):
        puzzle, expected = _random_puzzle(random.Random(700 + seed), seed)
        if len(expected) > 30:
            continue
        found = count(puzzle, driver, limit=len(expected) + 1, encoding=encoding, presolve=False)
        assert found.complete and sorted(found.grids) == sorted(expected), (encoding, puzzle)


@pytest.mark.parametrize("formulation", blocking.BLOCKINGS)
def test_unique_agrees_with_brute_force_in_a_session(formulation, monkeypatch):
    """``--unique`` in a yices session (no race, no quick search), pins from the presolve."""
    driver = solver_or_skip("yices")
    monkeypatch.setattr(blocking, "BLOCKING", formulation)
    rng = random.Random(11)
    grids = ALL_GRIDS[2, 4]
    for _ in range(15):
        solution = rng.choice(grids)
        clues = tuple(tuple(v if rng.random() < 0.5 else 0 for v in row) for row in solution)
        expected = count_matching(grids, clues)
        result = solve(Puzzle(2, 4, clues, "random"), driver, unique=True, presolve="on")
        assert result.grid in expected
        if result.settled_by_presolve:
            assert len(expected) == 1
            continue
        assert result.unique is (len(expected) == 1)
        if len(expected) > 1:
            assert result.second_grid in expected and result.second_grid != result.grid
