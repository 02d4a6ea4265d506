"""Tiling with real solvers: known optima, every method, and a brute-force cross-check."""

from __future__ import annotations

import random

import pytest

from conftest import ROOT, solver_or_skip
from fillsmt.tiling.plain_format import parse_problem, read_problem
from fillsmt.tiling.model import Piece, TilingProblem, normalise, upper_bound
from fillsmt.drivers.registry import get_driver
from fillsmt.formats.json_format import result_to_dict
from fillsmt.engine.pipeline import solve
from fillsmt.tiling.optimize import Outcome, optimize, placements_json
from fillsmt.tiling.verify import allowed_images, check_tiling

INSTANCES = ROOT / "instances" / "tiling"
SOLVERS = ["yices", "z3"]


@pytest.fixture(params=SOLVERS)
def solver(request):
    solver_or_skip(request.param)
    return request.param


def brute_force(p: TilingProblem) -> int:
    """The most cells any legal tiling covers, by trying every set of non-overlapping placements
    (placements made here from the checker's images, not from the model)."""
    free = {(r, c) for r in range(p.height) for c in range(p.width)} - set(p.blocked)
    places = []
    for k, piece in enumerate(p.pieces):
        for shape in allowed_images(piece.cells, p.rotations, p.reflections):
            for dr in range(p.height):
                for dc in range(p.width):
                    cells = frozenset((r + dr, c + dc) for r, c in shape)
                    if cells <= free:
                        places.append((k, cells))
    limits = [piece.limit for piece in p.pieces]

    def best(i: int, used: frozenset, counts: tuple) -> int:
        if i == len(places):
            return 0
        k, cells = places[i]
        skip = best(i + 1, used, counts)
        if cells & used or (limits[k] is not None and counts[k] >= limits[k]):
            return skip
        more = counts[:k] + (counts[k] + 1,) + counts[k + 1:]
        return max(skip, len(cells) + best(i + 1, used | cells, more))

    return best(0, frozenset(), (0,) * len(p.pieces))


def assert_legal(p: TilingProblem, result) -> None:
    placed = [(q["piece"], [tuple(c) for c in q["cells"]]) for q in placements_json(p, result.placements)]
    assert check_tiling(p.height, p.width, p.blocked, {q.name: q.cells for q in p.pieces},
                        {q.name: q.limit for q in p.pieces}, p.rotations, p.reflections,
                        placed, result.covered) == []


def test_domino_fills_2x2(solver):
    p = parse_problem("board 2 2\npiece D\n##\n", "t")
    r = optimize(p, solver, 30)
    assert (r.covered, r.optimal, r.status, r.upper_bound) == (4, True, Outcome.OPTIMAL, 4)
    assert_legal(p, r)


def test_fixed_l_tromino_on_3x3(solver):
    p = parse_problem("board 3 3\npiece L\n#.\n##\n", "t")
    r = optimize(p, solver, 30)
    assert r.covered == brute_force(p) == 6
    # cell (0, 2) is out of every fixed L's reach, and 8 cells hold at most two: the bound is 6
    assert (r.optimal, r.upper_bound, r.checks) == (True, 6, 1)
    assert_legal(p, r)


def test_optimum_below_the_bound_is_proven_by_unsat(solver):
    p = parse_problem("board 3 3\npiece O\n##\n##\n", "t")
    r = optimize(p, solver, 30)
    assert (r.covered, r.optimal, r.upper_bound) == (4, True, 4)  # the model bound 8, tightened by unsat
    assert r.checks >= 2 and r.log[-1][1] == "unsat" and r.time_proven >= r.time_best


def test_no_placement_means_zero_covered_and_optimal(solver):
    p = parse_problem("board 3 3\nblocked 1 1\npiece O\n##\n##\n", "t")
    r = optimize(p, solver, 30)
    assert (r.covered, r.optimal, r.upper_bound, r.placements) == (0, True, 0, [])


def test_limits_and_blocked_cells(solver):
    p = parse_problem("board 3 4\nblocked 0 0\nrotations yes\npiece I max 1\n####\npiece D max 2\n##\n", "t")
    r = optimize(p, solver, 30)
    assert r.covered == brute_force(p) == 8 and r.optimal
    assert_legal(p, r)


@pytest.mark.parametrize("name, covered", [("kalvelagen-11x11", 120), ("tetris-7x7", 48)])
def test_small_instances(solver, name, covered):
    p = read_problem(str(INSTANCES / f"{name}.txt"))
    r = optimize(p, solver, 60)
    assert (r.covered, r.optimal, r.upper_bound, r.checks) == (covered, True, covered, 1)
    assert_legal(p, r)
    # the published JSON shape (the one writer every command uses), through the pipeline
    data = result_to_dict(solve(p, get_driver(solver), timeout=60), name)
    assert data["covered"] == covered and data["optimal"] and data["upper_bound"] == covered
    assert data["status"] == "sat" and {"first", "best", "proven", "total"} <= set(data["times"])
    assert sum(len(q["cells"]) for q in data["placements"]) == covered


def test_z3_maximize():
    solver_or_skip("z3")
    p = read_problem(str(INSTANCES / "tetris-7x7.txt"))
    r = optimize(p, "z3", 60, method="maximize")
    assert (r.covered, r.optimal, r.method) == (48, True, "maximize")
    q = parse_problem("board 3 3\npiece L\n#.\n##\n", "t")
    assert optimize(q, "z3", 60, method="maximize").covered == 6


@pytest.mark.parametrize("amo", ["ladder", "pairwise", "sum"])
def test_other_at_most_one_encodings(solver, amo):
    p = parse_problem("board 3 3\nrotations yes\npiece L\n#.\n##\n", "t")
    r = optimize(p, solver, 30, amo=amo)
    assert r.covered == brute_force(p) == 6 and r.optimal  # L-trominoes cannot tile 3x3


def test_time_out_keeps_the_best_so_far():
    solver_or_skip("yices")
    p = read_problem(str(INSTANCES / "kalvelagen-61x61.txt"))
    r = optimize(p, "yices", 1.5)
    assert not r.optimal and r.status is Outcome.TIMEOUT
    assert r.upper_bound == 3721 and r.covered < 3721


def random_polyomino(rng: random.Random, size: int):
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        cells.add((r + dr, c + dc))
    return normalise(cells)


def random_problem(rng: random.Random) -> TilingProblem:
    h, w = rng.randint(1, 3), rng.randint(1, 3)
    pieces = []
    for i in range(rng.randint(1, 2)):
        shape = random_polyomino(rng, rng.randint(1, 4))
        pieces.append(Piece(f"P{i}", shape, rng.choice([None, None, 0, 1, 2])))
    blocked = frozenset(cell for cell in [(r, c) for r in range(h) for c in range(w)] if rng.random() < 0.15)
    return TilingProblem(h, w, blocked, tuple(pieces), rng.random() < 0.5, rng.random() < 0.5, "random")


def test_random_tiny_problems_match_brute_force(solver):
    rng = random.Random(20240601)
    for _ in range(25):
        p = random_problem(rng)
        expected = brute_force(p)
        assert upper_bound(p) >= expected
        r = optimize(p, solver, 30)
        assert (r.covered, r.optimal) == (expected, True), p
        assert_legal(p, r)
