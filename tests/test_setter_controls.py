"""The setter's controls through the CLI: several solutions said so (``solve --forced``,
``hint``), pictures titled by file name and drawn from a player's partial grid, the style
controls of ``generate``, ``minimize --symmetric`` and ``repair --solution``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, ROOT
from fillsmt.cli import main

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed (pip install '.[test]')")

G12 = INSTANCES / "g12-5x5.txt"
TWO = INSTANCES / "two-solutions-5x5.txt"
BLOCK = ROOT / "instances" / "blocknumber" / "random-6x6.txt"
SVG = "{http://www.w3.org/2000/svg}"


def schema(name: str) -> dict:
    return json.loads((ROOT / "docs" / name).read_text())


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


# -- several solutions are said to be several ------------------------------------------------------


def test_solve_forced_says_several_solutions(yices):
    text = run("solve", "--forced", TWO)
    assert text.exit_code == 5
    assert "multiple solutions: 4 cells not forced (the solutions differ there): r1c1, r1c3, r1c4, r2c3" in text.stderr
    js = run("solve", "--forced", "--no-race", "-f", "json", TWO)
    assert js.exit_code == 5
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("result.schema.json"))
    assert obj["unique"] is False and obj["forced"][0] == [0, 4, 0, 0, 1]


def test_solve_forced_on_a_unique_puzzle(yices):
    js = run("solve", "--forced", "--no-race", "-f", "json", G12)
    assert js.exit_code == 0
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("result.schema.json"))
    assert obj["unique"] is True and obj["forced"] == obj["grid"]
    assert "unique (every cell is forced)" in run("solve", "--forced", G12).stderr


def test_hint_says_the_puzzle_is_not_unique(yices):
    text = run("hint", TWO)
    assert text.exit_code == 5
    assert "next step [single-exit]" in text.stdout and "the puzzle is not unique" in text.stdout
    js = run("hint", "-f", "json", TWO)
    obj = json.loads(js.stdout)
    jsonschema.validate(obj, schema("explain.schema.json"))
    assert js.exit_code == 5 and obj["status"] == "step" and obj["unique"] is False
    unique = run("hint", "-f", "json", G12)
    assert unique.exit_code == 0 and json.loads(unique.stdout)["unique"] is True


# -- pictures --------------------------------------------------------------------------------------


def _title(svg_text: str) -> str | None:
    title = ET.fromstring(svg_text).find(f"{SVG}title")
    return None if title is None else title.text


def test_svg_titles_hold_the_file_name_only(tmp_path, yices):
    folder = tmp_path / "private-folder"
    folder.mkdir()
    puzzle = folder / "mine.txt"
    puzzle.write_text(G12.read_text())
    drawn = run("render", puzzle, "-o", "-")
    assert drawn.exit_code == 0 and _title(drawn.stdout) == "mine.txt"
    assert "private-folder" not in drawn.stdout
    steps = tmp_path / "steps.svg"
    assert run("explain", "--svg", steps, puzzle).exit_code == 0
    assert _title(steps.read_text()).startswith("mine.txt: ") and "private-folder" not in steps.read_text()


def _cells_drawn(svg_text: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg_text).iter(f"{SVG}text")]


def _borders(svg_text: str) -> int:
    group = [g for g in ET.fromstring(svg_text).iter(f"{SVG}g") if g.get("id") == "borders"][0]
    return len(list(group))


def test_render_draws_a_partial_grid(tmp_path):
    part = tmp_path / "mine.txt"
    # g12's clues and the player's 4 4 4 (row 2) and 2 (row 4); the rest empty
    part.write_text("5 5\n1 0 0 0 1\n0 4 4 1 0\n2 4 0 0 0\n1 0 2 1 0\n3 0 1 0 2\n")
    drawn = run("render", G12, part, "-o", "-")
    assert drawn.exit_code == 0, drawn.output
    assert sorted(_cells_drawn(drawn.stdout)) == sorted("1 1 4 4 1 2 4 1 2 1 3 1 2".split())
    # borders only between filled side-by-side cells of different numbers: r2c3|r2c4 (4|1),
    # r3c1|r3c2 (2|4), r4c1-r5c1 (1/3), r4c3|r4c4 (2|1), r1c1-r2c1 none (r2c1 empty), ...
    labels = [[1, 0, 0, 0, 1], [0, 4, 4, 1, 0], [2, 4, 0, 0, 0], [1, 0, 2, 1, 0], [3, 0, 1, 0, 2]]
    expected = sum(
        1
        for r in range(5)
        for c in range(5)
        for rr, cc in ((r, c + 1), (r + 1, c))
        if rr < 5 and cc < 5 and labels[r][c] and labels[rr][cc] and labels[r][c] != labels[rr][cc]
    )
    assert _borders(drawn.stdout) == expected
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("5 5\n2 0 0 0 1\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n")
    refused = run("render", G12, wrong, "-o", "-")
    assert refused.exit_code == 1 and "r1c1 holds 2, the clue is 1" in refused.output
    small = tmp_path / "small.txt"
    small.write_text("2 2\n0 0\n0 0\n")
    assert run("render", G12, small, "-o", "-").exit_code == 2


def test_render_draws_a_partial_blocknumber_grid(tmp_path):
    part = tmp_path / "mine.txt"
    part.write_text("6 6\n2 1 0 0 2 0\n3 5 0 0 0 0\n0 0 0 4 0 3\n0 5 0 0 0 0\n2 0 0 0 2 1\n0 0 0 0 4 0\n")
    drawn = run("render", BLOCK, part, "-o", "-")
    assert drawn.exit_code == 0, drawn.output
    assert len(_cells_drawn(drawn.stdout)) == 12  # the 10 givens and the player's 2 and 1 (row 1)
