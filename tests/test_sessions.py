"""Incremental sessions with real solvers: push/pop, assumptions, values, errors, time-outs."""

from __future__ import annotations

import os
import sys
import time

import pytest

from conftest import DATA, solver_or_skip
from fillsmt.drivers import get_driver
from fillsmt.errors import SolverError
from fillsmt.smtlib.answer import Status
from test_drivers import pigeonhole

SESSION_SOLVERS = ["z3", "yices", "z3-api", "pysmt", "pysmt:cvc5"]

SMALL = """(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun a () Bool)
(assert (and (<= 0 x) (<= x 3)))
(assert (= a (not (= x 1))))
"""


@pytest.fixture(params=SESSION_SOLVERS)
def session_driver(request):
    return solver_or_skip(request.param)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_values_push_pop_and_blocking(session_driver):
    with session_driver.open_session() as s:
        s.send(SMALL)
        seen = set()
        while s.check() is Status.SAT:
            x = s.get_values(["x"])["x"]
            assert isinstance(x, int) and 0 <= x <= 3 and x not in seen
            seen.add(x)
            s.assert_term(f"(not (= x {x}))")
        assert seen == {0, 1, 2, 3}
        assert s.checks == 5


def test_push_pop_restores_assertions(session_driver):
    with session_driver.open_session() as s:
        s.send(SMALL)
        s.push()
        s.assert_term("(> x 5)")
        assert s.check() is Status.UNSAT
        s.pop()
        assert s.check() is Status.SAT


def test_check_sat_assuming(session_driver):
    with session_driver.open_session() as s:
        s.send(SMALL)
        assert s.check(assumptions=["(not a)"]) is Status.SAT
        assert s.get_values(["x", "a"]) == {"x": 1, "a": False}
        s.push()
        s.assert_term("(> x 1)")
        assert s.check(assumptions=["(not a)"]) is Status.UNSAT
        s.pop()


def test_raw_values_can_be_sent_back(session_driver):
    with session_driver.open_session() as s:
        s.send("(set-logic QF_BV)\n(declare-fun b () (_ BitVec 4))\n(assert (bvugt b #b1100))\n")
        assert s.check() is Status.SAT
        raw = s.get_values(["b"], raw=True)["b"]
        assert s.get_values(["b"])["b"] > 12
        s.assert_term(f"(not (= b {raw}))")
        assert s.check() is Status.SAT
        assert s.get_values(["b"], raw=True)["b"] != raw


def test_an_error_is_reported_with_the_solver_words(session_driver):
    with pytest.raises(SolverError) as e:
        with session_driver.open_session() as s:
            s.send(SMALL)
            s.send("(assert (> y 1))\n")
    assert session_driver.name in str(e.value)
    assert "y" in str(e.value)


def test_a_closed_session_refuses_work():
    driver = solver_or_skip("z3")
    s = driver.open_session()
    s.send(SMALL)
    s.close()
    s.close()  # twice is fine
    assert not s.alive
    with pytest.raises(SolverError, match="session is closed"):
        s.check()


@pytest.mark.parametrize("name", ["z3", "yices", "z3-api", "pysmt"])
def test_a_time_out_stops_the_check_and_the_process(name):
    driver = solver_or_skip(name)
    with driver.open_session() as s:
        s.send(pigeonhole(13).replace("(check-sat)\n", ""))
        start = time.monotonic()
        assert s.check(timeout=0.5) is Status.TIMEOUT
        assert time.monotonic() - start < 5
        assert not s.alive
        pid = getattr(s, "pid", None)
    if pid is not None:
        assert gone(pid)


def test_leaving_the_block_ends_the_process():
    driver = solver_or_skip("yices")
    with driver.open_session() as s:
        s.send(SMALL)
        assert s.check() is Status.SAT
        pid = s.pid
        assert not gone(pid)
    assert gone(pid)


def test_a_hanging_command_solver_and_its_child_are_killed(tmp_path, monkeypatch):
    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(pidfile))
    driver = get_driver("", f"{sys.executable} {DATA / 'hang_solver.py'}")
    with driver.open_session() as s:
        status = s.check(timeout=1.0)
    assert status is Status.TIMEOUT
    for _ in range(50):
        if pidfile.exists() and pidfile.read_text().strip():
            break
        time.sleep(0.05)
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 5
    while not all(gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(p) for p in pids)


def test_a_solver_without_sessions_says_so():
    driver = get_driver("portfolio")
    with pytest.raises(SolverError, match="offers no incremental session"):
        driver.open_session()


@pytest.mark.parametrize("command", [["solve", "--unique"], ["solve", "--forced"], ["count"]])
def test_the_cli_time_out_covers_sending_the_script_too(tmp_path, monkeypatch, command):
    # The fake never reads its input nor answers: the script itself gets no reply.
    from click.testing import CliRunner

    from conftest import INSTANCES
    from fillsmt.cli import main

    pidfile = tmp_path / "pids"
    monkeypatch.setenv("FILLSMT_TEST_PIDFILE", str(pidfile))
    start = time.monotonic()
    out = CliRunner().invoke(main, [*command, "--solver-cmd", f"{sys.executable} {DATA / 'hang_solver.py'}",
                                    "-t", "1", "--no-presolve", str(INSTANCES / "g12-5x5.txt")])
    assert out.exit_code == 3, out.output
    assert time.monotonic() - start < 10
    assert "gave no" in out.stderr and "stopped" in out.stderr
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 5
    while not all(gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(p) for p in pids)


def test_a_joined_body_is_one_conjunction_after_the_declarations():
    from fillsmt.smtlib import Script
    from fillsmt.smtlib.script import Command, assertion, declare, script_body

    script = Script.of([Command("set-logic", ("QF_LIA",)), declare("x", "Int"), assertion(("<=", 0, "x")),
                        declare("y", "Int"), assertion(("<", "x", "y")), Command("check-sat"),
                        Command("get-value", (("x",),))])
    assert script_body(script).splitlines() == [
        "(set-logic QF_LIA)", "(declare-fun x () Int)", "(assert (<= 0 x))", "(declare-fun y () Int)",
        "(assert (< x y))"]
    assert script_body(script, joined=True).splitlines() == [
        "(set-logic QF_LIA)", "(declare-fun x () Int)", "(declare-fun y () Int)", "(assert (and (<= 0 x) (< x y)))"]
    one = Script.of([declare("x", "Int"), assertion(("<=", 0, "x"))])
    assert script_body(one, joined=True).splitlines() == ["(declare-fun x () Int)", "(assert (<= 0 x))"]


@pytest.mark.parametrize("name, joined", [("yices", True), ("z3", False)])
def test_yices_sessions_get_the_problem_as_one_conjunction(name, joined):
    # yices-smt2 --incremental prepares each assert alone; one conjunction gets its one-shot
    # preprocessing (benchmarks/README.md); test_uniqueness counts through such sessions.
    driver = solver_or_skip(name)
    with driver.open_session() as s:
        assert s.joined_assertions is joined


# --- the reply reader (whole chunks, a fast get-value path) ---------------------------------------

def test_the_marker_line_ends_a_reply_only_when_complete():
    from fillsmt.drivers.session import _before_marker

    assert _before_marker("sat\n", "M") is None
    assert _before_marker("sat\nM", "M") is None  # the marker's line is not complete yet
    assert _before_marker("sat\nM\n", "M") == ("sat\n", "")
    assert _before_marker('sat\n"M"\nrest\n', "M") == ("sat\n", "rest\n")
    assert _before_marker("(x M)\nsat\nM\n", "M") == ("(x M)\nsat\n", "")  # inside another line: not the end
    assert _before_marker("a\nMM\n", "M") is None


@pytest.mark.parametrize("reply", [
    "((n_0 3)\n (n_1 12)\n (a true)\n (b false))\n",
    "((x 0))",
    "()\n",
    "((x (- 3)) (y 2))\n",           # a negative number: the general reader
    "((x #b0101))\n",                 # a bit-vector: the general reader
    "((|odd name| 1))\n",             # a quoted symbol: the general reader
    "((x 1234567890123456789012))\n",  # a numeral beyond the digit limit: kept as the general reader keeps it
    "((packed_values_0 1234567890123456789012345678901234567890123456789012345678901234567890)\n"
    " (packed_values_1 98765432109876543210987654321098765432109876543210))\n",  # a lazy session's packed read
    "(error \"boom\")\n",
])
def test_the_fast_get_value_path_agrees_with_the_general_reader_or_declines(reply):
    from fillsmt.drivers.session import _simple_values
    from fillsmt.smtlib.answer import parse_value, render_sexpr
    from fillsmt.smtlib.sexpr import read_all

    fast = _simple_values(reply)
    if fast is None:
        return
    (pairs,) = [i.value for i in read_all(reply)]
    general = ({render_sexpr(p[0]): parse_value(p[1]) for p in pairs}, {render_sexpr(p[0]): render_sexpr(p[1]) for p in pairs})
    assert fast == general
    for term, value in fast[0].items():  # the same types too: True is not 1
        assert type(value) in ((str,) if len(fast[1][term]) > 18 else (int, bool))
    assert [type(v) for v in fast[0].values()] == [type(v) for v in general[0].values()]


def test_the_fast_path_reads_packed_numerals():
    """A lazy session's packed get-value (numerals of about a hundred digits) takes the fast path
    (the general reader cost janko 330 about 0.1 s over its 72 rounds), with the texts exact."""
    from fillsmt.drivers.session import _simple_values

    big = str(7 ** 140)
    fast = _simple_values(f"((packed_values_0 {big})\n (packed_values_1 12))\n")
    assert fast is not None and fast[1] == {"packed_values_0": big, "packed_values_1": "12"}
    assert int(fast[1]["packed_values_0"]) == 7 ** 140 and fast[0]["packed_values_1"] == 12


def test_the_fast_path_declines_what_it_cannot_read():
    from fillsmt.drivers.session import _simple_values

    for reply in ("((x (- 3)))", "((x #b01))", "((|a b| 1))", "(error \"e\")",
                  "unsupported\n((x 1))", "((x 1)"):
        assert _simple_values(reply) is None, reply


def test_a_long_reply_in_many_pieces_reads_whole(session_driver):
    """Thousands of values (a get-value of every cell of a big grid) arrive in pipe-sized pieces."""
    names = [f"v{i}" for i in range(3000)]
    script = "(set-logic QF_LIA)\n" + "".join(f"(declare-fun {n} () Int)\n(assert (= {n} {i}))\n"
                                               for i, n in enumerate(names))
    with session_driver.open_session() as session:
        session.send(script)
        assert session.check() is Status.SAT
        for _ in range(3):
            values = session.get_values(names)
            assert values == {n: i for i, n in enumerate(names)}


@pytest.mark.parametrize("output", ["", " \n", "sat\n", "unsat", "unknown\n", "success\n", "sat\nsat\n",
                                    "(error \"e\")\n", "((x 1))\n"])
def test_the_quick_reply_path_agrees_with_the_general_reader(output):
    """``_items`` answers an empty reply and a lone check-sat word without the reader: the same
    items, and the same errors, as reading the whole reply."""
    import types

    from fillsmt.drivers.session import Session
    from fillsmt.smtlib.sexpr import read_all

    general = [x for x in (i.value for i in read_all(output)) if x not in ("success", "unsupported")]
    fake = types.SimpleNamespace(name="solver")
    if any(isinstance(x, list) and x[:1] == ["error"] for x in general):
        with pytest.raises(SolverError):
            Session._items(fake, output, "test")
        return
    assert Session._items(fake, output, "test") == general


def test_assertions_sent_with_the_check_count_and_their_errors_are_reported(session_driver):
    """``check(before=...)`` (a lazy loop's cuts with its next check-sat): the assertions hold
    from that check on, as if sent first; one the solver refuses is a SolverError."""
    with session_driver.open_session() as session:
        session.send("(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (<= 0 x))\n(assert (<= x 2))\n")
        assert session.check(before="(assert (not (= x 0)))\n(assert (not (= x 2)))\n") is Status.SAT
        assert session.get_values(["x"]) == {"x": 1}
        assert session.check(before="(assert (not (= x 1)))\n") is Status.UNSAT
    with session_driver.open_session() as session:
        session.send("(set-logic QF_LIA)\n(declare-fun x () Int)\n")
        with pytest.raises(SolverError):
            session.check(before="(assert (= y 1))\n")
