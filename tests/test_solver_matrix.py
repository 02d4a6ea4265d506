"""Every script ``fillsmt encode`` offers, of every kind, presolve on and off, through every
installed solver as that solver reads SMT-LIB itself: the z3 and yices-smt2 binaries on standard
input, cvc5's and Bitwuzla's own SMT-LIB parsers through their Python packages (in a child
process, as a binary would run). Each answer is decoded to a grid that the kind's independent
checker accepts. Bitwuzla gets only the scripts whose theory it decides (bit-vectors and
Booleans, no integers)."""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import ROOT, solver_or_skip
from fillsmt.protocol import script_names
from fillsmt.cli import main
from fillsmt.drivers.base import interpret_output
from fillsmt.formats.source import load
from fillsmt.kinds import get_kind, kinds
from fillsmt.smtlib.answer import Status
from fillsmt.smtlib.sexpr import read_all

RING = "board 3 3\nblocked 1 1\nrotations yes\npiece L\n#.\n##\n"
"""Eight cells round a blocked centre, L-trominoes in any rotation: at most 6 covered."""
RING_BEST = 6
PUZZLES = {"fillomino": ROOT / "instances" / "fillomino" / "g12-5x5.txt",
           "blocknumber": ROOT / "instances" / "blocknumber" / "random-5x5.txt"}
SOLVERS = ["z3", "yices-smt2", "cvc5", "bitwuzla"]
CASES = [(kind.name, encoding, presolve) for kind in kinds() if kind.name in (*PUZZLES, "tiling")
         for encoding in script_names(kind) for presolve in ("on", "off")]

CVC5 = """
import sys, cvc5
tm = cvc5.TermManager()
solver = cvc5.Solver(tm)
symbols = cvc5.SymbolManager(tm)
parser = cvc5.InputParser(solver, symbols)
parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, sys.stdin.read(), "stdin")
while True:
    command = parser.nextCommand()
    if command.isNull():
        break
    sys.stdout.write(command.invoke(solver, symbols))
"""
BITWUZLA = """
import sys, bitwuzla
parser = bitwuzla.Parser(bitwuzla.TermManager(), bitwuzla.Options(), "smt2", 10)
parser.parse(sys.stdin.read(), False, False)
"""
"""Each package's own parser on the whole script; the options are the script's own (no
produce-models set here: the header's must do it)."""


@pytest.fixture(scope="module")
def ring(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiling") / "ring.txt"
    path.write_text(RING)
    return path


@functools.lru_cache(maxsize=None)
def script(kind: str, encoding: str, presolve: str, path: str) -> str:
    bound = ["--bound", str(RING_BEST)] if kind == "tiling" else []
    out = CliRunner().invoke(main, ["encode", *bound, "-e", encoding, f"--{'' if presolve == 'on' else 'no-'}presolve",
                                    path])
    assert out.exit_code == 0, out.output
    return out.stdout


def answer(solver: str, text: str) -> str:
    """What ``solver`` prints for the script ``text``, reading it as it reads any SMT-LIB file."""
    if solver in ("cvc5", "bitwuzla"):
        if importlib.util.find_spec(solver) is None:
            pytest.skip(f"the {solver} Python package is not installed (pip install {solver})")
        argv = [sys.executable, "-c", CVC5 if solver == "cvc5" else BITWUZLA]
    else:
        driver = solver_or_skip("z3" if solver == "z3" else "yices")
        argv = [driver.executable(), *(["-in", "-smt2"] if solver == "z3" else [])]
    done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (solver, done.stderr[-2000:])
    return done.stdout


@pytest.mark.solver
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("kind, encoding, presolve", CASES)
def test_a_script_round_trips_through_the_solver(kind, encoding, presolve, solver, ring):
    path = str(ring if kind == "tiling" else PUZZLES[kind])
    text = script(kind, encoding, presolve, path)
    logic = next(c.value[1] for c in read_all(text) if c.value[0] == "set-logic")
    if solver == "bitwuzla" and ("IA" in logic or "IDL" in logic):
        pytest.skip(f"Bitwuzla decides bit-vectors and Booleans, not integers ({kind} {encoding} is {logic})")
    run = interpret_output(solver, answer(solver, text))
    assert run.status is Status.SAT, run.message
    puzzle, found = load(path), get_kind(kind)
    solution = found.decode(puzzle, run.values, encoding, f"{solver}'s answer")
    assert found.check(puzzle, solution) == []
    if kind == "tiling":
        assert solution.covered >= RING_BEST


def test_every_kind_and_every_script_encoding_is_in_the_matrix():
    assert {k for k, _, _ in CASES} == {"fillomino", "blocknumber", "tiling"}
    assert {e for k, e, _ in CASES if k == "fillomino"} == {"thesis", "tree", "tree-bfs", "tree-bfs-bv"}
    assert len(CASES) == 2 * sum(len(script_names(get_kind(k))) for k in ("fillomino", "blocknumber", "tiling"))
