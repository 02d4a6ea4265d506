"""The race's time slices (:mod:`fillsmt.engine.schedule`), on real busy processes: at most ``cpus``
run at once, each gets the CPU by its weight until it would fall :data:`SLACK` behind its equal
share, a head start runs first within that slack, a racer waiting for its delay starts once it is
that far behind, nothing is stopped while there are no more racers than CPUs, and nothing stays
stopped after the race. A bench worker races on one CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import INSTANCES

from fillsmt.bench.jobs import Config, Job, expand
from fillsmt.bench.run import run_job, run_pool
from fillsmt.engine.schedule import (
    SLACK,
    SLICE,
    TimeSlices,
    can_slice,
    limit_race_cpus,
    race_cpus,
    race_cpus_at_most,
    usable_cpus,
)

pytestmark = pytest.mark.skipif(not can_slice(), reason="this system cannot stop and continue process groups")

TICKS = os.sysconf("SC_CLK_TCK")


def _busy() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "while True: pass"], process_group=0)


def _stat(pid: int) -> tuple[str, float]:
    """(state letter, CPU seconds) of process ``pid``."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rfind(")") + 2 :].split()
    return fields[0], (int(fields[11]) + int(fields[12])) / TICKS


def _cpu(procs) -> float:
    return sum(_stat(p.pid)[1] for p in procs)


def _states(procs) -> list[str]:
    return [_stat(p.pid)[0] for p in procs]


@pytest.fixture
def busy():
    started: list[subprocess.Popen] = []

    def start(n: int) -> list[subprocess.Popen]:
        started.extend(_busy() for _ in range(n))
        return started[-n:]

    yield start
    for p in started:
        p.kill()
        p.wait()


SLACK_SEEN = SLACK + 2 * SLICE + 2 / TICKS
"""How far a racer may be seen behind its equal share: the slack, a slice of the other's, and
the clock ticks of two CPU readings."""


def test_one_cpu_runs_one_racer_at_a_time_by_its_weight_and_none_falls_behind_beyond_the_slack(busy):
    heavy, light = busy(2)
    with TimeSlices(cpus=1) as slices:
        started, before = time.monotonic(), _cpu([heavy, light])
        slices.share("heavy", 3.0).started(heavy)
        slices.share("light", 1.0).started(light)
        time.sleep(0.25)
        early = {name: _stat(p.pid)[1] for name, p in (("heavy", heavy), ("light", light))}
        time.sleep(1.75)
        used, elapsed = _cpu([heavy, light]) - before, time.monotonic() - started
        cpu = {name: _stat(p.pid)[1] for name, p in (("heavy", heavy), ("light", light))}
    assert used <= 1.1 * elapsed  # one CPU's worth at most, while two could have run
    assert early["heavy"] > early["light"]  # the weights decide first
    assert cpu["light"] > 0 and 0 < cpu["heavy"] - cpu["light"] <= 2 * SLACK_SEEN  # then the slack bounds them
    assert slices.switches > 0


def test_on_two_cpus_the_equal_shares_count_one_cpus_worth_and_the_favourite_takes_the_rest(busy):
    """Three racers on two CPUs: each is owed a third of at most one CPU's worth of the wall time
    (a racer alone runs on one CPU), none falls behind that beyond the slack, and where the race
    got more than one CPU's worth, the favourite by weight has had the CPU beyond it."""
    favourite, *others = busy(3)
    with TimeSlices(cpus=2) as slices:
        started, before = time.monotonic(), _cpu([favourite, *others])
        shares = [slices.share("favourite", 5.0)] + [slices.share(f"other {i}", 1.0) for i in range(2)]
        for share, p in zip(shares, [favourite, *others]):
            share.started(p)
        time.sleep(2.0)
        with slices._lock:
            slices._accrue()
            accrued = [s.accrued for s in shares]
            behind = [s.behind for s in shares]
        used, elapsed = _cpu([favourite, *others]) - before, time.monotonic() - started
        cpu = [_stat(p.pid)[1] for p in (favourite, *others)]
    assert all(a <= elapsed / 3 + 0.02 for a in accrued)  # owed no more than a third of one CPU
    assert all(b <= SLACK_SEEN for b in behind)
    if used >= 1.3 * elapsed:  # the race had more than one CPU's worth (the machine may be busy)
        assert cpu[0] > max(cpu[1:]) + SLACK_SEEN


def test_a_head_start_runs_first_within_the_slack(busy):
    first, second = busy(2)
    with TimeSlices(cpus=1) as slices:
        slices.share("second", 1.0).started(second)
        slices.share("first", 1.0, head_start=0.6).started(first)
        time.sleep(0.1)
        cpu_first, cpu_second = _stat(first.pid)[1], _stat(second.pid)[1]
        time.sleep(0.9)
        late_first, late_second = _stat(first.pid)[1], _stat(second.pid)[1]
    assert cpu_second <= 0.03 < cpu_first or cpu_first > 4 * cpu_second  # the machine may be busy
    assert late_first - late_second <= 2 * SLACK_SEEN


def test_a_racer_waiting_for_its_delay_is_due_once_it_is_the_slack_behind(busy):
    (runner,) = busy(1)
    with TimeSlices(cpus=1) as slices:
        slices.share("runner", 1.0).started(runner)
        waiting = slices.share("waiting", 1.0)
        assert not waiting.due.wait(0.05)
        assert waiting.due.wait(10)  # the runner's CPU is shared out: half of it is the waiting one's
        assert _stat(runner.pid)[1] >= 2 * SLACK - 2 / TICKS
        waiting.finish()
        assert waiting.pending is False


def test_the_cpu_a_racer_used_before_the_race_counts_in_the_others_shares():
    """The quick search's CPU, charged to the search's racer: a racer waiting for its delay is due
    at once when its part of that CPU is the slack; the search's racer itself is not."""
    with TimeSlices(cpus=1) as slices:
        search = slices.share("search", 5.0)
        waiting = slices.share("waiting", 1.0)
        search.charge(3 * SLACK)
        with search.working():  # (its work in this process starts the slices' thread)
            assert waiting.due.wait(2)
            assert not search.due.is_set()
            assert waiting.behind >= SLACK and search.behind < 0


def test_work_in_the_race_process_holds_a_cpu_until_its_solver_starts(busy):
    """While this process encodes a racer's problem (its solver not started yet), that work
    takes the one CPU: the other racer waits, however light the working one; once the working
    racer's process has joined, the weights decide again."""
    other, solver = busy(2)
    with TimeSlices(cpus=1) as slices:
        slices.share("other", 5.0).started(other)
        encoding = slices.share("encoding", 1.0)
        with encoding.working():
            time.sleep(0.3)
            assert _stat(other.pid)[0] == "T"
            before = _stat(other.pid)[1]
            time.sleep(0.3)
            assert _stat(other.pid)[1] == before
            encoding.started(solver)
            time.sleep(0.5)
        assert _stat(other.pid)[1] > before  # the heavier one runs again beside the solver
    assert not encoding.in_process


def test_on_a_busy_machine_as_many_racers_run_at_once_as_may(busy):
    """Other programs keep every CPU busy: the two racers still both run (the operating system
    shares the machine among them alike), none is stopped for the other."""
    busy(usable_cpus())  # the other programs
    racers = busy(2)
    with TimeSlices(cpus=2) as slices:
        for p in racers:
            slices.share(str(p.pid)).started(p)
        time.sleep(1.0)
        assert slices.switches == 0 and "T" not in _states(racers)


def _burn(seconds: float) -> None:
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_the_race_process_work_for_a_racer_is_its_cpu_also_after_its_solver_started(busy):
    """A racer's thread in fillsmt's own process (encoding, then the lazy cuts or blocking clauses
    of a session) works for it before and after its solver's process joins: all of that thread's
    CPU counts as the racer's, and nothing of another thread's."""
    (solver,) = busy(1)
    with TimeSlices(cpus=1) as slices:
        share = slices.share("racer")
        before_join = threading.Event()

        def racer() -> None:
            with share.working():
                _burn(0.2)
                share.started(solver)
                before_join.set()
                _burn(0.3)

        thread = threading.Thread(target=racer)
        thread.start()
        _burn(0.3)  # this thread's work is no racer's
        thread.join()
        process_cpu = _stat(solver.pid)[1]
        share.look()
        assert before_join.is_set()
        assert 0.5 <= share.used - sum(share.cpu_seen.values()) <= 0.5 + 0.05
        assert share.used >= 0.5 + process_cpu - 2 / TICKS


def test_the_end_of_the_race_continues_every_stopped_racer(busy):
    procs = busy(3)
    with TimeSlices(cpus=1) as slices:
        for p in procs:
            slices.share(str(p.pid)).started(p)
        time.sleep(0.3)
        assert "T" in _states(procs)
    time.sleep(0.05)
    assert "T" not in _states(procs)


def test_a_racer_that_ended_gives_up_its_turn(busy):
    (runner,) = busy(1)
    quick = subprocess.Popen(["true"], process_group=0)
    with TimeSlices(cpus=1) as slices:
        slices.share("quick").started(quick)
        slices.share("runner").started(runner)
        quick.wait()
        time.sleep(0.3)
        assert _stat(runner.pid)[0] != "T"
        assert slices.switches <= 1


def test_the_race_cpus_are_the_usable_ones_unless_limited():
    assert race_cpus() == usable_cpus() >= 1
    limit_race_cpus(1)
    try:
        assert race_cpus() == 1 and TimeSlices().cpus == 1
    finally:
        limit_race_cpus(None)
    assert race_cpus() == usable_cpus()
    with race_cpus_at_most(1):
        assert race_cpus() == 1
        with race_cpus_at_most(3):
            assert race_cpus() == 1
    assert race_cpus() == usable_cpus()


def race_cpus_row(job: Job, timeout: float) -> dict:
    row = run_job(job, timeout)
    row["message"] = str(race_cpus())
    return row


def test_a_bench_worker_races_on_one_cpu():
    """--jobs N: N workers, each racing one process at a time, so N CPU-bound processes in all."""
    jobs = expand([str(INSTANCES / "g12-5x5.txt")], [Config("rules", "none", True)])
    rows = []
    run_pool(jobs, 30, 2, lambda job, row: rows.append(row), race_cpus_row)
    assert [row["message"] for row in rows] == ["1"]


RACE_THEN_HANG = """
import subprocess, sys, time
from fillsmt.engine.schedule import TimeSlices
procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], process_group=0) for _ in range(2)]
slices = TimeSlices(cpus=1)
for p in procs:
    slices.share(str(p.pid)).started(p)
print(" ".join(str(p.pid) for p in procs), flush=True)
time.sleep(60)
"""


def test_a_racer_stopped_when_fillsmt_is_killed_does_not_stay_behind():
    """Killed outright (SIGKILL: no clean-up runs), a race leaves its racers' groups orphaned;
    the system then sends a stopped one SIGHUP and SIGCONT, so none stays stopped (a racer that
    was running goes on, as it would have without the slices, until its input ends)."""
    race = subprocess.Popen([sys.executable, "-c", RACE_THEN_HANG], stdout=subprocess.PIPE, text=True)
    pids = [int(p) for p in race.stdout.readline().split()]
    try:
        until = time.monotonic() + 10
        while "T" not in [_stat(p)[0] for p in pids] and time.monotonic() < until:
            time.sleep(0.02)
        assert "T" in [_stat(p)[0] for p in pids]
        race.kill()
        race.wait()
        time.sleep(0.5)
        assert "T" not in [_stat(p)[0] for p in pids if Path(f"/proc/{p}").exists()]
    finally:
        for p in pids:
            try:
                os.killpg(p, 9)
            except ProcessLookupError:
                pass
        race.stdout.close()


def test_limits_of_blocks_in_two_threads_end_in_any_order():
    """Two jobs of a threaded worker each limit their race; the first to begin may end first."""
    first, second = race_cpus_at_most(1), race_cpus_at_most(1)
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert race_cpus() == 1
    second.__exit__(None, None, None)
    assert race_cpus() == usable_cpus()
