"""Generation without an oracle (fillsmt.fillomino.rules_clues, the default of `fillsmt
generate`): the clues kept are those the deduction rules need, so the rules alone fill the
puzzle with the generated solution; on small grids no single clue can go with the rules still
solving it; the windows' wrong answers are undone by the whole-grid checks; --minimal then asks
the oracle for the rest."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from test_generate import regions
from test_generate_cli import unique_by_z3
from fillsmt.cli import main
from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.generate import generate
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import parse_puzzle
from fillsmt.fillomino.rules_clues import WHOLE_GRID_CELLS, RulesRemoval
from fillsmt.fillomino.verify import check_solution


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def without(puzzle: Puzzle, r: int, c: int) -> Puzzle:
    cells = tuple(tuple(0 if (i, j) == (r, c) else v for j, v in enumerate(row))
                  for i, row in enumerate(puzzle.cells))
    return Puzzle(puzzle.height, puzzle.width, cells)


def assert_rules_solve(made) -> None:
    """The rules fill the puzzle, with the generated solution, which the checker accepts."""
    found = deduce(made.puzzle)
    assert found.solved and found.grid() == made.solution
    assert check_solution(made.puzzle.cells, made.solution) == []
    assert made.oracle_calls == 0 and made.free_removals == made.clues_removed
    assert made.clues + made.clues_removed == made.puzzle.height * made.puzzle.width


@pytest.mark.parametrize("shape, seed", [((5, 5), 0), ((8, 8), 1), ((7, 13), "words"), ((10, 10), 3),
                                         ((12, 12), 4), ((16, 16), 5), ((9, 20), 6)])
def test_the_rules_alone_solve_the_puzzle(shape, seed):
    made = generate(*shape, seed=seed, unique_oracle=None)
    assert (made.puzzle.height, made.puzzle.width) == shape
    assert made.rating is None and not made.timed_out
    assert made.clues_removed > 0
    assert_rules_solve(made)


@pytest.mark.parametrize("shape, seed", [((6, 6), 0), ((8, 8), 1), ((10, 10), 2), ((5, 20), 3), ((10, 10), "x")])
def test_small_grids_keep_only_the_clues_the_rules_need(shape, seed):
    assert shape[0] * shape[1] <= WHOLE_GRID_CELLS
    made = generate(*shape, seed=seed, unique_oracle=None)
    assert_rules_solve(made)
    assert made.minimality == "rules-minimal" and not made.minimal  # minimal for the rules, not proven for uniqueness
    for r, c, _ in made.puzzle.clues():
        assert not deduce(without(made.puzzle, r, c)).solved, (r, c)


def test_no_unclued_keeps_a_clue_in_every_region():
    made = generate(10, 10, seed=7, unique_oracle=None, allow_unclued=False)
    assert_rules_solve(made)
    for _, cells in regions(made.solution):
        assert any(made.puzzle.cells[r][c] for r, c in cells)


def test_wrong_windows_are_undone_by_the_whole_grid_checks(monkeypatch):
    """Windows that let every clue go: the whole-grid checks give back what the rules need."""
    honest = generate(12, 12, seed=8, unique_oracle=None)
    monkeypatch.setattr(RulesRemoval, "_window_solves", lambda self, x: True)
    fooled = generate(12, 12, seed=8, unique_oracle=None)
    assert fooled.solution == honest.solution
    assert_rules_solve(fooled)
    assert fooled.clues > 0 and not fooled.minimal  # without any clue the rules fill nothing


def test_the_last_check_from_the_puzzle_alone_repairs_what_the_batches_missed(monkeypatch):
    """Batches whose questions all say "solved" once a clue is back: the last check, from the
    puzzle alone, gives back the rest."""
    asked = RulesRemoval._ask
    monkeypatch.setattr(RulesRemoval, "_window_solves", lambda self, x: True)
    monkeypatch.setattr(RulesRemoval, "_ask", lambda self, failed, back, fresh: asked(self, failed, back, fresh)
                        if fresh else None)
    made = generate(12, 12, seed=8, unique_oracle=None)
    assert_rules_solve(made)
    assert made.clues > 0


def test_same_seed_same_puzzle_on_grids_with_windows():
    a = generate(14, 14, seed=11, unique_oracle=None)
    assert a == generate(14, 14, seed=11, unique_oracle=None)
    assert a.puzzle.cells != generate(14, 14, seed=12, unique_oracle=None).puzzle.cells


@pytest.mark.parametrize("difficulty", ["hard", "fiendish", "extreme"])
def test_a_hard_puzzle_without_an_oracle_is_refused(difficulty):
    with pytest.raises(InputError, match=f"a {difficulty} puzzle needs a uniqueness oracle: the rules alone "
                                         "make easy and medium ones"):
        generate(6, 6, seed=1, unique_oracle=None, difficulty=difficulty)
    assert_rules_solve(generate(6, 6, seed=1, unique_oracle=None, difficulty="easy"))
    assert_rules_solve(generate(6, 6, seed=1, unique_oracle=None, difficulty="medium"))


# --- through the command line -------------------------------------------------------------------



def test_the_default_is_easy_and_unique_by_the_rules(yices):
    out = run("generate", "-s", "12x12", "--seed", "3")
    assert out.exit_code == 0, out.stderr
    assert out.stderr.startswith("fillsmt: 12x12 fillomino, seed 3: ")
    assert ", easy, near-minimal (unique by the deduction rules), " in out.stderr
    puzzle = parse_puzzle(out.stdout)
    found = deduce(puzzle)
    assert found.solved and check_solution(puzzle.cells, found.grid()) == []
    rated = run("rate", "--format", "json", "-", input=out.stdout)
    assert rated.exit_code == 0 and json.loads(rated.stdout)["label"] == "easy"
    assert run("generate", "-s", "12x12", "--seed", "3", "-q").stdout == out.stdout


def test_minimal_removes_more_and_stays_unique(yices, z3):
    rules = parse_puzzle(run("generate", "-s", "8x8", "--seed", "6", "-q").stdout)
    out = run("generate", "-s", "8x8", "--seed", "6", "--minimal")
    assert out.exit_code == 0, out.stderr
    assert ", minimal (" in out.stderr
    minimal = parse_puzzle(out.stdout)
    grid = unique_by_z3(minimal, z3)
    assert grid == deduce(rules).grid()  # the same solution
    kept = {(r, c) for r, c, _ in minimal.clues()}
    assert kept < {(r, c) for r, c, _ in rules.clues()}  # the oracle removes clues the rules needed
    for r, c in sorted(kept)[:6]:
        assert not deduce(without(minimal, r, c)).solved


@pytest.mark.parametrize("difficulty", ["hard", "fiendish"])
def test_a_hard_difficulty_is_what_rate_says(difficulty, yices, z3):
    out = run("generate", "-s", "6x6", "--seed", "1", "--difficulty", difficulty)
    assert out.exit_code == 0, out.stderr
    assert f", {difficulty}, " in out.stderr and "unique by the oracle" in out.stderr
    unique_by_z3(parse_puzzle(out.stdout), z3)
    rated = run("rate", "--format", "json", "-", input=out.stdout)
    assert json.loads(rated.stdout)["label"] == difficulty
