"""The command line: help, exact messages and the documented exit codes."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from conftest import DATA, INSTANCES
from fillsmt import __version__
from fillsmt.cli import main

G12 = str(INSTANCES / "g12-5x5.txt")
UNSAT = str(INSTANCES / "unsat-1x2.txt")
G12_OUT = "5 5\n1 4 2 2 1\n2 4 4 1 4\n2 4 2 4 4\n1 3 2 1 4\n3 3 1 2 2\n"
ANSWERS = DATA / "answers"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)



@pytest.mark.parametrize("command", [[], ["solve"], ["encode"], ["decode"], ["check"], ["solvers"], ["bench"]])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_command_has_help_with_examples(command, flag):
    result = run(*command, flag)
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert "Usage: " in result.stdout


def test_version():
    assert run("--version").stdout == f"fillsmt, version {__version__}\n"


def test_solve_prints_the_puzzle_format(z3):
    result = run("solve", G12)
    assert (result.exit_code, result.stdout, result.stderr) == (0, G12_OUT, "")


def test_solve_reads_standard_input(z3):
    result = run("solve", "-", input=(INSTANCES / "g12-5x5.txt").read_text())
    assert (result.exit_code, result.stdout) == (0, G12_OUT)


def test_solve_output_feeds_back_to_check(z3):
    solved = run("solve", G12).stdout
    result = run("check", G12, "-", input=solved)
    assert (result.exit_code, result.stdout) == (0, "<stdin>: valid\n")


def test_defaults_are_the_fastest_measured_configuration():
    from fillsmt.fillomino.encodings import DEFAULT_ENCODING
    from fillsmt.engine.pipeline import DEFAULT_PRESOLVE, DEFAULT_SOLVER
    assert (DEFAULT_SOLVER, DEFAULT_ENCODING, DEFAULT_PRESOLVE) == ("yices", "tree-bfs", True)


def test_solve_pretty_draws_borders(z3):
    result = run("solve", "--solver", "z3", "--no-presolve", "--format", "pretty", G12)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{G12}: solved by z3 in ")
    assert lines[1] == "┌───┬───┬───────┬───┐"
    assert lines[2] == "│ 1 │ 4 │ 2   2 │ 1 │"
    assert lines[-1] == "└───────┴───┴───────┘"


def test_solve_json_has_the_documented_fields(z3):
    result = run("solve", "-s", "z3", "-e", "thesis", "--no-presolve", "-f", "json", G12, UNSAT)
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["status"] == "sat" and first["solver"] == "z3" and first["encoding"] == "thesis"
    assert first["grid"][0] == [1, 4, 2, 2, 1]
    assert set(first["times"]) == {"presolve", "encode", "solve", "check", "total"}
    assert second["status"] == "unsat" and second["grid"] is None


def test_unsat_exits_1_with_a_message(z3):
    result = run("solve", "--solver", "z3", "--no-presolve", UNSAT)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"fillsmt: {UNSAT}: no solution (the solver proved the puzzle unsatisfiable)\n"


def test_malformed_puzzle_exits_2_naming_file_and_line(z3):
    bad = str(DATA / "malformed" / "non-integer.txt")
    result = run("solve", bad)
    assert result.exit_code == 2
    assert result.stderr == f"fillsmt: {bad}:2: expected an integer for the cell at row 1, column 2, found 'x'\n"


def test_several_puzzles_go_on_after_a_bad_one_and_exit_with_the_worst_code(z3):
    bad = str(DATA / "malformed" / "too-few.txt")
    result = run("solve", "--no-presolve", G12, bad, UNSAT, G12)
    assert result.exit_code == 2
    assert result.stdout == G12_OUT + "\n" + G12_OUT
    assert result.stderr.splitlines() == [
        f"fillsmt: {bad}:3: expected 4 cell values (2 rows of 2), found 3",
        f"fillsmt: {UNSAT}: no solution (the solver proved the puzzle unsatisfiable)",
    ]


def test_missing_file_exits_2():
    result = run("solve", "--solver", "z3-api", "nope.txt")
    assert (result.exit_code, result.stderr) == (2, "fillsmt: nope.txt: no such file\n")


def test_missing_solver_exits_4_with_install_hint():
    result = run("solve", "--solver-cmd", "no-such-solver-fillsmt --flag", G12)
    assert result.exit_code == 4
    assert result.stderr.startswith("Error: solver 'no-such-solver-fillsmt --flag' not found "
                                    "(no-such-solver-fillsmt is not in ")
    assert result.stderr.endswith(" nor on PATH)\n")


def test_hanging_solver_times_out_with_exit_3(tmp_path, monkeypatch):
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(tmp_path / "pids"))
    cmd = f"{sys.executable} {DATA / 'hang_solver.py'}"
    result = run("solve", "--no-presolve", "--solver-cmd", cmd, "--timeout", "1", G12)
    assert result.exit_code == 3
    assert result.stderr == f"fillsmt: {G12}: time-out: {cmd} gave no answer within 1 s and was stopped\n"


def test_garbage_solver_exits_4_quoting_it():
    cmd = f"{sys.executable} {DATA / 'garbage_solver.py'}"
    result = run("solve", "--no-presolve", "--solver-cmd", cmd, G12)
    assert result.exit_code == 4
    assert result.stderr == (f"fillsmt: {G12}: solver failure: {cmd} gave no answer "
                             f"(exit code 3): 'I am not an SMT solver'\n")


@pytest.mark.parametrize("args, message", [
    (["solve", "--solver", "cplex", G12], "unknown solver 'cplex'"),
    (["solve", "--timeout", "0", G12], "Invalid value for '--timeout'"),
    (["solve", "--encoding", "magic", G12], "Invalid value for '--encoding'"),
    (["solve"], "Missing argument 'PUZZLE...'"),
    (["frobnicate"], "No such command 'frobnicate'"),
])
def test_usage_errors_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_encode_to_stdout_and_file(tmp_path):
    out = tmp_path / "g12.smt2"
    to_stdout = run("encode", G12)
    assert to_stdout.exit_code == 0 and to_stdout.stdout.startswith("(set-info :smt-lib-version 2.6)\n")
    assert run("encode", G12, "-o", str(out)).exit_code == 0
    assert out.read_text() == to_stdout.stdout


def test_encode_never_overwrites_without_force(tmp_path):
    out = tmp_path / "mine.smt2"
    out.write_text("precious")
    result = run("encode", G12, "-o", str(out))
    assert (result.exit_code, result.stderr) == (2, f"Error: {out}: already exists; use --force to replace it\n")
    assert out.read_text() == "precious"
    assert run("encode", G12, "-o", str(out), "--force").exit_code == 0
    assert out.read_text().startswith("(set-info :smt-lib-version 2.6)\n")


def test_encode_never_overwrites_the_puzzle(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("1 1\n1\n")
    result = run("encode", str(puzzle), "-o", str(puzzle), "--force")
    assert (result.exit_code, result.stderr) == (2, f"Error: {puzzle}: refusing to overwrite the puzzle file itself\n")
    assert puzzle.read_text() == "1 1\n1\n"


def test_encode_into_a_missing_directory(tmp_path):
    target = tmp_path / "no" / "x.smt2"
    result = run("encode", G12, "-o", str(target))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


@pytest.mark.parametrize("answer", ["g12.z3.out", "g12.yices.out", "g12.pysmt-z3.out"])
def test_decode_real_answers(answer):
    result = run("decode", G12, str(ANSWERS / answer))
    assert (result.exit_code, result.stdout) == (0, G12_OUT)


def test_decode_unsat_answer_exits_1():
    result = run("decode", UNSAT, str(ANSWERS / "unsat.z3.out"))
    assert result.exit_code == 1
    assert result.stderr == f"Error: {ANSWERS / 'unsat.z3.out'}: the solver found no solution (unsat)\n"


def test_decode_malformed_answer_exits_2_with_line(tmp_path):
    bad = tmp_path / "answer.txt"
    bad.write_text("sat\n((n_0_0 1))\n((n_0_1 4)\n")
    result = run("decode", G12, str(bad))
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {bad}:3: unbalanced '(' (the text ends inside an expression)\n")


def test_decode_refuses_an_answer_that_fails_the_check(tmp_path):
    liar = tmp_path / "answer.txt"
    liar.write_text("sat\n(" + " ".join(f"(n_{r}_{c} 1)" for r in range(5) for c in range(5)) + ")\n")
    result = run("decode", G12, str(liar))
    assert result.exit_code == 4
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {liar}'s answer fails the independent check: ")
    assert result.stderr == (f"Error: {liar}'s answer fails the independent check: row 3, column 1 holds 1, but "
                             "the clue is 2; row 3, column 2 holds 1, but the clue is 4; row 4, column 3 holds 1, but "
                             "the clue is 2; and 2 more problems\n")


def test_decode_of_a_very_wrong_answer_is_one_short_line(tmp_path):
    """A 60x60 grid of 1s on a puzzle of 2s breaks 3600 rules: the message names the first
    cells and counts the rest, on one line."""
    puzzle = tmp_path / "twos.txt"
    puzzle.write_text("60 60\n" + "\n".join(" ".join(["2"] * 60) for _ in range(60)) + "\n")
    liar = tmp_path / "answer.txt"
    liar.write_text("sat\n(" + " ".join(f"(n_{r}_{c} 1)" for r in range(60) for c in range(60)) + ")\n")
    result = run("decode", str(puzzle), str(liar))
    assert result.exit_code == 4 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 300, result.stderr
    assert result.stderr.endswith("; row 1, column 3 holds 1, but the clue is 2; and 3597 more problems\n")


def test_decode_incomplete_answer_exits_4(tmp_path):
    partial = tmp_path / "answer.txt"
    partial.write_text("sat\n((n_0_0 1))\n")
    result = run("decode", G12, str(partial))
    assert result.exit_code == 4
    assert "no value for n_0_1 (row 1, column 2)" in result.stderr


def test_check_valid_and_invalid(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(G12_OUT)
    result = run("check", G12, str(good))
    assert (result.exit_code, result.stdout) == (0, f"{good}: valid\n")
    bad = tmp_path / "bad.txt"
    bad.write_text(G12_OUT.replace("3 3 1 2 2", "3 3 1 1 2"))  # an unclued cell changed
    result = run("check", G12, str(bad))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{bad}: the region of 1s at row 4, column 4 has 3 cells, not 1",
        f"{bad}: the region of 2s at row 5, column 5 has 1 cell, not 2",
        f"{bad}: invalid (2 problems)",
    ]


def test_check_reports_every_broken_rule(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("5 5\n1 4 2 2 1\n2 4 4 1 4\n2 4 2 4 4\n1 3 2 1 4\n3 3 1 2 1\n")
    result = run("check", G12, str(bad))
    assert result.exit_code == 1
    assert result.stdout == (f"{bad}: row 5, column 5 holds 1, but the clue is 2\n"
                             f"{bad}: invalid (1 problem)\n")


def test_check_malformed_solution_exits_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("5 5\n1 4 2\n")
    result = run("check", G12, str(bad))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {bad}:2: expected 25 cell values (5 rows of 5), found 3\n"


def test_solvers_lists_each_solver():
    result = run("solvers")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["SOLVER", "AVAILABLE", "VERSION", "LOCATION"]
    names = [line.split()[0] for line in lines[1:]]
    assert names[:4] == ["z3", "yices", "z3-api", "pysmt"]


def test_presolve_proves_contradictory_clues_without_a_solver():
    result = run("solve", "--presolve", UNSAT)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"fillsmt: {UNSAT}: no solution: the deduction rules prove there is no solution: ")


def test_presolve_solves_a_puzzle_by_logic_alone():
    path = str(INSTANCES / "random-7x7.txt")
    result = run("solve", "--presolve", "--format", "pretty", path)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith(f"{path}: solved by the deduction rules in ")


def test_presolve_json_reports_fixed_cells(z3):
    result = run("solve", "-s", "z3", "-e", "tree", "--presolve", "-f", "json", G12)
    obj = json.loads(result.stdout)
    assert result.exit_code == 0 and obj["status"] == "sat"
    clues = sum(1 for row in (INSTANCES / "g12-5x5.txt").read_text().split()[2:] if row != "0")
    assert clues < obj["presolved_cells"] < 25
    assert obj["grid"][0] == [1, 4, 2, 2, 1]


def test_encode_with_presolve_writes_a_smaller_script():
    plain = run("encode", "-e", "tree", "--no-presolve", G12).stdout
    presolved = run("encode", "-e", "tree", "--presolve", G12).stdout
    assert presolved.startswith("(set-info :smt-lib-version 2.6)\n") and len(presolved) < len(plain)
    assert "presolve on, " in presolved and "presolve off;" in plain


def test_encode_with_presolve_refuses_a_contradiction():
    result = run("encode", "--presolve", UNSAT)
    assert result.exit_code == 1
    assert "the deduction rules prove there is no solution" in result.stderr
