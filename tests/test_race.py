"""The race (fillsmt.fillomino.race): the rules' search beside the solver, and clue-less grids.

Against a solver that never answers, every answer must come from the search, so these tests
check the search's side through the pipeline: solution counts agree with the brute-force
enumerator of test_backtrack on random tiny puzzles (sat, unsat, unique or not), every grid
passes the checker, and no child process is left behind. With a real solver, the race gives the
same answers as the plain pipeline.
"""

from __future__ import annotations

import os
import random
import sys
import time

import pytest

from conftest import INSTANCES, solver_or_skip
from test_backtrack import ALL_GRIDS, count_matching
from fillsmt.drivers.binaries import CommandDriver
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.clueless import clueless_solution
from fillsmt.fillomino.kind import KIND
from fillsmt.engine.racers import Entrants, SearchChild
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import solve
from fillsmt.smtlib.answer import Status

HANG = [sys.executable, "-c", "import sys, time\nfor _ in sys.stdin: pass\ntime.sleep(600)"]
"""Reads what it is sent (a session writes its script first) and never answers."""


@pytest.fixture(autouse=True)
def no_quick_search(monkeypatch):
    """These tests are about the search racing in a child process: the pipeline's quick search
    before the race (tests/test_quick_search.py) is left out."""
    real = type(KIND).plan
    monkeypatch.setattr(type(KIND), "plan", lambda self, presolved, proof: real(self, presolved, proof)._replace(
        quick=None))


def _never_answers() -> CommandDriver:
    return CommandDriver(HANG, name="hang")


def _children() -> set[int]:
    here = os.getpid()
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == here and fields[0] != "Z":
                found.add(int(entry))
    return found


def _random_clues(rng: random.Random, shape: tuple[int, int]):
    grids = ALL_GRIDS[shape]
    solution = rng.choice(grids)
    clues = tuple(tuple(v if rng.random() < 0.35 else 0 for v in row) for row in solution)
    if rng.random() < 0.2:  # sometimes a clue no solution keeps: often no solution at all
        r, c = rng.randrange(shape[0]), rng.randrange(shape[1])
        clues = tuple(tuple((v % 4) + 1 if (i, j) == (r, c) else v for j, v in enumerate(row))
                      for i, row in enumerate(clues))
    return clues


def _random_puzzle(rng: random.Random, seed: int):
    """A tiny puzzle with at least one clue, and its solutions by brute force."""
    shape = rng.choice([(2, 3), (3, 3), (2, 4)])
    clues = _random_clues(rng, shape)
    if not any(v for row in clues for v in row):
        clues = ((1,) + clues[0][1:],) + clues[1:]
    return Puzzle(shape[0], shape[1], clues, f"seed {seed}"), count_matching(ALL_GRIDS[shape], clues)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("unique", [False, True])
def test_the_searchs_answers_agree_with_brute_force(seed, unique):
    puzzle, expected = _random_puzzle(random.Random(seed), seed)
    clues = puzzle.cells
    result = solve(puzzle, _never_answers(), timeout=30, presolve="race", unique=unique)
    if not expected:
        assert result.status is Status.UNSAT, result.message
        return
    assert result.status is Status.SAT, result.message
    assert result.grid in expected and check_solution(clues, result.grid) == []
    if unique:
        assert result.unique is (len(expected) == 1)
        if len(expected) > 1:
            assert result.second_grid in expected and result.second_grid != result.grid


@pytest.mark.parametrize("seed", range(12))
def test_forced_cells_from_an_exhausted_search_agree_with_brute_force(seed):
    """``--forced`` against a solver that never answers: the search settles it exactly when it
    can exhaust the puzzle's solutions (one or two), and then the forced cells are where all the
    puzzle's solutions agree; with more solutions it is left to the solver (here: a time-out)."""
    puzzle, expected = _random_puzzle(random.Random(100 + seed), seed)
    result = solve(puzzle, _never_answers(), timeout=3 if len(expected) > 2 else 30, presolve="race", forced=True)
    assert_forced_agrees(result, expected)


def assert_forced_agrees(result, expected: list) -> None:
    """``result`` of ``--forced`` against a solver that never answers, for a puzzle whose
    solutions are ``expected``: settled (the cells all solutions share) exactly when there are at
    most two, which the search can exhaust."""
    if not expected:
        assert result.status is Status.UNSAT, result.message
    elif len(expected) <= 2:
        assert result.status is Status.SAT and result.grid in expected, result.message
        agreed = tuple(tuple(v if all(g[r][c] == v for g in expected) else 0 for c, v in enumerate(row))
                       for r, row in enumerate(expected[0]))
        assert result.forced == agreed
    else:
        assert result.forced is None


def test_the_race_leaves_no_process_behind():
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    before = _children()
    result = solve(puzzle, _never_answers(), timeout=30, presolve="race")
    assert result.grid is not None
    deadline = time.monotonic() + 5
    while _children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _children() - before


def test_a_search_that_cannot_finish_leaves_the_time_out_to_the_solver():
    empty = Puzzle(12, 12, tuple(tuple(0 for _ in range(12)) for _ in range(12)), "empty")
    empty = Puzzle(12, 12, ((5,) + empty.cells[0][1:],) + empty.cells[1:], "one clue")
    started = time.monotonic()
    result = solve(empty, _never_answers(), timeout=1.5, presolve="race", unique=True)
    assert time.monotonic() - started < 15
    assert result.unique is not True


def test_only_drivers_that_can_be_stopped_race():
    assert _never_answers().supports_stop

    class NoStop(CommandDriver):
        supports_stop = False

    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert solve(puzzle, _never_answers(), timeout=30, presolve="race").grid is not None
    alone = solve(puzzle, NoStop(HANG, name="hang"), timeout=1, presolve="race")
    assert alone.status is Status.TIMEOUT and alone.grid is None


@pytest.mark.parametrize("shape", [(1, 1), (1, 2), (2, 1), (1, 7), (1, 1000), (6, 5), (40, 40)])
def test_a_clueless_grid_gets_a_checked_solution_without_a_solver(shape):
    h, w = shape
    cells = tuple(tuple(0 for _ in range(w)) for _ in range(h))
    grid = clueless_solution(Puzzle(h, w, cells, "empty"))
    assert grid is not None and check_solution(cells, grid) == []
    result = solve(Puzzle(h, w, cells, "empty"), _never_answers(), timeout=30)
    assert result.status is Status.SAT and check_solution(cells, result.grid) == []
    assert result.settled_by_presolve and result.answered_by == "presolve"  # no solver ran


def test_a_clue_means_no_shortcut():
    assert clueless_solution(Puzzle(1, 3, ((0, 1, 0),), "one clue")) is None


@pytest.mark.parametrize("level", ["race", "staged"])
@pytest.mark.parametrize("unique", [False, True])
def test_with_a_real_solver_the_race_answers_like_the_plain_pipeline(unique, level):
    """The race, and the staged race with its extra racers, answer as the plain pipeline does."""
    driver = solver_or_skip("yices")
    for name in ("g12-5x5.txt", "random-7x7.txt", "unsat-1x2.txt"):
        puzzle = read_puzzle(str(INSTANCES / name))
        plain = solve(puzzle, driver, presolve=True, race=False, unique=unique)
        raced = solve(puzzle, driver, presolve=level, unique=unique)
        assert raced.status is plain.status and raced.unique == plain.unique
        assert raced.grid == plain.grid or (raced.grid is not None and check_solution(puzzle.cells, raced.grid) == [])


def test_with_a_real_solver_the_race_finds_the_same_forced_cells():
    driver = solver_or_skip("yices")
    for name in ("g12-5x5.txt", "random-7x7.txt", "unsat-1x2.txt"):
        puzzle = read_puzzle(str(INSTANCES / name))
        plain = solve(puzzle, driver, presolve=True, race=False, forced=True)
        raced = solve(puzzle, driver, presolve="race", forced=True)
        assert raced.status is plain.status and raced.forced == plain.forced


def _running(child: SearchChild, stop):
    """The child's search started in a thread (as a racer's thread runs it), and its answers."""
    import threading

    outcomes = []
    thread = threading.Thread(target=lambda: outcomes.append(child.run(stop)), daemon=True)
    thread.start()
    waited = time.monotonic() + 10
    while child.pid is None and time.monotonic() < waited:
        time.sleep(0.01)
    return thread, outcomes


def test_rules_race_is_a_context_that_reaps_its_child():
    import threading

    stop = threading.Event()
    with SearchChild(lambda limit, deadline, progress: time.sleep(60), lambda grid: [], 1, 30) as race:
        thread, outcomes = _running(race, stop)
        pid = race.pid
        assert pid is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    thread.join(5)
    assert outcomes == [None]


def test_nothing_is_forked_when_the_solver_answers_within_the_delay():
    import threading

    before = _children()
    stop = threading.Event()
    child = SearchChild(lambda limit, deadline, progress: time.sleep(60), lambda grid: [], 1, 30)
    with Entrants(stop, lambda r: True) as race:
        race.add("search", 0.5, lambda: child.run(stop))
        stop.set()  # what the race does once the solver has answered
    time.sleep(0.6)
    assert child.pid is None and not _children() - before and race.winner is None


def test_the_cli_says_who_answered_when_the_search_wins(tmp_path):
    """A solver that never answers: the race's search settles g12 and its uniqueness, and the
    CLI credits the search (not the rules alone, not the solver)."""
    from click.testing import CliRunner

    from fillsmt.cli import main

    hang = tmp_path / "hang.py"
    hang.write_text("import sys, time\nfor _ in sys.stdin: pass\ntime.sleep(600)\n")
    result = CliRunner().invoke(main, ["solve", "--unique", "--timeout", "60", "--solver-cmd",
                                       f"{sys.executable} {hang}", str(INSTANCES / "g12-5x5.txt")])
    assert result.exit_code == 0, result.output
    assert "unique (the rules plus backtracking searched every alternative)" in result.stderr
    result = CliRunner().invoke(main, ["solve", "--format", "json", "--timeout", "60", "--solver-cmd",
                                       f"{sys.executable} {hang}", str(INSTANCES / "g12-5x5.txt")])
    assert result.exit_code == 0, result.output
    assert '"solver": "rules"' in result.stdout and "answered first by the rules' search" in result.stdout


def test_the_search_child_runs_in_a_group_of_its_own_which_joins_its_share():
    """The forked search child makes a process group of its own (the race stops and continues
    it as a whole for its time slices) and keeps fillsmt's priority; the share it is given is
    told of the group."""
    import threading

    class Share:
        def __init__(self):
            self.groups = []

        def joins(self, pgid):
            self.groups.append(pgid)

    share = Share()
    stop = threading.Event()
    with SearchChild(lambda limit, deadline, progress: time.sleep(60), lambda grid: [], 1, 30, share=share) as race:
        _running(race, stop)
        time.sleep(0.2)
        assert share.groups == [race.pid]
        assert os.getpgid(race.pid) == race.pid != os.getpgid(0)
        assert os.getpriority(os.PRIO_PROCESS, race.pid) == os.getpriority(os.PRIO_PROCESS, 0)
