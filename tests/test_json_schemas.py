"""Every JSON line the commands print validates against the published schemas in docs/, for every
kind and mode, run through the CLI (CliRunner) as a user runs it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, solver_or_skip
from fillsmt.cli import main

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed (pip install '.[test]')")

DOCS = ROOT / "docs"
G12 = INSTANCES / "g12-5x5.txt"
UNSAT = INSTANCES / "unsat-1x2.txt"
BLOCK = ROOT / "instances" / "blocknumber" / "random-5x5.txt"
BLOCK_UNSAT = ROOT / "instances" / "blocknumber" / "unsat-1x2.txt"
TETRIS = ROOT / "instances" / "tiling" / "tetris-7x7.txt"
OPEN = "3 3\n0 0 0\n0 0 0\n0 0 0\n"  # many solutions


def schema(name: str) -> dict:
    return json.loads((DOCS / name).read_text())


def json_lines(*args, input=None) -> list[dict]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines, (args, result.output)
    return lines


def valid(objects: list[dict], name: str = "result.schema.json") -> list[dict]:
    for obj in objects:
        jsonschema.validate(obj, schema(name))
    return objects



@pytest.fixture
def open_file(tmp_path):
    path = tmp_path / "open.txt"
    path.write_text(OPEN)
    return path


@pytest.mark.parametrize("options", [[], ["--no-presolve"], ["--unique"], ["--forced"], ["--unique", "--forced"],
                                     ["-e", "thesis", "--no-presolve"], ["-e", "tree"]])
def test_fillomino_solve_lines_validate(yices, options):
    obj, unsat = valid(json_lines("solve", "-f", "json", *options, G12, UNSAT))
    assert obj["status"] == "sat" and obj["kind"] == "fillomino" and unsat["status"] == "unsat"


def test_a_second_solution_and_the_forced_cells_validate(yices, open_file):
    (obj,) = valid(json_lines("solve", "-f", "json", "--unique", "--forced", "--no-presolve", open_file))
    assert obj["unique"] is False and obj["differing_cells"] and "forced" in obj


@pytest.mark.parametrize("solver", ["z3", "z3-api", "pysmt"])
def test_other_solvers_validate(solver):
    solver_or_skip(solver)
    # --no-race: the answer must come from this solver (the race's search may win on a slow one)
    (obj,) = valid(json_lines("solve", "-s", solver, "-f", "json", "--unique", "--no-race", G12))
    assert obj["solver"].startswith(solver) and obj["unique"] is True


@pytest.mark.parametrize("options", [[], ["--unique"]])
def test_the_rules_solver_validates(options, open_file):
    objs = valid(json_lines("solve", "-s", "rules", "-f", "json", *options, G12, open_file, UNSAT))
    assert [o["status"] for o in objs] == ["sat", "sat", "unsat"]


def test_bad_input_validates(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("2 2\n1 x\n")
    objs = valid(json_lines("solve", "-s", "rules", "-f", "json", tmp_path / "missing.txt", bad))
    assert [o["status"] for o in objs] == ["bad-input", "bad-input"]


@pytest.mark.parametrize("options", [[], ["--unique", "--forced"], ["-e", "bv"]])
def test_blocknumber_solve_lines_validate(yices, options):
    obj, unsat = valid(json_lines("solve", "-f", "json", *options, BLOCK, BLOCK_UNSAT))
    assert obj["kind"] == "blocknumber" and obj["status"] == "sat" and unsat["status"] == "unsat"


@pytest.mark.parametrize("method", ["bounds", "split"])
def test_tiling_lines_validate(yices, method):
    (obj,) = valid(json_lines("solve", "-f", "json", "--method", method, TETRIS))
    assert (obj["kind"], obj["covered"], obj["optimal"], obj["status"]) == ("tiling", 48, True, "sat")


def test_decode_lines_validate(tmp_path):
    z3 = solver_or_skip("z3")
    for puzzle in (G12, BLOCK, TETRIS):
        script = CliRunner().invoke(main, ["encode", str(puzzle)]).stdout
        answer = tmp_path / "answer.txt"
        answer.write_text(z3.run(script, 60).output)
        (obj,) = valid(json_lines("decode", "-f", "json", puzzle, answer))
        assert obj["status"] == "sat" and obj["grid"] is not None


def test_count_objects_validate(yices, open_file):
    for puzzle in (G12, open_file, BLOCK, UNSAT):
        (obj,) = valid(json_lines("count", "--json", "--show", "--limit", "3", puzzle), "count.schema.json")
        assert obj["count"] == len(obj["solutions"])


def test_rate_lines_validate(open_file):
    objs = valid(json_lines("rate", "-f", "json", G12, open_file), "rating.schema.json")
    assert objs[0]["status"] == "solved"


def test_rate_grades_validate_and_older_lines_still_do():
    easy, medium, extreme = valid(json_lines(
        "rate", "-f", "json", "--max-nodes", "101", "-", INSTANCES / "random-7x7.txt",
        ROOT / "instances" / "fillomino" / "generated" / "15x15-1.txt", input="2 3\n1 0 3\n2 2 0\n"),
        "rating.schema.json")
    assert (easy["label"], easy["nodes"], easy["basic_nodes"]) == ("easy", 1, 1)
    assert (medium["label"], medium["nodes"], medium["basic_nodes"]) == ("medium", 1, 11)
    assert (extreme["label"], extreme["status"], extreme["basic_nodes"]) == ("extreme", "stopped", None)
    older = {k: v for k, v in medium.items() if k != "basic_nodes"}
    valid([older], "rating.schema.json")
    with pytest.raises(jsonschema.ValidationError):
        valid([{**medium, "label": "impossible"}], "rating.schema.json")
    with pytest.raises(jsonschema.ValidationError):
        valid([{**medium, "basic_nodes": 0}], "rating.schema.json")


def test_time_outs_validate(yices):
    big = sorted((ROOT / "instances" / "fillomino" / "generated").glob("20x20*.txt"))[:1] or [G12]
    (obj,) = valid(json_lines("solve", "-f", "json", "--no-presolve", "--unique", "--timeout", "0.01", big[0]))
    assert obj["status"] in ("sat", "timeout", "unknown")
    (tiling,) = valid(json_lines("solve", "-f", "json", "--method", "bounds", "--timeout", "0.05",
                                 ROOT / "instances" / "tiling" / "kalvelagen-11x11.txt"))
    assert tiling["status"] in ("sat", "timeout") and tiling["optimal"] is (tiling["status"] == "sat")
