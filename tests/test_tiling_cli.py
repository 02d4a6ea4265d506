"""Tilings through the CLI: solve (every format), check, encode/decode with the solver binaries,
convert, render, bench; what does not apply to a tiling is refused with a message."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, solver_or_skip
from fillsmt.cli import main
from fillsmt.errors import InputError
from fillsmt.formats.source import load
from fillsmt.kinds import detect
from fillsmt.tiling.plain_format import read_problem
from fillsmt.tiling.solution import check, parse_labelled
from fillsmt.tiling.verify import check_tiling

TILING = ROOT / "instances" / "tiling"
TETRIS = TILING / "tetris-7x7.txt"
K11 = TILING / "kalvelagen-11x11.txt"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(params=["yices", "z3"])
def solver(request):
    solver_or_skip(request.param)
    return request.param


def legal(problem, placements, covered):
    """The referee's verdict on JSON placements, with nothing of fillsmt's model in between."""
    return check_tiling(problem.height, problem.width, problem.blocked,
                        {p.name: p.cells for p in problem.pieces}, {p.name: p.limit for p in problem.pieces},
                        problem.rotations, problem.reflections,
                        [(p["piece"], [tuple(c) for c in p["cells"]]) for p in placements], covered)


def test_a_tiling_file_is_detected():
    assert detect(TETRIS.read_text()) == "tiling"
    assert load(str(TETRIS)).rotations is True


@pytest.mark.parametrize("path, best", [(TETRIS, 48), (K11, 120)])
def test_solve_plain_output_is_a_labelled_grid_that_check_accepts(tmp_path, solver, path, best):
    result = run("solve", "--solver", solver, path)
    assert result.exit_code == 0, result.output
    assert f"covers {best} of {7 * 7 if path == TETRIS else 121} cells, proven optimal" in result.stderr
    grid = result.stdout
    assert grid.count(".") == (49 if path == TETRIS else 121) - best
    solution = tmp_path / "solution.txt"
    solution.write_text(grid)
    checked = run("check", path, solution)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.strip().endswith(f"valid (covers {best} of {49 if path == TETRIS else 121} cells)")


@pytest.mark.parametrize("method", ["bounds", "maximize", "split"])
def test_solve_json_gives_covered_optimal_and_legal_placements(method):
    solver_or_skip("z3")
    result = run("solve", "--solver", "z3", "--method", method, "--format", "json", TETRIS)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert (obj["kind"], obj["covered"], obj["optimal"]) == ("tiling", 48, True)
    assert obj["method"] == {"split": "split+bounds"}.get(method, method)
    assert sum(len(p["cells"]) for p in obj["placements"]) == 48
    assert legal(read_problem(str(TETRIS)), obj["placements"], 48) == []
    assert len(obj["grid"]) == 7 and obj["times"]["total"] >= obj["times"]["proven"]


def test_solve_pretty_draws_the_piece_names():
    solver_or_skip("yices")
    result = run("solve", "--format", "pretty", K11)
    assert result.exit_code == 0, result.output
    first, *rows = result.stdout.splitlines()
    assert "covers 120 of 121 cells, proven optimal" in first
    assert rows[0].startswith("┌") and "│" in rows[1]


def test_a_board_where_nothing_fits_is_optimal_with_nothing_covered(tmp_path):
    solver_or_skip("yices")
    path = tmp_path / "tiny.txt"
    path.write_text("board 2 2\nblocked 0 0\npiece square\n##\n##\n")
    result = run("solve", "--format", "json", path)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert (obj["covered"], obj["optimal"], obj["placements"], obj["grid"]) == (0, True, [], ["#.", ".."])


def test_a_time_out_returns_the_best_tiling_found_marked_not_proven():
    solver_or_skip("yices")
    start = time.monotonic()
    result = run("solve", "--timeout", "3", "--method", "bounds", "--format", "json",
                 TILING / "kalvelagen-61x61.txt")
    elapsed = time.monotonic() - start
    assert result.exit_code == 3, result.output
    obj = json.loads(result.stdout)
    assert obj["optimal"] is False and obj["status"] == "timeout"
    assert obj["upper_bound"] == 3721 and obj["covered"] <= 3721
    assert legal(read_problem(str(TILING / "kalvelagen-61x61.txt")), obj["placements"], obj["covered"]) == []
    assert "not proven optimal (time-out" in result.stderr
    assert elapsed < 60  # the time-out covers sending the constraints too (generous: a loaded machine)


def test_check_reports_an_illegal_tiling_and_refuses_a_malformed_one(tmp_path):
    problem = read_problem(str(TETRIS))
    bad = tmp_path / "bad.txt"
    bad.write_text("AAAAAAA\n" + ".......\n" * 6)  # a row of 7 equal labels is no tetromino
    result = run("check", TETRIS, bad)
    assert result.exit_code == 1
    assert "the 7 cells labelled 'A' from cell 0 0 are not a copy of any piece" in result.stdout
    assert check(problem, parse_labelled(bad.read_text(), "bad", problem)) != []
    short = tmp_path / "short.txt"
    short.write_text("AAAA...\n")
    result = run("check", TETRIS, short)
    assert result.exit_code == 2 and "expected 7 rows of the labelled grid, found 1" in result.output
    wide = tmp_path / "wide.txt"
    wide.write_text("AAAA....\n")
    result = run("check", TETRIS, wide)
    assert result.exit_code == 2 and "short.txt" not in result.output and ":1: expected a row of 7" in result.output


def test_check_accepts_copies_identified_by_shape_only(tmp_path):
    problem_file = tmp_path / "p.txt"
    problem_file.write_text("board 2 4\nrotations yes\npiece I\n####\npiece O max 1\n##\n##\n")
    solution = tmp_path / "s.txt"
    solution.write_text("AABB\nAABB\n")  # two squares: the limit of O is 1
    result = run("check", problem_file, solution)
    assert result.exit_code == 1 and "piece O is used 2 times, its limit is 1" in result.stdout
    solution.write_text("AAAA\nBBBB\n")
    result = run("check", problem_file, solution)
    assert result.exit_code == 0 and "valid (covers 8 of 8 cells)" in result.stdout


def _binary(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not Path(found).exists():
        pytest.skip(f"{name} is not installed")
    return found


def test_encode_for_z3_then_decode_its_answer(tmp_path):
    z3 = _binary("z3")
    script = run("encode", TETRIS)
    assert script.exit_code == 0 and "(maximize" in script.stdout
    answer = subprocess.run([z3, "-in"], input=script.stdout, capture_output=True, text=True, timeout=120).stdout
    (tmp_path / "answer.txt").write_text(answer)
    result = run("decode", TETRIS, tmp_path / "answer.txt", "--format", "json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["covered"] == 48 and legal(read_problem(str(TETRIS)), obj["placements"], 48) == []


def test_encode_a_bound_for_yices_then_decode(tmp_path):
    yices = _binary("yices-smt2")
    small = tmp_path / "small.txt"  # a ring of 8 cells: L trominoes cover 6 at most
    small.write_text("board 3 3\nblocked 1 1\nrotations yes\npiece L\n#.\n##\n")
    for path, bound, status in ((TETRIS, 48, "sat"), (small, 7, "unsat"), (small, 6, "sat")):
        script = run("encode", "--bound", bound, path)
        assert script.exit_code == 0 and "(maximize" not in script.stdout
        answer = subprocess.run([yices], input=script.stdout, capture_output=True, text=True, timeout=120).stdout
        assert answer.split()[0] == status
        (tmp_path / "answer.txt").write_text(answer)
        result = run("decode", path, tmp_path / "answer.txt")
        if status == "sat":
            assert result.exit_code == 0 and result.stdout.count(".") == (1 if path == TETRIS else 2)
        else:
            assert result.exit_code == 1


def test_what_does_not_apply_to_a_tiling_is_refused_with_a_message():
    for args, words in ((("count", TETRIS), "count is for puzzles with one answer"),
                        (("solve", "--unique", TETRIS), "--unique and --forced are for puzzles with one answer"),
                        (("solve", "--solver", "rules", TETRIS), "--solver rules solves Fillomino puzzles only"),
                        (("convert", TETRIS, "--to", "url"), "puzz.link has no tiling puzzles"),
                        (("encode", "--bound", "3", ROOT / "instances" / "fillomino" / "g12-5x5.txt"),
                         "--bound is for tiling problems only"),
                        (("encode", "-e", "tree", TETRIS), "unknown tiling encoding 'tree'")):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output and "Traceback" not in result.output


def test_convert_to_json_and_back_and_solve_the_json(tmp_path):
    result = run("convert", TETRIS, "--to", "json")
    assert result.exit_code == 0
    path = tmp_path / "tetris.json"
    path.write_text(result.stdout)
    back = run("convert", path, "--to", "plain")
    assert back.stdout == run("convert", TETRIS, "--to", "plain").stdout
    assert load(str(path)) == read_problem(str(TETRIS)).__class__(**{**read_problem(str(TETRIS)).__dict__,
                                                                     "source": str(path)})


@pytest.mark.parametrize("text, words", [
    ('{"kind": "tiling", "height": 2, "width": 2}', "a tiling problem has no 'pieces'"),
    ('{"kind": "tiling", "height": 2, "width": 2, "pieces": []}', "pieces: expected a non-empty list"),
    ('{"kind": "tiling", "height": 2, "width": 2, "pieces": [{"name": "a", "cells": [[0, 0], [0, 2]]}]}',
     "not connected"),
    ('{"kind": "tiling", "height": 2, "width": 2, "pieces": [{"name": "a", "cells": [[0]]}]}',
     "pieces[0].cells[0]: expected a [row, column] pair"),
    ('{"kind": "tiling", "height": 2, "width": 2, "rotations": "yes", "pieces": []}',
     "rotations: expected true or false"),
])
def test_malformed_json_tilings(tmp_path, text, words):
    path = tmp_path / "p.json"
    path.write_text(text)
    result = run("convert", path, "--to", "plain")
    assert result.exit_code == 2 and words in result.output, result.output


def test_render_draws_a_board_and_a_tiling(tmp_path):
    out = tmp_path / "board.svg"
    assert run("render", TETRIS, "-o", out).exit_code == 0
    ET.fromstring(out.read_text())
    solver_or_skip("yices")
    solved = tmp_path / "solved.svg"
    result = run("render", TETRIS, "--solve", "-o", solved)
    assert result.exit_code == 0, result.output
    svg = ET.fromstring(solved.read_text())
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert len([t for t in texts if t in {"1", "2", "3", "4", "5"}]) == 48  # a piece name per covered cell


def test_bench_runs_tilings_blocknumber_and_the_rules_solver_in_one_csv(tmp_path):
    solver_or_skip("yices")
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(TETRIS, folder / "tetris.txt")
    shutil.copy(ROOT / "instances" / "blocknumber" / "random-5x5.txt", folder / "suguru.txt")
    shutil.copy(ROOT / "instances" / "fillomino" / "g12-5x5.txt", folder / "g12.txt")
    path = tmp_path / "runs.csv"
    result = run("bench", folder, "-s", "yices", "-s", "rules", "--timeout", "30", "--jobs", "1",
                 "--csv", path, "--no-progress")
    assert result.exit_code == 0, result.output
    with path.open() as f:
        rows = {(Path(r["puzzle"]).stem, r["solver"]): r for r in csv.DictReader(f)}
    assert len(rows) == 6
    tiling = rows[("tetris", "yices")]
    assert (tiling["kind"], tiling["status"], tiling["covered"], tiling["optimal"]) == ("tiling", "sat", "48", "true")
    suguru = rows[("suguru", "yices")]
    assert (suguru["kind"], suguru["status"], suguru["checked"], suguru["encoding"]) == \
        ("blocknumber", "sat", "true", "onehot")
    assert (rows[("g12", "yices")]["encoding"], rows[("g12", "rules")]["status"]) == ("tree-bfs", "sat")
    assert rows[("g12", "rules")]["checked"] == "true"
    assert "Fillomino puzzles only" in rows[("suguru", "rules")]["message"]
    level = "on"  # two solvers named: each runs alone on the presolved script (the default of a comparison)
    assert "| rules/none/on |" in result.stdout and f"| yices/default/{level} |" in result.stdout
    assert f"tetris.txt | yices/default/{level} | 48 | yes |" in result.stdout


def test_bench_refuses_an_encoding_for_the_rules_solver(tmp_path):
    result = run("bench", TETRIS, "-c", "rules/tree/on", "--csv", tmp_path / "x.csv")
    assert result.exit_code == 2 and "the rules solver has no encoding; write rules/none/on" in result.output


def test_the_61x61_board_is_covered_completely_block_by_block():
    solver_or_skip("yices")
    result = run("solve", "--timeout", "120", "--format", "json", TILING / "kalvelagen-61x61.txt")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert (obj["covered"], obj["optimal"], obj["method"]) == (3721, True, "split+bounds")
    assert legal(read_problem(str(TILING / "kalvelagen-61x61.txt")), obj["placements"], 3721) == []


def test_the_python_api_optimises_a_tiling():
    import fillsmt

    solver_or_skip("yices")
    found = fillsmt.solve(fillsmt.load(str(TETRIS)))
    assert (found.grid.covered, found.optimum.optimal) == (48, True)
    assert legal(read_problem(str(TETRIS)), [{"piece": found.puzzle.pieces[p.piece].name, "cells": p.cells}
                                             for p in found.grid.placements], 48) == []
    with pytest.raises(InputError, match="not for tilings"):
        fillsmt.solve(fillsmt.load(str(TETRIS)), unique=True)
