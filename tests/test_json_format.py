"""JSON: puzzles of every kind in and out, exact messages for malformed input, the result shape."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import INSTANCES, ROOT
from fillsmt.errors import FormatError
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.formats.json_format import (KINDS, bad_input_dict, dumps, format_puzzle, kind_of, parse_puzzle,
                                         parse_result, puzzle_from_dict, puzzle_to_dict, result_to_dict)
from fillsmt.formats.text import looks_like_json
from fillsmt.smtlib.answer import Status

DOCS = ROOT / "docs"
SHARED_ROOT = ROOT.parent / "shared" / "instances"
G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


def _blocknumber():
    return pytest.importorskip("fillsmt.blocknumber.plain_format",
                               reason="fillsmt.blocknumber is not there yet")


def test_fillomino_puzzle_text_is_exact():
    p = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert format_puzzle(p) == (
        '{\n'
        '  "kind": "fillomino",\n'
        '  "height": 5,\n'
        '  "width": 5,\n'
        '  "cells": [\n'
        '    [1, 0, 0, 0, 1],\n'
        '    [0, 0, 0, 1, 0],\n'
        '    [2, 4, 0, 0, 0],\n'
        '    [1, 0, 2, 1, 0],\n'
        '    [3, 0, 1, 0, 2]\n'
        '  ]\n'
        '}\n')
    assert json.loads(format_puzzle(p)) == puzzle_to_dict(p)
    assert looks_like_json(format_puzzle(p))
    assert not looks_like_json("5 5\n1 0 0 0 1\n")


@pytest.mark.parametrize("path", sorted(INSTANCES.glob("*.txt")), ids=lambda p: p.name)
def test_every_project_fillomino_instance_round_trips(path):
    p = read_puzzle(str(path))
    assert parse_puzzle(format_puzzle(p), p.source) == p
    assert puzzle_from_dict(json.loads(json.dumps(puzzle_to_dict(p))), p.source) == p


grids = st.integers(1, 6).flatmap(
    lambda h: st.integers(1, 6).flatmap(
        lambda w: st.lists(st.lists(st.integers(0, h * w), min_size=w, max_size=w), min_size=h, max_size=h)))


@given(grids)
def test_any_fillomino_puzzle_round_trips(rows):
    p = Puzzle(len(rows), len(rows[0]), tuple(tuple(r) for r in rows), "p.json")
    assert parse_puzzle(format_puzzle(p), "p.json") == p


def _shared(kind: str, pattern: str) -> list[Path]:
    folder = SHARED_ROOT / kind
    return sorted(folder.glob(pattern)) if folder.exists() else []


def test_every_shared_fillomino_puzzle_round_trips():
    paths = [p for p in _shared("fillomino", "**/*.txt") if "solutions" not in p.parts]
    if not paths:
        pytest.skip(f"{SHARED_ROOT / 'fillomino'} is absent (the shared sets sit beside the checkout)")
    for path in paths:
        p = read_puzzle(str(path))
        assert parse_puzzle(format_puzzle(p), p.source) == p, path


def test_blocknumber_puzzle_text_is_exact_and_round_trips():
    plain = _blocknumber()
    p = plain.parse_puzzle("2 3\n2 0 0\n0 1 0\n7 7 3\n5 5 3\n", "s.txt")
    assert format_puzzle(p) == (
        '{\n'
        '  "kind": "blocknumber",\n'
        '  "height": 2,\n'
        '  "width": 3,\n'
        '  "givens": [\n'
        '    [2, 0, 0],\n'
        '    [0, 1, 0]\n'
        '  ],\n'
        '  "blocks": [\n'
        '    [0, 0, 1],\n'
        '    [2, 2, 1]\n'
        '  ]\n'
        '}\n')
    assert kind_of(p) == "blocknumber"
    assert parse_puzzle(format_puzzle(p), "s.txt") == p


def test_blocknumber_labels_may_be_any_integers():
    _blocknumber()
    obj = {"kind": "blocknumber", "height": 1, "width": 3, "givens": [[0, 0, 0]], "blocks": [[-4, -4, 9]]}
    assert puzzle_from_dict(obj).blocks == ((0, 0, 1),)


def test_every_blocknumber_instance_round_trips():
    plain = _blocknumber()
    paths = sorted((ROOT / "instances" / "blocknumber").glob("*.txt"))
    paths += _shared("blocknumber", "**/puzzles/*.txt")
    if not paths:
        pytest.skip("no BlockNumber instances in instances/blocknumber or the shared sets")
    for path in paths:
        p = plain.read_puzzle(str(path))
        assert parse_puzzle(format_puzzle(p), p.source) == p, path


FILLOMINO_2x2 = '{"kind": "fillomino", "height": 2, "width": 2, "cells": %s}'


@pytest.mark.parametrize("text, line, problem", [
    ("{", 1, "not valid JSON: Expecting property name enclosed in double quotes (column 2)"),
    ('{"kind": "fillomino",\n "height": 2,,}', 2, "not valid JSON: Expecting property name enclosed in "
                                                  "double quotes (column 14)"),
    ("", 1, "not valid JSON: Expecting value (column 1)"),
    ("[]", None, "expected a puzzle (a JSON object), found a list"),
    ('{"height": 1}', None, "the puzzle has no 'kind'; expected one of 'fillomino', 'blocknumber', 'tiling'"),
    ('{"kind": "sudoku"}', None, "kind: \"sudoku\" is not a puzzle kind; expected one of 'fillomino', "
                                 "'blocknumber', 'tiling'"),
    ('{"kind": "fillomino", "height": 2, "cells": []}', None,
     "a fillomino puzzle has no 'width'; expected the keys 'kind', 'height', 'width', 'cells'"),
    ('{"kind": "fillomino", "height": 1, "width": 1, "cells": [[1]], "colour": "red"}', None,
     "a fillomino puzzle has an unexpected key 'colour'; the keys are 'kind', 'height', 'width', 'cells'"),
    ('{"kind": "fillomino", "height": 0, "width": 2, "cells": []}', None, "height: must be at least 1, found 0"),
    ('{"kind": "fillomino", "height": "2", "width": 2, "cells": []}', None,
     'height: expected an integer, found "2"'),
    ('{"kind": "fillomino", "height": 2, "width": 1001, "cells": []}', None,
     "width: 1001 is larger than the limit of 1000 (raise it with the environment variable FILLSMT_MAX_SIDE)"),
    (FILLOMINO_2x2 % '"1 0 0 0"', None, "cells: expected a list of 2 rows, found a string"),
    (FILLOMINO_2x2 % "[[1, 0]]", None, "cells: expected 2 rows (the height), found 1"),
    (FILLOMINO_2x2 % "[[1, 0], 7]", None, "cells[1]: expected a row (a list of 2 integers), found an integer"),
    (FILLOMINO_2x2 % "[[1, 0], [0]]", None, "cells[1]: expected 2 values (the width), found 1"),
    (FILLOMINO_2x2 % "[[1, 0], [0, true]]", None, "cells[1][1]: expected an integer, found true"),
    (FILLOMINO_2x2 % "[[1, 0], [0, 2.5]]", None, "cells[1][1]: expected an integer, found 2.5"),
    (FILLOMINO_2x2 % "[[1, 0], [0, null]]", None, "cells[1][1]: expected an integer, found null"),
    (FILLOMINO_2x2 % "[[1, 0], [0, -3]]", None, "cells[1][1]: -3 is negative; expected 0 or a positive integer"),
    (FILLOMINO_2x2 % "[[1, 0], [0, 5]]", None,
     "the clue 5 at row 2, column 2 is larger than the grid (2x2 = 4 cells)"),
])
def test_malformed_json_names_the_source_and_problem(text, line, problem):
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "p.json")
    assert (info.value.line, info.value.problem) == (line, problem)
    where = "p.json" if line is None else f"p.json:{line}"
    assert str(info.value) == f"{where}: {problem}"


@pytest.mark.parametrize("obj, problem", [
    ({"kind": "blocknumber", "height": 1, "width": 2, "givens": [[1, 0]]},
     "a blocknumber puzzle has no 'blocks'; expected the keys 'kind', 'height', 'width', 'givens', 'blocks'"),
    ({"kind": "blocknumber", "height": 1, "width": 2, "givens": [[1, 0]], "blocks": [[0, "a"]]},
     'blocks[0][1]: expected an integer, found "a"'),
    ({"kind": "blocknumber", "height": 1, "width": 3, "givens": [[0, 0, 0]], "blocks": [[0, 1, 0]]},
     "the block labelled 0 is not connected: row 1, column 1 and row 1, column 3 are both labelled 0, "
     "but no path of side-by-side cells labelled 0 joins them"),
    ({"kind": "blocknumber", "height": 1, "width": 2, "givens": [[0, 3]], "blocks": [[0, 0]]},
     "the given 3 at row 1, column 2 is larger than its block (label 0, 2 cells); a block of n cells "
     "holds 1..n"),
])
def test_malformed_blocknumber_json_uses_the_kinds_own_messages(obj, problem):
    _blocknumber()
    with pytest.raises(FormatError) as info:
        puzzle_from_dict(obj, "b.json")
    assert (info.value.line, info.value.problem) == (None, problem)


# --- solve results ----------------------------------------------------------------------------

def _result(**changes):
    p = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    fields = dict(puzzle=p, status=Status.SAT, solver="yices", encoding="tree-bfs", grid=G12_SOLUTION,
                  message="", times={"encode": 0.0012345678, "solve": 0.02}, presolved_cells=21,
                  unique=None, second_grid=None, forced=None)
    fields.update(changes)
    return SimpleNamespace(**fields)


def test_result_object_has_the_documented_keys():
    obj = result_to_dict(_result(), "g12.txt")
    assert obj == {
        "puzzle": "g12.txt", "kind": "fillomino", "status": "sat",
        "grid": [list(row) for row in G12_SOLUTION], "solver": "yices", "encoding": "tree-bfs",
        "height": 5, "width": 5, "times": {"encode": 0.001235, "solve": 0.02},
        "presolved_cells": 21, "message": "",
    }
    back = parse_result(json.dumps(obj), "out.json")
    assert back["grid"] == G12_SOLUTION


def test_optional_result_keys_appear_only_when_set():
    obj = result_to_dict(_result(unique=False, second_grid=G12_SOLUTION, forced=G12_SOLUTION), "g12.txt")
    assert obj["unique"] is False
    assert obj["second_grid"] == obj["forced"] == obj["grid"]
    assert parse_result(json.dumps(obj))["forced"] == G12_SOLUTION
    unsat = result_to_dict(_result(status=Status.UNSAT, grid=None, presolved_cells=None), "u.txt")
    assert unsat["grid"] is None and "unique" not in unsat
    assert parse_result(json.dumps(unsat))["status"] == "unsat"


def test_bad_input_result_reads_back():
    obj = bad_input_dict("nope.txt", "nope.txt: no such file", solver="yices", encoding="tree-bfs")
    assert parse_result(json.dumps(obj)) == obj


@pytest.mark.parametrize("change, problem", [
    ({"status": "solved"}, "status: \"solved\" is not one of sat, unsat, unknown, timeout, error, bad-input"),
    ({"grid": None}, "grid: a result with status 'sat' must have the solution grid"),
    ({"grid": [[1]]}, "grid: expected 5 rows (the height), found 1"),
    ({"times": {"solve": "fast"}}, "times: expected an object of stage names to seconds"),
    ({"solver": 3}, "solver: expected a string, found an integer"),
    ({"extra": 1}, "the solve result has an unexpected key 'extra'; the keys are 'puzzle', 'kind', 'status', "
                   "'grid', 'solver', 'encoding', 'height', 'width', 'times', 'presolved_cells', 'message', "
                   "'unique', 'second_grid', 'forced'"),
])
def test_malformed_results_are_refused(change, problem):
    obj = {**result_to_dict(_result(), "g12.txt"), **change}
    with pytest.raises(FormatError) as info:
        parse_result(json.dumps(obj), "out.json")
    assert info.value.problem == problem


def test_dumps_keeps_non_grid_values_on_one_line():
    assert dumps({"a": 1, "b": [1, 2], "c": [[1], [2]]}) == (
        '{\n  "a": 1,\n  "b": [1, 2],\n  "c": [\n    [1],\n    [2]\n  ]\n}\n')


# --- the JSON Schema files --------------------------------------------------------------------

def test_schema_files_are_json_and_name_every_kind():
    puzzle_schema = json.loads((DOCS / "puzzle.schema.json").read_text())
    result_schema = json.loads((DOCS / "result.schema.json").read_text())
    kinds = {d["properties"]["kind"]["const"] for d in puzzle_schema["$defs"].values()
             if "properties" in d}
    assert kinds == set(KINDS)
    assert set(result_schema["required"]) == set(result_to_dict(_result(), "x"))


def test_documents_validate_against_the_schemas():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    puzzle_schema = json.loads((DOCS / "puzzle.schema.json").read_text())
    result_schema = json.loads((DOCS / "result.schema.json").read_text())
    for path in sorted(INSTANCES.glob("*.txt")):
        jsonschema.validate(puzzle_to_dict(read_puzzle(str(path))), puzzle_schema)
    jsonschema.validate(result_to_dict(_result(unique=True), "g12.txt"), result_schema)
    jsonschema.validate(bad_input_dict("x", "x: no such file"), result_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"kind": "fillomino", "height": 1, "width": 1, "cells": [[1]], "x": 0},
                            puzzle_schema)
