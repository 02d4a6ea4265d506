"""repair and minimize (fillsmt.setter.repair) on Fillomino and BlockNumber, with a real solver; every
claim is checked independently by a fresh solve."""

from __future__ import annotations

import pytest

import fillsmt
import fillsmt.fillomino.plain_format  # the tests read small grids with it
import fillsmt.kinds
from conftest import ROOT, solver_or_skip
from fillsmt.errors import InputError
from fillsmt.setter.minimize import minimize
from fillsmt.setter.repair import clues_of, repair, unsat_core, with_clues

PUZZLES = {
    "fillomino": ROOT / "instances" / "fillomino" / "g12-5x5.txt",
    "blocknumber": ROOT / "instances" / "blocknumber" / "random-6x6.txt",
}


def unique(puzzle) -> bool | None:
    """A fresh, independent answer (z3, the other solver than the one under test)."""
    solver_or_skip("z3")
    return fillsmt.solve(puzzle, solver="z3", unique=True).unique


@pytest.fixture(scope="module")
def minimized():
    """Each kind's example, minimized once (yices)."""
    driver = solver_or_skip("yices")
    return {kind: minimize(fillsmt.load(str(path)), driver) for kind, path in PUZZLES.items()}


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_minimize_leaves_a_unique_puzzle_whose_every_clue_is_needed(kind, minimized):
    m = minimized[kind]
    assert unique(m.original) is True
    assert unique(m.puzzle) is True
    kept = clues_of(m.puzzle)
    assert len(kept) + len(m.removed) == len(clues_of(m.original))
    assert set(kept) <= set(clues_of(m.original))
    for clue in kept:
        assert unique(with_clues(m.puzzle, [k for k in kept if k != clue])) is False, clue


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_repair_after_removing_one_clue_adds_exactly_one(kind, minimized):
    driver = solver_or_skip("yices")
    m = minimized[kind]
    kept = clues_of(m.puzzle)
    for clue in kept[:3]:
        broken = with_clues(m.puzzle, [k for k in kept if k != clue])
        r = repair(broken, driver)
        assert r.status == "repaired" and len(r.added) == 1
        (row, col, value), = r.added
        assert r.solution[row][col] == value and broken_empty(broken, row, col)
        assert unique(r.repaired) is True
        assert set(clues_of(r.repaired)) == set(clues_of(broken)) | set(r.added)


def broken_empty(puzzle, row, col) -> bool:
    return all((r, c) != (row, col) for r, c, _ in clues_of(puzzle))


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_repair_of_a_unique_puzzle_adds_nothing(kind, minimized):
    driver = solver_or_skip("yices")
    r = repair(minimized[kind].puzzle, driver)
    assert r.status == "unique" and r.added == []


def test_fewest_clues_is_a_minimum():
    """An empty 2x3 Fillomino board has many solutions; no clue set one smaller than the
    repair's, from any of them, leaves exactly one (all solutions by brute force)."""
    from itertools import combinations

    from test_backtrack import brute_force

    driver = solver_or_skip("yices")
    bare = fillsmt.fillomino.plain_format.parse_puzzle("2 3\n0 0 0\n0 0 0")
    r = repair(bare, driver)
    assert r.status == "repaired" and unique(r.repaired) is True
    every = brute_force(2, 3)
    assert len(every) > 1 and r.solution in every
    for solution in every:
        cells = [(row, col, solution[row][col]) for row in range(2) for col in range(3)]
        for smaller in combinations(cells, len(r.added) - 1):
            agreeing = [g for g in every if all(g[a][b] == v for a, b, v in smaller)]
            assert len(agreeing) > 1


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_unsat_core_names_clues_that_conflict(kind):
    driver = solver_or_skip("yices")
    puzzle = fillsmt.load(str(PUZZLES[kind]))
    solution = fillsmt.solve(puzzle, solver="yices").grid
    clues = clues_of(puzzle)
    # one more clue: a wrong number next to a clue, where it cannot be
    r0, c0, v0 = clues[0]
    empty = next((r, c) for r in range(puzzle.height) for c in range(puzzle.width)
                 if all((r, c) != (a, b) for a, b, _ in clues))
    wrong = next(v for v in range(1, 5) if v != solution[empty[0]][empty[1]])
    broken = with_clues(puzzle, clues + [(empty[0], empty[1], wrong)])
    if unique(broken) is not None and fillsmt.solve(broken, solver="yices").grid is not None:
        pytest.skip("the changed clue still has a solution")
    r = repair(broken, driver)
    assert r.status == "no-solution" and r.core
    core = r.core
    assert set(core) <= set(clues_of(broken))
    assert fillsmt.solve(with_clues(broken, core), solver="z3").grid is None
    for clue in core:  # each one needed
        assert fillsmt.solve(with_clues(broken, [k for k in core if k != clue]), solver="z3").grid is not None


def test_minimize_refuses_a_puzzle_with_two_solutions():
    driver = solver_or_skip("yices")
    bare = fillsmt.fillomino.plain_format.parse_puzzle("2 2\n0 0\n0 0")
    with pytest.raises(InputError, match="more than one solution"):
        minimize(bare, driver)


def test_keep_rated_keeps_the_label():
    driver = solver_or_skip("yices")
    from fillsmt.fillomino.rating import rate

    puzzle = fillsmt.load(str(ROOT / "instances" / "fillomino" / "random-6x6.txt"))
    m = minimize(puzzle, driver, keep_rated=True)
    assert rate(m.puzzle).label == rate(puzzle).label == m.label
    assert unique(m.puzzle) is True


def _swapped(grid, a, b):
    """``grid`` with ``b``'s numbers where ``a`` and ``b`` differ."""
    return tuple(tuple(b[r][c] if a[r][c] != b[r][c] else v for c, v in enumerate(row)) for r, row in enumerate(grid))


def _swap_holds_on(puzzle, every: list, pairs: int, seed: int) -> int:
    """For ``pairs`` random pairs (A, B) of ``every`` solution, B among the nearest to A: each solution that agrees with A
    on the kind's swap context of (A, B) stays a solution with B's numbers put in where A and B
    differ. Returns how many solutions other than A agreed (so that the check did check)."""
    import random

    kind = fillsmt.kinds.kind_of(puzzle)
    rng, agreeing = random.Random(seed), 0

    def apart(x, y) -> int:
        return sum(u != v for p, q in zip(x, y) for u, v in zip(p, q))

    for _ in range(pairs):
        a = rng.choice(every)
        nearest = min(apart(a, s) for s in every if s != a)  # as narrowed: few cells differ
        b = rng.choice([s for s in every if s != a and apart(a, s) == nearest])
        context = kind.swap_context(puzzle, a, b)
        for s in every:
            if s != a and all(s[r][c] == a[r][c] for r, c in context):
                agreeing += 1
                assert kind.check(puzzle, _swapped(s, a, b)) == [], (a, b, s)
    return agreeing


def test_a_fillomino_swap_applies_to_every_solution_that_agrees_on_its_context():
    from test_backtrack import brute_force

    agreeing = 0
    for height, width, pairs in ((3, 3, 200), (2, 6, 60), (3, 4, 30)):
        bare = fillsmt.fillomino.plain_format.parse_puzzle(f"{height} {width}\n" + "0 " * (height * width))
        agreeing += _swap_holds_on(bare, brute_force(height, width), pairs, seed=height * width)
    assert agreeing > 0


def test_a_blocknumber_swap_applies_to_every_solution_that_agrees_on_its_context():
    from fillsmt.engine.pipeline import count

    driver = solver_or_skip("yices")
    puzzle = fillsmt.load(str(ROOT / "instances" / "blocknumber" / "random-6x6.txt"))
    bare = with_clues(puzzle, clues_of(puzzle)[: len(clues_of(puzzle)) // 3])  # many solutions
    every = count(bare, driver, limit=400).grids
    assert len(every) >= 50
    assert _swap_holds_on(bare, every, 60, seed=6) > 0


def test_fewest_cells_is_a_smallest_hitting_set():
    """Against every subset of the cells, smallest first, on random small set systems."""
    import random
    from itertools import combinations

    from fillsmt.setter.hitting_sets import fewest_cells

    rng = random.Random(7)
    cells = [(r, c) for r in range(3) for c in range(3)]
    for _ in range(200):
        sets = [rng.sample(cells, rng.randint(1, 4)) for _ in range(rng.randint(1, 7))]
        found = fewest_cells(sets)
        assert all(set(s) & set(found) for s in sets)
        smallest = next(n for n in range(len(cells) + 1)
                        if any(all(set(s) & set(pick) for s in sets) for pick in combinations(cells, n)))
        assert len(found) == smallest, sets
