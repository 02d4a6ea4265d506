"""The tree encodings: golden text, widths, domains, and completeness on random puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GOLDEN, solver_or_skip
from gridgen import random_solution
from fillsmt.fillomino.encode_tree import TreeOptions, default_domains, encode_tree
from fillsmt.fillomino.encodings import ENCODINGS
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.pipeline import solve
from fillsmt.smtlib.answer import Status

TREE_ENCODINGS = [e for e in ENCODINGS if e.startswith("tree")]


@pytest.mark.parametrize("name", TREE_ENCODINGS)
def test_golden_text(name):
    puzzle = read_puzzle(str(GOLDEN / "thesis-2x3.txt"))
    expected = (GOLDEN / f"{name}-2x3.smt2").read_text()
    assert ENCODINGS[name](puzzle, None).text() == expected


def test_default_domains_are_the_clue_or_the_area_bound():
    p = parse_puzzle("2 4\n3 0 0 1\n0 0 1 0")
    d = default_domains(p)
    assert d[0] == {3} and d[3] == {1}
    # the empty area {1, 2, 4, 5} has 4 cells > largest clue 3
    assert d[1] == d[4] == set(range(1, 5))
    assert d[7] == set(range(1, 4))  # cell 7 is alone in its area: bound is the largest clue


def test_bitvector_width_leaves_room_for_sums():
    p = parse_puzzle("1 2\n0 0")
    text = encode_tree(p, [frozenset(range(1, 31))] * 2, TreeOptions(bitvector=True)).text()
    assert "(_ BitVec 7)" in text  # 4 * 30 + 1 = 121 < 128


def test_domains_with_holes_exclude_them():
    p = parse_puzzle("1 2\n0 0")
    text = encode_tree(p, [frozenset({2, 5}), frozenset({2})]).text()
    assert "(assert (and (<= 2 n_0) (<= n_0 5) (not (= n_0 3)) (not (= n_0 4))))" in text
    assert "(assert (= n_1 2))" in text


def test_neighbours_with_disjoint_domains_get_no_parent_link():
    p = parse_puzzle("1 2\n1 2")
    text = encode_tree(p, [frozenset({1}), frozenset({2})]).text()
    assert "p_0_1" not in text and "p_1_0" not in text


@pytest.mark.parametrize("presolve", [False, True], ids=["plain", "presolved"])
@pytest.mark.parametrize("encoding", TREE_ENCODINGS)
@pytest.mark.parametrize("solver", ["yices", "z3"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), height=st.integers(1, 6), width=st.integers(1, 6),
       keep=st.sampled_from([0.0, 0.15, 0.4, 0.8]), max_size=st.sampled_from([4, 9, 16]))
def test_complete_and_sound_on_random_puzzles(presolve, encoding, solver, seed, height, width, keep, max_size):
    """Blanked valid solutions (unclued and large regions included) are always solved and checked."""
    driver = solver_or_skip(solver)
    rng = random.Random(seed)
    solution = random_solution(rng, height, width, max_size=max_size)
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    puzzle = Puzzle(height, width, cells)
    result = solve(puzzle, driver, encoding, timeout=60, presolve=presolve)
    assert result.status is Status.SAT, (cells, result.message)
    assert check_solution(cells, result.grid) == []
