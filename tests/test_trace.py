"""The solver traffic log (fillsmt --trace / FILLSMT_TRACE): real solvers, real files."""

from __future__ import annotations

import subprocess

import pytest
from click.testing import CliRunner

from conftest import INSTANCES, solver_or_skip
from fillsmt.cli import main
from fillsmt.drivers import trace
from fillsmt.smtlib.answer import Status
from test_drivers import pigeonhole

G12 = str(INSTANCES / "g12-5x5.txt")


@pytest.fixture(autouse=True)
def no_trace_left(monkeypatch):
    # --trace sets the variable for the whole process; monkeypatch removes it after each test.
    monkeypatch.delenv(trace.ENV, raising=False)


def headers(text: str, arrow: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"; {arrow} ")]


def test_a_one_shot_run_is_recorded_and_can_be_replayed(tmp_path):
    solver_or_skip("yices")
    log = tmp_path / "traffic.smt2"
    # --no-race: the solver alone (the default plan's quick search would settle g12 without one)
    result = CliRunner().invoke(main, ["--trace", str(log), "solve", "--no-race", "--solver", "yices", G12])
    assert result.exit_code == 0, result.output
    text = log.read_text()
    assert len(headers(text, ">>>")) == 1 and len(headers(text, "<<<")) == 1
    assert "yices-smt2" in headers(text, ">>>")[0]
    assert "exit code 0" in headers(text, "<<<")[0]
    assert "(check-sat)" in text and "\n; sat\n" in text
    # Everything but what was sent is a comment: the file runs again as it is.
    yices = solver_or_skip("yices").executable()
    replay = subprocess.run([yices, str(log)], capture_output=True, text=True, timeout=60)
    assert replay.stdout.splitlines()[0] == "sat"


def test_a_trace_file_is_appended_to_never_truncated(tmp_path):
    solver_or_skip("yices")
    log = tmp_path / "traffic.smt2"
    log.write_text("; kept\n")
    for _ in range(2):
        assert CliRunner().invoke(main, ["--trace", str(log), "solve", "--no-race", G12]).exit_code == 0
    text = log.read_text()
    assert text.startswith("; kept\n")
    assert len(headers(text, ">>>")) == 2


def test_a_session_records_each_exchange(tmp_path):
    solver_or_skip("z3")
    log = tmp_path / "traffic.smt2"
    result = CliRunner().invoke(main, ["--trace", str(log), "solve", "--solver", "z3", "--unique", G12])
    assert result.exit_code == 0, result.output
    text = log.read_text()
    sent = headers(text, ">>>")
    assert sent and all("session" in h and "z3" in h for h in sent)
    assert len(sent) == len(headers(text, "<<<"))
    assert text.count("(check-sat)") == 2 and "(assert (or " in text
    assert "\n; sat\n" in text and "\n; unsat\n" in text


def test_the_z3_api_is_recorded_in_process(tmp_path, monkeypatch):
    driver = solver_or_skip("z3-api")
    log = tmp_path / "traffic.smt2"
    monkeypatch.setenv(trace.ENV, str(log))
    assert driver.run("(declare-fun x () Int)\n(assert (> x 2))\n(check-sat)\n").status is Status.SAT
    text = log.read_text()
    assert "in-process" in headers(text, ">>>")[0] and "\n; sat\n" in text


def test_a_time_out_is_noted(tmp_path, monkeypatch):
    driver = solver_or_skip("z3")
    log = tmp_path / "traffic.smt2"
    monkeypatch.setenv(trace.ENV, str(log))
    assert driver.run(pigeonhole(14), timeout=0.3).status is Status.TIMEOUT
    assert "[timed out, killed]" in headers(log.read_text(), "<<<")[0]


def test_an_unwritable_trace_file_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(main, ["--trace", str(tmp_path / "no-such-dir" / "t.smt2"), "solve", G12])
    assert result.exit_code == 2
    assert "cannot append to" in result.output and "No such file or directory" in result.output


def test_without_the_variable_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert trace.path() is None
    trace.sent("z3", "pid 1", "(check-sat)\n")
    trace.received("z3", "pid 1", "sat\n")
    assert list(tmp_path.iterdir()) == []
