"""The toy kind (tests/toy_kind.py), registered at run time, end to end through the registry alone:
solve (plain, --unique, JSON against the schema), encode, decode, check, convert to JSON and back,
and bench. Nothing in fillsmt knows it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import ROOT, solver_or_skip
from fillsmt import kinds as registry
from fillsmt.bench.results import read_rows
from fillsmt.cli import main
from toy_kind import JsonRowKind, RowKind

ROW = "row 4\n0 2 1 0\n"  # two solutions: 3 2 1 4 and 4 2 1 3
OPEN = "row 3\n0 0 0\n"


@pytest.fixture
def toy(tmp_path):
    registry.register(RowKind())
    (tmp_path / "puzzles").mkdir()
    path = tmp_path / "puzzles" / "row.txt"
    path.write_text(ROW)
    yield path
    registry.unregister("row")


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


def test_solve_encode_decode_check(toy, tmp_path):
    z3 = solver_or_skip("z3")
    solved = run("solve", "-s", "z3", toy)
    assert solved.exit_code == 0, solved.output
    values = [int(v) for v in solved.stdout.split()]
    assert sorted(values) == [1, 2, 3, 4] and values[1] == 2
    (tmp_path / "solution.txt").write_text(solved.stdout)
    assert run("check", toy, tmp_path / "solution.txt").stdout.endswith("valid\n")
    (tmp_path / "wrong.txt").write_text("1 1 3 4\n")
    assert run("check", toy, tmp_path / "wrong.txt").exit_code == 1
    script = run("encode", toy)
    assert script.exit_code == 0 and "(distinct x_0 x_1 x_2 x_3)" in script.stdout
    (tmp_path / "answer.txt").write_text(z3.run(script.stdout, 30).output)
    decoded = run("decode", toy, tmp_path / "answer.txt")
    assert decoded.exit_code == 0 and decoded.stdout == solved.stdout


def test_unique_and_json_against_the_schema(toy, tmp_path):
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    solver_or_skip("yices")
    other = tmp_path / "open.txt"
    other.write_text(OPEN)
    unique = tmp_path / "unique.txt"
    unique.write_text("row 3\n0 3 1\n")
    out = run("solve", "--unique", "-f", "json", unique, other)
    assert out.exit_code == 5, out.output
    one, many = (json.loads(line) for line in out.stdout.splitlines())
    schema = json.loads((ROOT / "docs" / "result.schema.json").read_text())
    for obj in (one, many):
        jsonschema.validate(obj, schema)
    assert (one["kind"], one["unique"], many["unique"]) == ("row", True, False)
    counted = run("count", "--json", "--limit", "10", other)
    assert json.loads(counted.stdout)["count"] == 6


def test_convert_to_json_and_back(toy):
    refused = run("convert", toy, "--to", "json")
    assert refused.exit_code == 2 and "row puzzles have no JSON form" in refused.output  # the core alone
    registry.register(JsonRowKind())
    as_json = run("convert", toy, "--to", "json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["kind"] == "row"
    back = run("convert", "-", "--to", "plain", input=as_json.stdout)
    assert back.stdout == ROW
    assert "puzz.link has no row puzzles" in run("convert", toy, "--to", "url").output


def test_bench_runs_the_toy_kind_in_its_workers(toy, tmp_path):
    solver_or_skip("yices")
    csv = tmp_path / "runs.csv"
    out = run("bench", toy.parent, "-s", "yices", "--csv", csv, "--no-progress")
    assert out.exit_code == 0, out.output
    (row,) = read_rows(csv)
    assert (row["kind"], row["status"], row["checked"], row["encoding"]) == ("row", "sat", "true", "int")


def test_a_bit_vector_solver_refuses_a_kind_with_no_bit_vector_encoding(toy):
    """Bitwuzla decides QF_BV only, and the toy kind declares no encoding for it: refused on one
    line, exit 2, unless an encoding is named (then the script's own refusal speaks)."""
    solver_or_skip("bitwuzla")
    out = run("solve", "-s", "bitwuzla", toy)
    assert out.exit_code == 2, out.output
    assert "bitwuzla decides QF_BV only, and Row has none of its encodings in it" in out.output
