"""Removing clues while the solution stays the only one.

:func:`minimize` — remove clues, in row-major order, while the solution stays the only one
(each question asked of the kind's uniqueness oracle, as the generator does, after it has proved
the whole clue set unique, so that a second solution must differ at the removed clue); every clue
left is needed, since removing it from a larger set already gave a second solution. With
``keep_rated`` (Fillomino) a clue also stays when removing it would change the label of
``fillsmt rate``. With ``symmetric``, clues go only a symmetric group at a time (an orbit of
every symmetry the clue layout has: a half turn, a quarter turn, a mirror), so the layout keeps
its symmetries, and every group left is needed (a single clue of it may not be). Stopped by its
time limit, it returns the puzzle with the clues removed so far
(unique, every removal proven), marked as not minimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.errors import FillsmtError, InputError, OracleUndecided
from fillsmt.protocol import Rates
from fillsmt.setter.clues import (
    Grid,
    Placed,
    RepairUndecided,
    clue_kind,
    clues_of,
    open_search,
    settled,
    undecided_on_timeout,
    with_clues,
)
from fillsmt.setter.repair import TIME_LIMIT
from fillsmt.setter.symmetry import joint_orbits, symmetries_of
from fillsmt.smtlib.status import Status


@dataclass
class Minimized:
    """What :func:`minimize` kept and removed; ``puzzle`` is the minimized puzzle. ``minimal``:
    every clue was tried (each one left is needed); otherwise ``stopped`` says what ended the
    run after ``tried`` clues, and ``puzzle`` is unique with the clues removed so far."""

    original: Any
    puzzle: Any
    solution: Grid
    removed: list[Placed]
    label: str | None = None
    seconds: float = 0.0
    minimal: bool = True
    stopped: str = ""
    tried: int = 0
    symmetries: tuple[str, ...] = ()
    """With ``symmetric``: the symmetries the layout had and kept."""

    @property
    def clues_before(self) -> int:
        return len(clues_of(self.original))

    def as_dict(self) -> dict:
        return {
            "puzzle": self.original.source,
            "removed_clues": [list(p) for p in self.removed],
            "clues_before": self.clues_before,
            "clues_after": len(clues_of(self.puzzle)),
            "label": self.label,
            "minimal": self.minimal,
            "stopped": self.stopped or None,
            "clues_tried": self.tried,
            "symmetries": list(self.symmetries),
            "seconds": round(self.seconds, 4),
        }


def minimize(
    puzzle: Any, driver: Driver, *, keep_rated: bool = False, timeout: float | None = None, symmetric: bool = False
) -> Minimized:
    """Minimize ``puzzle``'s clues (module text). The puzzle must have exactly one solution;
    ``timeout`` bounds the whole: the clues removed by then are returned, marked as not minimal,
    and :class:`RepairUndecided` is raised when the puzzle was not even proven unique by then."""
    return undecided_on_timeout(lambda: _minimize(puzzle, driver, keep_rated, timeout, symmetric))


def _groups(puzzle: Any, symmetric: bool) -> tuple[list[list[Placed]], tuple[str, ...]]:
    """The clues in the groups removed together (each clue alone, or the orbits of the
    layout's symmetries), in reading order, and those symmetries."""
    kept = clues_of(puzzle)
    if not symmetric:
        return [[k] for k in kept], ()
    found = tuple(symmetries_of(puzzle.height, puzzle.width, [(r, c) for r, c, _ in kept]))
    if not found:
        raise InputError(
            f"{puzzle.source}: --symmetric: the clue layout has no symmetry (half turn, quarter turn or mirror) to keep"
        )
    at = {(r, c): (r, c, v) for r, c, v in kept}
    groups = [[at[x] for x in orbit] for orbit in joint_orbits(found, puzzle.height, puzzle.width) if orbit[0] in at]
    return groups, found


def _minimize(puzzle: Any, driver: Driver, keep_rated: bool, timeout: float | None, symmetric: bool) -> Minimized:
    kind = clue_kind(puzzle)
    groups, symmetries = _groups(puzzle, symmetric)
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    solution = _unique_solution(puzzle, driver, deadline)
    label = Rates.of(kind, puzzle.source).rating_label(puzzle, deadline) if keep_rated else None
    if keep_rated and label is None:
        raise RepairUndecided(f"{puzzle.source}: the time limit came before the puzzle was rated")
    kept = clues_of(puzzle)
    removed: list[Placed] = []
    unique = kind.uniqueness_oracle(driver, deadline)
    stopped, tried = "", 0
    try:
        # the oracle remembers the clue sets it proved unique: with the whole set proved first,
        # a second solution of the set without one clue must differ from the solution at that
        # clue, which makes each question a small one (the generator's questions are the same)
        try:
            if not unique(puzzle, solution):
                raise FillsmtError(f"{puzzle.source}: the uniqueness oracle disagrees with the solver (a bug)")
        except OracleUndecided as e:
            raise RepairUndecided(f"{puzzle.source}: {e}") from None
        for group in groups:
            if deadline is not None and time.monotonic() >= deadline:
                stopped = TIME_LIMIT
                break
            trial = with_clues(puzzle, [k for k in kept if k not in group])
            try:
                if not unique(trial, solution):
                    tried += len(group)
                    continue
            except (OracleUndecided, SessionTimeout) as e:
                stopped = TIME_LIMIT if deadline is not None and time.monotonic() >= deadline else str(e)
                break
            if keep_rated:
                trial_label = Rates.of(kind, puzzle.source).rating_label(trial, deadline)
                if trial_label is None:
                    stopped = "the time limit came while rating"
                    break
                if trial_label != label:
                    tried += len(group)
                    continue
            for clue in group:
                kept.remove(clue)
            removed.extend(group)
            tried += len(group)
    finally:
        unique.close()
    return Minimized(
        puzzle,
        with_clues(puzzle, kept),
        solution,
        removed,
        label,
        time.monotonic() - start,
        minimal=not stopped,
        stopped=stopped,
        tried=tried,
        symmetries=symmetries,
    )


def _unique_solution(puzzle: Any, driver: Driver, deadline: float | None) -> Grid:
    search = open_search(puzzle, driver, deadline)
    try:
        status, found = search.next_solution()
        if settled(status, "looking for a solution") is Status.UNSAT:
            raise InputError(
                f"{puzzle.source}: the puzzle has no solution, so no clue can be removed "
                "(fillsmt repair names the clues that conflict)"
            )
        if settled(search.check(), "checking uniqueness") is Status.SAT:
            raise InputError(
                f"{puzzle.source}: the puzzle has more than one solution; minimize needs a "
                "unique one (fillsmt repair adds the clues it lacks)"
            )
        assert found is not None  # a SAT answer comes with its solution
        return found.grid
    finally:
        search.session.close()


__all__ = ["Minimized", "minimize"]
