"""``--solver rules``: the thesis' own solver (deduction rules plus backtracking) in solve."""

from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import INSTANCES
from fillsmt.cli import main
from fillsmt.fillomino.plain_format import parse_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import solve_with_rules
from fillsmt.smtlib.answer import Status

G12 = INSTANCES / "g12-5x5.txt"
G12_MINUS_A_CLUE = "5 5\n1 0 0 0 1\n0 0 0 1 0\n2 4 0 0 0\n1 0 2 1 0\n3 0 1 0 0\n"  # the last 2 removed


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_rules_solve_a_puzzle_and_the_grid_passes_the_checker():
    result = run("solve", "--solver", "rules", "--format", "json", G12)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    puzzle = parse_puzzle(G12.read_text(), "g12")
    assert obj["solver"] == "rules" and check_solution(puzzle.cells, obj["grid"]) == []
    assert "nodes" in obj["message"] and obj["presolved_cells"] > 0


def test_rules_prove_uniqueness_or_show_a_second_solution(tmp_path):
    result = run("solve", "--solver", "rules", "--unique", G12)
    assert result.exit_code == 0 and "unique (the rules plus backtracking searched every alternative)" in result.stderr
    path = tmp_path / "g12-minus.txt"
    path.write_text(G12_MINUS_A_CLUE)
    result = run("solve", "--solver", "rules", "--unique", "--format", "json", path)
    assert result.exit_code == 5, result.output
    obj = json.loads(result.stdout)
    puzzle = parse_puzzle(G12_MINUS_A_CLUE, "g12-minus")
    assert obj["unique"] is False and obj["grid"] != obj["second_grid"]
    assert check_solution(puzzle.cells, obj["grid"]) == [] and check_solution(puzzle.cells, obj["second_grid"]) == []
    assert obj["differing_cells"]


def test_rules_prove_a_contradiction_and_stop_at_the_time_out():
    result = run("solve", "--solver", "rules", INSTANCES / "unsat-1x2.txt")
    assert result.exit_code == 1 and "no solution" in result.stderr
    big = parse_puzzle("12 12\n" + "\n".join(" ".join("0" for _ in range(12)) for _ in range(12)) + "\n", "empty")
    found = solve_with_rules(big, timeout=1e-9, unique=True)  # an empty grid has many solutions
    assert found.status in (Status.SAT, Status.TIMEOUT) and found.unique is not True


def test_rules_refuse_what_they_cannot_do():
    result = run("solve", "--solver", "rules", "--forced", G12)
    assert result.exit_code == 2 and "--forced needs an SMT solver session" in result.output
    result = run("solve", "--solver", "rules", INSTANCES.parent / "blocknumber" / "random-5x5.txt")
    assert result.exit_code == 2 and "solves Fillomino puzzles only; this is a blocknumber puzzle" in result.output
    assert "Traceback" not in result.output
