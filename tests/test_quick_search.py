"""The quick search: the rules' search in fillsmt's own process, within a small budget, before
any encoding or solver (the plan's ``quick``, ``racing.quick_search``), in the default plan (the
default solver and encoding, staged).

Against a solver that never answers and with a budget large enough for tiny puzzles, every
answer is the quick search's: its solutions, uniqueness and forced cells agree with the
brute-force enumerator of test_backtrack, and every grid passes the checker. A quick search that
does not settle the puzzle hands it to the race; a grid with many open cells is not tried.
"""

from __future__ import annotations

import random
import time

import pytest
from conftest import INSTANCES, solver_or_skip
from test_race import _never_answers, _random_puzzle, assert_forced_agrees

from fillsmt.engine import pipeline, request
from fillsmt.fillomino import strategy
from fillsmt.fillomino.kind import KIND, Fillomino
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import solve
from fillsmt.smtlib.answer import Status

BEFORE = "before any solver started"


def thresholds(monkeypatch, **changes) -> None:
    """Fillomino's plans made with the default thresholds but ``changes``."""
    table = strategy.THRESHOLDS._replace(**changes)
    monkeypatch.setattr(Fillomino, "plan", lambda self, presolved, proof: strategy.plan(presolved, proof, table))


def quick(presolved, limit: int):
    """What the plan's quick search finds on ``presolved`` (for a proof when ``limit`` > 1), as
    the pipeline runs it; None where the plan has none."""
    run = KIND.plan(presolved, limit > 1).quick
    return None if run is None else KIND.search(presolved, limit, options=run.options, budget=run.seconds)


@pytest.fixture
def generous(monkeypatch):
    """A budget no tiny puzzle needs (so a loaded machine cannot make the test flaky), and the
    solver that never answers taken for the default one (the quick search is the default plan's),
    racing alone beside the search (the lazy cuts' yices, which joins the default plan, would answer)."""
    thresholds(monkeypatch, quick_base=20.0, quick_proof_first=10**6, quick_proof=40.0)
    monkeypatch.setattr(strategy, "entrants", lambda presolved, proof, table=None: ())
    monkeypatch.setattr(request, "DEFAULT_SOLVER", _never_answers().name)


def _puzzle(seed: int):
    return _random_puzzle(random.Random(700 + seed), seed)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("unique", [False, True])
def test_the_quick_searchs_answers_agree_with_brute_force(seed, unique, generous):
    puzzle, expected = _puzzle(seed)
    result = solve(puzzle, _never_answers(), timeout=30, presolve="staged", unique=unique)
    if not expected:
        assert result.status is Status.UNSAT, result.message
        return
    assert result.status is Status.SAT and result.grid in expected, result.message
    assert check_solution(puzzle.cells, result.grid) == []
    if not result.settled_by_presolve:
        assert BEFORE in result.message and result.solver == "rules"
    if unique:
        assert result.unique is (len(expected) == 1)
        if len(expected) > 1:
            assert result.second_grid in expected and result.second_grid != result.grid


@pytest.mark.parametrize("seed", range(12))
def test_forced_cells_from_the_quick_search_agree_with_brute_force(seed, generous):
    """``--forced`` needs an exhausted search: with one or two solutions the quick search settles
    it; with more it is not decisive, and the race's solver (here one that never answers) is left."""
    puzzle, expected = _puzzle(seed)
    result = solve(puzzle, _never_answers(), timeout=3 if len(expected) > 2 else 30, presolve="staged", forced=True)
    assert_forced_agrees(result, expected)
    if len(expected) > 2:
        assert BEFORE not in result.message


def test_an_unsettled_quick_search_leaves_the_puzzle_to_the_race(monkeypatch):
    """No budget at all: the quick search ends undecided, and the race (yices) answers."""
    solver_or_skip("yices")
    from fillsmt.drivers.registry import get_driver

    thresholds(monkeypatch, quick_base=-1.0, quick_per_cell=0.0)
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    result = solve(puzzle, get_driver("yices"), timeout=30, unique=True)
    assert result.status is Status.SAT and result.unique is True and BEFORE not in result.message
    assert check_solution(puzzle.cells, result.grid) == []


def test_a_solver_the_user_named_gets_no_quick_search(monkeypatch):
    """Only the default plan (solver and encoding) starts with the quick search: a named one runs."""
    solver_or_skip("yices")
    from fillsmt.drivers.registry import get_driver

    thresholds(monkeypatch, quick_base=20.0)
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert BEFORE in solve(puzzle, get_driver("yices"), timeout=30).message
    named = solve(puzzle, get_driver("yices"), "tree", timeout=30)
    assert named.status is Status.SAT and named.solver == "yices" and BEFORE not in named.message


def test_the_budget_grows_with_the_grid_and_is_none_on_many_open_cells():
    small = Puzzle(10, 10, ((3,) + (0,) * 9,) + tuple((0,) * 10 for _ in range(9)), "small")
    large = Puzzle(40, 40, tuple(tuple(0 if r == 0 and c < 20 else 1 + (r + c) % 2 for c in range(40))
                                 for r in range(40)), "large")
    assert strategy.open_cells(small) == 99 and strategy.open_cells(large) == 20
    assert 0 < strategy.quick_search_budget(small) < strategy.quick_search_budget(large)
    board = Puzzle(20, 20, tuple(tuple(1 if (r + c) % 2 else 0 for c in range(20)) for r in range(20)), "board")
    assert strategy.open_cells(board) > strategy.THRESHOLDS.small_open and strategy.quick_search_budget(board) == 0.0
    assert quick(board, 1) is None


def test_with_unique_the_quick_search_goes_on_past_the_plain_budget(monkeypatch):
    """No plain budget to speak of, but the proof's: a plain solve is left to the race (yices),
    ``--unique`` is settled in-process, the search's exhausted tree being the proof."""
    solver_or_skip("yices")
    from fillsmt.drivers.registry import get_driver

    thresholds(monkeypatch, quick_base=1e-9, quick_per_cell=0.0, quick_proof_first=10**6, quick_proof=40.0)
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    plain = solve(puzzle, get_driver("yices"), timeout=30)
    assert plain.status is Status.SAT and BEFORE not in plain.message
    proof = solve(puzzle, get_driver("yices"), timeout=30, unique=True)
    assert proof.status is Status.SAT and proof.unique is True and BEFORE in proof.message, proof.message
    assert proof.solver == "rules" and check_solution(puzzle.cells, proof.grid) == []


def test_no_first_solution_within_the_nodes_leaves_the_proof_to_the_race(monkeypatch):
    """No node may pass without a first solution: however long the proof budget, the quick
    search stops at once and the race (yices) proves uniqueness."""
    solver_or_skip("yices")
    from fillsmt.drivers.registry import get_driver

    thresholds(monkeypatch, quick_proof_first=0, quick_proof=40.0)
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    presolved = pipeline.kind_of(puzzle).presolve(puzzle).puzzle
    assert KIND.plan(presolved, True).quick.options.first_nodes == 0
    result = solve(puzzle, get_driver("yices"), timeout=30, unique=True)
    assert result.status is Status.SAT and result.unique is True and BEFORE not in result.message


def test_the_proof_budgets_bound_the_plain_one_and_vanish_with_it():
    small = Puzzle(10, 10, ((3,) + (0,) * 9,) + tuple((0,) * 10 for _ in range(9)), "small")
    first, whole = strategy.quick_proof_budget(small)
    assert first >= 1 and strategy.quick_search_budget(small) < whole
    board = Puzzle(20, 20, tuple(tuple(1 if (r + c) % 2 else 0 for c in range(20)) for r in range(20)), "board")
    assert strategy.quick_proof_budget(board) == (0, 0.0) and quick(board, 2) is None


@pytest.mark.parametrize("want", ["unique", "multiple"])
def test_the_cli_reports_the_quick_searchs_proof_in_json(want, monkeypatch, tmp_path):
    """Through ``fillsmt solve --unique --format json``: the documented fields, the second
    solution distinct from the first and both checked, the exit code of each answer."""
    import json

    from click.testing import CliRunner

    from fillsmt.cli import main
    from fillsmt.errors import EXIT_NOT_UNIQUE, EXIT_OK
    from fillsmt.fillomino.plain_format import format_puzzle

    solver_or_skip("yices")
    thresholds(monkeypatch, quick_proof_first=10**6, quick_proof=40.0)
    for seed in range(200):  # the first tiny puzzle of the kind wanted that the rules leave open
        puzzle, expected = _puzzle(seed)
        if (len(expected) == 1) == (want == "unique") and expected and \
                KIND.presolve(puzzle).grid is None and KIND.presolve(puzzle).contradiction is None:
            break
    else:
        pytest.fail(f"no {want} puzzle among the seeds")
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(puzzle))
    ran = CliRunner().invoke(main, ["solve", "--unique", "--format", "json", str(path)], catch_exceptions=False)
    out = json.loads(ran.output.splitlines()[0])
    assert BEFORE in out["message"] and out["solver"] == "rules" and out["status"] == "sat"
    grid = tuple(tuple(row) for row in out["grid"])
    assert grid in expected and check_solution(puzzle.cells, grid) == []
    if want == "unique":
        assert out["unique"] is True and ran.exit_code == EXIT_OK
    else:
        second = tuple(tuple(row) for row in out["second_grid"])
        assert out["unique"] is False and ran.exit_code == EXIT_NOT_UNIQUE
        assert second in expected and second != grid and check_solution(puzzle.cells, second) == []
        assert out["differing_cells"] and all(grid[r][c] != second[r][c] for r, c in out["differing_cells"])


def test_the_quick_budget_is_measured_on_the_quick_clock(monkeypatch):
    """The quick search's seconds are :data:`strategy.QUICK_CLOCK`'s (the process's CPU time, so
    that a loaded machine does not change which puzzles it settles): a clock that leaps by an
    hour between readings stops it before its first node; a clock that stands still lets it
    settle the puzzle whatever the wall clock does."""
    import itertools

    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    presolved = pipeline.kind_of(puzzle).presolve(puzzle).puzzle
    assert strategy.QUICK_CLOCK is time.process_time
    leaps = itertools.count(0.0, 3600.0)
    monkeypatch.setattr(strategy, "QUICK_CLOCK", lambda: next(leaps))
    for limit in (1, 2):
        stopped = quick(presolved, limit)
        assert stopped.timed_out and stopped.nodes == 0 and not stopped.solutions
    monkeypatch.setattr(strategy, "QUICK_CLOCK", lambda: 0.0)
    thresholds(monkeypatch, quick_base=1e-9, quick_per_cell=0.0)
    settled = quick(presolved, 2)
    assert settled.exhausted and len(settled.solutions) == 1
    assert check_solution(puzzle.cells, settled.solutions[0]) == []


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_quick_searchs_counts_agree_with_brute_force(seed, limit, generous):
    """``count`` in the default plan: the quick search, asked for one solution more than the
    limit, settles the count (exact when its tree is exhausted, ``limit``+ when it found more);
    the solver that never answers is never needed on these tiny puzzles."""
    from fillsmt.engine.pipeline import count

    puzzle, expected = _puzzle(seed)
    found = count(puzzle, _never_answers(), limit, timeout=30)
    assert found.status is not Status.TIMEOUT, found.message
    assert len(found.grids) == min(limit, len(expected)) and len(set(found.grids)) == len(found.grids)
    assert all(g in expected and check_solution(puzzle.cells, g) == [] for g in found.grids)
    assert found.complete is (len(expected) <= limit)
    assert found.status is (Status.UNSAT if found.complete else Status.SAT)


def test_a_count_the_quick_search_cannot_settle_goes_to_the_solver(monkeypatch):
    """No budget: the quick search ends undecided, and yices counts in its session."""
    solver_or_skip("yices")
    from fillsmt.drivers.registry import get_driver
    from fillsmt.engine.pipeline import count

    thresholds(monkeypatch, quick_base=-1.0, quick_per_cell=0.0)
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    found = count(puzzle, get_driver("yices"), 2, timeout=30)
    assert (len(found.grids), found.complete, found.status) == (1, True, Status.UNSAT)
    assert found.checks >= 2 and "before any solver" not in found.message
