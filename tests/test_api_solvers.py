"""cvc5, Bitwuzla and yices-api (the solvers' Python APIs): every kind, sessions, time-outs."""

from __future__ import annotations

import io
import os
import signal
import time

import pytest

from conftest import INSTANCES, ROOT, solver_or_skip
from fillsmt.drivers.api_worker import complete_groups, main as worker_main
from fillsmt.errors import InputError, SolverError
from fillsmt.formats.source import load
from fillsmt.engine.pipeline import count, solve
from fillsmt.smtlib.answer import Status
from fillsmt.tiling.optimize import optimize
from test_drivers import G12_SOLUTION, _alive, pigeonhole

API_SOLVERS = ["cvc5", "bitwuzla", "yices-api"]
BLOCKNUMBER = ROOT / "instances" / "blocknumber"
TILING = ROOT / "instances" / "tiling"


@pytest.fixture(params=API_SOLVERS)
def api_solver(request):
    return solver_or_skip(request.param)


def _workers() -> list[int]:
    """This process's children that run the API worker (none should outlive a run)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and b"api_worker" in cmdline and fields[0] != "Z":
            found.append(int(entry))
    return found


def test_fillomino_unique_with_the_solvers_default_encoding(api_solver):
    result = solve(load(str(INSTANCES / "g12-5x5.txt")), api_solver, None, timeout=120, presolve=False, unique=True)
    assert (result.status, result.grid, result.unique) == (Status.SAT, G12_SOLUTION, True), result.message
    expected = "bv-by-area" if api_solver.name == "bitwuzla" else "tree-bfs"  # the kind's choice for QF_BV
    assert result.encoding == expected


def test_fillomino_one_shot_and_unsat(api_solver):
    one_shot = "tree-bfs-bv" if api_solver.name == "bitwuzla" else "thesis"
    result = solve(load(str(INSTANCES / "g12-5x5.txt")), api_solver, one_shot, timeout=120, presolve=False)
    assert (result.status, result.grid) == (Status.SAT, G12_SOLUTION), result.message
    result = solve(load(str(INSTANCES / "unsat-1x2.txt")), api_solver, None, timeout=120, presolve=False)
    assert (result.status, result.grid) == (Status.UNSAT, None)


def test_fillomino_forced_cells_of_a_puzzle_with_two_solutions(api_solver):
    puzzle = load(str(INSTANCES / "random-4x7.txt"))
    reference = solve(puzzle, solver_or_skip("yices"), None, timeout=120, presolve=False, unique=True, forced=True)
    result = solve(puzzle, api_solver, None, timeout=120, presolve=False, unique=True, forced=True)
    assert result.status is Status.SAT, result.message
    assert result.unique == reference.unique
    assert result.forced == reference.forced


def test_blocknumber_every_encoding_the_solver_takes(api_solver):
    puzzle = load(str(BLOCKNUMBER / "random-6x6.txt"))
    encodings = ["bv", "onehot"] if api_solver.name == "bitwuzla" else ["onehot", "int-distinct", "int-pairwise", "bv"]
    for encoding in encodings:
        result = solve(puzzle, api_solver, encoding, timeout=120, unique=True)
        assert (result.status, result.unique) == (Status.SAT, True), (encoding, result.message)
    found = count(puzzle, api_solver, limit=3, timeout=120)
    assert (len(found.grids), found.complete) == (1, True)


def test_tiling_bound_search_proves_the_optimum(api_solver):
    problem = load(str(TILING / "tetris-7x7.txt"))
    result = optimize(problem, api_solver, timeout=300, method="bounds")
    assert (result.covered, result.optimal) == (48, True)
    if api_solver.name == "bitwuzla":
        assert result.amo == "bv"


def test_bitwuzla_refuses_integer_encodings_with_a_clear_message():
    driver = solver_or_skip("bitwuzla")
    puzzle = load(str(INSTANCES / "g12-5x5.txt"))
    with pytest.raises(InputError, match="bitwuzla decides bit-vectors and Booleans, not integers: "
                                         "choose a bit-vector or Boolean encoding"):
        solve(puzzle, driver, "tree-bfs", timeout=60, presolve=False)
    with pytest.raises(InputError, match="not integers"):
        solve(puzzle, driver, "thesis", timeout=60, presolve=False, unique=True)
    assert _workers() == []


def test_errors_quote_the_solver(api_solver):
    run = api_solver.run("(set-logic QF_BV)\n(declare-fun x () (_ BitVec 4))\n(assert (bvult y x))\n(check-sat)\n",
                         timeout=60)
    assert run.status is Status.ERROR
    assert "y" in run.message


def test_a_real_time_out_leaves_no_worker(api_solver):
    start = time.perf_counter()
    run = api_solver.run(pigeonhole(12), timeout=1.0)
    assert run.status is Status.TIMEOUT, run.message
    assert "1 s" in run.message
    assert time.perf_counter() - start < 15
    assert _workers() == []


def test_a_session_time_out_closes_the_session_and_its_worker(api_solver):
    body = pigeonhole(12).replace("(check-sat)\n", "")
    with api_solver.open_session() as session:
        session.send(body)
        pid = getattr(session, "pid", None)
        start = time.perf_counter()
        assert session.check(timeout=1.0) is Status.TIMEOUT
        assert time.perf_counter() - start < 15
        assert not session.alive
    if pid is not None:
        assert not _alive(pid)
    assert _workers() == []


@pytest.mark.parametrize("name", ["cvc5", "bitwuzla"])
def test_a_killed_worker_is_a_solver_error_and_leaves_nothing(name):
    driver = solver_or_skip(name)
    with driver.open_session() as session:
        session.send("(set-logic QF_UF)\n(declare-fun a () Bool)\n")
        assert session.check(timeout=60) is Status.SAT
        os.kill(session.pid, signal.SIGKILL)
        with pytest.raises(SolverError, match="stopped during the session"):
            session.check(timeout=60)
    assert not _alive(session.pid)
    assert _workers() == []


def test_worker_groups_commands_as_they_complete():
    text = '(assert (= x\n 1))\n(echo "a ) b")\n; (not a command\n(check-sat)\n'
    assert list(complete_groups(io.StringIO(text))) == ['(assert (= x\n 1))\n', '(echo "a ) b")\n',
                                                        '; (not a command\n', '(check-sat)\n']


def test_worker_names_an_unknown_backend():
    out = io.StringIO()
    assert worker_main(["z4"], io.StringIO(""), out) == 1
    assert out.getvalue() == "(error \"unknown API backend 'z4'; choose one of cvc5, bitwuzla, z3-prop\")\n"


def test_solvers_lists_the_api_solvers_with_versions():
    from click.testing import CliRunner

    from fillsmt.cli import main

    out = CliRunner().invoke(main, ["solvers"])
    assert out.exit_code == 0, out.output
    for name in API_SOLVERS:
        line = next(line for line in out.output.splitlines() if line.split()[:1] == [name])
        driver = solver_or_skip(name)
        assert driver.version() in line


def test_the_cli_solves_every_kind_with_each_api_solver(api_solver):
    from click.testing import CliRunner

    from fillsmt.cli import main

    fillomino = ["--unique", "--no-presolve", str(INSTANCES / "random-6x6.txt")]
    for args in (fillomino, ["--unique", str(BLOCKNUMBER / "random-6x6.txt")], [str(TILING / "tetris-7x7.txt")]):
        out = CliRunner().invoke(main, ["solve", "--solver", api_solver.name, "-t", "300", *args])
        assert out.exit_code == 0, (args, out.output)
    assert "covers 48 of 49 cells, proven optimal" in out.stderr


def test_two_yices_api_sessions_at_once_keep_their_own_names():
    driver = solver_or_skip("yices-api")
    declare = "(set-logic QF_LIA)\n(declare-fun x () Int)\n"
    with driver.open_session() as one, driver.open_session() as two:
        one.send(declare + "(assert (= x 1))\n")
        two.send(declare + "(assert (= x 2))\n")
        assert one.check() is two.check() is Status.SAT
        assert (one.get_values(["x"]), two.get_values(["x"])) == ({"x": 1}, {"x": 2})
    with driver.open_session() as three:  # the names are free again
        three.send(declare + "(assert (= x 3))\n")
        assert three.check() is Status.SAT
        assert three.get_values(["x"]) == {"x": 3}
