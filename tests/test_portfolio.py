"""The portfolio on scripts of realistic size: every member gets the whole script, with and
without a time-out, and the race answers (a portfolio that stopped writing standard input
after its first 20 ms would leave every member of a 20×20 puzzle's race without an answer)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from conftest import DATA, INSTANCES, solver_or_skip
from fillsmt.drivers import CommandDriver, PortfolioDriver
from fillsmt.drivers.process import run_process
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.engine.pipeline import encode, solve
from fillsmt.smtlib.answer import Status

LARGE = ["20x20-1.txt", "20x20-2.txt", "30x30-1.txt"]
SOLVED = ["20x20-1.txt", "20x20-2.txt"]  # 30x30-1 takes both members a minute without the presolve


@pytest.mark.parametrize("stop", [None, threading.Event()], ids=["plain", "with-stop"])
@pytest.mark.parametrize("timeout", [None, 30.0], ids=["no-timeout", "timeout"])
def test_a_large_input_reaches_the_process_whole(stop, timeout):
    text = "(assert true)\n" * 400_000  # 5.6 MB, far more than a pipe holds
    outcome = run_process([sys.executable, "-c", "import sys; print(len(sys.stdin.buffer.read()))"],
                          text, timeout, stop)
    assert outcome.returncode == 0 and not outcome.timed_out
    assert int(outcome.stdout) == len(text)


@pytest.mark.parametrize("name", LARGE)
def test_every_member_receives_the_whole_script(name, tmp_path):
    script = encode(read_puzzle(str(INSTANCES / "generated" / name)), "tree")
    counts = [tmp_path / "a", tmp_path / "b"]
    members = [CommandDriver([sys.executable, str(DATA / "fake_solver.py"), "count", str(c)], name=c.name)
               for c in counts]
    result = PortfolioDriver(members).run(script, timeout=3.0)
    assert result.status is Status.TIMEOUT
    assert [int(c.read_text()) for c in counts] == [len(script.encode())] * 2


@pytest.mark.parametrize("timeout", [None, 60.0], ids=["no-timeout", "timeout"])
@pytest.mark.parametrize("name", SOLVED)
def test_the_portfolio_solves_large_puzzles(name, timeout):
    solver_or_skip("yices"), solver_or_skip("z3")
    puzzle = read_puzzle(str(INSTANCES / "generated" / name))
    result = solve(puzzle, PortfolioDriver([solver_or_skip("yices"), solver_or_skip("z3")]), "tree",
                   timeout=timeout, presolve=False)
    assert result.status is Status.SAT, result.message
    assert result.grid is not None  # passed the checker
    assert result.message.startswith("first answer from ")


def test_the_cli_portfolio_without_timeout_ends():
    solver_or_skip("yices"), solver_or_skip("z3")
    run = subprocess.run([sys.executable, "-m", "fillsmt", "solve", "--solver", "portfolio",
                          str(INSTANCES / "generated" / "20x20-1.txt")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.split()) == 2 + 400
