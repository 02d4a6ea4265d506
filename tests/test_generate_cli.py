"""`fillsmt generate` and `fillsmt rate` through the command line: the same seed gives the same
puzzle, the options are respected, every puzzle is unique by a second solver (z3), bad input
exits 2 with one line, and ratings have the documented structure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT
from test_generate import regions
from fillsmt.blocknumber.plain_format import parse_puzzle as parse_block
from fillsmt.cli import main
from fillsmt.fillomino.plain_format import parse_puzzle
from fillsmt.fillomino.rating import THESIS_RULES
from fillsmt.engine.pipeline import solve

GENERATED = ROOT / "instances" / "fillomino" / "generated"
BLOCK_INSTANCES = ROOT / "instances" / "blocknumber"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])




def puzzles_in(text: str) -> list[str]:
    """The puzzles of a multi-puzzle output (blank-line separated)."""
    return [p + "\n" for p in text.strip("\n").split("\n\n")]


def unique_by_z3(puzzle, z3):
    """The second opinion: z3 (not the generator's yices) proves the puzzle unique."""
    result = solve(puzzle, z3, unique=True, presolve=False)
    assert result.unique is True, result.message
    return result.grid


# --- help ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["generate", "rate"])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_with_examples(command, flag):
    result = run(command, flag)
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and f"fillsmt {command} " in result.stdout
    assert "Exit codes" in result.stdout
    assert command in run("--help").stdout


# --- generate: determinism, size, options -------------------------------------------------------

def test_same_seed_same_output_twice(yices):
    first = run("generate", "--size", "6x6", "--seed", "5")
    second = run("generate", "--size", "6x6", "--seed", "5")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert "seed 5:" in first.stderr and "clues" in first.stderr


def test_different_seeds_differ(yices):
    outputs = {run("generate", "-s", "6x6", "--seed", s, "-q").stdout for s in ("1", "2", "3")}
    assert len(outputs) == 3


def test_word_seeds_and_count_are_deterministic(yices):
    many = run("generate", "-s", "5x5", "--seed", "abc", "--count", "3", "-q")
    assert many.exit_code == 0
    parts = puzzles_in(many.stdout)
    assert len(parts) == 3 and len(set(parts)) == 3
    # puzzle i of --count is the puzzle of --seed SEED-i
    assert run("generate", "-s", "5x5", "--seed", "abc-2", "-q").stdout == parts[1]


def test_size_is_respected_and_every_puzzle_is_unique_by_z3(yices, z3):
    out = run("generate", "--size", "4x7", "--seed", "11", "--count", "3", "-q")
    assert out.exit_code == 0
    for text in puzzles_in(out.stdout):
        assert text.splitlines()[0] == "4 7"
        puzzle = parse_puzzle(text)
        assert len(puzzle.cells) == 4 and all(len(row) == 7 for row in puzzle.cells)
        unique_by_z3(puzzle, z3)


def test_no_unclued_gives_every_region_a_clue(yices, z3):
    out = run("generate", "-s", "6x6", "--seed", "4", "--no-unclued", "--count", "2", "-q")
    assert out.exit_code == 0
    for text in puzzles_in(out.stdout):
        puzzle = parse_puzzle(text)
        grid = unique_by_z3(puzzle, z3)
        for _, region in regions(grid):
            assert any(puzzle.cells[r][c] for r, c in region)


def test_max_region_is_respected(yices, z3):
    out = run("generate", "-s", "6x6", "--seed", "9", "--max-region", "4", "-q")
    grid = unique_by_z3(parse_puzzle(out.stdout), z3)
    assert max(v for row in grid for v in row) <= 4


def test_the_search_oracle_gives_the_same_puzzle(yices):
    by_smt = run("generate", "-s", "5x5", "--seed", "21", "-q")
    by_search = run("generate", "-s", "5x5", "--seed", "21", "-q", "--solver", "search")
    assert by_smt.exit_code == by_search.exit_code == 0
    assert by_smt.stdout == by_search.stdout


def test_a_missing_seed_is_printed_so_the_run_can_be_repeated(yices):
    out = run("generate", "-s", "4x4")
    assert out.exit_code == 0
    first = out.stderr.splitlines()[0]
    assert first.startswith("fillsmt: no --seed given; using --seed ")
    seed = first.rsplit(" ", 1)[1]
    assert run("generate", "-s", "4x4", "--seed", seed, "-q").stdout == out.stdout


def test_a_timeout_keeps_the_puzzle_unique_and_warns(yices):
    out = run("generate", "-s", "6x6", "--seed", "2", "--timeout", "0.000001")
    assert out.exit_code == 0
    assert "--timeout 1e-06 reached" in out.stderr and "near-minimal" in out.stderr
    assert parse_puzzle(out.stdout).empty_cells == 0  # stopped before removing anything


def test_output_files(tmp_path, yices):
    single = tmp_path / "one.txt"
    assert run("generate", "-s", "5x5", "--seed", "1", "-q", "-o", single).exit_code == 0
    assert single.read_text() == run("generate", "-s", "5x5", "--seed", "1", "-q").stdout
    pattern = tmp_path / "p{n}.txt"
    assert run("generate", "-s", "5x5", "--seed", "x", "--count", "2", "-q", "-o", pattern).exit_code == 0
    assert sorted(p.name for p in tmp_path.glob("p*.txt")) == ["p1.txt", "p2.txt"]
    assert (tmp_path / "p2.txt").read_text() == run("generate", "-s", "5x5", "--seed", "x-2", "-q").stdout


def test_an_existing_file_is_kept_without_force(tmp_path, yices):
    target = tmp_path / "mine.txt"
    target.write_text("precious")
    out = run("generate", "-s", "5x5", "--seed", "1", "-o", target)
    assert (out.exit_code, out.stderr) == (2, f"Error: {target}: already exists; use --force to replace it\n")
    assert target.read_text() == "precious"
    assert run("generate", "-s", "5x5", "--seed", "1", "-o", target, "--force", "-q").exit_code == 0
    assert target.read_text().startswith("5 5\n")


@pytest.mark.parametrize("args, message", [
    (["-s", "10by10"], "Error: --size '10by10': expected HEIGHTxWIDTH, e.g. 10x10 (or one number for a square)\n"),
    (["-s", "0x5"], "Error: --size '0x5': a grid needs at least one row and one column\n"),
    (["-s", "100x10"], "Error: --size '100x10': at most 60 rows and 60 columns\n"),
    (["-s", "6x6", "-k", "blocknumber", "--difficulty", "hard"],
     "Error: --difficulty is for Fillomino only (BlockNumber puzzles are not rated)\n"),
    (["-s", "6x6", "-k", "blocknumber", "--no-unclued"],
     "Error: --unclued/--no-unclued is for Fillomino only (BlockNumber blocks are given)\n"),
    (["-s", "6x6", "-k", "blocknumber", "--solver", "search"],
     "Error: --solver search is for Fillomino only; BlockNumber needs an SMT solver (yices, z3, z3-api, pysmt)\n"),
    (["-s", "6x6", "-k", "blocknumber", "--max-region", "3"],
     "Error: a 6x6 grid needs blocks of up to 4 cells (each 2x2 square holds four different numbers); "
     "max_block is 3\n"),
    (["-s", "6x6", "--count", "2", "-o", "p.txt"],
     "Error: -o p.txt: with --count 2, the file name needs {n} (1, 2, …) or {seed}, e.g. -o puzzles/p{n}.txt\n"),
    (["-s", "6x6", "--solver", "portfolio"],
     "Error: --solver portfolio: portfolio(yices,z3) offers no incremental session; use yices, z3, z3-api, "
     "pysmt, yices-api, cvc5, bitwuzla, z3-prop or search\n"),
    (["-s", "6x6", "--solver", "cplex"], "Error: unknown solver 'cplex'; choose one of "),
])
def test_bad_options_exit_2_with_one_line(args, message, yices):
    out = run("generate", *args)
    assert out.exit_code == 2
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1
    assert out.stdout == "" and "Traceback" not in out.stderr


def test_unknown_difficulty_is_a_usage_error():
    out = run("generate", "-s", "6x6", "--difficulty", "impossible")
    assert out.exit_code == 2 and "Invalid value for '--difficulty'" in out.stderr


# --- generate: BlockNumber ----------------------------------------------------------------------

def test_blocknumber_is_unique_by_z3_and_deterministic(yices, z3):
    out = run("generate", "-k", "blocknumber", "-s", "5x7", "--seed", "3", "--count", "2")
    assert out.exit_code == 0 and out.stderr.count("blocknumber, seed 3-") == 2
    texts = puzzles_in(out.stdout)
    for text in texts:
        puzzle = parse_block(text)
        assert (puzzle.height, puzzle.width) == (5, 7) and max(puzzle.block_sizes()) <= 5
        unique_by_z3(puzzle, z3)
    assert run("generate", "-k", "blocknumber", "-s", "5x7", "--seed", "3-1", "-q").stdout == texts[0]


@pytest.mark.parametrize("name, size, seed", [("random-5x5", "5x5", 1), ("random-6x6", "6x6", 2)])
def test_blocknumber_remakes_the_shipped_instances(name, size, seed, yices):
    """make_instances.py removed givens in the same seeded order with z3, one run per step:
    an exact oracle, so the same puzzles."""
    out = run("generate", "-k", "blocknumber", "-s", size, "--seed", seed, "-q")
    made, shipped = parse_block(out.stdout), parse_block((BLOCK_INSTANCES / f"{name}.txt").read_text())
    assert (made.givens, made.blocks) == (shipped.givens, shipped.blocks)


# --- rate ---------------------------------------------------------------------------------------

def test_rate_rules_alone_is_medium_when_the_basic_strategies_need_more():
    out = run("rate", INSTANCES / "random-7x7.txt")
    assert out.exit_code == 0
    assert out.stdout.splitlines()[0].endswith("random-7x7.txt: medium")
    assert "rules alone: solve it (30 of 30 empty cells fixed)" in out.stdout
    assert "search: max depth 0, 0 guesses, 1 node," in out.stdout
    assert "  grade: medium, 1 node, more than 10 nodes with the basic strategies (" in out.stdout


def test_rate_json_structure():
    out = run("rate", "--format", "json", INSTANCES / "g12-5x5.txt", INSTANCES / "random-7x7.txt")
    assert out.exit_code == 0
    g12, easy = [json.loads(line) for line in out.stdout.splitlines()]
    for obj in (g12, easy):
        assert {"puzzle", "label", "status", "rules_solve", "rules_fixed", "rules_used", "search_rules_used",
                "max_depth", "guesses", "nodes", "seconds", "solution"} <= set(obj)
    assert (g12["label"], g12["max_depth"], g12["nodes"], g12["rules_solve"], g12["basic_nodes"]) == (
        "hard", 1, 3, False, None)
    assert (easy["label"], easy["max_depth"], easy["guesses"], easy["rules_solve"]) == ("medium", 0, 0, True)
    assert easy["nodes"] == 1 and easy["basic_nodes"] == 11
    assert sum(easy["rules_used"].values()) == easy["rules_fixed"] == 30


COMMITTED_GRADES = {
    "10x10-clued-1.txt": "fiendish", "10x10-clued-2.txt": "fiendish", "10x10-easy-1.txt": "medium",
    "10x10-easy-2.txt": "easy", "10x10-fiendish-1.txt": "fiendish", "10x10-fiendish-2.txt": "fiendish",
    "10x10-hard-1.txt": "fiendish", "10x10-hard-2.txt": "fiendish", "10x10-medium-1.txt": "hard",
    "10x10-medium-2.txt": "hard", "15x15-1.txt": "extreme", "15x15-hard-1.txt": "hard",
}
"""The grades of generated/README.md's table (the names say what was asked on an older scale)."""


def test_rate_committed_generated_instances():
    paths = [GENERATED / name for name in COMMITTED_GRADES if (GENERATED / name).exists()]
    if not paths:
        pytest.skip(f"no generated instances in {GENERATED}")
    out = run("rate", "--format", "json", "--max-nodes", "200", *paths)
    assert out.exit_code == 0, out.output
    for line in out.stdout.splitlines():
        obj = json.loads(line)
        assert obj["status"] in ("solved", "stopped") and obj["clues"] > 0
        assert obj["label"] == COMMITTED_GRADES[Path(obj["puzzle"]).name], obj["puzzle"]


def test_rate_exit_codes():
    assert run("rate", INSTANCES / "unsat-1x2.txt").exit_code == 1
    stopped = run("rate", "--max-nodes", "1", INSTANCES / "g12-5x5.txt")
    assert stopped.exit_code == 3 and "stopped early" in stopped.stdout


def test_rate_with_fewer_rules_and_the_thesis_order():
    full = json.loads(run("rate", "--format", "json", INSTANCES / "g12-5x5.txt").stdout)
    out = run("rate", "--format", "json", "--rules", "thesis", "--cell-order", "row-major", INSTANCES / "g12-5x5.txt")
    weak = json.loads(out.stdout)
    assert out.exit_code == 0 and weak["rules"] == list(THESIS_RULES) and weak["cell_order"] == "row-major"
    assert weak["rules_fixed"] <= full["rules_fixed"] and weak["solution"] == full["solution"]
    text = run("rate", "--rules", "all,-size-cap", INSTANCES / "g12-5x5.txt").stdout
    assert "rated with the rules complete-group, join-overflow, single-exit, area, forced-cell, " \
           "neighbour-support, neighbour-fit; guesses group-exit" in text
    assert "rated with" not in run("rate", INSTANCES / "g12-5x5.txt").stdout


def test_rate_by_the_thesis_solver():
    clued = "3 4\n4 0 0 3\n0 3 2 0\n0 0 0 0\n"  # every region clued; needs one guess there
    out = CliRunner().invoke(main, ["rate", "--method", "thesis", "--format", "json", "-"], input=clued)
    obj = json.loads(out.stdout)
    assert out.exit_code == 0
    assert (obj["method"], obj["max_depth"], obj["guesses"], obj["label"]) == ("thesis", 1, 2, "hard")
    assert obj["rules"] == ["single-exit", "forced-cell", "reachability"] and obj["cell_order"] == "row-major"
    text = CliRunner().invoke(main, ["rate", "--method", "thesis", "-"], input=clued).stdout
    assert "rated with the thesis' solver: single-exit, forced-cell, reachability; guesses row-major" in text
    g12 = run("rate", "--method", "thesis", INSTANCES / "g12-5x5.txt")  # an unclued region of 2s
    assert g12.exit_code == 1
    assert "no solution in which every region holds a clue (the thesis' solver knows only that variant)" in g12.stdout
    clash = run("rate", "--method", "thesis", "--cell-order", "row-major", INSTANCES / "g12-5x5.txt")
    assert clash.exit_code == 2 and "--method thesis has its own" in clash.stderr


def test_rate_refuses_unknown_rules():
    out = run("rate", "--rules", "thesis,bogus", INSTANCES / "g12-5x5.txt")
    assert out.exit_code == 2 and "unknown rule or rule set 'bogus' in 'thesis,bogus'" in out.stderr
    assert out.stdout == ""


def test_rate_refuses_blocknumber_with_a_message():
    path = BLOCK_INSTANCES / "random-6x6.txt"
    out = run("rate", path)
    assert (out.exit_code, out.stderr) == (
        2, f"Error: {path}: blocknumber puzzles are not rated\n")
    both = run("rate", path, INSTANCES / "g12-5x5.txt")  # goes on with the next puzzle
    assert both.exit_code == 2 and ": hard" in both.stdout


@pytest.mark.parametrize("size, difficulty", [("6x6", "medium"), ("12x12", "hard"), ("12x12", "fiendish")])
def test_a_difficulty_is_reached_and_rate_agrees(yices, size, difficulty):
    out = run("generate", "-s", size, "--seed", "1", "--difficulty", difficulty)
    assert out.exit_code == 0 and f", {difficulty}, " in out.stderr
    rated = CliRunner().invoke(main, ["rate", "--format", "json", "-"], input=out.stdout)
    assert json.loads(rated.stdout)["label"] == difficulty


def small_committed() -> list[Path]:
    paths = sorted((ROOT / "instances").glob("*/generated/*.txt"))
    return [p for p in paths if int(p.name.split("x")[0]) <= 10 or "blocknumber" in p.parts]


@pytest.mark.parametrize("path", small_committed(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_committed_generated_instances_are_unique_by_z3(path, z3):
    from fillsmt.formats.source import load

    unique_by_z3(load(str(path)), z3)
