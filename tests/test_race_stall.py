"""The race watches its search: the search child reports its
progress in shared memory (:class:`fillsmt.engine.racers.SearchProgress`), and a search that stalls
(``RacingSearch.stalled``) lets the staged racers join at once. Tested with real processes: a
forked child writing the progress, the solver a real process, and the staged racer a real yices
run."""

from __future__ import annotations

import os
import random
import time

import pytest
from conftest import INSTANCES, patch_plan, solver_or_skip
from test_race import HANG, _random_puzzle

from fillsmt.drivers.binaries import CommandDriver
from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.search import solve_strong
from fillsmt.fillomino.strategy import THRESHOLDS
from fillsmt.fillomino.strategy import plan as default_plan
from fillsmt.engine.pipeline import solve
from fillsmt.engine.plan import Entrant
from fillsmt.engine.racers import Progress, SearchProgress
from fillsmt.smtlib.answer import Status


class Recorder:
    """A ``progress`` that keeps every report."""

    def __init__(self):
        self.nodes = []

    def node(self, depth, open_cells, solutions):
        self.nodes.append((depth, open_cells, solutions))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("limit", [1, 2])
def test_the_search_tells_its_progress_of_every_node(seed, limit):
    """One report per node, its depth within the search's deepest, the open cells (-1 at a
    contradiction, 0 at a solution, else cells with more than one value left) and the solutions
    found before it; the search itself is the same with and without the reporter."""
    puzzle, expected = _random_puzzle(random.Random(seed), seed)
    seen = Recorder()
    found = solve_strong(puzzle, limit=limit, progress=seen)
    plain = solve_strong(puzzle, limit=limit)
    assert (found.nodes, found.max_depth, found.solutions) == (plain.nodes, plain.max_depth, plain.solutions)
    assert len(seen.nodes) == found.nodes
    assert max(d for d, _, _ in seen.nodes) == found.max_depth
    assert all(-1 <= o <= puzzle.height * puzzle.width for _, o, _ in seen.nodes)
    counts = [s for _, _, s in seen.nodes]
    assert counts == sorted(counts) and counts[-1] <= len(found.solutions)
    assert sum(1 for _, o, _ in seen.nodes if o == 0) >= len(found.solutions)
    assert bool(expected) == bool(found.solutions)


def test_the_shared_progress_is_what_the_forked_child_wrote():
    """The child writes, the parent reads the same memory: nodes, deepest, fewest open cells,
    solutions, and the child's CPU then and at its last better node."""
    progress = SearchProgress()
    assert progress.read() == Progress(0, 0, -1, 0, 0.0, 0.0)
    pid = os.fork()
    if pid == 0:
        try:
            for depth, open_cells in ((0, 30), (1, 20), (2, -1), (2, 25), (3, 12)):
                progress.node(depth, open_cells, 0)
            spin = time.process_time() + 0.2
            while time.process_time() < spin:
                pass
            progress.node(1, 15, 0)  # not better: only nodes, deepest and CPU move
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    seen = progress.read()
    assert (seen.nodes, seen.deepest, seen.fewest_open, seen.solutions) == (6, 3, 12, 0)
    assert seen.since_improved >= 0.2 and seen.cpu >= seen.improved_cpu > 0


def test_a_solution_counts_as_progress():
    progress = SearchProgress()
    progress.node(0, 10, 0)
    first = progress.read().improved_cpu
    spin = time.process_time() + 0.05
    while time.process_time() < spin:
        pass
    progress.node(4, 10, 1)  # as many open cells, but a solution was found before it
    seen = progress.read()
    assert seen.solutions == 1 and seen.improved_cpu > first and seen.since_improved < 0.05


def test_the_stall_rule():
    """Stalled: no solution and the plan's stall_cpu of the search's CPU since its last better
    node; a search with a solution never is. Staged racers hurry only in a race for a solution."""
    small = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    search, proving = Fillomino().plan(small, False).search, Fillomino().plan(small, True).search
    limit = THRESHOLDS.stall_cpu
    assert search.stall_cpu == limit
    assert search.stalled(Progress(900, 26, 23, 0, 0.5 + limit, 0.5))
    assert not search.stalled(Progress(900, 26, 23, 0, 0.5 + limit * 0.9, 0.5))
    assert not search.stalled(Progress(900, 26, 23, 1, 10 + limit, 0.5))
    assert search.stall_hurries and proving.stall_hurries == THRESHOLDS.stall_hurries_proof


def _stalled_search(self, puzzle, limit, deadline=None, progress=None, options=None, budget=None):
    """Nodes for ever, never fewer open cells than the first: a search that gets nowhere."""
    while True:
        progress.node(5, 40, 0)


def _busy_search(self, puzzle, limit, deadline=None, progress=None, options=None, budget=None):
    """Nodes for ever, each with fewer open cells than the last: a search making progress."""
    n = 1 << 40
    while True:
        n -= 1
        progress.node(5, n, 0)


@pytest.fixture
def watched(monkeypatch):
    """A race where the solver is a real process that never answers (named yices so that the
    staged racers join), a search is stalled after 0.05 s of its CPU without progress, and the
    staged racer, yices on the lazy cuts, waits 30 s unless hurried, or until it is the slack
    behind its equal share (the search's CPU shared among the three: after 3 × SLACK of it)."""
    solver_or_skip("yices")
    patch_plan(monkeypatch, quick=None,
               search=lambda presolved, proof: default_plan(presolved, proof).search._replace(stall_cpu=0.05),
               entrants=(Entrant("yices", "lazy-local-general", 30.0),))


@pytest.mark.parametrize("unique", [False, True])
def test_a_stalled_search_lets_the_staged_racers_join_at_once(watched, monkeypatch, unique):
    """The search stalls: in a race for a solution the staged racer joins at once and answers
    (checked) long before its 30 s; in a race that must also prove the stall does not hurry it,
    and it joins once it is the slack behind its share (never starved for its whole delay).
    Either way the answer is the staged racer's, and it says when the search stalled."""
    monkeypatch.setattr(Fillomino, "search", _stalled_search)
    puzzle, expected = _random_puzzle(random.Random(7), 7)
    started = time.monotonic()
    result = solve(puzzle, CommandDriver(HANG, name="yices"), timeout=8, presolve="staged", unique=unique)
    assert "stalled" in result.message
    assert result.status is Status.SAT and result.grid in expected
    assert "lazy-local-general" in result.message and time.monotonic() - started < 8


def test_a_search_making_progress_never_stalls(watched, monkeypatch):
    """A search that keeps reaching nodes with fewer open cells is never stalled: nothing hurries
    the staged racer, which joins only once it is the slack behind its share, and answers."""
    monkeypatch.setattr(Fillomino, "search", _busy_search)
    puzzle, expected = _random_puzzle(random.Random(7), 7)
    result = solve(puzzle, CommandDriver(HANG, name="yices"), timeout=8, presolve="staged")
    assert "stalled" not in (result.message or "")
    assert result.status is Status.SAT and result.grid in expected and "lazy-local-general" in result.message
