"""Every command bounded, stoppable and honest, through the CLI as a user runs it: a long command
ends by its --timeout (or its documented default) with the best result so far, marked as such;
a signal stops it at once with 128 + the signal's number; a fault of the system or of a solver
is one line, never a traceback; and the rows of the commands' table (output paths, folders of
puzzles, standard output as ``-``, short messages for wrong grids)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import fillsmt
import fillsmt.fillomino.plain_format  # the tests read the printed grids with it
from conftest import INSTANCES, ROOT, shared_or_skip, solver_or_skip
from fillsmt.cli import main
from fillsmt.kinds import kind_of
from fillsmt.setter.clues import clues_of
from gridgen import without_clues
from procs import HAS_PROC
from test_signals import assert_clean_end, signalled_run

G12 = INSTANCES / "g12-5x5.txt"
UNSAT = INSTANCES / "unsat-1x2.txt"
GENERATED_15 = INSTANCES / "generated" / "15x15-1.txt"


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


def timed(*args, input=None):
    start = time.monotonic()
    result = run(*args, input=input)
    return result, time.monotonic() - start


def janko(name: str) -> Path:
    return shared_or_skip("janko-thesis100", "puzzles", f"{name}.txt")


def holey(tmp_path: Path, name: str, removed: int) -> Path:
    """Janko puzzle ``name`` with ``removed`` of its clues taken out (seeded by the name): a
    puzzle with many solutions, written as a plain file."""
    puzzle = without_clues(fillsmt.load(str(janko(name))), removed, f"{name}-{removed}")
    path = tmp_path / f"janko-{name}-minus-{removed}.txt"
    path.write_text(kind_of(puzzle).format_puzzle(puzzle))
    return path


def unique_by_z3(text: str) -> bool | None:
    solver_or_skip("z3")
    puzzle = fillsmt.fillomino.plain_format.parse_puzzle(text)
    return fillsmt.solve(puzzle, solver="z3", unique=True).unique


def schema(name: str) -> dict:
    return json.loads((ROOT / "docs" / name).read_text())


pytestmark = pytest.mark.usefixtures("yices")  # every test here runs yices


# --- repair -------------------------------------------------------------------------------------

def test_repair_of_a_janko_puzzle_without_four_clues_ends_by_its_timeout_with_its_best(tmp_path):
    path = holey(tmp_path, "016", 4)
    result, seconds = timed("repair", "--timeout", "30", path)
    assert seconds < 30 + 5
    assert result.exit_code in (0, 3), result.output
    assert unique_by_z3(result.stdout) is True
    given = set(clues_of(fillsmt.load(str(path))))
    repaired = set(fillsmt.fillomino.plain_format.parse_puzzle(result.stdout).clues())
    assert given < repaired
    assert f"{len(repaired - given)} clue" in result.stderr and "now unique (proven)" in result.stderr
    if result.exit_code == 3:  # the limit came before no solution was proven to need fewer
        assert "not proven the fewest (the time limit came" in result.stderr
        assert "every repair needs at least " in result.stderr
    else:
        assert "no solution needs fewer (proven)" in result.stderr


def test_repair_json_marks_a_repair_stopped_by_the_limit(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    path = holey(tmp_path, "015", 3)
    result, seconds = timed("repair", "--timeout", "20", "--format", "json", path)
    assert seconds < 20 + 5
    obj = json.loads(result.stdout)
    jsonschema.validate(obj, schema("repair.schema.json"))
    assert obj["status"] == "repaired" and obj["added_clues"]
    assert obj["fewest_proven"] is (result.exit_code == 0)
    assert (obj["stopped"] is None) is obj["fewest_proven"]
    assert 1 <= obj["fewest_at_least"] <= len(obj["added_clues"])
    assert (obj["fewest_at_least"] == len(obj["added_clues"])) is obj["fewest_proven"]


def test_repair_has_a_default_limit_in_its_help():
    assert "default: 60" in " ".join(run("repair", "--help").stdout.split())


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux's /proc")
@pytest.mark.parametrize("after", [1.0, 3.0, 5.0])
def test_repair_stops_at_ctrl_c(after, tmp_path):
    path = holey(tmp_path, "007", 4)
    err: list[str] = []
    code, seconds, seen = signalled_run(["repair", str(path)], signal.SIGINT, want_children=0, settle=after,
                                        stderr=err)
    assert_clean_end(code, seconds, seen, signal.SIGINT, grace=2.0)
    assert err[0].strip().splitlines()[-1] == "fillsmt: stopped by SIGINT", err[0]
    assert "Traceback" not in err[0]


# --- minimize -----------------------------------------------------------------------------------

def test_minimize_keep_rated_ends_by_its_limit_with_the_smallest_puzzle_so_far():
    path = janko("007")
    result, seconds = timed("minimize", "--keep-rated", "--timeout", "20", path)
    assert seconds < 20 + 5
    assert result.exit_code in (0, 3), result.output
    assert result.stdout, "the smallest puzzle found so far is printed"
    kept = set(fillsmt.fillomino.plain_format.parse_puzzle(result.stdout).clues())
    assert kept <= set(clues_of(fillsmt.load(str(path))))
    assert unique_by_z3(result.stdout) is True
    assert "still extreme" in result.stderr
    if result.exit_code == 3:
        assert "not minimal: the time limit came" in result.stderr
    else:
        assert "every clue left is needed" in result.stderr


def test_minimize_json_says_whether_it_is_minimal():
    jsonschema = pytest.importorskip("jsonschema")
    obj = json.loads(run("minimize", "--format", "json", G12).stdout)
    jsonschema.validate(obj, schema("repair.schema.json"))
    assert obj["minimal"] is True and obj["stopped"] is None and obj["clues_tried"] == obj["clues_before"]


# --- rate ---------------------------------------------------------------------------------------

def test_rate_of_a_generated_15x15_gives_a_label_within_a_minute_by_default():
    result, seconds = timed("rate", GENERATED_15)
    assert seconds < 60
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first == f"{GENERATED_15}: extreme"
    assert "(stopped early: lower bounds)" in result.stdout


# --- faults -------------------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["solve"], ["encode"], ["convert", "--to", "json"]], ids=lambda c: c[0])
def test_a_full_standard_output_is_one_line(command):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "fillsmt", *command, str(G12)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "fillsmt: cannot write the output: No space left on device\n"


def test_decode_of_a_wrong_answer_names_the_first_wrong_cells(tmp_path):
    big = INSTANCES / "generated" / "30x30-1.txt"
    puzzle = fillsmt.load(str(big))
    names = [kind_of(puzzle).cell_var(puzzle, r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    answer = tmp_path / "answer.txt"
    answer.write_text("sat\n(" + " ".join(f"({name} 1)" for name in names) + ")\n")  # every cell a 1
    result = run("decode", big, answer)
    assert result.exit_code == 4
    line, = result.stderr.splitlines()
    assert len(line) < 400, line
    assert line.startswith(f"Error: {answer}'s answer fails the independent check: row 1, column ")
    assert "more problems" in line


# --- outputs and inputs -------------------------------------------------------------------------

def test_render_writes_standard_output_for_a_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("render", G12, "-o", "-")
    assert result.exit_code == 0 and result.stdout.startswith("<svg ")
    assert not (tmp_path / "-").exists()


def test_solve_reads_a_folder_as_bench_does(tmp_path):
    folder = tmp_path / "set"
    (folder / "deeper").mkdir(parents=True)
    (folder / "a.txt").write_text(G12.read_text())
    (folder / "deeper" / "b.txt").write_text(UNSAT.read_text())
    (folder / "notes.md").write_text("not a puzzle")
    result = run("solve", "--format", "json", folder)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(Path(r["puzzle"]).name, r["status"]) for r in rows] == [("a.txt", "sat"), ("b.txt", "unsat")]
    assert result.exit_code == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("solve", G12, empty)
    assert result.exit_code == 2 and f"{empty}: no *.txt puzzle files in this folder" in result.stderr
    assert result.stdout.startswith("5 5\n")


def test_one_rule_for_output_paths(tmp_path, monkeypatch):
    """A file named on its own needs its folder (bench's reports like every other output); a
    series of files named by a pattern gets its folder made, so the README's example works."""
    missing = tmp_path / "nodir"
    plot = run("bench", G12, "-s", "yices", "--csv", tmp_path / "runs.csv", "--plot", missing / "p.png")
    made = run("generate", "-s", "4x4", "--seed", "1", "-q", "-o", missing / "p.txt")
    for result in (plot, made):
        assert result.exit_code == 2, result.output
        assert "does not exist" in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert not missing.exists()
    monkeypatch.chdir(tmp_path)
    series = run("generate", "--size", "4x4", "--count", "2", "--seed", "1", "-q", "-o", "puzzles/p{n}.txt")
    assert series.exit_code == 0, series.output
    assert sorted(p.name for p in (tmp_path / "puzzles").iterdir()) == ["p1.txt", "p2.txt"]
    assert "made when missing" in " ".join(run("--help").stdout.split())


def test_every_long_command_documents_its_limit():
    for command, default in (("repair", "60"), ("minimize", "60"), ("rate", "30")):
        text = " ".join(run(command, "--help").stdout.split())
        assert f"(default: {default}" in text, command
