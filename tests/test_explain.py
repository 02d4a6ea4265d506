"""Explanations and hints (fillsmt.fillomino.explain): steps that replay to the solution, the
tracing state computing exactly what deduce computes, and hints that name exactly the wrong cells."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import INSTANCES, shared_or_skip, solver_or_skip
from test_backtrack import G12_SOLUTION
from fillsmt.fillomino.deduce import ALL_RULES, deduce, initial_masks
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.fixpoint import domain_sets, fixpoint
from fillsmt.fillomino.explain import explain, hint, replay
from fillsmt.fillomino.plain_format import read_grid, read_puzzle
from fillsmt.fillomino.trace import TracingState
from fillsmt.fillomino.verify import check_solution


def traced(puzzle):
    state = TracingState(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle), ALL_RULES)
    return state, fixpoint(state, ALL_RULES)


def sample_puzzles():
    yield from (read_puzzle(str(INSTANCES / n)) for n in ("g12-5x5.txt", "random-6x6.txt", "random-7x7.txt"))
    try:
        janko = shared_or_skip("janko-thesis100", "puzzles")
    except pytest.skip.Exception:
        return
    for name in ("007.txt", "017.txt", "031.txt"):
        yield read_puzzle(str(janko / name))


def test_tracing_computes_what_deduce_computes():
    for puzzle in sample_puzzles():
        plain = deduce(puzzle)
        state, contradiction = traced(puzzle)
        assert contradiction == plain.contradiction
        assert domain_sets(state.dom) == plain.domains
        assert state.fixed_by_rule == plain.fixed_by_rule
        assert state.removed_by_rule == plain.removed_by_rule
        removed = sum((c.old & ~c.new).bit_count() for c in state.changes)
        assert removed == sum(plain.removed_by_rule.values())


def agrees(step, solution):
    """Every number the step fixes is the solution's; no candidate it removes is."""
    assert all(solution[r][c] == v for r, c, v in step.cells), step.text
    assert all(solution[r][c] != v for r, c, v in step.removed), step.text


def test_g12_explained_with_one_case_split():
    solver_or_skip("yices")
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    e = explain(puzzle)
    assert e.status == "solved" and e.grid == G12_SOLUTION
    assert replay(puzzle, e.steps) == G12_SOLUTION
    for step in e.steps:
        agrees(step, G12_SOLUTION)
        assert step.rule in ALL_RULES + ("size-caps", "case-split")  # no solver step
    splits = [s for s in e.steps if s.rule == "case-split"]
    assert splits, "the rules alone stop at 21 cells"
    split = splits[0]
    r, c, v = split.tried
    assert G12_SOLUTION[r][c] != v and split.chain and split.contradiction
    data = json.loads(json.dumps(e.as_dict()))
    first = data["steps"][e.steps.index(split)]
    assert first["tried"] == [r, c, v] and isinstance(first["chain"], list)
    assert set(data["steps"][0]) >= {"rule", "cells", "removed", "because"}


def test_single_exit_step_reads_as_a_player_would_say_it():
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    state, _ = traced(puzzle)
    from fillsmt.fillomino.trace import steps_of
    exits = [s for s in steps_of(state.changes, state.board) if s.rule == "single-exit"]
    assert exits[0].text.startswith("the 2 at r3c1 can only grow through r2c1")
    assert exits[0].cells == [(1, 0, 2)] and exits[0].because == [(2, 0)]


def test_no_solution_ends_with_the_contradiction():
    puzzle = read_puzzle(str(INSTANCES / "unsat-1x2.txt"))
    e = explain(puzzle)
    assert e.status == "no-solution" and e.grid is None
    assert e.steps[-1].rule == "contradiction" and e.steps[-1].contradiction


@pytest.mark.parametrize("name", ["05x10-01.txt", "10x10-03.txt", "15x15-02.txt"])
def test_baron_explained_to_the_published_solution(name):
    base = shared_or_skip("baron-thesis60")
    puzzle = read_puzzle(str(base / "puzzles" / name))
    e = explain(puzzle)
    assert e.status == "solved"
    grid = replay(puzzle, e.steps)
    assert not check_solution(puzzle.cells, grid)
    for step in e.steps:
        assert step.rule in ALL_RULES + ("size-caps",)  # the rules solve every Baron puzzle alone


@pytest.mark.parametrize("name", ["007.txt", "016.txt", "031.txt"])
def test_janko_explained_to_the_published_solution(name):
    solver_or_skip("yices")
    base = shared_or_skip("janko-thesis100")
    puzzle = read_puzzle(str(base / "puzzles" / name))
    solution = read_grid(str(base / "solutions" / name))[2]
    e = explain(puzzle)
    assert e.status == "solved" and replay(puzzle, e.steps) == solution
    for step in e.steps:
        agrees(step, solution)
        for sub in step.chain:  # a hypothetical chain need not agree, but it is nested, not proven
            assert sub.rule in ALL_RULES + ("size-caps",)


# -- hints --------------------------------------------------------------------------------------

G12 = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
R77 = read_puzzle(str(INSTANCES / "random-7x7.txt"))


def solution_of(puzzle):
    return {G12: G12_SOLUTION}.get(puzzle) or deduce(puzzle).grid()


@st.composite
def progress_grids(draw, puzzle, mistakes: bool):
    """A player's grid: some cells of the solution filled in, and (with ``mistakes``) at least one
    empty cell holding a wrong number."""
    solution = solution_of(puzzle)
    h, w = puzzle.height, puzzle.width
    empty = [(r, c) for r in range(h) for c in range(w) if not puzzle.cells[r][c]]
    filled = draw(st.sets(st.sampled_from(empty), max_size=len(empty) - 1))
    grid = [list(row) for row in puzzle.cells]
    for r, c in filled:
        grid[r][c] = solution[r][c]
    wrong = set()
    if mistakes:
        wrong = draw(st.sets(st.sampled_from(empty), min_size=1, max_size=4))
        for r, c in wrong:
            grid[r][c] = draw(st.integers(1, 9).filter(lambda v, r=r, c=c: v != solution[r][c]))
    return tuple(tuple(row) for row in grid), wrong


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("puzzle", [G12, R77], ids=["g12", "random-7x7"])
def test_hint_names_exactly_the_wrong_cells(puzzle, data):
    solver_or_skip("yices")
    progress, wrong = data.draw(progress_grids(puzzle, mistakes=True))
    h = hint(puzzle, progress)
    assert h.status == "wrong" and set(h.wrong_cells) == wrong and h.step is None
    assert "step" not in h.as_dict()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("puzzle", [G12, R77], ids=["g12", "random-7x7"])
def test_hint_gives_a_correct_next_step(puzzle, data):
    solver_or_skip("yices")
    progress, _ = data.draw(progress_grids(puzzle, mistakes=False))
    solution = solution_of(puzzle)
    h = hint(puzzle, progress)
    assert h.status == "step" and h.wrong_cells == []
    assert h.step.cells, "the next step fixes a cell"
    for r, c, v in h.step.cells:
        assert progress[r][c] == 0 and solution[r][c] == v


def test_hint_on_a_finished_grid():
    solver_or_skip("yices")
    assert hint(G12, G12_SOLUTION).status == "solved"


@pytest.mark.parametrize("command", ["explain", "hint"])
def test_a_command_its_own_deadline_stopped_says_time_out_as_the_alarm_does(command, monkeypatch):
    # explain and hint watch their deadline themselves between rounds; whichever stops them (the
    # deadline or the alarm), the time-out is one line on standard error and the exit code 3
    import time

    from click.testing import CliRunner

    import fillsmt.fillomino.explain as module
    from fillsmt.cli import main
    from fillsmt.fillomino.explain import Explanation, Hint

    def stopped(puzzle, *args, deadline=None, **kwargs):
        time.sleep(max(0.0, deadline - time.monotonic()))
        return Explanation(puzzle, [], "stopped", None, "the time ran out") if command == "explain" \
            else Hint(puzzle, status="stopped", message="the time ran out")

    monkeypatch.setattr(module, command, stopped)
    result = CliRunner().invoke(main, [command, "--timeout", "0.2", str(INSTANCES / "g12-5x5.txt")])
    assert result.exit_code == 3
    what = "explanation" if command == "explain" else "hint"
    assert result.stderr.startswith(f"Error: time-out: no {what} within 0.2 s; ") and result.stderr.count("\n") == 1
    assert "stopped" in result.stdout


def test_a_command_that_ends_before_its_deadline_says_no_time_out():
    from click.testing import CliRunner

    from fillsmt.cli import main

    result = CliRunner().invoke(main, ["explain", "--timeout", "60", str(INSTANCES / "g12-5x5.txt")])
    assert result.exit_code == 0 and result.stderr == ""
