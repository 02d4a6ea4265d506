"""The deduction rules (fillsmt.fillomino.deduce): sound, exact on small cases, and useful.

Soundness is the property that matters: every value some solution writes in a cell stays in
that cell's domain, for every rule alone and all together, also when regions carry few or no
clues. It is checked on random solved grids with cells blanked (hypothesis), on the published
solutions of the thesis' Janko set, and on the Puzzle Baron set (no contradiction; a grid the
rules solve alone passes the independent checker).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import INSTANCES, SHARED
from gridgen import random_solution
from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import ALL_RULES, deduce
from fillsmt.fillomino.deduce.board import Board as _Board
from fillsmt.fillomino.deduce.searches import threshold_caps as _threshold_caps
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import parse_grid, parse_puzzle, read_puzzle
from fillsmt.fillomino.verify import check_solution


def derived_puzzle(seed: int, height: int, width: int, keep: float, max_size: int) -> tuple[Puzzle, tuple]:
    """A random valid solution and the puzzle made by blanking cells of it at random."""
    rng = random.Random(seed)
    solution = random_solution(rng, height, width, max_size=max_size)
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    return Puzzle(height, width, cells, f"random-{seed}"), solution


def domains_of(deduction) -> list[list[list[int]]]:
    """The domains as rows of sorted lists, for readable exact comparisons."""
    w = deduction.width
    return [[sorted(deduction.domains[r * w + c]) for c in range(w)] for r in range(deduction.height)]


def assert_keeps(deduction, solution) -> None:
    assert deduction.contradiction is None, deduction.contradiction
    w = deduction.width
    lost = [(r + 1, c + 1, v) for r, row in enumerate(solution) for c, v in enumerate(row)
            if v not in deduction.domains[r * w + c]]
    assert not lost, f"values of the solution removed (row, column, value): {lost}"


# --- soundness on random puzzles ----------------------------------------------------------------

KEEP = st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.8, 1.0])


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), height=st.integers(1, 7), width=st.integers(1, 7), keep=KEEP)
def test_all_rules_keep_the_solution(seed, height, width, keep):
    puzzle, solution = derived_puzzle(seed, height, width, keep, max_size=6)
    deduction = deduce(puzzle)
    assert_keeps(deduction, solution)
    if deduction.solved:
        assert check_solution(puzzle.cells, deduction.grid()) == []
    if keep == 1.0:  # every cell given: nothing to deduce, nothing to contradict
        assert deduction.solved and deduction.grid() == solution


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), height=st.integers(2, 9), width=st.integers(2, 9),
       keep=KEEP, max_size=st.integers(7, 12))
def test_all_rules_keep_the_solution_with_big_regions(seed, height, width, keep, max_size):
    puzzle, solution = derived_puzzle(seed, height, width, keep, max_size=max_size)
    assert_keeps(deduce(puzzle), solution)


@pytest.mark.parametrize("rule", ALL_RULES)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), height=st.integers(1, 7), width=st.integers(1, 7),
       keep=KEEP, max_size=st.sampled_from([4, 6, 10]))
def test_each_rule_alone_keeps_the_solution(rule, seed, height, width, keep, max_size):
    puzzle, solution = derived_puzzle(seed, height, width, keep, max_size=max_size)
    deduction = deduce(puzzle, (rule,))
    assert_keeps(deduction, solution)
    assert set(deduction.fixed_by_rule) == {rule}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.sampled_from([0.0, 0.05, 0.2]))
def test_unclued_regions_on_a_larger_grid(seed, keep):
    """Few clues, large regions: most regions are unclued (the challenging variant)."""
    puzzle, solution = derived_puzzle(seed, 12, 12, keep, max_size=20)
    assert_keeps(deduce(puzzle), solution)


def test_rules_only_shrink_what_they_are_given():
    """More rules never keep more: every rule's domains contain all rules' domains."""
    puzzle, _ = derived_puzzle(7, 8, 8, 0.4, max_size=6)
    everything = deduce(puzzle)
    for rule in ALL_RULES:
        alone = deduce(puzzle, (rule,))
        assert all(a >= b for a, b in zip(alone.domains, everything.domains)), rule


# --- the size-cap sweep against a direct computation --------------------------------------------

def _caps_directly(height: int, width: int, top: list[int]) -> dict[int, int]:
    board = _Board.of(height, width)
    caps = {}
    for x, t in enumerate(top):
        for level in range(t, 0, -1):
            seen, stack = {x}, [x]
            while stack:
                y = stack.pop()
                for z in board.neighbours[y]:
                    if z not in seen and top[z] >= level:
                        seen.add(z)
                        stack.append(z)
            if len(seen) >= level:
                caps[x] = level
                break
    return caps


@settings(max_examples=200, deadline=None)
@given(height=st.integers(1, 6), width=st.integers(1, 6), data=st.data())
def test_threshold_caps_match_a_direct_computation(height, width, data):
    top = data.draw(st.lists(st.integers(-1, 12), min_size=height * width, max_size=height * width))
    assert _threshold_caps(_Board.of(height, width), top) == _caps_directly(height, width, top)


# --- one small example per rule, with exact domains ---------------------------------------------

def test_complete_group_closes_its_neighbours():
    d = deduce(parse_puzzle("1 3\n2 2 0"), ("complete-group",))
    assert domains_of(d) == [[[2], [2], [1]]]
    assert d.fixed_by_rule == {"complete-group": 1}
    assert d.removed_by_rule == {"complete-group": 1}


def test_join_overflow_keeps_two_groups_apart():
    d = deduce(parse_puzzle("3 3\n2 0 2\n0 0 0\n0 0 0"), ("join-overflow",))
    assert domains_of(d)[0] == [[2], [1, 3, 4, 5, 6, 7], [2]]
    assert d.removed_by_rule == {"join-overflow": 1}


def test_single_exit_grows_the_group():
    d = deduce(parse_puzzle("1 3\n2 0 0"), ("single-exit",))
    assert domains_of(d) == [[[2], [2], [1, 2]]]
    assert d.fixed_by_rule == {"single-exit": 1}


def test_forced_cell_fixes_every_cell_the_group_needs():
    """Both cells are forced, the second although it does not touch the 3."""
    d = deduce(parse_puzzle("1 4\n3 0 0 0"), ("forced-cell",))
    assert domains_of(d) == [[[3], [3], [3], [1, 2, 3]]]
    assert d.fixed_by_rule == {"forced-cell": 2}


def test_area_removes_values_no_region_can_hold():
    """The 1 blocks the 3; the two cells right of it are too few for an unclued region of 3s,
    and no cell next to the 1 can hold a 1."""
    d = deduce(parse_puzzle("1 6\n3 0 0 1 0 0"), ("area",))
    assert domains_of(d) == [[[3], [1, 2, 3], [2, 3], [1], [2], [1, 2]]]
    full = deduce(parse_puzzle("1 6\n3 0 0 1 0 0"))
    assert full.grid() == ((3, 3, 3, 1, 2, 2),)


def test_neighbour_support():
    d = deduce(parse_puzzle("2 2\n0 3\n3 3"), ("neighbour-support",))
    assert domains_of(d) == [[[1, 3], [3]], [[3], [3]]]


def test_size_cap_bounds_a_walled_in_pair():
    """Values no cell is fixed to (2, 3, 4 here) are capped by the size of the area."""
    d = deduce(parse_puzzle("2 4\n0 0 1 5\n5 5 5 5"), ("size-cap",))
    assert domains_of(d) == [[[1, 2, 5], [1, 2, 5], [1], [5]], [[5], [5], [5], [5]]]


POCKET = "4 4\n4 4 4 4\n3 0 0 3\n3 4 4 3\n3 4 4 3"


def test_neighbour_fit_settles_a_pocket_of_two():
    """Two cells walled in by complete regions: {1, 2} each, but neither can be the 1."""
    without = deduce(parse_puzzle(POCKET), [r for r in ALL_RULES if r != "neighbour-fit"])
    assert domains_of(without)[1] == [[3], [1, 2], [1, 2], [3]]
    d = deduce(parse_puzzle(POCKET))
    assert d.solved
    assert d.grid()[1] == (3, 2, 2, 3)
    assert d.fixed_by_rule["neighbour-fit"] == 2


def test_g12_example():
    """The G12 5x5 example: the rules fix 21 cells, all as in the published solution; the
    four cells left form the 4-region at the right, each 3 or 4."""
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    d = deduce(puzzle)
    published = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))
    assert_keeps(d, published)
    open_cells = {(r, c) for r in range(5) for c in range(5) if len(d.domains[r * 5 + c]) > 1}
    assert open_cells == {(1, 4), (2, 3), (2, 4), (3, 4)}
    assert all(d.domains[r * 5 + c] == {3, 4} for r, c in open_cells)
    assert d.fixed_count == 21 and not d.solved and d.grid() is None
    filled = d.filled_puzzle(puzzle)
    assert filled.source == puzzle.source
    assert filled.cells[1] == (2, 4, 4, 1, 0)


# --- contradictions -----------------------------------------------------------------------------

def test_two_adjacent_ones_are_a_contradiction():
    d = deduce(parse_puzzle("1 2\n1 1"))
    assert d.contradiction == "the 1s at row 1, column 1 form a group of 2 cells, more than 1"
    assert not d.solved and d.grid() is None


def test_the_unsat_instance():
    d = deduce(read_puzzle(str(INSTANCES / "unsat-1x2.txt")))
    assert d.contradiction is not None


def test_contradiction_found_even_without_rules():
    assert deduce(parse_puzzle("1 2\n1 1"), ()).contradiction is not None


def test_a_group_that_cannot_grow():
    d = deduce(parse_puzzle("1 3\n2 0 2"))
    assert d.contradiction == ("the group of 2s at row 1, column 1 has 1 of 2 cells and no "
                               "neighbour can join it")


def test_a_group_that_cannot_reach_its_size():
    d = deduce(parse_puzzle("1 4\n3 0 1 0"), ("forced-cell",))
    assert d.contradiction == "the group of 3s at row 1, column 1 can reach only 2 cells, fewer than 3"


def test_an_emptied_cell_names_the_cell_and_the_rule():
    d = deduce(parse_puzzle("2 3\n1 0 1\n3 3 3"))
    assert d.contradiction is not None
    assert d.contradiction.startswith("row 1, column 2 has no possible value left")


# --- the API ------------------------------------------------------------------------------------

def test_unknown_rule_is_refused():
    with pytest.raises(InputError, match="unknown deduction rule 'guess'"):
        deduce(parse_puzzle("1 1\n0"), ("guess",))


def test_a_single_empty_cell_is_a_one():
    d = deduce(parse_puzzle("1 1\n0"))
    assert d.solved and d.grid() == ((1,),) and d.fixed_count == 1


def test_statistics_name_every_rule_asked_for():
    d = deduce(parse_puzzle(POCKET))
    assert set(d.fixed_by_rule) == set(ALL_RULES) == set(d.removed_by_rule)
    assert sum(d.fixed_by_rule.values()) == 2  # the two pocket cells; clues are not counted
    assert d.rounds >= 1


def test_an_empty_grid_keeps_every_size():
    d = deduce(Puzzle(2, 2, ((0, 0), (0, 0))))
    assert d.contradiction is None
    assert all(dom == {1, 2, 3, 4} for dom in d.domains)


# --- the published sets (skipped when ../shared is absent) --------------------------------------

def _files(*parts: str) -> list:
    folder = SHARED.joinpath(*parts)
    return sorted(folder.glob("*.txt")) if folder.exists() else []


JANKO = _files("janko-thesis100", "puzzles")
BARON = _files("baron-thesis60", "puzzles")


@pytest.mark.skipif(not JANKO, reason=f"{SHARED} is absent (shared puzzle sets)")
@pytest.mark.parametrize("path", JANKO, ids=lambda p: p.name)
def test_janko_published_solution_survives(path):
    deduction = deduce(read_puzzle(str(path)))
    solution = parse_grid((path.parent.parent / "solutions" / path.name).read_text())[2]
    assert_keeps(deduction, solution)
    if deduction.solved:
        assert deduction.grid() == solution


@pytest.mark.skipif(not BARON, reason=f"{SHARED} is absent (shared puzzle sets)")
@pytest.mark.parametrize("path", BARON, ids=lambda p: p.name)
def test_baron_no_contradiction_and_solved_grids_check(path):
    puzzle = read_puzzle(str(path))
    deduction = deduce(puzzle)
    assert deduction.contradiction is None
    if deduction.solved:
        assert check_solution(puzzle.cells, deduction.grid()) == []
    filled = deduction.filled_puzzle(puzzle)
    assert all(f == c for fr, cr in zip(filled.cells, puzzle.cells) for f, c in zip(fr, cr) if c)


@pytest.mark.skipif(not (SHARED / "janko-thesis100" / "puzzles" / "291.txt").exists(),
                    reason=f"{SHARED} is absent (shared puzzle sets)")
def test_janko_291_complete_groups_and_one_big_unclued_area():
    """Complete 8- and 14-groups, a 76-region with only a few clues, and a 2-region with none."""
    path = SHARED / "janko-thesis100" / "puzzles" / "291.txt"
    d = deduce(read_puzzle(str(path)))
    assert d.solved
    assert d.grid() == parse_grid((path.parent.parent / "solutions" / "291.txt").read_text())[2]
    assert d.removed_by_rule["complete-group"] > 0
