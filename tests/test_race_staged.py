"""The staged race (``presolve="staged"``): the solver, the rules' search and the kind's other SMT
configurations (Fillomino: yices on the lazy region cuts), each joining after its delay.

The extra racers' answers are checked against the brute-force enumerator of test_backtrack on
random tiny puzzles, with the solver and the search made unable to answer, so every answer is
the extra racer's: solutions, uniqueness, the second solution, the forced cells. And nothing is
left running: after a win, after a time-out, and after a signal (real processes from /proc).
"""

from __future__ import annotations

import random
import signal
import threading
import time

import pytest

from conftest import INSTANCES, patch_plan, shared_or_skip, solver_or_skip
from procs import HAS_PROC
from test_race import HANG, _children, _random_puzzle
from fillsmt.drivers.binaries import CommandDriver
from fillsmt.drivers.registry import add_solver, remove_solver
from fillsmt.fillomino.strategy import THRESHOLDS as T
from fillsmt.fillomino.strategy import entrants, largest_open_area, lead_encoding, open_cells, plan
from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import presolve_level, solve
from fillsmt.engine.plan import Entrant
from fillsmt.engine.racers import Entrants
from fillsmt.smtlib.answer import Status
from test_signals import assert_clean_end, signalled_run



def _never_answers() -> CommandDriver:
    """A default solver (by its name: only the defaults get the extra racers) that never answers."""
    return CommandDriver(HANG, name="yices")


def _hanging_search(self, puzzle, limit, deadline=None, progress=None, options=None, budget=None):
    time.sleep(600)


@pytest.fixture
def only_the_lazy_racer(monkeypatch):
    """The rules' search never answers and the lazy racer starts at once: with a primary solver
    that never answers, every answer is the lazy racer's."""
    solver_or_skip("yices")
    monkeypatch.setattr(Fillomino, "search", _hanging_search)
    patch_plan(monkeypatch, quick=None, entrants=(Entrant("yices", "lazy-local-general", 0.0),))


def _wait_no_children(before: set[int]) -> set[int]:
    deadline = time.monotonic() + 5
    while _children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    return _children() - before


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("unique", [False, True])
def test_the_lazy_racers_answers_agree_with_brute_force(seed, unique, only_the_lazy_racer):
    puzzle, expected = _random_puzzle(random.Random(200 + seed), seed)
    result = solve(puzzle, _never_answers(), timeout=30, presolve="staged", unique=unique)
    if not expected:
        assert result.status is Status.UNSAT, result.message
        return
    assert result.status is Status.SAT, result.message
    if result.settled_by_presolve:
        assert result.grid in expected
        return
    assert result.encoding == "lazy-local-general" and "answered first by yices/lazy-local-general" in result.message
    assert result.grid in expected and check_solution(puzzle.cells, result.grid) == []
    if unique:
        assert result.unique is (len(expected) == 1)
        if len(expected) > 1:
            assert result.second_grid in expected and result.second_grid != result.grid


@pytest.mark.parametrize("seed", range(8))
def test_the_lazy_racers_forced_cells_agree_with_brute_force(seed, only_the_lazy_racer):
    puzzle, expected = _random_puzzle(random.Random(300 + seed), seed)
    result = solve(puzzle, _never_answers(), timeout=30, presolve="staged", forced=True)
    if not expected:
        assert result.status is Status.UNSAT, result.message
        return
    assert result.status is Status.SAT and result.grid in expected, result.message
    agreed = tuple(tuple(v if all(g[r][c] == v for g in expected) else 0 for c, v in enumerate(row))
                   for r, row in enumerate(expected[0]))
    assert result.forced == agreed


@pytest.mark.parametrize("unique", [False, True])
def test_a_win_by_the_lazy_racer_leaves_no_process_behind(unique, only_the_lazy_racer):
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    before = _children()
    result = solve(puzzle, _never_answers(), timeout=30, presolve="staged", unique=unique)
    assert result.grid is not None and "lazy-local-general" in result.message
    assert not _wait_no_children(before)


@pytest.fixture
def hanging_racer(monkeypatch):
    """An extra racer whose solver never answers (registered as the solver ``hang``)."""
    add_solver("hang", lambda: CommandDriver(HANG, name="hang"))
    patch_plan(monkeypatch, entrants=(Entrant("hang", "lazy-local-general", 0.0),))
    yield
    remove_solver("hang")


@pytest.mark.parametrize("unique", [False, True])
def test_a_time_out_leaves_no_process_behind(unique, hanging_racer, monkeypatch):
    """Nobody answers (the solver, the search and the extra racer all hang): a time-out, and
    every process the race started is gone."""
    monkeypatch.setattr(Fillomino, "search", _hanging_search)
    patch_plan(monkeypatch, quick=None, entrants=(Entrant("hang", "lazy-local-general", 0.0),))
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    before = _children()
    started = time.monotonic()
    result = solve(puzzle, _never_answers(), timeout=1.5, presolve="staged", unique=unique)
    assert result.status is Status.TIMEOUT and result.grid is None
    assert time.monotonic() - started < 10
    assert not _wait_no_children(before)


def test_a_solver_the_user_named_races_the_search_alone(only_the_lazy_racer):
    """Only the default solver and encoding get the extra racers: another solver (here one that
    never answers) races the search alone, as with ``race``."""
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    result = solve(puzzle, CommandDriver(HANG, name="hang"), timeout=2, presolve="staged")
    assert result.status is Status.TIMEOUT
    result = solve(puzzle, _never_answers(), encoding="tree", timeout=2, presolve="staged")
    assert result.status is Status.TIMEOUT


def test_the_solvers_answer_stops_a_hanging_racer(hanging_racer):
    """The solver answers while the extra racer hangs: the answer is the solver's (or the
    search's), and the hanging racer's process is gone."""
    driver = solver_or_skip("yices")
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))  # not settled by the presolve: a race
    before = _children()
    result = solve(puzzle, driver, timeout=30, presolve="staged")
    assert result.status is Status.SAT and check_solution(puzzle.cells, result.grid) == []
    assert result.solver in ("yices", "rules")
    assert not _wait_no_children(before)


def test_the_level_names():
    assert presolve_level(True, True, True) == "staged"
    assert presolve_level(True, True) == "race"
    assert presolve_level(True, False, True) == "on"


def test_the_lazy_cuts_join_every_race_and_lead_on_a_large_open_area():
    lazy = (Entrant("yices", "lazy-local-general", T.lazy_delay),)
    assert T.lazy_delay > 0
    open_ = Puzzle(12, 12, ((5,) + (0,) * 11,) + tuple((0,) * 12 for _ in range(11)), "open")
    assert T.lazy_area <= largest_open_area(open_) == 143 < T.lead_area
    assert entrants(open_, False) == lazy and plan(open_, False).encoding is None
    wide = Puzzle(14, 14, ((5,) + (0,) * 13,) + tuple((0,) * 14 for _ in range(13)), "wide")
    assert largest_open_area(wide) == 195 >= T.lead_area
    assert entrants(wide, False) == () and plan(wide, False).encoding == "lazy-local-general"
    small = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert largest_open_area(small) < T.lazy_area and entrants(small, False) == entrants(small, True) == lazy
    # many open cells, each area small (checkerboard clues on a 40x40): the cuts lead, alone
    board = Puzzle(40, 40, tuple(tuple(1 if (r + c) % 2 else 0 for c in range(40)) for r in range(40)), "board")
    assert open_cells(board) == 800 > T.small_open and largest_open_area(board) == 1
    assert entrants(board, False) == () and plan(board, False).encoding == "lazy-local-general"


def test_a_huge_open_area_gets_the_lazy_cuts_alone_and_many_open_cells_no_search():
    def races_search(puzzle):
        return plan(puzzle, False).search is not None

    huge = Puzzle(30, 30, ((5,) + (0,) * 29,) + tuple((0,) * 30 for _ in range(29)), "huge")
    assert largest_open_area(huge) == 899 >= T.lead_area and lead_encoding(huge) == "lazy-local-general"
    assert open_cells(huge) <= T.search_open and races_search(huge)
    assert plan(huge, False).encoding == "lazy-local-general" and plan(huge, False).weight == T.lazy_weight > 1
    open_ = Puzzle(12, 12, ((5,) + (0,) * 11,) + tuple((0,) * 12 for _ in range(11)), "open")
    assert lead_encoding(open_) is None and races_search(open_)
    board = Puzzle(50, 50, tuple(tuple(1 if (r + c) % 2 else 0 for c in range(50)) for r in range(50)), "board")
    assert open_cells(board) == 1250 > T.search_open and not races_search(board)
    # many open cells, every area small: the lazy cuts lead too (the 20x20 and 30x30 scaling puzzles)
    assert lead_encoding(board) == "lazy-local-general"
    few = Puzzle(10, 10, tuple(tuple(1 if (r + c) % 2 else 0 for c in range(10)) for r in range(10)), "few")
    assert open_cells(few) == 50 < T.lead_open and lead_encoding(few) is None
    # an area of lazy_area up to lead_area cells keeps tree-bfs, however many cells are open
    assert T.lazy_area <= largest_open_area(open_) < T.lead_area and open_cells(open_) >= T.lead_open


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("unique", [False, True])
def test_the_lazy_lead_alone_agrees_with_brute_force(seed, unique, monkeypatch):
    """A staged race whose kind picks the lazy cuts as the lead and no search (a huge grid's
    plan, forced here on tiny puzzles): the answers are the lazy session's, checked against
    brute force, and no other racer is started."""
    from fillsmt.drivers.registry import get_driver

    solver_or_skip("yices")
    patch_plan(monkeypatch, encoding="lazy-local-general", search=None, quick=None)
    from fillsmt.engine.racers import SearchChild

    def no_search(self, stop):
        raise AssertionError("the search was started")

    monkeypatch.setattr(SearchChild, "run", no_search)
    puzzle, expected = _random_puzzle(random.Random(400 + seed), seed)
    result = solve(puzzle, get_driver("yices"), timeout=30, presolve="staged", unique=unique)
    if not expected:
        assert result.status is Status.UNSAT, result.message
        return
    assert result.status is Status.SAT and result.grid in expected, result.message
    if result.settled_by_presolve:
        return
    assert result.encoding == "lazy-local-general" and "answered first" not in result.message
    if unique:
        assert result.unique is (len(expected) == 1)
        if len(expected) > 1:
            assert result.second_grid in expected and result.second_grid != result.grid


def test_entrants_take_the_first_decisive_answer_and_wait_out_no_one():
    stop = threading.Event()
    won = []
    with Entrants(stop, lambda r: r == "yes", on_win=lambda: won.append(True)) as race:
        race.add("undecided", 0.0, lambda: "no")
        race.add("late", 0.0, lambda: time.sleep(0.3) or "yes")
        race.add("never started", 30.0, lambda: "yes")
        race.wait(time.monotonic() + 10)
    assert race.winner == "yes" and race.winner_name == "late" and won == [True]
    assert not race.running()


def test_an_entrant_that_fails_is_no_answer():
    stop = threading.Event()

    def fails():
        raise RuntimeError("closed by the race")

    with Entrants(stop, lambda r: True) as race:
        race.add("fails", 0.0, fails)
        race.wait(time.monotonic() + 5)
    assert race.winner is None and race.winner_name == ""


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux's /proc")
@pytest.mark.parametrize("unique", [False, True])
@pytest.mark.parametrize("name, racers", [("266", 2), ("620", 2), ("330", 1)])
def test_a_signal_during_a_staged_race_leaves_no_process(name, racers, unique):
    """SIGTERM while every racer works (266: the solver and the search, before the search settles
    it; 620, a 20×36 grid with
    a large open area: the lazy cuts' yices, which lead there, and the search; 330, a 50×64 grid
    with a huge open area and 1441 open cells: the lazy cuts' yices alone): fillsmt ends at once
    and no racer's process is left. (620's lazy cuts may settle it before the signal: there each
    lazy check waits 0.5 s first, so that its racers still work when the signal comes.)"""
    solver_or_skip("yices")
    hard = shared_or_skip("hard-tail", "puzzles", f"{name}.txt")
    args = ["solve", "--staged", "--timeout", "60", str(hard)] + (["--unique"] if unique else [])
    slow = ("import time, fillsmt.engine.solutions as s; c = s.Search.check; "
            "s.Search.check = lambda self, *a, **k: time.sleep(0.5) or c(self, *a, **k); ") if name == "620" else ""
    early = slow + "from fillsmt.cli import main; main()"
    code, seconds, seen = signalled_run(args, signal.SIGTERM, want_children=racers, settle=0.3,
                                        python=("-c", early))
    assert_clean_end(code, seconds, seen, signal.SIGTERM)
    assert len(seen) >= racers


@pytest.mark.parametrize("flag", ["--staged", "--no-staged"])
def test_the_cli_takes_the_staged_switch(flag):
    from click.testing import CliRunner

    from fillsmt.cli import main

    solver_or_skip("yices")
    result = CliRunner().invoke(main, ["solve", flag, "--unique", "--format", "json", str(INSTANCES / "random-7x7.txt")])
    assert result.exit_code == 0, result.output
    assert '"status": "sat"' in result.stdout and '"unique": true' in result.stdout


def test_the_search_starts_at_once_with_the_larger_share_beside_the_default_encoding_and_a_head_start_beside_the_lazy_cuts():
    small = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    small_plan = Fillomino().plan(small, False)
    assert open_cells(small) <= T.small_open and small_plan.encoding is None and small_plan.weight == 1
    assert small_plan.search.weight == T.search_weight > 1 and small_plan.search.head_start == 0
    assert small_plan.search.delay == 0
    open_ = Puzzle(13, 13, ((5,) + (0,) * 12,) + tuple((0,) * 13 for _ in range(12)), "open")
    assert T.small_open < open_cells(open_) and largest_open_area(open_) < T.lead_area
    assert plan(open_, False).search.delay == 0 and plan(open_, False).search.weight == T.search_weight
    wide = Puzzle(14, 14, ((5,) + (0,) * 13,) + tuple((0,) * 14 for _ in range(13)), "wide")
    wide_plan = plan(wide, False)
    assert wide_plan.encoding == "lazy-local-general" and wide_plan.weight == T.lazy_weight > 1
    assert wide_plan.search.weight == 1 and wide_plan.search.head_start == T.search_head_start > 0
    assert wide_plan.search.delay == 0


@pytest.mark.parametrize("unique", [False, True])
def test_the_staged_racers_are_told_whether_the_race_must_prove(unique, monkeypatch):
    # a plan may differ for a race that must also prove (the quick search's budget, whether a
    # stalled search hurries the entrants): the pipeline asks for the plan of the race it runs
    solver_or_skip("yices")
    asked = []

    def racers(presolved, proof=False):
        asked.append(proof)
        return (Entrant("yices", "lazy-local-general", 0.0),)

    monkeypatch.setattr(Fillomino, "search", _hanging_search)
    patch_plan(monkeypatch, quick=None, entrants=racers)
    puzzle, expected = _random_puzzle(random.Random(200), 0)
    result = solve(puzzle, _never_answers(), timeout=30, presolve="staged", unique=unique)
    assert result.status is Status.SAT and result.grid in expected and not result.settled_by_presolve
    assert asked == [unique]
