"""fillsmt bench: jobs, the worker pool, the CSV (resume, refusal, interruption), the summary
numbers, the cactus plot, Dask, and the exit codes."""

from __future__ import annotations

import csv
import functools
import itertools
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import DATA, INSTANCES, solver_or_skip
from procs import HAS_PROC, alive, children
from fillsmt.bench import run as bench_run
from fillsmt.cli.bench import bench
from fillsmt.bench.jobs import Config, Job, expand, parse_config, set_name
from fillsmt.bench.plot import cactus_plot
from fillsmt.engine.pipeline import DEFAULT_PRESOLVE, DEFAULT_RACE, DEFAULT_STAGED, presolve_level

DEFAULT_LEVEL = presolve_level(DEFAULT_PRESOLVE, DEFAULT_RACE, DEFAULT_STAGED)
"""The presolve level of the default configuration (``yices/default/LEVEL``)."""
from fillsmt.bench.results import COLUMNS, ResultsFile, read_rows
from fillsmt.bench.run import hard_limit, run_job, run_pool
from fillsmt.bench.summary import markdown, summarize
from fillsmt.drivers import SOLVERS, CommandDriver
from fillsmt.errors import InputError

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def invoke(*args):
    return CliRunner().invoke(bench, [str(a) for a in args], catch_exceptions=False)


def csv_rows(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def puzzle_dir(tmp_path_factory) -> Path:
    """sets/small/puzzles/{g12-5x5, random-4x7, unsat-1x2}.txt and sets/broken/too-few.txt."""
    root = tmp_path_factory.mktemp("sets")
    small = root / "small" / "puzzles"
    small.mkdir(parents=True)
    for name in ("g12-5x5.txt", "random-4x7.txt", "unsat-1x2.txt"):
        shutil.copy(INSTANCES / name, small / name)
    (root / "broken").mkdir()
    shutil.copy(DATA / "malformed" / "too-few.txt", root / "broken" / "too-few.txt")
    (root / "small" / "README.md").write_text("not a puzzle\n")
    return root


@pytest.fixture(scope="module")
def first_run(puzzle_dir, tmp_path_factory):
    """One run with z3 and z3-api over the puzzle folder: (result, CSV path, args)."""
    solver_or_skip("z3")
    solver_or_skip("z3-api")
    out = tmp_path_factory.mktemp("run")
    args = [puzzle_dir, "-s", "z3", "-s", "z3-api", "-e", "thesis", "--presolve", "off", "--timeout", 30, "--csv", out / "runs.csv",
            "--plot", out / "cactus.png", "--summary", out / "summary.md"]
    return invoke(*args), out / "runs.csv", args


# --- jobs ------------------------------------------------------------------------------------


def test_jobs_expand_folders_recursively_with_stable_keys(puzzle_dir):
    configs = [Config("z3", "thesis", False), Config("z3", "thesis", True)]
    jobs = expand([str(puzzle_dir)], configs)
    assert [(Path(j.puzzle).name, j.set, j.config.label) for j in jobs] == [
        ("too-few.txt", "broken", "z3/thesis/off"), ("too-few.txt", "broken", "z3/thesis/on"),
        ("g12-5x5.txt", "small", "z3/thesis/off"), ("g12-5x5.txt", "small", "z3/thesis/on"),
        ("random-4x7.txt", "small", "z3/thesis/off"), ("random-4x7.txt", "small", "z3/thesis/on"),
        ("unsat-1x2.txt", "small", "z3/thesis/off"), ("unsat-1x2.txt", "small", "z3/thesis/on"),
    ]
    assert jobs[2].key == f"{puzzle_dir / 'small' / 'puzzles' / 'g12-5x5.txt'}|z3/thesis/off"
    assert [j.key for j in expand([str(puzzle_dir)], configs)] == [j.key for j in jobs]


def test_set_name_is_the_folder_or_its_parent_for_puzzles():
    assert set_name("a/baron-thesis60/puzzles/05x10-1.txt") == "baron-thesis60"
    assert set_name("a/minizinc-challenge/01.txt") == "minizinc-challenge"


def test_config_labels_round_trip_and_bad_ones_are_explained():
    assert parse_config("pysmt:z3/tree/on") == Config("pysmt:z3", "tree", True)
    assert parse_config("yices/tree/off/unique") == Config("yices", "tree", False, True)
    for config in (Config("z3", "thesis", True), Config("portfolio:yices,z3", "tree", False, True)):
        assert parse_config(config.label) == config
    assert parse_config("yices/tree-bfs/race/unique") == Config("yices", "tree-bfs", "race", True)
    assert parse_config(Config("yices", "tree-bfs", "race").label) == Config("yices", "tree-bfs", "race")
    assert parse_config("yices/default/staged/unique") == Config("yices", "default", "staged", True)
    assert parse_config(Config("yices", "default", "staged").label) == Config("yices", "default", "staged")
    with pytest.raises(InputError, match=r"expected SOLVER/ENCODING/on\|off\|race\|staged\[/unique\], e.g. z3/thesis/off"):
        parse_config("z3/thesis")
    with pytest.raises(InputError, match="expected"):
        parse_config("z3/thesis/on/unique/unique")


def test_an_empty_folder_is_an_error(tmp_path):
    result = invoke(tmp_path, "--csv", tmp_path / "r.csv")
    assert result.exit_code == 2
    assert result.stderr == f"Error: {tmp_path}: no *.txt puzzle files in this folder\n"
    assert not (tmp_path / "r.csv").exists()


# --- a real run --------------------------------------------------------------------------------


def test_a_run_writes_one_row_per_job_with_checked_answers(first_run, puzzle_dir):
    result, path, _ = first_run
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("fillsmt bench: 8 of 8 runs to do, 2 at a time, time-out 30 s\n")
    rows = csv_rows(path)
    assert list(rows[0]) == COLUMNS
    by_key = {r["key"]: r for r in rows}
    assert len(rows) == len(by_key) == 8
    for solver in ("z3", "z3-api"):
        def row(name, where="small/puzzles"):
            return by_key[f"{puzzle_dir / where / name}|{solver}/thesis/off"]
        for name, (h, w) in (("g12-5x5.txt", (5, 5)), ("random-4x7.txt", (4, 7))):
            r = row(name)
            assert (r["status"], r["checked"], r["set"], r["height"], r["width"]) == \
                ("sat", "true", "small", str(h), str(w))
            assert float(r["total_s"]) >= float(r["solve_s"]) > 0
        assert (row("unsat-1x2.txt")["status"], row("unsat-1x2.txt")["checked"]) == ("unsat", "false")
        assert {row(name)["answered_by"] for name in ("g12-5x5.txt", "random-4x7.txt", "unsat-1x2.txt")} == \
            {f"{solver}/thesis"}
        bad = row("too-few.txt", "broken")
        assert (bad["status"], bad["set"], bad["height"], bad["answered_by"]) == ("bad-input", "broken", "", "")
        assert bad["message"].endswith("too-few.txt:3: expected 4 cell values (2 rows of 2), found 3")
    assert {r["timeout_s"] for r in rows} == {"30"}
    assert all(r["timestamp"] and r["solver_version"] for r in rows)


def test_the_summary_is_printed_and_written(first_run):
    result, path, _ = first_run
    summary = (path.parent / "summary.md").read_text()
    assert result.stdout == summary
    assert summary.startswith("8 runs, time-out 30 s; speed-up versus z3/thesis/off.\n")
    assert "| z3/thesis/off | 3/4 | 2 | 1 | 0 | 1 |" in summary
    assert "| z3-api/thesis/off | 3/4 | 2 | 1 | 0 | 1 |" in summary


def test_the_cactus_plot_is_a_png(first_run):
    png = first_run[1].parent / "cactus.png"
    data = png.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert len(data) > 1024


def test_resume_runs_only_the_missing_job(first_run, tmp_path):
    _, original, args = first_run
    path = tmp_path / "runs.csv"
    lines = original.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))
    missing_key = next(csv.reader([lines[-1]]))[0]
    result = invoke(*[path if a == original else a for a in args], "--resume")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"fillsmt bench: 1 of 8 runs to do (7 already in {path}), "
                                    "1 at a time, time-out 30 s\n")
    text = path.read_text()
    assert text.startswith("".join(lines[:-1])), "the kept rows are untouched"
    rows = csv_rows(path)
    assert len(rows) == 8 and rows[-1]["key"] == missing_key
    again = invoke(*[path if a == original else a for a in args], "--resume")
    assert again.stderr.startswith("fillsmt bench: 0 of 8 runs to do (8 already in")
    assert path.read_text() == text
    assert again.stdout == result.stdout, "the same rows give the same summary"


def test_an_existing_csv_is_refused_and_left_untouched(first_run, tmp_path):
    _, original, args = first_run
    path = tmp_path / "runs.csv"
    shutil.copy(original, path)
    before = path.read_bytes()
    result = invoke(*[path if a == original else a for a in args])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {path}: already exists; use --resume to keep its rows and run "
                             "only the missing jobs, or --overwrite to start it again\n")
    assert path.read_bytes() == before
    both = invoke(*[path if a == original else a for a in args], "--resume", "--overwrite")
    assert (both.exit_code, both.stderr) == (2, "Error: give --resume or --overwrite, not both\n")
    assert path.read_bytes() == before


def test_resume_with_another_timeout_is_refused(first_run, tmp_path):
    _, original, args = first_run
    path = tmp_path / "runs.csv"
    shutil.copy(original, path)
    args = [path if a == original else (5 if a == 30 else a) for a in args]
    result = invoke(*args, "--resume")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {path}: its runs had --timeout 30; resume with the same time-out, "
           "or give another --csv file\n")


def test_a_line_cut_short_is_ignored_and_run_again(tmp_path):
    solver_or_skip("z3")
    path = tmp_path / "runs.csv"
    g12 = INSTANCES / "g12-5x5.txt"
    assert invoke(g12, "--csv", path, "--timeout", 30).exit_code == 0
    whole = path.read_text()
    path.write_text(whole[: whole.rindex(",")])  # the row lost its timestamp and newline
    assert read_rows(path) == []
    result = invoke(g12, "--csv", path, "--timeout", 30, "--resume")
    assert result.exit_code == 0
    assert [r["status"] for r in read_rows(path)] == ["sat"]


# --- interruption ------------------------------------------------------------------------------


def test_an_interrupt_keeps_the_finished_rows(monkeypatch, tmp_path):
    solver_or_skip("z3")
    puzzles = [INSTANCES / n for n in ("g12-5x5.txt", "random-4x7.txt", "unsat-1x2.txt")]
    counter = itertools.count(1)

    def interrupted_after_two(jobs, timeout, workers, on_row):
        def on_row_then_ctrl_c(job, row):
            on_row(job, row)
            if next(counter) == 2:
                raise KeyboardInterrupt
        run_pool(jobs, timeout, workers, on_row_then_ctrl_c)

    monkeypatch.setattr(bench_run, "run_pool", interrupted_after_two)
    path = tmp_path / "runs.csv"
    result = invoke(*puzzles, "--csv", path, "--timeout", 30)
    assert result.exit_code == 130
    assert result.stderr.endswith(f"fillsmt bench: interrupted; 2 finished runs are in {path}; run "
                                  "the same command with --resume to do the other 1\n")
    assert len(read_rows(path)) == 2
    assert multiprocessing.active_children() == [], "every worker was stopped"
    monkeypatch.undo()
    result = invoke(*puzzles, "--csv", path, "--timeout", 30, "--resume")
    assert result.exit_code == 0
    assert sorted(Path(r["puzzle"]).name for r in read_rows(path)) == \
        ["g12-5x5.txt", "random-4x7.txt", "unsat-1x2.txt"]


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc to see the workers")
def test_ctrl_c_on_a_real_run_keeps_rows_and_stops_workers(tmp_path):
    solver_or_skip("z3")
    for i in range(40):
        shutil.copy(INSTANCES / "g12-5x5.txt", tmp_path / f"g12-{i:02}.txt")
    path = tmp_path / "out" / "runs.csv"
    path.parent.mkdir()  # a file named on its own goes into a folder that exists (cli/output.py)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from fillsmt.cli.bench import bench; bench()", str(tmp_path),
         "--csv", str(path), "--timeout", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (not path.exists() or len(read_rows(path)) < 2):
        time.sleep(0.02)
    workers = children(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    kept = read_rows(path)
    assert 2 <= len(kept) < 40
    assert f"interrupted; {len(kept)} finished runs are in {path}" in err
    assert "Traceback" not in err
    time.sleep(0.2)
    assert workers and not any(alive(pid) for pid in workers), "no worker outlives the run"


# --- the worker pool ---------------------------------------------------------------------------


def crash_on_unsat(job: Job, timeout: float) -> dict:
    if "unsat" in job.puzzle:
        os.kill(os.getpid(), signal.SIGKILL)
    return run_job(job, timeout)


def hang_on_unsat(job: Job, timeout: float) -> dict:
    if "unsat" in job.puzzle:
        time.sleep(60)
    return run_job(job, timeout)


def _pool_rows(job_fn, timeout: float = 30) -> dict[str, dict]:
    names = ("g12-5x5.txt", "unsat-1x2.txt", "random-4x7.txt")
    jobs = expand([str(INSTANCES / n) for n in names], [Config("z3", "thesis", False)])
    rows = {}
    run_pool(jobs, timeout, 2, lambda job, row: rows.setdefault(Path(job.puzzle).name, row), job_fn)
    return rows


def test_a_worker_that_dies_becomes_an_error_row_and_the_run_goes_on():
    solver_or_skip("z3")
    rows = _pool_rows(crash_on_unsat)
    assert rows["unsat-1x2.txt"]["status"] == "error"
    assert rows["unsat-1x2.txt"]["message"] == \
        "the worker process died (killed by SIGKILL) while running this job"
    assert rows["g12-5x5.txt"]["status"] == rows["random-4x7.txt"]["status"] == "sat"


def test_a_job_far_past_its_time_out_is_stopped(monkeypatch):
    solver_or_skip("z3")
    # The limit scaled down with the job's time-out: the real 2 T + 30 s, with 30 s taken as 0.
    # Each job's clock starts when it is handed to a worker still starting up (a spawned Python
    # importing fillsmt): the other two jobs get 2 T = 12 s for that and a 5x5 solve, which holds
    # at a load of 10 on two cores, where the former fixed 4 s did not.
    timeout = 6
    monkeypatch.setattr("fillsmt.bench.run.hard_limit", lambda timeout: 2 * timeout)
    start = time.monotonic()
    rows = _pool_rows(hang_on_unsat, timeout)
    assert time.monotonic() - start < 2 * timeout + 16
    assert rows["unsat-1x2.txt"]["status"] == "timeout"
    assert rows["unsat-1x2.txt"]["message"] == \
        f"no result after {2 * timeout} s in all (solver time-out {timeout} s); the job was stopped"
    assert rows["g12-5x5.txt"]["status"] == rows["random-4x7.txt"]["status"] == "sat"
    assert hard_limit(60) == 150


# --- summary numbers, on a hand-made CSV -------------------------------------------------------


def _row(puzzle, solver, status, total, solve=None, checked=None, timeout=10):
    checked = status == "sat" if checked is None else checked
    return {"key": f"{puzzle}|{solver}/thesis/off", "puzzle": puzzle, "set": "s", "height": 2,
            "width": 2, "solver": solver, "encoding": "thesis", "presolve": "off",
            "timeout_s": timeout, "status": status, "checked": checked, "presolved_cells": "",
            "presolve_s": 0.0, "encode_s": 0.5, "solve_s": total - 0.5 if solve is None else solve,
            "check_s": 0.0, "total_s": total, "unique": "", "unique_s": "", "solver_version": "v", "message": ""}


HAND_MADE = [
    _row("p1", "a", "sat", 1.0), _row("p2", "a", "sat", 3.0), _row("p3", "a", "timeout", 10.2),
    _row("p4", "a", "unsat", 2.0), _row("p5", "a", "sat", 0.9, checked=False),
    _row("p1", "b", "sat", 0.5), _row("p2", "b", "sat", 1.0), _row("p3", "b", "sat", 4.0),
    _row("p4", "b", "error", 0.1), _row("p5", "b", "bad-input", 0.0),
]


@pytest.fixture
def hand_made(tmp_path) -> list[dict]:
    path = tmp_path / "hand.csv"
    with ResultsFile(path) as results:
        for row in HAND_MADE:
            results.write(row)
    return read_rows(path)


def test_summary_numbers_are_exact(hand_made):
    a, b = summarize(hand_made)
    assert (a.config.label, a.runs, a.solved, a.median, a.mean) == ("a/thesis/off", 5, 3, 2.0, 2.0)
    assert a.par2 == pytest.approx((1.0 + 3.0 + 20 + 2.0 + 20) / 5)
    assert (a.speedup, a.common) == (1.0, 3)
    assert (b.solved, b.median, b.mean) == (3, 1.0, pytest.approx(5.5 / 3))
    assert b.par2 == pytest.approx((0.5 + 1.0 + 4.0 + 20 + 20) / 5)
    assert (b.speedup, b.common) == (pytest.approx(2.0 / 0.75), 2)  # on p1, p2
    assert b.stage_medians["encode"] == 0.5 and b.stage_medians["solve"] == 0.5
    assert b.solve_speedup == pytest.approx(1.5 / 0.25)
    b_base = {s.config.label: s for s in summarize(hand_made, parse_config("b/thesis/off"))}
    assert b_base["a/thesis/off"].speedup == pytest.approx(0.75 / 2.0)


def test_summary_markdown_is_exact(hand_made):
    table = markdown(hand_made, "a/thesis/off").splitlines()
    assert table[0] == "10 runs, time-out 10 s; speed-up versus a/thesis/off."
    assert table[6] == "| a/thesis/off | 3/5 | 2 | 1 | 1 | 1 | 0 | 0 | 2.000 | 2.000 | 3.000 | – |"
    assert table[7] == "| b/thesis/off | 3/5 | 3 | 0 | 0 | 2 | 0 | 0 | 1.000 | 1.833 | 4.000 | – |"
    assert table[13] == "| a/thesis/off | 5 | 3 | 2.000 | 2.000 | – | 9.200 | 1.00 | 3 |"
    assert table[14] == "| b/thesis/off | 5 | 3 | 1.000 | 1.833 | – | 9.100 | 2.67 | 2 |"
    assert table[20] == "| a/thesis/off | 0.000 | 0.500 | 1.500 | 0.000 | – | 2.000 | – | – | 1.00 |"
    assert table[21] == "| b/thesis/off | 0.000 | 0.500 | 0.500 | 0.000 | – | 1.000 | – | – | 6.00 |"


def test_disagreeing_answers_are_flagged(hand_made):
    rows = hand_made + [dict(hand_made[3], solver="c", key="p4|c/thesis/off", status="sat", checked="true")]
    assert "- p4: sat for c/thesis/off; unsat for a/thesis/off" in markdown(rows)


def test_cactus_plot_from_rows(hand_made, tmp_path):
    cactus_plot(hand_made, tmp_path / "c.png")
    data = (tmp_path / "c.png").read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 1024


def test_unique_runs_prove_uniqueness_in_their_own_column(puzzle_dir, tmp_path):
    solver_or_skip("yices")
    small = puzzle_dir / "small"
    result = invoke(small, "-c", "yices/tree-bfs/off", "-c", "yices/tree-bfs/off/unique", "--timeout", 30,
                    "--csv", tmp_path / "u.csv", "--summary", tmp_path / "u.md")
    assert result.exit_code == 0, result.output
    rows = {r["key"].split("/")[-1] + "|" + Path(r["puzzle"]).name: r for r in csv_rows(tmp_path / "u.csv")}
    assert rows["unique|g12-5x5.txt"]["unique"] == "true"
    assert float(rows["unique|g12-5x5.txt"]["unique_s"]) >= 0
    assert rows["off|g12-5x5.txt"]["unique"] == "" and rows["off|g12-5x5.txt"]["unique_s"] == ""
    assert rows["unique|unsat-1x2.txt"]["status"] == "unsat" and rows["unique|unsat-1x2.txt"]["unique"] == ""
    summary = (tmp_path / "u.md").read_text()
    assert "| yices/tree-bfs/off/unique | 2 | 0 | 0 |" in summary  # g12 and random-4x7 proven unique


def test_unique_flag_and_config_cannot_be_mixed(puzzle_dir, tmp_path):
    result = invoke(puzzle_dir / "small", "-c", "yices/tree/off", "--unique", "--csv", tmp_path / "x.csv")
    assert result.exit_code == 2
    assert "give either --config or --unique, not both" in result.output


# --- Dask ----------------------------------------------------------------------------------------


def test_dask_gives_the_same_rows(first_run, tmp_path):
    distributed = pytest.importorskip("distributed", reason='needs pip install "dask[distributed]"')
    _, original, args = first_run
    path = tmp_path / "dask.csv"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        result = invoke(*[path if a == original else a for a in args[:-4]], "--dask",
                        cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    assert f"on the Dask cluster at {cluster.scheduler_address}" in result.stderr

    def essentials(rows):
        return sorted((r["key"], r["status"], r["checked"], r["height"], r["width"]) for r in rows)

    assert essentials(read_rows(path)) == essentials(read_rows(original))


def test_dask_jobs_are_stopped_at_their_timeout(monkeypatch):
    # the worker's threads get no SIGALRM: the time limit must still stop a stage that hangs
    distributed = pytest.importorskip("distributed", reason='needs pip install "dask[distributed]"')
    solver_or_skip("yices")
    from fillsmt.bench.dask_runner import run_on_dask
    from fillsmt.fillomino.kind import Fillomino

    def stuck_presolve(self, puzzle):
        end = time.monotonic() + 60
        while time.monotonic() < end:
            pass

    monkeypatch.setattr(Fillomino, "presolve", stuck_presolve)
    jobs = expand([str(INSTANCES / "g12-5x5.txt")], [Config("yices", "tree", True)])
    rows = []
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        start = time.monotonic()
        run_on_dask(cluster.scheduler_address, jobs, 1.0, lambda job, row: rows.append(row))
        seconds = time.monotonic() - start
    assert [r["status"] for r in rows] == ["timeout"]
    assert "no answer within the time-out of 1 s" in rows[0]["message"]
    assert seconds < 1 + 5


def test_dask_missing_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = invoke(INSTANCES / "g12-5x5.txt", "--csv", tmp_path / "r.csv", "--dask", "tcp://x:1")
    assert (result.exit_code, result.stderr) == (
        2, "Error: --dask needs Dask's distributed scheduler; install it with: "
           "pip install \"dask[distributed]\"\n")


# --- usage and exit codes ------------------------------------------------------------------------


def test_a_missing_solver_exits_4_with_one_line(monkeypatch, tmp_path):
    monkeypatch.setitem(SOLVERS, "ghost", functools.partial(
        CommandDriver, ["fillsmt-no-such-solver"], name="ghost", install_hint="pip install ghost"))
    result = invoke(INSTANCES / "g12-5x5.txt", "-s", "ghost", "--csv", tmp_path / "r.csv")
    assert result.exit_code == 4
    assert result.stderr.startswith("Error: solver 'ghost' not found (fillsmt-no-such-solver is not in ")
    assert result.stderr.endswith("; install it with: pip install ghost\n")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "r.csv").exists()


def test_an_unknown_baseline_is_a_usage_error(tmp_path):
    result = invoke(INSTANCES / "g12-5x5.txt", "--baseline", "yices/thesis/off", "--csv", tmp_path / "r.csv")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: --baseline yices/thesis/off: not one of this run's configurations (yices/default/{DEFAULT_LEVEL})\n")


def test_the_plot_must_be_a_png(tmp_path):
    result = invoke(INSTANCES / "g12-5x5.txt", "--plot", tmp_path / "c.jpg", "--csv", tmp_path / "r.csv")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: --plot {tmp_path / 'c.jpg'}: the file name should end in .png\n")


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_has_examples(flag):
    result = CliRunner().invoke(bench, [flag])
    assert result.exit_code == 0
    assert "Usage: " in result.stdout and "Examples:" in result.stdout


def test_explicit_configurations_run_exactly_those(tmp_path):
    solver_or_skip("z3")
    path = tmp_path / "r.csv"
    result = invoke(INSTANCES / "g12-5x5.txt", "-c", "z3/thesis/off", "-c", "z3/tree-bfs/on",
                    "--csv", path)
    assert result.exit_code == 0, result.output
    assert sorted(r["key"].split("|")[1] for r in csv_rows(path)) == ["z3/thesis/off", "z3/tree-bfs/on"]


def test_config_and_solver_together_is_a_usage_error(tmp_path):
    result = invoke(INSTANCES / "g12-5x5.txt", "-c", "z3/thesis/off", "-s", "z3", "--csv", tmp_path / "r.csv")
    assert (result.exit_code, result.stderr) == (2, "Error: give either --config or --solver, not both\n")


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_a_csv_of_the_older_header_is_read_and_upgraded_on_resume(tmp_path, which):
    from fillsmt.bench.results import COLUMNS, OLDER_HEADERS, ResultsFile

    old = OLDER_HEADERS[which]
    row = {c: v for c, v in _row("p1", "a", "sat", 1.0).items() if c in old}
    row["timestamp"] = "2026-11-20T00:00:00+00:00"
    path = tmp_path / "old.csv"
    path.write_text(",".join(old) + "\n" + ",".join(str(row.get(c, "")) for c in old) + "\n")
    (got,) = read_rows(path)
    assert got["unique"] == got["answered_by"] == "" and got["total_s"] == "1.0"
    with ResultsFile(path, resume=True) as results:
        assert list(results.done) == ["p1|a/thesis/off"]
    assert path.read_text().splitlines()[0] == ",".join(COLUMNS)
    assert read_rows(path) == [got]


def test_the_summary_splits_solve_and_total_time_by_puzzle_size(tmp_path):
    from fillsmt.bench.results import ResultsFile
    from fillsmt.bench.summary import markdown

    rows = [_row("p1", "a", "sat", 1.0), _row("p2", "a", "sat", 3.0, solve=2.0), _row("p3", "a", "timeout", 10.0),
            _row("p1", "b", "sat", 0.5)]
    rows[1]["height"] = rows[2]["height"] = 15
    rows[1]["width"] = rows[2]["width"] = 15
    with ResultsFile(tmp_path / "r.csv") as results:
        read_back = [results.write(r) for r in rows]
    text = markdown(read_back)
    assert "| size | a/thesis/off | b/thesis/off |" in text
    assert "| 2x2 | 0.500 / 1.000 (1/1) | 0.000 / 0.500 (1/1) |" in text
    assert "| 15x15 | 2.000 / 3.000 (1/2) | – |" in text
    one_size = markdown([r for r in read_back if r["height"] == "2"])
    assert "By puzzle size" not in one_size


def test_the_summary_says_who_answered_each_configurations_solved_runs(tmp_path):
    from fillsmt.bench.results import ResultsFile
    from fillsmt.bench.summary import markdown

    rows = [_row("p1", "a", "sat", 1.0), _row("p2", "a", "sat", 3.0), _row("p3", "a", "unsat", 2.0),
            _row("p4", "a", "timeout", 10.0), _row("p1", "b", "sat", 0.5)]
    for r, who in zip(rows, ["rules", "a/thesis", "rules", "", "presolve"]):
        r["answered_by"] = who
    with ResultsFile(tmp_path / "r.csv") as results:
        read_back = [results.write(r) for r in rows]
    text = markdown(read_back)
    assert "| a/thesis/off | rules 2, a/thesis 1 |" in text
    assert "| b/thesis/off | presolve 1 |" in text
    for r in read_back:
        r["answered_by"] = ""
    assert "Who answered" not in markdown(read_back)  # an older CSV says nothing of it


def test_the_csv_names_the_racer_whose_answer_it_is(tmp_path):
    """``solver`` is the configuration's; ``answered_by`` whose answer the row's is: the rules'
    quick search answers a small puzzle in the default plan before yices starts, yices alone
    answers it with a named encoding and no presolve."""
    solver_or_skip("yices")
    path = tmp_path / "r.csv"
    result = invoke(INSTANCES / "g12-5x5.txt", "-c", "yices/default/staged", "-c", "yices/tree/off",
                    "--csv", path, "--no-progress")
    assert result.exit_code == 0, result.output
    rows = {r["key"].rsplit("|", 1)[1]: r for r in csv_rows(path)}
    staged, named = rows["yices/default/staged"], rows["yices/tree/off"]
    assert (staged["solver"], staged["answered_by"], staged["status"]) == ("yices", "rules", "sat")
    assert "before any solver started" in staged["message"]
    assert (named["solver"], named["answered_by"], named["status"]) == ("yices", "yices/tree", "sat")
    assert "| yices/default/staged | rules 1 |" in result.stdout


class _Pipe:
    """A worker's end of its pipe, in-process: the jobs to hand out, then None; what was sent."""

    def __init__(self, jobs):
        self.jobs, self.sent = list(jobs) + [None], []

    def recv(self):
        return self.jobs.pop(0)

    def send(self, row):
        self.sent.append(row)


def test_a_worker_runs_each_job_with_the_heap_before_it_frozen(monkeypatch):
    """``_serve`` collects and freezes the heap before each job (``_settle_heap``): a job's
    collections scan only what it makes itself, however many jobs the worker ran before."""
    import gc

    monkeypatch.setattr(signal, "signal", lambda *a: None)  # _serve sets the worker's handlers
    monkeypatch.setattr(bench_run, "limit_race_cpus", lambda cpus: None)  # and its race CPUs
    seen = []

    def job_fn(job, timeout):
        seen.append((job, gc.get_freeze_count()))
        return {"job": job}

    pipe = _Pipe(["a", "b"])
    try:
        bench_run._serve(pipe, job_fn, 1.0)
    finally:
        gc.unfreeze()
    assert [row["job"] for row in pipe.sent] == ["a", "b"]
    assert all(frozen > 1000 for _, frozen in seen), seen
