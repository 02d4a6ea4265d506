"""Running one configuration: encode the presolved puzzle, run a solver one-shot or in a
session, decode and check; and the result of a decisive answer of the kind's own search."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine.result import RULES_SOLVER, SolveResult, checked
from fillsmt.engine.solutions import Problem, Search, WrongAnswer, backbone
from fillsmt.protocol import Kind
from fillsmt.smtlib.answer import Status


def attempt(
    kind: Kind, target: Any, hints: Any, run: "Run", unique: bool, forced: bool, stop: threading.Event | None = None
) -> SolveResult | None:
    """Encode ``target`` (the presolved puzzle) in ``run.encoding`` and solve it with
    ``run.driver``: one-shot (stopped by ``stop``; None when it is set before the run starts),
    or in a session for ``unique``, ``forced`` or a lazy encoding. The result's grid is checked."""
    tp = time.perf_counter()
    run = replace(run, encoding_started=tp)
    script = kind.encode(target, run.encoding, hints)
    problem = kind.problem(run.puzzle, script, run.encoding, run.driver.name)
    if unique or forced or kind.encoding(run.encoding).lazy:
        return solve_in_session(problem, run, unique, forced)
    text = script.text()
    if stop is not None and stop.is_set():
        return None
    t1 = time.perf_counter()
    ran = run.driver.run(text, run.timeout, stop, run.share)
    t2 = time.perf_counter()
    result = SolveResult(
        run.puzzle,
        ran.status,
        run.driver.name,
        run.encoding,
        message=ran.message,
        solver_output=ran.output,
        presolved_cells=run.presolved_cells,
    )
    if ran.status is Status.SAT:
        solution, why = checked(problem, ran.values, run.driver.name)
        if solution is None:
            result.status, result.message = Status.ERROR, why
        result.grid = solution
    t3 = time.perf_counter()
    result.times = {
        "presolve": tp - run.started,
        "encode": t1 - tp,
        "solve": t2 - t1,
        "check": t3 - t2,
        "total": t3 - run.started,
    }
    return result


def decisive(result: SolveResult | None, unique: bool, forced: bool) -> bool:
    """Whether ``result`` settles everything asked: a checked solution (and its uniqueness, its
    forced cells when asked) or the proof that there is none."""
    if result is None:
        return False
    if result.status is Status.UNSAT:
        return True
    if result.status is not Status.SAT or result.grid is None:
        return False
    return (not unique or result.unique is not None) and (not forced or result.forced is not None)


def joining(run: "Run", driver, encoding: str, share: Any = None) -> "Run":
    """``run`` for a racer that joins now: its driver, encoding and share of the CPU, the
    time-out's remainder."""
    left = None if run.timeout is None else max(0.001, run.timeout - (time.perf_counter() - run.started))
    return replace(run, driver=driver, encoding=encoding, timeout=left, share=share)


def search_answer(
    kind: Kind, puzzle: Any, outcome, run: "Run", unique: bool, times: dict, forced: bool = False, message: str = ""
) -> SolveResult:
    """The result from the racing search's decisive outcome (its grids checked again here). With
    ``forced`` the outcome is exhausted, so its solutions (at most two) are all there are: a cell
    is forced where they agree."""
    result = SolveResult(
        puzzle,
        Status.UNSAT,
        RULES_SOLVER,
        run.encoding,
        presolved_cells=run.presolved_cells,
        unique_asked=unique,
        message=message
        or f"answered first by the rules' search ({outcome.nodes} nodes, "
        f"depth {outcome.max_depth}), racing {run.driver.name}",
    )
    checking = time.perf_counter()
    if outcome.solutions:
        problems = kind.check(puzzle, outcome.solutions[0])
        if problems:
            result.status, result.message = Status.ERROR, f"the search's grid fails the check: {problems[0]}"
        else:
            result.status, result.grid = Status.SAT, outcome.solutions[0]
            if unique:
                if len(outcome.solutions) > 1 and not kind.check(puzzle, outcome.solutions[1]):
                    result.unique, result.second_grid = False, outcome.solutions[1]
                elif outcome.exhausted and len(outcome.solutions) == 1:
                    result.unique = True
            if forced and outcome.exhausted:  # every grid passed the race's check on arrival
                result.forced = agreement(outcome.solutions)
    done = time.perf_counter()
    result.times = {
        "presolve": run.encoding_started - run.started,
        **times,
        "check": done - checking,
        "total": done - run.started,
    }
    return result


def agreement(grids: list) -> tuple:
    """Each cell's number where every grid of ``grids`` has it, else 0."""
    return tuple(
        tuple(v if all(g[r][c] == v for g in grids) else 0 for c, v in enumerate(row)) for r, row in enumerate(grids[0])
    )


@dataclass
class Run:
    """What one session run needs besides the problem: the puzzle, the driver, the time-out and
    the clock readings so far."""

    puzzle: Any
    driver: Driver
    encoding: str
    timeout: float | None
    presolved_cells: int | None
    started: float
    encoding_started: float
    share: Any = None
    """The racer's share of the CPU, told of each solver process (:class:`fillsmt.engine.schedule.Share`)."""

    def stopped_message(self) -> str:
        return f"{self.driver.name} gave no answer within {self.timeout:g} s and was stopped" if self.timeout else ""


def solve_in_session(problem: Problem, run: Run, unique: bool, forced: bool) -> SolveResult:
    t1 = time.perf_counter()
    deadline = None if run.timeout is None else time.monotonic() + run.timeout
    driver = run.driver
    result = SolveResult(
        run.puzzle, Status.ERROR, driver.name, run.encoding, presolved_cells=run.presolved_cells, unique_asked=unique
    )
    times = {"presolve": run.encoding_started - run.started, "encode": t1 - run.encoding_started}
    with driver.open_session(run.share) as session:
        search = Search(problem, session, deadline)
        try:
            search.start()
            first_status, first = search.next_solution()
            t2 = time.perf_counter()
            times["solve"] = t2 - t1
            result.status = first_status
            if first is None:
                result.message = {
                    Status.UNSAT: "no solution",
                    Status.TIMEOUT: run.stopped_message(),
                    Status.UNKNOWN: f"{driver.name} answered unknown",
                }.get(first_status, "")
            else:
                result.grid = first.grid
                if unique:
                    settle_uniqueness(search, result)
                    times["unique"] = time.perf_counter() - t2
                if forced and result.unique is not True:
                    t3 = time.perf_counter()
                    settle_forced(search, first, result)
                    times["forced"] = time.perf_counter() - t3
                elif forced:
                    result.forced = first.grid
        except WrongAnswer as e:
            result.status, result.grid, result.message = Status.ERROR, None, str(e)
        except SessionTimeout as e:
            if result.grid is None:
                result.status = Status.TIMEOUT
                result.message = run.stopped_message() or str(e)
            else:  # solved; what was asked after the solution stays unsettled
                result.status, result.message = Status.SAT, f"not settled: {e}"
        result.checks = search.checks
        if search.cuts and not result.message:
            result.message = f"{search.checks} checks, {search.cuts} region cuts"
    times.setdefault("solve", time.perf_counter() - t1)
    times["total"] = time.perf_counter() - run.started
    result.times = times
    return result


def settle_uniqueness(search: Search, result: SolveResult) -> None:
    second_status, second = search.next_solution()
    if second_status is Status.UNSAT:
        result.unique = True
    elif second is not None:
        result.unique, result.second_grid = False, second.grid
    else:
        result.message = f"uniqueness not settled: {second_status.value}"


def settle_forced(search: Search, first, result: SolveResult) -> None:
    bones = backbone(search, first)
    if bones.status is Status.UNSAT:
        result.forced = tuple(
            tuple(v if bones.forced.get((r, c), False) else 0 for c, v in enumerate(row))
            for r, row in enumerate(first.grid)
        )
    else:
        result.message = f"forced cells not settled: {bones.status.value}"


__all__ = ["Run", "agreement", "attempt", "decisive", "joining", "search_answer", "solve_in_session"]
