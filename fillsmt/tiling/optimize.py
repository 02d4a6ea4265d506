"""Maximum coverage with a real solver: the one tiling module that runs solvers.

Three methods:

* ``bounds`` (any solver): a search on ``covered >= k``. In a session (z3, yices, …) the
  constraints are sent once and each bound is pushed, checked and popped; a solver with no
  session gets one whole script per bound. The first bound tried is the upper bound
  (:func:`~fillsmt.tiling.model.upper_bound`): a tiling reaching it is optimal with no further
  proof. Then the search halves the gap between the best tiling found and the smallest bound
  not yet refuted; ``unsat`` at ``best + 1`` proves ``best`` optimal. A check gets half the
  time left (all of it at ``best + 1``); one that runs out of time ends the session (a new one
  is opened) and makes the search try lower bounds with the time left; at the deadline the best
  tiling so far is returned, not proven.
* ``maximize`` (z3): one script with ``(maximize covered)``; sat means optimal.
* ``split`` (any solver): a large board is cut into blocks of about 10×10
  (:mod:`fillsmt.tiling.split`), each distinct block solved once by ``bounds`` (with at most
  half the time), and the blocks' tilings put together; if that reaches the upper bound it is
  optimal, else it is the incumbent the bound search starts from. ``auto`` is ``split`` on a
  board with a side of 20 or more and no copy limits, ``bounds`` otherwise.

Every tiling returned has passed the independent checker (:mod:`fillsmt.tiling.verify`).
"""

from __future__ import annotations

import enum
import functools
import time
from dataclasses import dataclass, field
from typing import Any, cast, overload

from fillsmt.drivers import get_driver
from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine.interrupts import GRACE, OutOfTime, time_limit
from fillsmt.engine.solutions import Problem, Search, WrongAnswer
from fillsmt.errors import InputError, SolverError
from fillsmt.smtlib import Script
from fillsmt.smtlib.script import render_term
from fillsmt.smtlib.status import Status
from fillsmt.tiling import split
from fillsmt.tiling.decode import decode_placements
from fillsmt.tiling.encode import (
    bound_term,
    choose_amo,
    encode_body,
    encode_maximize,
    get_value_commands,
)
from fillsmt.tiling.model import Placement, TilingProblem, upper_bound
from fillsmt.tiling.solution import Tiling, check

METHODS = ("auto", "bounds", "maximize", "split")


class Outcome(enum.Enum):
    OPTIMAL = "optimal"  # the tiling is proven to cover the most cells
    TIMEOUT = "timeout"  # time ran out: the best tiling found, not proven optimal
    UNKNOWN = "unknown"  # the solver answered unknown: the best tiling found


@dataclass
class TilingResult:
    """The best tiling found and what is known about it. Times are seconds from the start."""

    covered: int
    optimal: bool
    placements: list[Placement]
    upper_bound: int  # no tiling covers more (the model's bound, tightened by unsat)
    status: Outcome
    time_first: float | None = None  # the first tiling from the solver
    time_best: float | None = None  # the best tiling
    time_proven: float | None = None  # optimality proven (or the best reached the upper bound)
    checks: int = 0  # check-sat calls
    solver: str = ""
    method: str = ""
    log: list[tuple[int, str, float]] = field(default_factory=list)  # (bound, answer, seconds)
    problem: TilingProblem | None = None
    amo: str = ""  # the at-most-one encoding used

    @property
    def solution(self) -> Tiling:
        """The best tiling found, as the kind's solution object."""
        assert self.problem is not None  # set by every optimiser (_empty_result)
        return Tiling(self.problem, tuple(self.placements))

    def _repr_svg_(self) -> str:
        """Jupyter shows the best tiling found."""
        from fillsmt.pictures.notebook import picture

        return picture(self.problem, self.solution)


def verified(problem: TilingProblem, chosen: list[Placement]) -> int:
    """The number of cells ``chosen`` covers, after the independent checker accepted it."""
    covered = sum(len(p.cells) for p in chosen)
    problems = check(problem, Tiling(problem, tuple(chosen)), covered)
    if problems:
        raise SolverError(f"{problem.source}: the solver's tiling fails the checker: {'; '.join(problems[:5])}")
    return covered


@overload
def _left(deadline: float) -> float: ...


@overload
def _left(deadline: float | None) -> float | None: ...


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


class _Checker:
    """Answers "is there a tiling covering at least k cells?" within a time-out: in a session
    (:class:`~fillsmt.engine.solutions.Search`: the constraints sent once, each bound asked in a
    scope of its own) where the solver has one, else one whole script per bound."""

    def __init__(self, problem: TilingProblem, driver: Driver, amo: str):
        self.problem, self.driver, self.amo = problem, driver, amo
        self.search: Search | None = None
        self.checks = 0
        self.use_session = driver.supports_session

    def close(self) -> None:
        if self.search is not None:
            self.search.session.close()
            self.search = None

    @functools.cached_property
    def body(self) -> Script:
        """The declarations and constraints, without any bound."""
        return Script.of(encode_body(self.problem, self.amo))

    @functools.cached_property
    def body_text(self) -> str:
        return self.body.text()

    def _session_problem(self) -> Problem:
        """The body as a session's problem: its models decoded as placements and checked."""
        problem = self.problem

        def decode(values: dict) -> Any:
            return decode_placements(problem, values)

        def checked(chosen: Any) -> list[str]:
            return check(problem, Tiling(problem, tuple(chosen)), sum(len(p.cells) for p in chosen))

        return Problem(
            script=Script.of([*self.body.commands, *get_value_commands(problem)]),
            decode=decode,
            check=checked,
            term_cell=lambda term: term,
        )

    def check(self, k: int, deadline: float | None, share: float = 1.0) -> tuple[Status, list[Placement] | None]:
        """Is there a tiling covering at least ``k`` cells? Answers by ``deadline`` (a
        ``time.perf_counter()`` value; None: no limit), encoding and sending included; the
        check itself gets ``share`` of the time left once the constraints are sent."""
        self.checks += 1
        bound = render_term(bound_term(self.problem, k, self.amo))
        if not self.use_session:
            script = (
                self.body_text
                + f"(assert {bound})\n"
                + "(check-sat)\n"
                + "".join(c.text() + "\n" for c in get_value_commands(self.problem))
            )
            result = self.driver.run(script, _left(deadline))
            if result.status is Status.ERROR:
                raise SolverError(result.message)
            chosen = decode_placements(self.problem, result.values) if result.status is Status.SAT else None
            return result.status, chosen
        until = None if deadline is None else time.monotonic() + _left(deadline)
        try:
            if self.search is None or not self.search.session.alive:
                self.search = Search(self._session_problem(), self.driver.open_session(), until)
                self.search.start()
            self.search.deadline = until
            timeout = _left(deadline)
            timeout = None if timeout is None else timeout * share
            if timeout == 0:
                self.close()
                return Status.TIMEOUT, None
            status, found = self.search.ask([bound], timeout=timeout)
        except SessionTimeout:  # the session closed itself
            self.search = None
            return Status.TIMEOUT, None
        except WrongAnswer as e:
            raise SolverError(f"{self.problem.source}: {e}") from None
        if status is Status.TIMEOUT:
            self.close()
            return status, None
        placed: list[Placement] | None = None if found is None else list(cast(Any, found.grid))
        return status, placed


def _bound_search(
    problem: TilingProblem,
    driver: Driver,
    timeout: float | None,
    amo: str,
    start: float | None = None,
    result: TilingResult | None = None,
) -> TilingResult:
    """The bound search; ``result`` may hold an incumbent already (from the blocks), and
    ``start`` is when the whole optimisation began (the time-out counts from there)."""
    start = time.perf_counter() if start is None else start
    deadline = None if timeout is None else start + timeout
    hi = upper_bound(problem)  # no tiling covers more (proven)
    ceiling = hi  # the highest bound worth trying now
    if result is None:
        result = _empty_result(problem, driver, "bounds")
    result.upper_bound = hi
    checker = _Checker(problem, driver, amo)
    try:
        first = True
        while result.covered < hi:
            k = ceiling if first else result.covered + (ceiling - result.covered + 1) // 2
            first = False
            if deadline is not None and deadline - time.perf_counter() <= 0.01:
                break
            t0 = time.perf_counter()
            # Only a check that would prove optimality may use all the time left; any other
            # gets half of it, so a too-high bound cannot leave the search with nothing.
            share = 1.0 if k <= result.covered + 1 else 0.5
            status, chosen = checker.check(k, deadline, share)
            now = time.perf_counter() - start
            result.log.append((k, status.value, round(time.perf_counter() - t0, 3)))
            if status is Status.SAT:
                assert chosen is not None  # a SAT check comes with its tiling
                covered = verified(problem, chosen)
                if result.time_first is None:
                    result.time_first = now
                if covered > result.covered or result.time_best is None:
                    result.covered, result.placements, result.time_best = covered, chosen, now
                ceiling = hi
            elif status is Status.UNSAT:
                hi = ceiling = k - 1
            elif status is Status.TIMEOUT:
                if k <= result.covered + 1:
                    break
                ceiling = k - 1
            else:
                result.status = Outcome.UNKNOWN
                break
        result.upper_bound = hi  # tightened by every unsat answer
        if result.covered >= hi:
            result.optimal, result.status = True, Outcome.OPTIMAL
            result.time_proven = time.perf_counter() - start
            if result.time_best is None:  # nothing to place: the empty tiling is optimal
                result.time_first = result.time_best = result.time_proven
    finally:
        checker.close()
        result.checks += checker.checks
    return result


def _split_then_bounds(
    problem: TilingProblem,
    driver: Driver,
    timeout: float | None,
    amo: str,
    requested: str = "auto",
    result: TilingResult | None = None,
) -> TilingResult:
    """Tile the board block by block (:mod:`fillsmt.tiling.split`), each distinct block solved
    once with at most half the time between them; stop if that reaches the upper bound, else
    start the bound search from it."""
    start = time.perf_counter()
    hi = upper_bound(problem)
    result = result or _empty_result(problem, driver, "split+bounds")
    result.upper_bound = hi
    parts = split.blocks(problem)
    distinct: dict[tuple, TilingProblem] = {}
    for b in parts:
        distinct.setdefault(split.key(b.problem), b.problem)
    solved: dict[tuple, TilingResult] = {}
    for n, (k, block) in enumerate(distinct.items()):
        share = None
        if timeout is not None:
            left = start + timeout / 2 - time.perf_counter()
            if left <= 0.01:
                break
            share = left / (len(distinct) - n)
        t0 = time.perf_counter()
        solved[k] = _bound_search(block, driver, share, choose_amo(block, requested))
        result.checks += solved[k].checks
        result.log.append(
            (
                solved[k].covered,
                f"block {block.height}x{block.width}{' optimal' if solved[k].optimal else ''}",
                round(time.perf_counter() - t0, 3),
            )
        )
    if len(solved) == len(distinct):
        chosen = [split.shifted(p, b.top, b.left) for b in parts for p in solved[split.key(b.problem)].placements]
        result.covered, result.placements = verified(problem, chosen), chosen
        result.time_first = result.time_best = time.perf_counter() - start
        if result.covered >= hi:
            result.optimal, result.status = True, Outcome.OPTIMAL
            result.time_proven = result.time_best
            return result
    return _bound_search(problem, driver, timeout, amo, start, result)


def _maximize(
    problem: TilingProblem, driver: Driver, timeout: float | None, amo: str, result: TilingResult | None = None
) -> TilingResult:
    start = time.perf_counter()
    result = result or _empty_result(problem, driver, "maximize")
    result.upper_bound = upper_bound(problem)
    result.checks += 1
    run = driver.run(encode_maximize(problem, amo).text(), timeout)
    now = time.perf_counter() - start
    result.log.append((-1, run.status.value, round(run.seconds, 3)))
    if run.status is Status.ERROR:
        raise SolverError(run.message)
    if run.status is Status.SAT:
        chosen = decode_placements(problem, run.values)
        result.covered, result.placements = verified(problem, chosen), chosen
        result.time_first = result.time_best = result.time_proven = now
        result.optimal, result.status = True, Outcome.OPTIMAL
    elif run.status in (Status.UNKNOWN, Status.UNSAT):
        result.status = Outcome.UNKNOWN
    return result


def optimize(
    problem: TilingProblem,
    solver: str | Driver = "yices",
    timeout: float | None = None,
    method: str = "auto",
    amo: str = "auto",
) -> TilingResult:
    """The tiling covering the most cells that ``solver`` finds within ``timeout`` seconds.

    ``method``: ``bounds``, ``maximize`` (z3 only), ``split`` (the blocks first, then
    ``bounds``) or ``auto`` (``split`` on a large board without copy limits, else ``bounds``)."""
    driver = get_driver(solver) if isinstance(solver, str) else solver
    if amo == "auto":
        from fillsmt.kinds import get_kind

        amo = driver.encoding_for(get_kind("tiling")) or amo
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if method == "auto":
        method = "split" if split.can_split(problem) else "bounds"
    if method == "split" and any(piece.limit is not None for piece in problem.pieces):
        raise InputError(
            f"{problem.source}: --method split needs pieces without copy limits (the blocks' limits would not add up)"
        )
    driver.require()
    # The methods improve this one result as they go; whatever still runs GRACE seconds past the
    # time-out (choosing the encoding, a split, a solver that does not stop) is stopped and it is kept.
    result = _empty_result(problem, driver, {"split": "split+bounds"}.get(method, method))
    result.amo = amo
    try:
        with time_limit(None if timeout is None else timeout + GRACE):
            result.amo = resolved = choose_amo(problem, amo)
            if method == "split":
                _split_then_bounds(problem, driver, timeout, resolved, amo, result)
            elif method == "maximize":
                _maximize(problem, driver, timeout, resolved, result)
            else:
                _bound_search(problem, driver, timeout, resolved, result=result)
    except OutOfTime:
        result.status = Outcome.TIMEOUT
    return result


def _empty_result(problem: TilingProblem, driver: Driver, method: str) -> TilingResult:
    """Nothing placed yet: a time-out until a method finds better. Its upper bound is the free
    cells until a method computes the real one (:func:`upper_bound` takes time on a large board)."""
    free = problem.height * problem.width - len(problem.blocked)
    return TilingResult(0, False, [], free, Outcome.TIMEOUT, solver=driver.name, method=method, problem=problem)


def placements_json(problem: TilingProblem, placements: list[Placement] | tuple[Placement, ...]) -> list[dict]:
    """``[{"piece": name, "cells": [[row, col], …]}, …]``, cells counted from 0."""
    return [{"piece": problem.pieces[p.piece].name, "cells": [list(c) for c in p.cells]} for p in placements]
