"""The case analyses of ``fillsmt explain`` (fillsmt.fillomino.cases) and the folded size-cap
steps: a puzzle that needs a nested split is explained without the solver and replays to its
published solution; every branch of every case analysis is closed by the named rules; runs of
size-cap steps that only remove numbers are folded into one; the JSON validates."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT, shared_or_skip
from fillsmt.cli import main
from fillsmt.fillomino import cases
from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.masks import bit
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.explain import explain, replay
from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.plain_format import format_puzzle, read_grid, read_puzzle
from fillsmt.fillomino.trace import Step, fold_size_caps

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed (pip install '.[test]')")

pytestmark = pytest.mark.usefixtures("yices")  # a solver-forced step, if any, asks yices

CHAIN_RULES = set(ALL_RULES) | {"size-caps"}
"""The rules a branch of a case analysis may use: the named deduction rules (size-caps is a
run of size-cap steps)."""

ADDED_262 = [(0, 4), (0, 8), (2, 0), (2, 9), (4, 0), (4, 4), (5, 0), (5, 4), (5, 9)]
ADDED_262 += [(7, 0), (7, 9), (8, 0), (8, 1), (8, 2), (8, 9), (9, 1), (9, 2), (9, 5)]
"""Cells of janko-thesis100 262 given their published numbers: the puzzle the rules then stop
on needs a nested split (no single hypothesis is refuted)."""


def janko(name: str) -> tuple[Puzzle, tuple]:
    base = shared_or_skip("janko-thesis100")
    return read_puzzle(str(base / "puzzles" / f"{name}.txt")), read_grid(str(base / "solutions" / f"{name}.txt"))[2]


def nested_puzzle() -> tuple[Puzzle, tuple]:
    puzzle, solution = janko("262")
    cells = [list(row) for row in puzzle.cells]
    for r, c in ADDED_262:
        cells[r][c] = solution[r][c]
    return Puzzle(puzzle.height, puzzle.width, tuple(map(tuple, cells)), "262-with-18-more"), solution


def explained_json(tmp_path, puzzle: Puzzle) -> dict:
    path = tmp_path / "puzzle.txt"
    path.write_text(format_puzzle(puzzle))
    result = CliRunner().invoke(main, ["explain", "--format", "json", str(path)])
    assert "Traceback" not in result.output, result.output
    found = json.loads(result.stdout)
    jsonschema.validate(found, json.loads((ROOT / "docs" / "explain.schema.json").read_text()))
    assert result.exit_code == 0 and found["status"] == "solved"
    return found


def replayed(puzzle: Puzzle, steps: list[dict]) -> tuple:
    grid = [list(row) for row in puzzle.cells]
    for step in steps:
        for r, c, v in step["cells"]:
            assert grid[r][c] in (0, v)
            grid[r][c] = v
    return tuple(map(tuple, grid))


def closed_by_rules(step: dict, solution) -> None:
    """A case analysis: each branch is a chain of named rules; a refuted branch ends in a
    contradiction, a whichever branch does not; the conclusion is the solution's."""
    for r, c, v in step["cells"]:
        assert solution[r][c] == v, step["text"]
    for r, c, v in step["removed"]:
        assert solution[r][c] != v, step["text"]
    branches = step.get("cases", [])
    chains = [step.get("chain", [])] + [b["chain"] for b in branches]
    for chain in chains:
        assert all(sub["rule"] in CHAIN_RULES for sub in chain), step["text"]
    if step["rule"] == "case-split":
        r, c, v = step["tried"]
        assert step["contradiction"] and solution[r][c] != v and not branches
    elif step["rule"] == "nested-split":
        r, c, v = step["tried"]
        assert solution[r][c] != v and len(branches) >= 2
        assert all(b["contradiction"] for b in branches)
        assert len({tuple(b["tried"][:2]) for b in branches}) == 1  # the numbers of one cell
        assert [b["tried"][:2] for b in branches][0] == step["because"][1]
    elif step["rule"] == "whichever":
        assert len(branches) >= 2 and all(b["contradiction"] is None for b in branches)
        assert {tuple(b["tried"][:2]) for b in branches} == {tuple(step["because"][0])}
        assert step["cells"] or step["removed"]


def test_a_puzzle_that_needs_a_nested_split_is_explained_without_the_solver(tmp_path):
    puzzle, solution = nested_puzzle()
    found = explained_json(tmp_path, puzzle)
    rules = [s["rule"] for s in found["steps"]]
    assert "solver-forced" not in rules
    assert rules.count("nested-split") == 1
    assert tuple(map(tuple, found["grid"])) == solution == replayed(puzzle, found["steps"])
    for step in found["steps"]:
        if step["rule"] in ("case-split", "whichever", "nested-split"):
            closed_by_rules(step, solution)


def test_before_the_nested_split_no_single_hypothesis_is_refuted():
    # the domains the steps before it leave, rebuilt from their cells and removals: every
    # hypothesis a case split tries (every number of a cell with few candidates, the numbers some
    # cell is fixed to in the others), with no budget: none refuted, and no whichever
    puzzle, _ = nested_puzzle()
    e = explain(puzzle)
    at = [s.rule for s in e.steps].index("nested-split")
    board = Board.of(puzzle.height, puzzle.width)
    masks = initial_masks(puzzle)
    for step in e.steps[:at]:
        for r, c, v in step.cells:
            masks[r * board.width + c] = bit(v)
        for r, c, v in step.removed:
            masks[r * board.width + c] &= ~bit(v)
    base = State(board, list(masks), ALL_RULES)
    assert fixpoint(base, ALL_RULES) is None and base.dom == masks  # a fixpoint of the rules
    budget = cases._Budget(10**6, time.monotonic() + 600)
    refuted, agreed = cases._scan(base, budget)
    assert not refuted and not agreed and budget.trials < 10**6 - 100
    assert cases.Cases(board).next(masks, None)[0][0].rule == "nested-split"


def test_whichever_branches_are_closed_by_the_rules(tmp_path):
    puzzle, solution = janko("268")
    found = explained_json(tmp_path, puzzle)
    which = [s for s in found["steps"] if s["rule"] == "whichever"]
    assert which, "268 has a whichever step"
    for step in found["steps"]:
        if step["rule"] in ("case-split", "whichever", "nested-split"):
            closed_by_rules(step, solution)
    assert "whichever number" in which[0]["text"]
    assert tuple(map(tuple, found["grid"])) == solution == replayed(puzzle, found["steps"])


def test_the_text_shows_every_branch():
    puzzle, _ = nested_puzzle()
    e = explain(puzzle)
    i = [s.rule for s in e.steps].index("nested-split") + 1
    text = e.text()
    assert f"{i}. [nested-split] suppose " in text
    for k, case in enumerate(e.steps[i - 1].cases, 1):
        r, c, v = case.tried
        assert f"case {k}: r{r + 1}c{c + 1} is {v}: contradiction (" in text
        assert f"          {i}.{k}.1 [" in text


def size_cap(r: int, c: int, values: list[int], fixes: bool = False) -> Step:
    cells = [(r, c, values[0])] if fixes else []
    removed = [] if fixes else [(r, c, v) for v in values]
    return Step("size-cap", cells, removed, [(0, 0)], "…")


def test_runs_of_size_cap_removals_fold_into_one_step():
    other = Step("area", [], [(4, 4, 2)], [], "…")
    steps = [size_cap(0, 1, [7, 8]), size_cap(0, 2, [9]), other, size_cap(1, 1, [5]), size_cap(2, 2, [3], True)]
    steps += [size_cap(3, 3, [6, 7]), size_cap(3, 4, [6, 7, 8]), size_cap(3, 5, [8])]
    folded = fold_size_caps(steps)
    assert [s.rule for s in folded] == ["size-caps", "area", "size-cap", "size-cap", "size-caps"]
    assert folded[0].removed == [(0, 1, 7), (0, 1, 8), (0, 2, 9)] and folded[0].cells == []
    assert folded[2] is steps[3] and folded[3] is steps[4]  # a run of one, a step that fixes a cell
    assert folded[4].removed == [(3, 3, 6), (3, 3, 7), (3, 4, 6), (3, 4, 7), (3, 4, 8), (3, 5, 8)]
    assert folded[4].text.startswith("the open cells around 3 cells are too few for their largest numbers")
    assert "r4c4 is not 6, 7, r4c5 is not 6–8, r4c6 is not 8" in folded[4].text


def test_an_explanation_has_no_two_size_cap_removals_in_a_row():
    for puzzle in (read_puzzle(str(INSTANCES / n)) for n in ("random-6x6.txt", "random-7x7.txt", "g12-5x5.txt")):
        e = explain(puzzle)
        assert e.status == "solved" and replay(puzzle, e.steps) == e.grid
        for chain in [e.steps] + [s.chain for s in e.steps] + [c.chain for s in e.steps for c in s.cases]:
            pairs = zip(chain, chain[1:])
            assert not any(a.rule == b.rule == "size-cap" and not a.cells and not b.cells for a, b in pairs)


def test_the_schema_names_every_step_kind_and_holds_a_branch_to_its_fields():
    schema = json.loads((ROOT / "docs" / "explain.schema.json").read_text())
    kinds = set(schema["$defs"]["step"]["properties"]["rule"]["enum"])
    assert set(ALL_RULES) | {"size-caps", "case-split", "whichever", "nested-split", "solver-forced"} <= kinds
    branch = {"tried": [0, 1, 2], "chain": [{"rule": "area", "cells": [], "removed": [[0, 2, 3]], "because": [],
                                             "text": "…"}], "contradiction": None}
    step = {"rule": "whichever", "cells": [[0, 2, 1]], "removed": [], "because": [[0, 1]], "text": "…",
            "cases": [branch, branch | {"tried": [0, 1, 3]}]}
    explanation = {"puzzle": "p", "height": 1, "width": 3, "status": "stopped", "message": "", "steps": [step],
                   "grid": None}
    jsonschema.validate(explanation, schema)
    old = dict(step, rule="case-split", tried=[0, 1, 2], chain=[], contradiction="…")
    del old["cases"]
    jsonschema.validate(explanation | {"steps": [old]}, schema)  # the shape before the cases still holds
    for broken in ({k: v for k, v in branch.items() if k != "contradiction"}, branch | {"why": "…"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(explanation | {"steps": [step | {"cases": [broken]}]}, schema)


def test_a_hint_where_only_a_nested_split_goes_on_is_that_split():
    # the player has filled in every cell the steps before the nested split fixed
    from fillsmt.fillomino.explain import hint

    puzzle, solution = nested_puzzle()
    e = explain(puzzle)
    at = [s.rule for s in e.steps].index("nested-split")
    h = hint(puzzle, replay(puzzle, e.steps[:at]))
    assert h.status == "step" and h.unique is True and h.step.rule == "nested-split" and h.step.cells
    assert all(solution[r][c] == v for r, c, v in h.step.cells)
    closed_by_rules(h.step.as_dict(), solution)
