"""Jupyter pictures: puzzles and results of every kind have _repr_svg_ (their SVG picture)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import fillsmt
from conftest import ROOT, solver_or_skip
from fillsmt.kinds import kind_of

NS = "{http://www.w3.org/2000/svg}"
FILES = ["instances/fillomino/g12-5x5.txt", "instances/blocknumber/random-6x6.txt", "instances/tiling/tetris-7x7.txt"]


@pytest.mark.parametrize("name", FILES)
def test_a_puzzle_shows_as_its_picture(name):
    puzzle = fillsmt.load(str(ROOT / name))
    svg = puzzle._repr_svg_()
    assert svg == kind_of(puzzle).svg(puzzle, None, title=name.rsplit("/", 1)[-1])  # the file name, no folders
    assert ET.fromstring(svg).tag == f"{NS}svg"


@pytest.mark.parametrize("name", FILES[:2])
def test_a_result_shows_the_solution(name):
    solver_or_skip("yices")
    puzzle = fillsmt.load(str(ROOT / name))
    result = fillsmt.solve(puzzle, solver="yices")
    root = ET.fromstring(result._repr_svg_())
    solved = [t for t in root.iter(f"{NS}text") if t.get("class") == "solved"]
    assert len(solved) == puzzle.empty_cells
    assert sorted(int(t.text) for t in solved) == sorted(
        v for r, row in enumerate(result.grid) for c, v in enumerate(row)
        if (r, c) not in {(a, b) for a, b, _ in kind_of(puzzle).clues(puzzle)})


def test_an_explanation_shows_step_numbers():
    solver_or_skip("yices")
    from fillsmt.fillomino.explain import explain

    puzzle = fillsmt.load(str(ROOT / FILES[0]))
    e = explain(puzzle)
    root = ET.fromstring(e._repr_svg_())
    notes = [t.text for t in root.iter(f"{NS}text") if t.get("class") is None and t.text]
    numbers = e.step_numbers()
    assert len(numbers) == puzzle.empty_cells
    assert sorted(map(int, notes)) == sorted(numbers.values())
