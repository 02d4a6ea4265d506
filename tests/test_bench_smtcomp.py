"""bench measured and scored as SMT-COMP does, through the CLI with real processes: wrong answers and
(error …) replies are errors ranked last, --memlimit makes memouts (BenchExec and the rlimit fallback),
exported incremental families are answered by z3 and yices as their :status says, .smt2 folder runs
solve what the puzzle runs solve, and every row says how it was measured.

The fake solvers are small executable scripts in tmp_path, run with --solver-cmd NAME=COMMAND.
"""

from __future__ import annotations

import argparse
import bz2
import csv
import json
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import INSTANCES

from fillsmt.bench.library import TRACE_MARK
from fillsmt.cli import main
from fillsmt.drivers import get_driver, measure
from fillsmt.drivers.process import run_process
from fillsmt.engine import interrupts
from fillsmt.engine.interrupts import OutOfTime, time_limit

pytestmark = pytest.mark.solver

SAT_PUZZLES = [INSTANCES / "g12-5x5.txt", INSTANCES / "random-4x7.txt"]
PUZZLES = [*SAT_PUZZLES, INSTANCES / "two-solutions-5x5.txt", INSTANCES / "unsat-1x2.txt"]
MEASURED = ("benchexec", "rlimit")
STATUS = re.compile(r"\(set-info :status (\w+)\)|\(check-sat\)")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def bench(tmp_path: Path, name: str, *args) -> tuple[list[dict], dict, str]:
    """Run ``fillsmt bench ARGS``: its CSV rows, its JSON report and what it printed."""
    csv_path, json_path = tmp_path / f"{name}.csv", tmp_path / f"{name}.json"
    result = run("bench", *args, "--csv", csv_path, "--json", json_path, "--no-progress")
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows, json.loads(json_path.read_text()), result.stdout


def fake_solver(tmp_path: Path, name: str, body: str) -> str:
    """An executable Python script that says its version to ``--version``, else reads the script on
    standard input, then runs ``body``."""
    path = tmp_path / name
    version = f'if sys.argv[1:] == ["--version"]:\n    print("{name} 1.0")\n    sys.exit(0)\n'
    path.write_text(f"#!{sys.executable}\nimport sys\n{version}sys.stdin.read()\n{body}\n")
    path.chmod(0o755)
    return str(path)


def benchexec_reason() -> str:
    """Why BenchExec cannot measure runs here ("" when it can)."""
    return measure.benchexec_reason()


def binary_measurement() -> str:
    """How bench (--measure auto) measures a solver binary here."""
    return "rlimit" if benchexec_reason() else "benchexec"


def check_measured_columns(rows: list[dict]) -> None:
    """Every row measured by BenchExec or the fallback has its memory and the solver's times."""
    measured = [r for r in rows if r["measured"] in MEASURED]
    for row in measured:
        assert float(row["memory_mb"]) > 0, row
        assert float(row["solver_wall_s"]) > 0, row
        assert row["solver_cpu_s"] != "", row
    for row in rows:
        if row["measured"] not in MEASURED:
            assert row["memory_mb"] == "", row


def by_configuration(scores: list[dict]) -> dict[str, dict]:
    return {s["configuration"]: s for s in scores}


def solver_available(name: str) -> bool:
    return get_driver(name).available()


# --- 1. wrong answers and (error …) replies ---------------------------------------------------


def test_a_wrong_answer_and_an_error_reply_are_errors_ranked_last(tmp_path, z3, yices):
    wrong = fake_solver(tmp_path, "wrong", 'print("unsat")')  # every puzzle here has a solution
    error = fake_solver(tmp_path, "error", 'print(\'(error "line 1 column 1: unsupported command")\')')
    rows, report, printed = bench(
        tmp_path, "runs", *SAT_PUZZLES, "-s", "z3", "-s", "yices", "--solver-cmd", f"wrong={wrong}",
        "--solver-cmd", f"error={error}", "--presolve", "off", "--timeout", "20",
    )
    n = len(SAT_PUZZLES)
    answers = {(Path(r["puzzle"]).name, r["solver"]): (r["status"], r["answer"]) for r in rows}
    for puzzle in SAT_PUZZLES:
        assert answers[puzzle.name, "z3"] == answers[puzzle.name, "yices"] == ("sat", "sat")
        assert answers[puzzle.name, "wrong"] == ("unsat", "unsat")
        assert answers[puzzle.name, "error"] == ("error", "error")  # an error, not a time-out
    check_measured_columns(rows)

    views = report["smtcomp"]["views"]
    good, bad = {"z3/default/off", "yices/default/off"}, {"wrong/default/off", "error/default/off"}
    for view in ("sequential", "parallel", "24 s"):
        scores = by_configuration(views[view])
        assert {c: (s["errors"], s["wrong"], s["error_replies"]) for c, s in scores.items()} == {
            "z3/default/off": (0, 0, 0),
            "yices/default/off": (0, 0, 0),
            "wrong/default/off": (n, n, 0),
            "error/default/off": (n, 0, n),
        }, view
        assert scores["error/default/off"]["timeouts"] == 0
        assert {scores[c]["solved"] for c in good} == {n}
        assert max(scores[c]["rank"] for c in good) < min(scores[c]["rank"] for c in bad), view
        assert [s["configuration"] for s in views[view]][-2:] in (list(bad), list(bad)[::-1])
    # sat view: the unsat answers are left out (they are the unsat view's errors); the error replies count
    sat, unsat = by_configuration(views["sat"]), by_configuration(views["unsat"])
    assert (sat["wrong/default/off"]["errors"], sat["wrong/default/off"]["solved"]) == (0, 0)
    assert sat["error/default/off"]["errors"] == n
    assert max(sat[c]["rank"] for c in good) < min(sat[c]["rank"] for c in bad)
    assert unsat["wrong/default/off"]["errors"] == n
    assert unsat["wrong/default/off"]["rank"] == max(s["rank"] for s in unsat.values())
    assert unsat["wrong/default/off"]["rank"] > max(unsat[c]["rank"] for c in good)

    parallel = [line.split("|")[3].strip() for line in printed.splitlines() if line.startswith("| parallel |")]
    assert len(parallel) == 4 and set(parallel[:2]) == good and set(parallel[2:]) == bad
    error_row = next(line for line in printed.splitlines() if line.startswith("| parallel |") and "error/" in line)
    assert error_row.split("|")[4].strip() == str(n) and error_row.split("|")[11].strip() == "0"  # errors, time-out


# --- 2. memouts -------------------------------------------------------------------------------


SMALL_SAT = "(set-info :status sat)\n(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n"
HOG = (
    "megabytes = int(sys.argv[1])\n"
    'held = [b"x" * (1 << 20) for _ in range(megabytes)]  # touched, not only reserved\n'
    'print("sat")'
)


@pytest.mark.parametrize("mode", ["benchexec", "rlimit"])
def test_a_solver_past_its_memory_limit_is_a_memout(tmp_path, mode):
    if mode == "benchexec" and benchexec_reason():
        pytest.skip(benchexec_reason())
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "small.smt2").write_text(SMALL_SAT)
    hog = fake_solver(tmp_path, "hog", HOG)
    rows, report, _ = bench(
        tmp_path, "runs", tmp_path / "files", "--solver-cmd", f"hog={hog} 1000", "--solver-cmd", f"small={hog} 5",
        "--memlimit", "100", "--measure", mode, "--timeout", "20", "--jobs", "1",
    )
    got = {r["solver"]: r for r in rows}
    assert (got["hog"]["status"], got["hog"]["answer"]) == ("memout", "")
    assert (got["small"]["status"], got["small"]["answer"]) == ("sat", "sat")  # the same script within the limit
    for row in rows:
        assert (row["measured"], row["memlimit_mb"]) == (mode, "100")
    assert 0 < float(got["small"]["memory_mb"]) < float(got["hog"]["memory_mb"]) <= 100
    check_measured_columns(rows)
    parallel = by_configuration(report["smtcomp"]["views"]["parallel"])
    assert (parallel["hog/file/off"]["memouts"], parallel["hog/file/off"]["solved"]) == (1, 0)
    assert parallel["hog/file/off"]["timeouts"] == 0
    assert (parallel["small/file/off"]["memouts"], parallel["small/file/off"]["solved"]) == (0, 1)
    memory = {m["configuration"]: m for m in report["smtcomp"]["memory"]}
    assert (memory["hog/file/off"]["memouts"], memory["hog/file/off"]["measured"]) == (1, {mode: 1})


# --- 3. incremental families ------------------------------------------------------------------


def statuses(text: str) -> list[str]:
    """The :status before each check-sat of a script (unknown where there is none)."""
    found, status = [], "unknown"
    for match in STATUS.finditer(text):
        if match.group(1):
            status = match.group(1)
        else:
            found.append(status)
            status = "unknown"
    return found


def test_exported_incremental_files_are_answered_as_their_status_says_by_z3_and_yices(tmp_path, z3, yices):
    family = tmp_path / "family"
    run("export", INSTANCES / "g12-5x5.txt", INSTANCES / "two-solutions-5x5.txt", "-o", family, "--layout", "library",
        "--family", "all", "--date", "2026-01-31", "--timeout", "30")
    with open(family / "manifest.csv", newline="") as f:
        incremental = [r for r in csv.DictReader(f) if r["family"] in ("incremental", "count")]
    assert sorted(r["family"] for r in incremental) == ["count", "count", "incremental", "incremental"]
    for entry in incremental:
        path = family / entry["file"]
        assert path.parent == family / "incremental" / "QF_LIA" / "20260131-fillomino"
        text = path.read_text()
        expected = statuses(text)
        assert len(expected) > 1 and expected == entry["status"].split()
        trace = path.with_suffix(".trace").read_text()
        assert trace == "".join(f"{s}\n" for s in expected) + TRACE_MARK + "\n" + text

    rows, report, _ = bench(tmp_path, "runs", family / "incremental", "-s", "z3", "-s", "yices", "--timeout", "20")
    assert sorted((Path(r["puzzle"]).name, r["solver"]) for r in rows) == sorted(
        (Path(e["file"]).name, s) for e in incremental for s in ("z3", "yices")
    )
    files = {Path(e["file"]).name: e["status"] for e in incremental}
    for row in rows:
        # yices answers a second check-sat only in its incremental mode (--incremental)
        assert row["answer"] == row["expected"] == files[Path(row["puzzle"]).name], row
        assert row["measured"] == binary_measurement()
    check_measured_columns(rows)
    scores = by_configuration(report["smtcomp"]["incremental"])
    checks = sum(len(s.split()) for s in files.values())
    for solver in ("z3", "yices"):
        score = scores[f"{solver}/file/off"]
        assert (score["errors"], score["correct"], score["checks"]) == (0, checks, checks)


# --- 4. .smt2 folders solve what the puzzle runs solve ----------------------------------------


def test_an_exported_folder_is_solved_as_often_as_its_puzzles(tmp_path, z3, yices):
    solvers = ("-s", "z3", "-s", "yices")
    puzzle_rows, by_puzzle, _ = bench(tmp_path, "puzzles", *PUZZLES, *solvers, "--presolve", "off", "--timeout", "20")
    run("export", *PUZZLES, "-o", tmp_path / "family", "--layout", "library", "--family", "plain", "--timeout", "30")
    file_rows, by_file, _ = bench(tmp_path, "files", tmp_path / "family", *solvers, "--timeout", "20")
    assert len(puzzle_rows) == len(file_rows) == 2 * len(PUZZLES)

    def solved(report: dict) -> dict[str, tuple[int, int]]:
        scores = report["smtcomp"]["views"]["parallel"]
        return {s["configuration"].split("/")[0]: (s["solved"], s["errors"]) for s in scores}

    assert solved(by_file) == solved(by_puzzle)
    assert set(solved(by_puzzle)) == {"z3", "yices"}
    assert all(n > 0 and errors == 0 for n, errors in solved(by_puzzle).values())
    assert {r["checked"] for r in file_rows if r["status"] == "sat"} == {"true"}  # models decoded and checked
    check_measured_columns(puzzle_rows + file_rows)


# --- 5. how each row was measured -------------------------------------------------------------


def test_every_row_says_how_it_was_measured(tmp_path, z3, yices):
    configs = ["z3/default/off", "yices/default/on", "z3/default/off/unique", "yices/default/race", "rules/none/on"]
    in_process = ["z3-api/default/off"] if solver_available("z3-api") else []
    args = [arg for c in configs + in_process for arg in ("-c", c)]
    rows, report, _ = bench(tmp_path, "runs", INSTANCES / "g12-5x5.txt", INSTANCES / "unsat-1x2.txt", *args,
                            "--timeout", "20")
    binary = binary_measurement()
    want = {
        "z3/default/off": binary,
        "yices/default/on": binary,
        "z3/default/off/unique": "session",
        "yices/default/race": "race",
        "rules/none/on": "in-process",
        "z3-api/default/off": "in-process",
    }
    for row in rows:
        config = row["key"].split("|", 1)[1]
        # a run the deduction rules answered before any solver started: none
        assert row["measured"] == ("none" if row["answered_by"] == "presolve" else want[config]), row
    assert len(rows) == 2 * len(configs + in_process)
    assert {r["measured"] for r in rows} >= {binary, "session", "race", "in-process", "none"}
    check_measured_columns(rows)
    memory = {m["configuration"]: m for m in report["smtcomp"]["memory"]}
    assert memory["z3/default/off"]["measured"] == {binary: 2}
    assert memory["z3/default/off"]["median_memory_mb"] > 0


# a run stopped at its time-out, or from outside, is measured all the same


@pytest.mark.parametrize("mode", ["benchexec", "rlimit"])
def test_a_solver_past_its_time_out_is_a_measured_timeout(tmp_path, mode):
    if mode == "benchexec" and benchexec_reason():
        pytest.skip(benchexec_reason())
    sleeper = fake_solver(tmp_path, "sleeper", "import time\ntime.sleep(60)")
    rows, report, _ = bench(tmp_path, "runs", *SAT_PUZZLES, "--solver-cmd", f"sleeper={sleeper}", "--presolve", "off",
                            "--measure", mode, "--timeout", "1")
    for row in rows:
        assert (row["status"], row["measured"]) == ("timeout", mode), row
    check_measured_columns(rows)
    parallel = by_configuration(report["smtcomp"]["views"]["parallel"])["sleeper/default/off"]
    assert (parallel["timeouts"], parallel["solved"], parallel["errors"]) == (len(SAT_PUZZLES), 0, 0)


def test_a_run_stopped_from_outside_is_measured_once_and_ended(tmp_path, monkeypatch):
    """A job's own time limit stops a BenchExec run: the run is ended, measured once, and the
    interruption goes on up, however often the limit fires again while BenchExec ends the run (it
    does every quarter second until its block is left; here every hundredth, so that it does)."""
    if benchexec_reason():
        pytest.skip(benchexec_reason())
    monkeypatch.setattr(interrupts, "_AGAIN", 0.01)
    sleeper = fake_solver(tmp_path, "sleeper", "import time\ntime.sleep(60)")
    folders: list[str] = []
    make_folder = measure.tempfile.mkdtemp
    monkeypatch.setattr(measure.tempfile, "mkdtemp", lambda **kw: folders.append(make_folder(**kw)) or folders[-1])
    with measure.measuring(measure.Limits(measure.BENCHEXEC)) as ledger:
        with pytest.raises(OutOfTime), time_limit(0.5):
            run_process([sleeper], "(check-sat)\n", 30)
    runs = [f for f in folders if os.path.basename(f).startswith(("fillsmt-run-", "BenchExec_run_"))]
    assert len(runs) == 2 and not any(os.path.exists(f) for f in runs)  # fillsmt's and BenchExec's
    assert [m.how for m in ledger] == [measure.BENCHEXEC]
    assert ledger[0].memory and ledger[0].cpu is not None
    for thread in threading.enumerate():  # BenchExec's run is over: its thread ends at once
        if thread.name == "fillsmt-benchexec":
            thread.join(5)
            assert not thread.is_alive()


# --- the BenchExec definitions beside an exported family ---------------------------------------


def definition(folder: Path, solver: str) -> ET.Element:
    return ET.parse(folder / f"benchexec-{solver}.xml").getroot()


def tasks_of(root: ET.Element, folder: Path) -> dict[str, list[str]]:
    """Each exported file (relative to ``folder``) → the options of every task set that includes it."""
    found: dict[str, list[str]] = {}
    for tasks in root.iter("tasks"):
        excluded = {p for e in tasks.iter("exclude") for p in folder.glob(e.text or "")}
        options = " ".join(o.get("name", "") for o in tasks.iter("option"))
        for pattern in tasks.iter("include"):
            for path in sorted(set(folder.glob(pattern.text or "")) - excluded):
                found.setdefault(path.relative_to(folder).as_posix(), []).append(options)
    return found


@pytest.mark.parametrize("layout", ["library", "flat"])
def test_each_solver_gets_a_benchexec_definition_naming_its_tool_module(tmp_path, layout, z3, yices):
    model, template = pytest.importorskip("benchexec.model"), pytest.importorskip("benchexec.tools.template")
    family = tmp_path / "family"
    run("export", INSTANCES / "g12-5x5.txt", "-o", family, "--layout", layout, "--family", "all", "--timeout", "30")
    with open(family / "manifest.csv", newline="") as f:
        files = {r["file"]: r["family"] for r in csv.DictReader(f)}
    modules = {"z3": "benchexec.tools.z3", "yices": "fillsmt.bench.benchexec_yices"}
    for solver, module in modules.items():
        root = definition(family, solver)
        assert root.tag == "benchmark" and root.get("timelimit") == "30 s"
        assert [r.get("name") for r in root.iter("rundefinition")] == [solver]
        loaded, tool = model.load_tool_info(root.get("tool", ""), argparse.Namespace(container=False))
        assert loaded == module  # as BenchExec reads the tool's name
        found = tool.executable(template.BaseTool2.ToolLocator(use_path=True, use_current=True))
        assert Path(found).name == Path(get_driver(solver).executable()).name
        incremental_option = "--incremental" if solver == "yices" else ""
        assert tasks_of(root, family) == {
            file: [incremental_option if kind in ("incremental", "count") else ""] for file, kind in files.items()
        }


def test_benchexec_runs_the_yices_definition_as_the_statuses_say(tmp_path, yices):
    if benchexec_reason():
        pytest.skip(benchexec_reason())
    family = tmp_path / "family"
    run("export", INSTANCES / "g12-5x5.txt", INSTANCES / "two-solutions-5x5.txt", "-o", family, "--layout", "library",
        "--family", "all", "--timeout", "30")
    with open(family / "manifest.csv", newline="") as f:
        last = {Path(r["file"]).name: r["status"].split()[-1] for r in csv.DictReader(f)}
    benchexec = Path(sys.executable).with_name("benchexec")
    ran = subprocess.run([str(benchexec), "--no-container", str(family / "benchexec-yices.xml"), "-o",
                          str(tmp_path / "results") + "/"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    (results,) = (tmp_path / "results").glob("*.results.yices.xml.bz2")
    runs = ET.fromstring(bz2.open(results).read()).iter("run")
    got = {Path(r.get("name", "")).name: next(c.get("value") for c in r.iter("column") if c.get("title") == "status")
           for r in runs}
    # BenchExec's smtlib2 tools report the last answer: true for sat, false for unsat; without
    # --incremental yices would refuse the second check-sat and its first answer would stand
    assert got == {name: {"sat": "true", "unsat": "false"}[status] for name, status in last.items()}


class _SlowToReport:
    """A RunExecutor whose solver runs ``wall`` seconds and whose run is reported ``lag`` seconds
    later (BenchExec reads the cgroups after the run); ``stop`` marks the run killed, as BenchExec's
    does, and it holds the solver's pid while the solver runs, as BenchExec's does."""

    def __init__(self, wall: float, lag: float):
        self.wall, self.lag, self.reason = wall, lag, ""
        self.SUB_PROCESS_PIDS_LOCK, self.SUB_PROCESS_PIDS = threading.Lock(), set()

    def execute_run(self, **arguments):
        with self.SUB_PROCESS_PIDS_LOCK:
            self.SUB_PROCESS_PIDS.add(1)
        time.sleep(self.wall)
        Path(arguments["output_filename"]).write_text("sat\n")
        with self.SUB_PROCESS_PIDS_LOCK:
            self.SUB_PROCESS_PIDS.discard(1)
        time.sleep(self.lag)
        result = {"walltime": self.wall, "cputime": 0.01, "memory": 1_000_000, "exitcode": None}
        return {**result, **({"terminationreason": self.reason} if self.reason else {})}

    def stop(self):
        self.reason = self.reason or "killed"


@pytest.mark.parametrize(("wall", "timed_out"), [(0.05, False), (0.3, True)])
def test_a_benchexec_run_that_ended_before_its_time_out_is_not_a_timeout(monkeypatch, wall, timed_out):
    """At the time-out, a solver still running is stopped (a time-out); one that had ended while
    BenchExec still reads the cgroups keeps its answer."""
    executor = _SlowToReport(wall, lag=0.3)
    monkeypatch.setattr(measure, "_executor", lambda: (executor, ""))
    outcome, measured = measure._benchexec(["solver"], "(check-sat)\n", 0.1, measure.Limits(measure.BENCHEXEC))
    assert executor.reason == ("killed" if timed_out else "")
    assert (outcome.timed_out, outcome.stdout, measured.wall) == (timed_out, "sat\n", wall)
