"""The published puzzle sets beside the checkout (skipped when ../shared is absent).

The bar: every MiniZinc Challenge puzzle and the 5x10 and 10x10 Puzzle Baron puzzles solve
with z3 and with yices under the thesis encoding and pass the checker; and the path through
`fillsmt encode` | solver binary | `fillsmt decode` gives the same grids as `fillsmt solve`.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import SHARED, solver_or_skip
from fillsmt.drivers.binaries import find_executable
from fillsmt.fillomino.plain_format import parse_grid, read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.engine.pipeline import solve
from fillsmt.smtlib.answer import Status


def _files(*parts: str, pattern: str = "*.txt") -> list:
    folder = SHARED.joinpath(*parts)
    return sorted(folder.glob(pattern)) if folder.exists() else []


MINIZINC = _files("minizinc-challenge")
BARON_SMALL = _files("baron-thesis60", "puzzles", pattern="05x10-*.txt") + \
    _files("baron-thesis60", "puzzles", pattern="10x10-*.txt")
SET = MINIZINC + BARON_SMALL
needs_shared = pytest.mark.skipif(not SET, reason=f"{SHARED} is absent (shared puzzle sets)")


@needs_shared
@pytest.mark.parametrize("solver", ["z3", "yices"])
@pytest.mark.parametrize("path", SET, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_thesis_encoding_solves_and_checks(solver, path):
    driver = solver_or_skip(solver)
    puzzle = read_puzzle(str(path))
    result = solve(puzzle, driver, "thesis", timeout=300, presolve=False)
    assert result.status is Status.SAT, result.message
    assert check_solution(puzzle.cells, result.grid) == []
    published = path.parent.parent / "solutions" / path.name
    if published.exists():  # baron puzzles are unique: the answer must be the published one
        assert result.grid == parse_grid(published.read_text())[2]


def _fillsmt(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fillsmt", *args], input=input,
                          capture_output=True, text=True, timeout=600)


@needs_shared
@pytest.mark.parametrize("solver, binary", [("z3", ["z3", "-in"]), ("yices", ["yices-smt2"])])
@pytest.mark.parametrize("path", MINIZINC + BARON_SMALL[:3], ids=lambda p: p.name)
def test_encode_external_binary_decode_matches_solve(solver, binary, path):
    solver_or_skip(solver)
    exe = find_executable(binary[0])
    script = _fillsmt("encode", str(path))
    assert script.returncode == 0, script.stderr
    answer = subprocess.run([exe, *binary[1:]], input=script.stdout, capture_output=True, text=True, timeout=600)
    decoded = _fillsmt("decode", str(path), "-", input=answer.stdout)
    solved = _fillsmt("solve", "--solver", solver, "--no-race", str(path))  # the same script: the same model
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout == solved.stdout
