"""Puzzle generation (fillsmt.fillomino.generate): valid solutions, unique and minimal puzzles,
the options respected, and the same seed always giving the same puzzle."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from test_backtrack import ALL_GRIDS, count_matching
from fillsmt.errors import InputError
from fillsmt.fillomino.search import solve_by_search
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.generate import RATING_NODES, Style, generate, random_solution, search_oracle
from fillsmt.fillomino.published import TAIL_TOP
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.rating import rate
from fillsmt.fillomino.verify import check_solution

BLANK = [[0] * 30] * 30


def regions(grid) -> list[tuple[int, set[tuple[int, int]]]]:
    """The regions of a filled grid as (value, cells)."""
    h, w = len(grid), len(grid[0])
    seen: set[tuple[int, int]] = set()
    out = []
    for r0 in range(h):
        for c0 in range(w):
            if (r0, c0) in seen:
                continue
            cells, stack = {(r0, c0)}, [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and (rr, cc) not in cells \
                            and grid[rr][cc] == grid[r0][c0]:
                        cells.add((rr, cc))
                        stack.append((rr, cc))
            seen |= cells
            out.append((grid[r0][c0], cells))
    return out


def without(puzzle: Puzzle, r: int, c: int) -> Puzzle:
    cells = tuple(tuple(0 if (i, j) == (r, c) else v for j, v in enumerate(row))
                  for i, row in enumerate(puzzle.cells))
    return Puzzle(puzzle.height, puzzle.width, cells)


def assert_unique(made) -> None:
    found = solve_by_search(made.puzzle, limit=2)
    assert found.unique is True and found.solutions == [made.solution]


def assert_minimal(made, allow_unclued: bool = True) -> None:
    clues_in = Counter()
    reg = {}
    for i, (_, cells) in enumerate(regions(made.solution)):
        for cell in cells:
            reg[cell] = i
    for r, c, _ in made.puzzle.clues():
        clues_in[reg[r, c]] += 1
    for r, c, _ in made.puzzle.clues():
        if not allow_unclued and clues_in[reg[r, c]] == 1:
            continue
        assert solve_by_search(without(made.puzzle, r, c), limit=2).unique is False, (r, c)


# --- random solutions ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (5, 5), (7, 3), (12, 12)])
def test_random_solutions_are_valid(shape):
    for seed in range(10):
        grid = random_solution(*shape, random.Random(seed))
        assert len(grid) == shape[0] and all(len(row) == shape[1] for row in grid)
        assert check_solution([[0] * shape[1]] * shape[0], grid) == []


def test_random_solutions_vary_and_respect_max_region():
    sizes = Counter()
    for seed in range(5):
        grid = random_solution(12, 12, random.Random(seed))
        sizes.update(v for v, _ in regions(grid))
    assert len(sizes) >= 8 and max(sizes) <= TAIL_TOP  # default weights: sizes 1..20, as published
    for seed in range(5):
        grid = random_solution(10, 10, random.Random(seed), max_region=4)
        assert max(v for row in grid for v in row) <= 4
        big = random_solution(10, 10, random.Random(seed), max_region=20)
        assert check_solution([[0] * 10] * 10, big) == []
    assert any(v > 10 for seed in range(5)
               for row in random_solution(10, 10, random.Random(seed), max_region=20) for v in row)


def test_size_weights_are_used():
    grid = random_solution(10, 10, random.Random(3), size_weights={1: 1.0, 4: 1.0})
    assert set(v for row in grid for v in row) <= {1, 2, 3, 4}  # a region may stop short
    many = random_solution(10, 10, random.Random(3), size_weights={6: 1.0})
    cells = Counter(v for row in many for v in row)
    assert max(cells) == 6 and cells.most_common(1)[0][0] == 6  # most cells in 6-regions


def test_random_solution_is_deterministic_and_fast_at_30x30():
    start = time.monotonic()
    a = random_solution(30, 30, random.Random(42))
    assert time.monotonic() - start < 2.0
    assert a == random_solution(30, 30, random.Random(42))
    assert a != random_solution(30, 30, random.Random(43))
    assert check_solution(BLANK, a) == []


def test_bad_solution_arguments():
    with pytest.raises(InputError):
        random_solution(0, 3, random.Random(1))
    with pytest.raises(InputError):
        random_solution(3, 3, random.Random(1), max_region=0)
    with pytest.raises(InputError):
        random_solution(3, 3, random.Random(1), size_weights={3: 0.0})
    with pytest.raises(InputError, match="could not tile"):
        random_solution(10, 10, random.Random(1), size_weights={1: 1.0, 2: 1.0})


# --- generated puzzles --------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2, "words work too"])
def test_generated_puzzles_are_unique_and_minimal(seed):
    made = generate(5, 5, seed=seed, unique_oracle=search_oracle, max_region=6)
    assert (made.puzzle.height, made.puzzle.width) == (5, 5)
    assert check_solution(made.puzzle.cells, made.solution) == []
    assert made.clues + made.clues_removed == 25
    assert made.minimal and not made.timed_out and made.rating is None and made.seed == seed
    assert_unique(made)
    assert_minimal(made)


def test_a_rectangle_with_larger_regions():
    made = generate(4, 7, seed=9, unique_oracle=search_oracle, max_region=8)
    assert (made.puzzle.height, made.puzzle.width) == (4, 7)
    assert max(v for row in made.solution for v in row) <= 8
    assert_unique(made)
    assert_minimal(made)


def test_same_seed_same_puzzle():
    a = generate(6, 6, seed=123, unique_oracle=search_oracle, max_region=6)
    b = generate(6, 6, seed=123, unique_oracle=search_oracle, max_region=6)
    assert a == b
    c = generate(6, 6, seed=124, unique_oracle=search_oracle, max_region=6)
    assert c.puzzle.cells != a.puzzle.cells


def test_any_exact_oracle_gives_the_same_puzzle():
    """The brute force's answers are the same facts as the search's: same puzzle."""
    def brute(puzzle, solution):
        return count_matching(ALL_GRIDS[puzzle.height, puzzle.width], puzzle.cells) == [solution]

    for seed in range(6):
        by_search = generate(3, 3, seed=seed, unique_oracle=search_oracle)
        by_brute = generate(3, 3, seed=seed, unique_oracle=brute)
        assert by_search.puzzle.cells == by_brute.puzzle.cells
        assert brute(by_search.puzzle, by_search.solution)


def test_free_removals_spare_the_oracle():
    calls = []

    def counting(puzzle, solution):
        calls.append(deduce(puzzle).solved)
        return search_oracle(puzzle, solution)

    made = generate(6, 6, seed=5, unique_oracle=counting, max_region=6)
    assert made.free_removals > 0 and made.oracle_calls == len(calls)
    assert not any(calls)  # never asked about a puzzle the rules solve alone
    assert made.free_removals + made.oracle_calls <= 36


def test_an_oracle_that_always_refuses_leaves_an_easy_puzzle():
    made = generate(6, 6, seed=8, unique_oracle=lambda puzzle, solution: False, max_region=6)
    assert deduce(made.puzzle).solved and made.free_removals == made.clues_removed


def test_every_region_keeps_a_clue_when_asked():
    for seed in range(4):
        made = generate(6, 6, seed=seed, unique_oracle=search_oracle, max_region=6,
                        allow_unclued=False)
        for _, cells in regions(made.solution):
            assert any(made.puzzle.cells[r][c] for r, c in cells)
        assert_unique(made)
        assert_minimal(made, allow_unclued=False)


def test_unclued_regions_appear_when_allowed():
    unclued = 0
    for seed in range(4):
        made = generate(6, 6, seed=seed, unique_oracle=search_oracle, max_region=6)
        unclued += sum(1 for _, cells in regions(made.solution)
                       if not any(made.puzzle.cells[r][c] for r, c in cells))
    assert unclued > 0


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_difficulty_is_reached(difficulty):
    made = generate(6, 6, seed=1, unique_oracle=search_oracle, max_region=6, difficulty=difficulty)
    assert made.rating is not None and made.rating.label == difficulty
    assert rate(made.puzzle, max_nodes=RATING_NODES).label == difficulty
    assert_unique(made)
    again = generate(6, 6, seed=1, unique_oracle=search_oracle, max_region=6, difficulty=difficulty)
    assert again.puzzle == made.puzzle and again.attempt == made.attempt


def test_max_seconds_stops_early_but_stays_unique():
    made = generate(6, 6, seed=2, unique_oracle=search_oracle, max_seconds=0)
    assert made.timed_out and not made.minimal and made.clues_removed == 0
    assert made.clues == 36
    assert_unique(made)


def test_bad_generate_arguments():
    with pytest.raises(InputError, match="difficulty"):
        generate(4, 4, seed=1, unique_oracle=search_oracle, difficulty="impossible")
    with pytest.raises(InputError, match="max_attempts"):
        generate(4, 4, seed=1, unique_oracle=search_oracle, difficulty="easy", style=Style(attempts=0))


def test_search_oracle():
    solution = ((1, 3, 3), (2, 2, 3))
    assert search_oracle(Puzzle(2, 3, ((1, 0, 3), (2, 2, 3))), solution)
    assert not search_oracle(Puzzle(2, 3, ((0, 0, 3), (2, 0, 3))), solution)
    assert not search_oracle(Puzzle(2, 3, ((2, 0, 3), (2, 2, 3))), solution)  # not a solution


@pytest.mark.parametrize("side", [10, 15, 20])
def test_random_solutions_have_the_published_region_sizes(side):
    """Over 40 seeds, each bucket's share of cells is within 5 points of the published solutions'
    near the size (the weights are shares over sizes; regions cut short and holes move a little)."""
    from fillsmt.fillomino.published import bucket_shares, style_for

    cells = Counter()
    for seed in range(40):
        cells.update(v for row in random_solution(side, side, random.Random(seed)) for v in row)
    made = bucket_shares(tuple(cells[s] for s in range(1, max(cells) + 1)))
    published = bucket_shares(style_for(side, side).cells)
    assert all(abs(made[b] - published[b]) <= 0.05 for b in made), (made, published)


def test_big_regions_are_asked_for_and_capped():
    for seed in range(5):
        grid = random_solution(10, 10, random.Random(seed), regions="big")
        assert 10 < max(v for row in grid for v in row) <= 30
        capped = random_solution(12, 12, random.Random(seed), regions="big", max_region=14)
        assert 10 < max(v for row in capped for v in row) <= 14
    with pytest.raises(InputError, match="--regions big needs --max-region above 10, not 8"):
        random_solution(10, 10, random.Random(1), regions="big", max_region=8)
    with pytest.raises(InputError, match="unknown region style"):
        random_solution(10, 10, random.Random(1), regions="huge")
