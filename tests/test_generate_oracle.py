"""The generator's uniqueness oracles (fillsmt.fillomino.oracle, fillsmt.blocknumber.oracle) and
the generator options they go with: exact answers, whichever layer or solver gives them."""

from __future__ import annotations

import random

import pytest

from conftest import solver_or_skip
from fillsmt.blocknumber.generate import generate as generate_blocks
from fillsmt.blocknumber.model import Puzzle as BlockPuzzle
from fillsmt.blocknumber.oracle import SessionOracle
from fillsmt.errors import InputError, OracleUndecided
from fillsmt.fillomino.search import solve_by_search
from fillsmt.fillomino.generate import generate, random_solution, search_oracle
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.oracle import SearchCheck, search_based_oracle, smt_oracle, uniqueness_proof
from fillsmt.engine.pipeline import solve



def blank_some(solution, rng, keep: float) -> Puzzle:
    cells = tuple(tuple(v if rng.random() < keep else 0 for v in row) for row in solution)
    return Puzzle(len(solution), len(solution[0]), cells)


def test_layered_oracles_answer_like_the_exact_search(yices):
    """Random puzzles, asked in the order a generator would (fewer and fewer clues, so the
    known-superset shortcut is used): every answer equals the plain exact search's."""
    rng = random.Random(5)
    answers = {True: 0, False: 0}
    for _ in range(6):
        solution = random_solution(5, 6, rng, max_region=7)
        by_smt, by_search = smt_oracle(yices), search_based_oracle()
        cells = [list(row) for row in solution]
        order = [(r, c) for r in range(5) for c in range(6)]
        rng.shuffle(order)
        for r, c in order:
            kept, cells[r][c] = cells[r][c], 0
            puzzle = Puzzle(5, 6, tuple(map(tuple, cells)))
            truth = search_oracle(puzzle, solution)
            assert by_smt(puzzle, solution) is truth
            assert by_search(puzzle, solution) is truth
            answers[truth] += 1
            if not truth:
                cells[r][c] = kept
        final = Puzzle(5, 6, tuple(map(tuple, cells)))
        assert uniqueness_proof(by_smt, final, solution) in ("rules", "oracle")
    assert answers[True] > 10 and answers[False] > 10
    assert by_smt.stats.calls == by_smt.stats.by_probe + by_smt.stats.by_local + \
        by_smt.stats.exact_unique + by_smt.stats.exact_multiple


def test_out_of_order_questions_use_the_full_blocking_clause(yices):
    """Puzzles that are not subsets of a proved one: still exact."""
    rng = random.Random(8)
    solution = random_solution(5, 5, rng, max_region=6)
    oracle = smt_oracle(yices)
    for _ in range(15):
        puzzle = blank_some(solution, rng, 0.4)
        assert oracle(puzzle, solution) is (solve_by_search(puzzle, limit=2).unique is True)


def test_a_wrong_solution_is_never_unique(yices):
    oracle = smt_oracle(yices)
    solution = ((1, 3, 3), (2, 2, 3))
    assert not oracle(Puzzle(2, 3, ((2, 0, 3), (2, 2, 3))), solution)
    assert oracle(Puzzle(2, 3, ((1, 0, 3), (2, 2, 3))), solution)


def test_every_layer_and_solver_gives_the_same_puzzle(yices):
    z3 = solver_or_skip("z3")
    made = [generate(7, 7, seed=s, unique_oracle=o).puzzle
            for s in (3, 4) for o in (smt_oracle(yices), smt_oracle(z3), search_based_oracle(), search_oracle)]
    assert made[0] == made[1] == made[2] == made[3] and made[4] == made[5] == made[6] == made[7]


def test_max_empty_area_is_respected_and_unique(yices):
    made = generate(10, 10, seed=2, unique_oracle=smt_oracle(yices), max_empty_area=6)
    flat = [v for row in made.puzzle.cells for v in row]
    seen = set()
    for start in range(100):
        if flat[start] or start in seen:
            continue
        area, stack = 1, [start]
        seen.add(start)
        while stack:
            r, c = divmod(stack.pop(), 10)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                y = rr * 10 + cc
                if 0 <= rr < 10 and 0 <= cc < 10 and not flat[y] and y not in seen:
                    seen.add(y)
                    area += 1
                    stack.append(y)
        assert area <= 6
    assert made.kept_for_area > 0 and not made.minimal
    assert solve(made.puzzle, yices, unique=True).unique is True
    with pytest.raises(InputError, match="largest empty area"):
        generate(4, 4, seed=1, unique_oracle=search_oracle, max_empty_area=0)


def test_an_undecided_oracle_keeps_the_clue():
    def undecided(puzzle, solution):
        raise OracleUndecided("no idea")

    made = generate(6, 6, seed=3, unique_oracle=undecided, max_region=6)
    assert made.undecided == made.oracle_calls > 0 and not made.minimal
    assert solve_by_search(made.puzzle, limit=2).unique is True


def test_the_search_check_stops_at_its_deadline():
    rng = random.Random(1)
    solution = random_solution(8, 8, rng)
    sparse = Puzzle(8, 8, tuple(tuple(0 for _ in row) for row in solution))
    with pytest.raises(OracleUndecided, match="ran out of time"):
        SearchCheck()(sparse, solution, frozenset(), [], deadline=0.0)


# --- BlockNumber ----------------------------------------------------------------------------------

def test_blocknumber_session_oracle_is_exact_and_reuses_one_session(yices):
    z3 = solver_or_skip("z3")
    with SessionOracle(yices) as oracle:
        made = generate_blocks(6, 6, seed=11, unique_oracle=oracle)
        assert oracle.stats.sessions == 1 and oracle.stats.calls == 36
        assert oracle.proved_unique(made.puzzle, made.solution)
    assert made.minimal and made.clues + made.givens_removed == 36
    assert solve(made.puzzle, z3, unique=True).unique is True
    # minimal: each given removed lets z3 find a second solution
    for r, c, _ in list(made.puzzle.given_cells())[:4]:
        givens = [list(row) for row in made.puzzle.givens]
        givens[r][c] = 0
        fewer = BlockPuzzle(6, 6, givens, made.puzzle.blocks)
        assert solve(fewer, z3, unique=True).unique is False


def test_blocknumber_out_of_order_questions(yices):
    rng = random.Random(4)
    with SessionOracle(yices) as maker:  # closed here: no solver session outlives the test
        made = generate_blocks(5, 5, seed=4, unique_oracle=maker)
    with SessionOracle(yices) as oracle:
        for _ in range(10):
            givens = tuple(tuple(v if rng.random() < 0.5 else 0 for v in row) for row in made.solution)
            puzzle = BlockPuzzle(5, 5, givens, made.puzzle.blocks)
            expected = solve(puzzle, yices, unique=True).unique
            assert oracle(puzzle, made.solution) is expected


def test_blocknumber_generator_is_deterministic_and_checks_its_request(yices):
    with SessionOracle(yices) as oracle:
        a = generate_blocks(6, 5, seed="w", unique_oracle=oracle)
        b = generate_blocks(6, 5, seed="w", unique_oracle=oracle)
    assert a == b
    with pytest.raises(InputError, match="needs blocks of up to 4 cells"):
        generate_blocks(4, 4, seed=1, unique_oracle=lambda p, g: True, max_block=3)
