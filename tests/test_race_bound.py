"""The race's worst case, bounded by design (``docs/solving.md``, "The bound"): whatever the plan's
weights guess, a race of k entrants uses at most about k × (its best entrant alone + the slack) of
CPU before it answers.

Adversarial races through the real mechanism: fake entrants (solver processes that burn a chosen
amount of CPU, then answer g12's solution) raced by the real race and time slices, on one CPU
(as a bench job races), the plan's weights set against the one that answers. Each test asserts
the bound in CPU seconds of the racers' processes (the children this process reaped), so a busy
machine does not flake it: the plan's favourite never finishes; only the entrant with the least
weight does; all finish at once; one answers at once; the kind's own search is the favourite and
never finishes.
"""

from __future__ import annotations

import resource
import sys
import textwrap
import time

import pytest

from conftest import INSTANCES, patch_plan
from fillsmt.drivers.binaries import CommandDriver
from fillsmt.drivers.registry import add_solver, remove_solver
from fillsmt.engine.pipeline import solve
from fillsmt.engine.plan import Entrant
from fillsmt.engine.request import DEFAULT_SOLVER
from fillsmt.engine.schedule import SLACK, SLICE, can_slice, race_cpus_at_most
from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.smtlib.answer import Status

pytestmark = pytest.mark.skipif(not can_slice(), reason="this system cannot stop and continue process groups")

G12 = INSTANCES / "g12-5x5.txt"
G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))
NEVER = 600.0
"""CPU seconds of an entrant that never answers within a test."""
EXTRA = 4 * SLICE + 0.1
"""Per entrant, what the bound allows on top of the slack: a slice of another's CPU before each
look, and the CPU readings' clock ticks and the processes' own start."""

FAKE = textwrap.dedent(
    """
    import os, sys, time
    sys.stdin.read()
    burn, log = float(sys.argv[1]), sys.argv[2]
    noted = 0.0
    while (used := time.process_time()) < burn:
        if used - noted >= 0.01:  # the CPU so far, for the test to read after a kill
            with open(log, "w") as out:
                out.write(str(used))
            noted = used
    with open(log, "w") as out:
        out.write(str(time.process_time()))
    cells = " ".join(f"(n_{r}_{c} {v})" for r, row in enumerate(%r) for c, v in enumerate(row))
    print("sat")
    print(f"({cells})")
    """
    % (G12_SOLUTION,)
)


def _fake(tmp_path, name: str, seconds: float) -> CommandDriver:
    """A solver that reads the script, burns ``seconds`` of CPU, then answers g12's solution; it
    notes its CPU so far in ``NAME.cpu`` beside the script (:func:`_racers_cpu`)."""
    script = tmp_path / "fake_solver.py"
    script.write_text(FAKE)
    return CommandDriver([sys.executable, str(script), str(seconds), str(tmp_path / f"{name}.cpu")], name=name)


def _racers_cpu(tmp_path) -> float:
    """The CPU seconds the fake solvers noted (each its last note: a killed one within 10 ms)."""
    return sum(float(p.read_text() or 0) for p in tmp_path.glob("*.cpu"))


@pytest.fixture
def fakes(tmp_path):
    """Register fake solvers by name: ``fakes({"a": seconds, ...})``; they leave with the test."""
    names: list[str] = []

    def register(burns: dict[str, float]) -> None:
        for name, seconds in burns.items():
            add_solver(name, lambda name=name, seconds=seconds: _fake(tmp_path, name, seconds))
            names.append(name)

    yield register
    for name in names:
        remove_solver(name)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _race(tmp_path, monkeypatch, lead: tuple[float, float], others: list[tuple[str, float, float]], search=None):
    """Race g12 on one CPU in the default configuration's staged race: the lead (a fake taken for
    the default solver: CPU seconds to answer, weight) and ``others`` (name, seconds, weight) as
    entrants, no quick search; the result and the CPU its racers' processes used."""
    seconds, weight = lead
    patch_plan(
        monkeypatch,
        quick=None,
        search=search,
        weight=weight,
        entrants=tuple(Entrant(n, "tree-bfs", 0.0, w) for n, _, w in others),
    )
    puzzle = read_puzzle(str(G12))
    before = _children_cpu()
    with race_cpus_at_most(1):
        result = solve(puzzle, _fake(tmp_path, DEFAULT_SOLVER, seconds), timeout=120, presolve="staged")
    time.sleep(0.2)  # the killed search child reaped
    if search is not None:  # the search child, and the fakes that answered: all reaped here
        return result, _children_cpu() - before
    return result, _racers_cpu(tmp_path)


def _bound(k: int, best: float) -> float:
    return k * (best + SLACK + EXTRA)


def test_the_favourite_never_finishes(tmp_path, monkeypatch, fakes):
    fakes({"answers": 1.0})
    result, cpu = _race(tmp_path, monkeypatch, (NEVER, 5.0), [("answers", 1.0, 1.0)])
    assert result.status is Status.SAT and result.grid == G12_SOLUTION
    assert "answered first by answers/tree-bfs" in result.message
    assert 1.0 <= cpu <= _bound(2, 1.0), cpu


def test_only_the_entrant_with_the_least_weight_finishes(tmp_path, monkeypatch, fakes):
    fakes({"heavy": NEVER, "light": 0.8})
    result, cpu = _race(tmp_path, monkeypatch, (NEVER, 5.0), [("heavy", NEVER, 3.0), ("light", 0.8, 1.0)])
    assert result.status is Status.SAT and "answered first by light/tree-bfs" in result.message
    assert 0.8 <= cpu <= _bound(3, 0.8), cpu


def test_all_finish_at_once(tmp_path, monkeypatch, fakes):
    fakes({"second": 0.6})
    result, cpu = _race(tmp_path, monkeypatch, (0.6, 5.0), [("second", 0.6, 1.0)])
    assert result.status is Status.SAT and result.grid == G12_SOLUTION
    assert 0.6 <= cpu <= _bound(2, 0.6), cpu


def test_an_entrant_that_answers_at_once(tmp_path, monkeypatch, fakes):
    fakes({"quick": 0.0})
    result, cpu = _race(tmp_path, monkeypatch, (NEVER, 5.0), [("quick", 0.0, 1.0)])
    assert result.status is Status.SAT and "answered first by quick/tree-bfs" in result.message
    assert cpu <= _bound(2, 0.0), cpu


def test_the_search_as_the_favourite_never_finishes(tmp_path, monkeypatch):
    """The kind's own search (a forked child) has the plan's weight and never answers; the lead
    answers after a second of CPU."""

    def burning(self, puzzle, limit, deadline=None, progress=None, options=None, budget=None):
        while True:
            pass

    monkeypatch.setattr(Fillomino, "search", burning)
    from fillsmt.engine.plan import search_entrant

    result, cpu = _race(tmp_path, monkeypatch, (1.0, 1.0), [], search=search_entrant(delay=0.0, weight=5.0))
    assert result.status is Status.SAT and result.solver == DEFAULT_SOLVER
    assert 1.0 <= cpu <= _bound(2, 1.0), cpu
