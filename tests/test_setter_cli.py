"""The explain, hint, repair and minimize commands through the CLI: exit codes, messages, and JSON
that validates against docs/explain.schema.json and docs/repair.schema.json."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT
from fillsmt.cli import main

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed (pip install '.[test]')")

G12 = INSTANCES / "g12-5x5.txt"
UNSAT = INSTANCES / "unsat-1x2.txt"
BLOCK = ROOT / "instances" / "blocknumber" / "random-6x6.txt"


def schema(name: str) -> dict:
    return json.loads((ROOT / "docs" / name).read_text())


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


pytestmark = pytest.mark.usefixtures("yices")  # every test here runs yices


def test_explain_text_json_and_svg(tmp_path):
    text = run("explain", G12)
    assert text.exit_code == 0
    assert "[single-exit] the 2 at r3c1 can only grow through r2c1; so r2c1 is 2" in text.stdout
    assert "[case-split] suppose" in text.stdout
    svg = tmp_path / "steps.svg"
    js = run("explain", "-f", "json", "--svg", svg, G12)
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("explain.schema.json"))
    assert obj["status"] == "solved" and obj["grid"][0] == [1, 4, 2, 2, 1]
    assert 'id="notes"' in svg.read_text()
    assert run("explain", "--svg", svg, G12).exit_code == 2  # not replaced without --force


def test_explain_exit_codes_and_refusals():
    unsat = run("explain", "-f", "json", UNSAT)
    assert unsat.exit_code == 1
    jsonschema.validate(json.loads(unsat.stdout), schema("explain.schema.json"))
    many = run("explain", "-", input="2 2\n0 0\n0 0\n")
    assert many.exit_code == 5 and "more than one solution" in many.stdout
    block = run("explain", BLOCK)
    assert block.exit_code == 2 and "blocknumber puzzles have no deduction rules to explain them with" in block.output


def test_hint_wrong_cells_and_next_step(tmp_path):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("5 5\n1 4 0 0 1\n0 0 0 1 0\n2 4 0 0 0\n1 3 2 1 0\n3 2 1 0 2\n")  # r5c2 is 3
    result = run("hint", "-f", "json", G12, wrong)
    obj = json.loads(result.stdout)
    jsonschema.validate(obj, schema("explain.schema.json"))
    assert result.exit_code == 1 and obj["wrong_cells"] == [[4, 1]] and "step" not in obj
    assert run("hint", G12, wrong).stdout.endswith("1 wrong cell: r5c2\n")
    step = run("hint", "-f", "json", G12)
    obj = json.loads(step.stdout)
    jsonschema.validate(obj, schema("explain.schema.json"))
    assert step.exit_code == 0 and obj["status"] == "step" and obj["step"]["cells"] == [[1, 0, 2]]
    small = tmp_path / "small.txt"
    small.write_text("1 2\n0 0\n")
    bad = run("hint", G12, small)
    assert bad.exit_code == 2 and "the progress grid is 1x2, the puzzle 5x5" in bad.output


def test_repair_prints_the_repaired_puzzle_and_the_clue_on_stderr():
    broken = "5 5\n0 0 0 0 1\n0 0 0 1 0\n2 4 0 0 0\n1 0 2 1 0\n3 0 1 0 2\n"  # g12 without its r1c1 clue
    result = run("repair", "-", input=broken)
    assert result.exit_code == 0
    assert "1 clue added, now unique (proven)" in result.stderr
    repaired = result.stdout
    assert run("solve", "--unique", "-", input=repaired).exit_code == 0
    js = run("repair", "-f", "json", "-", input=broken)
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("repair.schema.json"))
    jsonschema.validate(obj["repaired"], schema("puzzle.schema.json"))
    assert obj["status"] == "repaired" and len(obj["added_clues"]) == 1


def test_repair_of_an_unsolvable_puzzle_names_the_conflict():
    result = run("repair", UNSAT)
    assert result.exit_code == 1 and "no solution; these 1 clues cannot all hold: r1c1=1" in result.stderr


def test_minimize_blocknumber_and_json():
    result = run("minimize", BLOCK)
    assert result.exit_code == 0 and "every clue left is needed" in result.stderr
    js = run("minimize", "-f", "json", G12)
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("repair.schema.json"))
    jsonschema.validate(obj["minimized"], schema("puzzle.schema.json"))
    assert obj["clues_after"] == obj["clues_before"] - len(obj["removed_clues"])
    two = run("minimize", "-", input="2 2\n0 0\n0 0\n")
    assert two.exit_code == 2 and "more than one solution" in two.output
