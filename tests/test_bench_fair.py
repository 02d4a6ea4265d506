"""fillsmt bench compares solvers fairly: several solvers (or encodings) get the same presolved
script and nothing else by default; each row says who answered it and what CPU it took; the
summary counts what the presolve settled once for all, and its times, PAR-2, speed-ups and head
to head cover only the runs left to the solver."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, solver_or_skip
from fillsmt.bench.compare import head_to_head, virtual_best
from fillsmt.bench.jobs import parse_config
from fillsmt.bench.results import COLUMNS, ResultsFile, read_rows
from fillsmt.bench.summary import json_report, left_to_solver, markdown, summarize
from fillsmt.cli import main

SOLVER_ANSWERS = ("g12-5x5.txt", "random-6x6.txt", "generated/10x10-hard-2.txt")
"""Puzzles a solver has to answer at --presolve on; the rules' quick search answers each of them
at the staged level, before any solver starts."""
PRESOLVE_ANSWERS = ("random-4x7.txt", "unsat-1x2.txt")
"""Puzzles the presolve settles alone (one solved, one proven to have no solution)."""


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fair") / "puzzles"
    root.mkdir()
    for name in SOLVER_ANSWERS + PRESOLVE_ANSWERS:
        shutil.copy(INSTANCES / name, root / Path(name).name)
    return root


def bench(*args):
    return CliRunner().invoke(main, ["bench", *map(str, args), "--no-progress"], catch_exceptions=False)


def rows_of(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def two_solvers(puzzles, tmp_path_factory):
    """``-s z3 -s yices`` with no --presolve: (result, rows, JSON report)."""
    solver_or_skip("z3")
    solver_or_skip("yices")
    out = tmp_path_factory.mktemp("two")
    result = bench(puzzles, "-s", "z3", "-s", "yices", "--timeout", 60, "--csv", out / "r.csv",
                   "--json", out / "r.json")
    assert result.exit_code == 0, result.output
    return result, rows_of(out / "r.csv"), json.loads((out / "r.json").read_text())


def test_two_solvers_run_the_same_presolved_script_alone(two_solvers):
    _, rows, _ = two_solvers
    assert sorted({r["key"].rsplit("|", 1)[1] for r in rows}) == ["yices/default/on", "z3/default/on"]
    assert len(rows) == 2 * len(SOLVER_ANSWERS + PRESOLVE_ANSWERS)
    assert not [r for r in rows if r["answered_by"] == "rules"]
    for r in rows:
        name = Path(r["puzzle"]).name
        expected = "presolve" if name in PRESOLVE_ANSWERS else f"{r['solver']}/tree-bfs"
        assert (r["answered_by"], r["presolve"]) == (expected, "on"), r


def test_both_solvers_have_the_same_presolve_count(two_solvers):
    result, _, report = two_solvers
    z3, yices = summarize(read_rows_of(report))
    assert z3.presolved == yices.presolved == len(PRESOLVE_ANSWERS)
    assert z3.searched == yices.searched == 0
    assert z3.left == yices.left == len(SOLVER_ANSWERS)
    assert z3.common == yices.common == len(SOLVER_ANSWERS)  # speed-ups on the solvers' own answers
    assert (f"Presolve settled {len(PRESOLVE_ANSWERS)} of the {len(SOLVER_ANSWERS + PRESOLVE_ANSWERS)} puzzles "
            "in every configuration") in result.stdout
    assert "Warning" not in result.stdout
    wins, losses, ties = head_to_head(read_rows_of(report))[(z3.config, yices.config)]
    assert wins + losses + ties == len(SOLVER_ANSWERS)


def read_rows_of(report: dict) -> list[dict]:
    """The JSON report's runs back as CSV strings (what the summary reads)."""
    def cell(value):
        if isinstance(value, bool):
            return "true" if value else "false"
        return "" if value is None else str(value)

    return [{c: cell(run.get(c)) for c in COLUMNS} for run in report["runs"]]


def test_the_new_columns_are_in_the_csv_and_the_json(two_solvers):
    result, rows, report = two_solvers
    assert {"answered_by", "cpu_s", "solver_cpu_s"} <= set(rows[0])
    for r in rows:
        assert float(r["cpu_s"]) >= 0 and float(r["solver_cpu_s"]) >= 0  # z3 and yices run as child processes
    solver_rows = [r for r in rows if r["answered_by"] != "presolve"]
    assert all(float(r["cpu_s"]) >= float(r["solver_cpu_s"]) for r in solver_rows)
    assert {c["configuration"]: c["by_presolve"] for c in report["configurations"]} == \
        {"z3/default/on": len(PRESOLVE_ANSWERS), "yices/default/on": len(PRESOLVE_ANSWERS)}
    assert all(run["answered_by"] and run["cpu_s"] is not None for run in report["runs"])
    assert "| configuration | solved | sat ✓ | unsat | time-out | other | by presolve | by rules' search |" \
        in result.stdout
    assert "median CPU (s)" in result.stdout and "| CPU | solver CPU |" in result.stdout


def test_an_in_process_solver_has_no_solver_cpu_of_its_own(puzzles, tmp_path):
    solver_or_skip("yices-api")
    result = bench(puzzles / "g12-5x5.txt", "-s", "yices-api", "-s", "yices", "--csv", tmp_path / "r.csv")
    assert result.exit_code == 0, result.output
    by_solver = {r["solver"]: r for r in rows_of(tmp_path / "r.csv")}
    assert by_solver["yices-api"]["solver_cpu_s"] == "" and float(by_solver["yices-api"]["cpu_s"]) > 0
    assert float(by_solver["yices"]["solver_cpu_s"]) >= 0


def test_one_solver_alone_keeps_the_default_level_and_the_race_is_asked_for_explicitly(puzzles, tmp_path):
    solver_or_skip("z3")
    solver_or_skip("yices")
    alone = bench(puzzles / "g12-5x5.txt", "-s", "yices", "--csv", tmp_path / "a.csv")
    assert alone.exit_code == 0, alone.output
    (row,) = rows_of(tmp_path / "a.csv")
    assert (row["presolve"], row["answered_by"]) == ("staged", "rules")  # what fillsmt solve does
    assert "Warning: the rules' search answered some runs" in alone.stdout
    raced = bench(puzzles, "-s", "z3", "-s", "yices", "--presolve", "staged", "--csv", tmp_path / "s.csv")
    assert raced.exit_code == 0, raced.output
    rows = rows_of(tmp_path / "s.csv")
    searched = [r for r in rows if r["answered_by"] == "rules"]
    assert searched and {r["presolve"] for r in rows} == {"staged"}
    assert "Warning: the rules' search answered some runs, not the solver" in raced.stdout
    assert "use --presolve on" in raced.stdout


# --- the summary on hand-made rows -----------------------------------------------------------

def _row(puzzle, config, status, total, answered_by, cpu="", solver_cpu=""):
    solver, encoding, presolve = config.split("/")
    return {"key": f"{puzzle}|{config}", "puzzle": puzzle, "set": "s", "kind": "fillomino", "height": 2, "width": 2,
            "solver": solver, "encoding": encoding, "answered_by": answered_by, "presolve": presolve,
            "timeout_s": 10, "status": status, "checked": status == "sat", "presolve_s": 0.1, "encode_s": 0.1,
            "solve_s": max(total - 0.2, 0), "check_s": 0.0, "total_s": total, "cpu_s": cpu,
            "solver_cpu_s": solver_cpu, "solver_version": "v"}


A, B = "a/tree/race", "b/tree/race"
HAND = [
    _row("p1", A, "sat", 0.1, "presolve", 0.1, 0.0), _row("p1", B, "sat", 0.1, "presolve", 0.1, 0.0),
    _row("p2", A, "sat", 2.0, "a/tree", 1.5, 1.4), _row("p2", B, "sat", 1.0, "b/tree", 0.9, 0.8),
    _row("p3", A, "sat", 0.5, "rules", 0.6), _row("p3", B, "sat", 4.0, "b/tree", 3.0, 2.9),
    _row("p4", A, "timeout", 10.5, "", 10.0), _row("p4", B, "sat", 3.0, "b/tree", 2.5, 2.4),
]


@pytest.fixture
def hand(tmp_path) -> list[dict]:
    with ResultsFile(tmp_path / "hand.csv") as results:
        return [results.write(r) for r in HAND]


def test_presolve_and_search_answers_are_left_out_of_the_solver_numbers(hand):
    assert [left_to_solver(r) for r in hand] == [False, False, True, True, False, True, True, True]
    a, b = summarize(hand)
    assert (a.runs, a.solved, a.presolved, a.searched, a.left) == (4, 3, 1, 1, 2)
    assert (b.runs, b.solved, b.presolved, b.searched, b.left) == (4, 4, 1, 0, 3)
    assert (a.median, a.par2) == (2.0, pytest.approx((2.0 + 20) / 2))  # p2, and p4 unsolved
    assert (b.median, b.par2) == (3.0, pytest.approx((1.0 + 4.0 + 3.0) / 3))
    assert (b.speedup, b.common) == (2.0, 1)  # on p2 only: p1 is the presolve's, p3 the search's for a
    assert (a.cpu, a.solver_cpu, b.cpu, b.solver_cpu) == (1.5, 1.4, 2.5, 2.4)
    assert head_to_head(hand)[(parse_config(B), parse_config(A))] == (2, 0, 0)  # p2 faster, p4 solved
    best, unsolved = virtual_best(hand)
    assert sorted(best) == ["p2", "p3", "p4"] and unsolved == []


def test_the_markdown_says_what_the_presolve_settled_and_warns_of_the_search(hand):
    text = markdown(hand)
    # every run, whoever answered (what a user waits): median, mean, slowest, median CPU
    assert "| a/tree/race | 3/4 | 3 | 0 | 1 | 0 | 1 | 1 | 0.500 | 0.867 | 2.000 | 0.600 |" in text
    assert "| b/tree/race | 4/4 | 4 | 0 | 0 | 0 | 1 | 0 | 2.000 | 2.025 | 4.000 | 1.700 |" in text
    # the runs left to the solver: runs, solved, median, mean, median CPU, PAR-2, speed-up, both solved
    assert "| a/tree/race | 2 | 1 | 2.000 | 2.000 | 1.500 | 11.000 | 1.00 | 1 |" in text
    assert "| b/tree/race | 3 | 3 | 3.000 | 2.667 | 2.500 | 2.667 | 2.00 | 1 |" in text
    assert "Presolve settled 1 of the 4 puzzles in every configuration" in text
    assert "**Warning: the rules' search answered some runs, not the solver**: a/tree/race 1 of 4." in text


def test_the_json_report_has_the_same_numbers(hand):
    report = json_report(hand)
    a, b = report["configurations"]
    assert (a["by_presolve"], a["by_rules_search"], a["left_to_solver"], a["median_s"]) == (1, 1, 2, 2.0)
    assert (a["all_median_s"], a["all_slowest_s"], a["left_solved"]) == (0.5, 2.0, 1)
    assert (b["speedup"], b["both_solved"], b["median_solver_cpu_s"]) == (2.0, 1, 2.4)
    assert report["runs"][0]["checked"] is True and report["runs"][0]["height"] == 2
    assert len(report["runs"]) == len(HAND) and report["baseline"] == A


def test_a_csv_of_the_previous_header_has_empty_cpu_columns(tmp_path):
    from fillsmt.bench.results import OLDER_HEADERS

    old = OLDER_HEADERS[-1]
    row = {**_row("p1", A, "sat", 1.0, "a/tree"), "timestamp": "2026-11-20T00:00:00+00:00"}
    path = tmp_path / "old.csv"
    path.write_text(",".join(old) + "\n" + ",".join(str(row.get(c, "")) for c in old) + "\n")
    (got,) = read_rows(path)
    assert got["cpu_s"] == got["solver_cpu_s"] == "" and got["answered_by"] == "a/tree"
    assert summarize([got])[0].cpu is None


def test_a_few_puzzles_get_a_table_per_puzzle(hand):
    text = markdown(hand)
    assert "| puzzle | a/tree/race | b/tree/race |" in text
    assert "| p2 | 2.000, CPU 1.500 (a/tree) | 1.000, CPU 0.900 (b/tree) |" in text
    assert "| p4 | timeout | 3.000, CPU 2.500 (b/tree) |" in text
    many = [dict(r, puzzle=f"q{i}", key=f"q{i}|{A}") for i, r in enumerate(hand[0:1] * 13)]
    assert "Per puzzle" not in markdown(many)
