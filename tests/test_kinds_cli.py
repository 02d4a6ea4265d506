"""Kinds through the CLI and the Python API: detection, URLs, JSON, convert, render."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import fillsmt
from conftest import INSTANCES, ROOT, solver_or_skip
from fillsmt.cli import main
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.formats.source import load
from fillsmt.kinds import detect
from fillsmt.smtlib.answer import Status

URL = "https://puzz.link/p?fillomino/5/5/g1k34g2h5h4n"
SUGURU_SHARED = ROOT.parent / "shared" / "instances" / "blocknumber" / "suguru-sat-testcases" / "puzzles"
BLOCK = "3 3\n0 0 0\n0 0 0\n0 0 0\n1 1 2\n1 2 2\n3 3 2\n"  # blocks of 3, 4, 2 cells


@pytest.fixture
def block_file(tmp_path):
    path = tmp_path / "block.txt"
    path.write_text(BLOCK)
    return str(path)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_kind_is_detected_from_the_text():
    assert detect(BLOCK) == "blocknumber"
    assert detect((INSTANCES / "g12-5x5.txt").read_text()) == "fillomino"


def test_a_url_loads_like_the_file_it_came_from():
    assert load(URL).cells == read_puzzle(str(INSTANCES / "formats-example-5x5.txt")).cells


def test_a_kind_that_contradicts_the_url_is_refused():
    out = run("solve", "--kind", "blocknumber", URL)
    assert out.exit_code == 2
    assert "a fillomino URL, but --kind blocknumber was given" in out.stderr


def test_solve_accepts_a_url():
    solver_or_skip("yices")
    out = run("solve", URL)
    assert out.exit_code == 0
    assert out.stdout.startswith("5 5\n")


def test_blocknumber_solve_unique_check_round_trip(block_file, tmp_path):
    solver_or_skip("yices")
    out = run("solve", "--unique", "-f", "json", block_file)
    obj = json.loads(out.stdout)
    assert obj["status"] == "sat"
    plain = run("solve", block_file)
    solution = tmp_path / "s.txt"
    solution.write_text(plain.stdout)
    assert run("check", block_file, solution).stdout.endswith("valid\n")
    count = run("count", "--limit", "50", block_file)
    n = int(count.stdout.rsplit(": ", 1)[1].split()[0].rstrip("+"))
    assert (obj["unique"] is True) == (n == 1)


@pytest.mark.parametrize("encoding", ["onehot", "int-distinct", "int-pairwise", "bv"])
def test_blocknumber_encode_then_decode(block_file, tmp_path, encoding):
    driver = solver_or_skip("z3")
    script = run("encode", "-e", encoding, block_file)
    assert script.exit_code == 0, script.output
    answer = driver.run(script.stdout, 60)
    assert answer.status is Status.SAT
    saved = tmp_path / "answer.txt"
    saved.write_text(answer.output)
    out = run("decode", "-e", encoding, block_file, saved)
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("3 3\n")


def test_blocknumber_published_puzzle_when_present():
    if not SUGURU_SHARED.exists():
        pytest.skip(f"{SUGURU_SHARED} is absent")
    solver_or_skip("yices")
    path = SUGURU_SHARED / "001.txt"
    out = run("solve", "--unique", "-f", "json", path)
    obj = json.loads(out.stdout)
    solution = (SUGURU_SHARED.parent / "solutions" / "001.txt").read_text().split()
    assert [v for row in obj["grid"] for v in row] == [int(v) for v in solution[2:]]
    assert obj["unique"] is True


def test_convert_round_trips(tmp_path):
    url = run("convert", INSTANCES / "g12-5x5.txt", "--to", "url")
    assert url.exit_code == 0 and url.stdout.startswith("https://puzz.link/p?fillomino/5/5/")
    back = run("convert", url.stdout.strip(), "--to", "plain")
    from fillsmt.fillomino.plain_format import parse_puzzle
    assert parse_puzzle(back.stdout).cells == read_puzzle(str(INSTANCES / "g12-5x5.txt")).cells
    as_json = run("convert", INSTANCES / "g12-5x5.txt", "--to", "json", "-o", tmp_path / "g.json")
    assert as_json.exit_code == 0
    assert load(str(tmp_path / "g.json")).cells == read_puzzle(str(INSTANCES / "g12-5x5.txt")).cells
    again = run("convert", INSTANCES / "g12-5x5.txt", "--to", "json", "-o", tmp_path / "g.json")
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_render_writes_a_well_formed_svg_of_the_solution(tmp_path):
    solver_or_skip("yices")
    out = run("render", INSTANCES / "g12-5x5.txt", "--solve", "-o", tmp_path / "g.svg")
    assert out.exit_code == 0, out.output
    root = ET.parse(tmp_path / "g.svg").getroot()
    texts = [t for t in root.iter() if t.tag.endswith("text")]
    assert len(texts) == 25


def test_render_refuses_a_wrong_solution(tmp_path):
    wrong = tmp_path / "w.txt"
    wrong.write_text("5 5\n" + "1 1 1 1 1\n" * 5)
    out = run("render", INSTANCES / "g12-5x5.txt", wrong, "-o", tmp_path / "g.svg")
    assert out.exit_code == 1 and "not a solution" in out.stderr
    assert not (tmp_path / "g.svg").exists()


def test_python_api():
    solver_or_skip("yices")
    puzzle = fillsmt.load(str(INSTANCES / "g12-5x5.txt"))
    result = fillsmt.solve(puzzle, unique=True)
    assert result.status is Status.SAT and result.unique is True and result.grid is not None
    assert "total" in result.times
    text = fillsmt.encode(puzzle)
    assert text.rstrip().endswith(")") and "(check-sat)" in text
    assert fillsmt.encode(puzzle, "thesis").count("(get-value") == 25
