"""A Fillomino solve path as numbered steps a person can follow, and hints for a player.

:func:`explain` applies the deduction rules with their reasons (:mod:`fillsmt.fillomino.trace`)
until they stop. Where they stop short of the solution, a case analysis a person would write
(:mod:`fillsmt.fillomino.cases`): a case split (a number tried in a cell, refuted by the rules),
a "whichever" step (every number of a cell tried, each narrowing another cell alike) or a nested
split (a number tried, the rules stop, every number of a second cell then refuted); its
conclusion is proven and the rules go on. Where none is found in time, the explanation says so
plainly and takes one cell from the solver: the SMT solver proves the puzzle has exactly one
solution, so each of its numbers is forced; the cell with the fewest candidates is fixed (rule
``solver-forced``). Runs of size-cap steps that only remove numbers too large for a cell's room
are folded into one ``size-caps`` step (:func:`~fillsmt.fillomino.trace.fold_size_caps`).

:func:`replay` writes the steps' proven cells into the clues; a complete explanation replays to
the solution, which the independent checker accepts.

:func:`hint` answers a player: given a progress grid (0 = not filled), either the cells whose
numbers are not in the (unique) solution — and nothing else about it — or the next step that
fixes a cell, from the puzzle with the player's numbers as clues.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

from fillsmt.errors import InputError
from fillsmt.fillomino.cases import CASE_TRIALS, NESTED_TRIALS, Cases
from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.masks import Mask, bit, is_single
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.trace import Step, TracingState, fold_size_caps, name, steps_of
from fillsmt.fillomino.verify import check_solution

DEFAULT_SOLVER = "yices"
"""The SMT solver that proves uniqueness where the rules and case splits stop."""

STATUSES = ("solved", "no-solution", "multiple", "stopped")
"""How an explanation ends: solved; the puzzle has no solution (the last step says why); it has
more than one (explained as far as the forced cells go); the deadline came first."""


@dataclass
class Explanation:
    """The steps, how they end, and the grid they replay to (checked), if complete."""

    puzzle: Puzzle
    steps: list[Step]
    status: str
    grid: Grid | None
    message: str = ""

    def as_dict(self) -> dict:
        return {
            "puzzle": self.puzzle.source,
            "height": self.puzzle.height,
            "width": self.puzzle.width,
            "status": self.status,
            "message": self.message,
            "steps": [s.as_dict() for s in self.steps],
            "grid": None if self.grid is None else [list(row) for row in self.grid],
        }

    def step_numbers(self) -> dict[tuple[int, int], int]:
        """Per cell fixed by a step: the step's number (from 1)."""
        out: dict[tuple[int, int], int] = {}
        for i, step in enumerate(self.steps, 1):
            for r, c, _ in step.cells:
                out.setdefault((r, c), i)
        return out

    def svg(self) -> str:
        """The grid as far as the steps fill it (clues bold, filled numbers blue, region borders
        between different numbers), each filled cell with its step number in the corner."""
        from fillsmt.pictures.svg import CellText, file_title, grid_svg

        p, grid = self.puzzle, replay(self.puzzle, self.steps)
        labels = [
            [v if v else -(r * p.width + c + 1) for c, v in enumerate(row)] for r, row in enumerate(grid)
        ]  # an empty cell is a region of its own
        texts = [
            CellText(r, c, str(v), "clue" if p.cells[r][c] else "solved")
            for r, row in enumerate(grid)
            for c, v in enumerate(row)
            if v
        ]
        notes = [CellText(r, c, str(n), "label") for (r, c), n in sorted(self.step_numbers().items())]
        title = f"{file_title(p.source)}: {len(self.steps)} steps"
        return grid_svg(p.height, p.width, labels=labels, texts=texts, notes=notes, title=title)

    _repr_svg_ = svg

    def text(self) -> str:
        lines = [
            f"{self.puzzle.source}: {len(self.steps)} steps, {self.status}"
            + (f" ({self.message})" if self.message else "")
        ]
        for i, step in enumerate(self.steps, 1):
            lines.append(f"{i:4}. [{step.rule}] {step.text}")
            for j, sub in enumerate(step.chain, 1):
                lines.append(f"        {i}.{j} [{sub.rule}] {sub.text}")
            for k, case in enumerate(step.cases, 1):
                r, c, v = case.tried
                end = f": contradiction ({case.contradiction})" if case.contradiction else ""
                lines.append(f"        case {k}: {name((r, c))} is {v}{end}")
                for j, sub in enumerate(case.chain, 1):
                    lines.append(f"          {i}.{k}.{j} [{sub.rule}] {sub.text}")
            if step.tried is not None and step.contradiction:
                lines.append(f"        contradiction: {step.contradiction}")
        return "\n".join(lines) + "\n"


@dataclass
class Uniqueness:
    """The solver's answer about a puzzle: ``status`` is ``unique``, ``multiple``, ``none`` or
    ``unknown``; ``solution`` a checked solution when there is one."""

    status: str
    solution: Grid | None = None
    message: str = ""


def ask_solver(puzzle: Puzzle, solver: str = DEFAULT_SOLVER, deadline: float | None = None) -> Uniqueness:
    """Solve ``puzzle`` with an SMT solver and prove (or refute) that its solution is unique."""
    from fillsmt.drivers import get_driver
    from fillsmt.engine.pipeline import solve
    from fillsmt.smtlib.answer import Status

    driver = get_driver(solver)
    driver.require()
    timeout = None if deadline is None else max(0.1, deadline - time.monotonic())
    result = solve(puzzle, driver, timeout=timeout, unique=True)
    if result.status is Status.UNSAT:
        return Uniqueness("none", None, result.message)
    if result.grid is None:
        return Uniqueness("unknown", None, result.message or f"{solver}: {result.status.value}")
    if result.unique is None:
        return Uniqueness("unknown", result.grid, result.message)
    return Uniqueness("unique" if result.unique else "multiple", result.grid)


@dataclass
class _Solver:
    """The solver's answer, asked at most once per explanation."""

    puzzle: Puzzle
    solver: str
    deadline: float | None
    found: Uniqueness | None = None

    def result(self) -> Uniqueness:
        if self.found is None:
            self.found = ask_solver(self.puzzle, self.solver, self.deadline)
        return self.found


def explain(
    puzzle: Puzzle,
    *,
    deadline: float | None = None,
    stop_at_first_fix: bool = False,
    solver: str = DEFAULT_SOLVER,
    known: Uniqueness | None = None,
) -> Explanation:
    """The solve path of ``puzzle`` (module text). ``deadline`` is a :func:`time.monotonic`
    value; ``stop_at_first_fix`` ends after the first step that fixes a cell (for hints);
    ``known`` is the solver's answer about ``puzzle`` when the caller already has it."""
    board = Board.of(puzzle.height, puzzle.width)
    masks = initial_masks(puzzle)
    steps: list[Step] = []
    asker = _Solver(puzzle, solver, deadline, known)
    cases = Cases(board)
    while True:
        state = TracingState(board, list(masks), ALL_RULES)
        contradiction = fixpoint(state, ALL_RULES)
        steps.extend(fold_size_caps(steps_of(state.changes, board)))
        masks = state.dom
        if stop_at_first_fix and _cut_at_first_fix(steps):
            return Explanation(puzzle, steps, "stopped", None, "stopped at the first cell fixed")
        if contradiction is not None:
            steps.append(
                Step(
                    "contradiction",
                    [],
                    [],
                    [],
                    f"the puzzle has no solution: {contradiction}",
                    contradiction=contradiction,
                )
            )
            return Explanation(puzzle, steps, "no-solution", None, contradiction)
        if all(is_single(m) for m in masks):
            return _finished(puzzle, steps)
        if deadline is not None and time.monotonic() >= deadline:
            return Explanation(puzzle, steps, "stopped", None, "the time ran out")
        case = cases.next(masks, deadline)
        if case is not None:
            found, masks = case
            steps.extend(found)
            if stop_at_first_fix and _cut_at_first_fix(steps):
                return Explanation(puzzle, steps, "stopped", None, "stopped at the first cell fixed")
            continue
        forced = solver_forced(puzzle, board, masks, asker)
        if isinstance(forced, Explanation):
            forced.steps[:0] = steps
            return forced
        step, masks = forced
        steps.append(step)
        if stop_at_first_fix and step.cells:
            return Explanation(puzzle, steps, "stopped", None, "stopped at the first cell fixed")


def _cut_at_first_fix(steps: list[Step]) -> bool:
    for i, step in enumerate(steps):
        if step.cells:
            del steps[i + 1 :]
            return True
    return False


def _finished(puzzle: Puzzle, steps: list[Step]) -> Explanation:
    grid = replay(puzzle, steps)
    problems = check_solution(puzzle.cells, grid)
    if problems:  # the rules are sound: this is a bug, never an answer
        raise AssertionError(f"{puzzle.source}: the explained grid fails the checker: {problems[0]}")
    return Explanation(puzzle, steps, "solved", grid)


def replay(puzzle: Puzzle, steps: Sequence[Step]) -> Grid:
    """The clues with every step's proven cells written in, in order (0 where none is); a cell
    written twice with different numbers raises ``ValueError``."""
    grid = [list(row) for row in puzzle.cells]
    for i, step in enumerate(steps, 1):
        for r, c, v in step.cells:
            if grid[r][c] not in (0, v):
                raise ValueError(f"step {i} writes {v} at {name((r, c))}, which holds {grid[r][c]}")
            grid[r][c] = v
    return tuple(tuple(row) for row in grid)


def solver_forced(
    puzzle: Puzzle, board: Board, masks: list[Mask], solver: _Solver
) -> tuple[Step, list[Mask]] | Explanation:
    """No short case split: one cell from the solver's proof that the solution is unique (or
    the end of the explanation, when it is not unique or the time ran out)."""
    found = solver.result()
    if found.status != "unique":
        status = {"none": "no-solution", "multiple": "multiple"}.get(found.status, "stopped")
        message = {
            "none": "the solver proves there is no solution",
            "multiple": "the puzzle has more than one solution, and the rules fix no more cells",
        }.get(found.status, found.message)
        return Explanation(puzzle, [], status, None, message)
    solution = found.solution
    assert solution is not None  # a unique answer comes with its solution (ask_solver)
    _, x = min((m.bit_count(), x) for x, m in enumerate(masks) if not is_single(m))
    r, c = divmod(x, board.width)
    v = solution[r][c]
    new = list(masks)
    new[x] = bit(v)
    text = (
        f"no case split, whichever step or nested split is closed by the rules within "
        f"{CASE_TRIALS + NESTED_TRIALS} tries; the solver proves the puzzle has exactly one solution, and in it "
        f"{name((r, c))} is {v}"
    )
    return Step("solver-forced", [(r, c, v)], [], [], text), new


# -- hints ------------------------------------------------------------------------------------


@dataclass
class Hint:
    """A hint: the wrong cells of the player's progress, or the next step (or neither: done)."""

    puzzle: Puzzle
    wrong_cells: list[tuple[int, int]] = field(default_factory=list)
    step: Step | None = None
    status: str = "step"
    """``wrong`` (cells are wrong), ``step`` (a next step), ``solved`` (progress complete and
    right), ``no-solution`` (no solution agrees with the progress), ``multiple`` (no step: the
    puzzle is not unique and nothing more is forced), ``stopped``."""
    message: str = ""
    unique: bool | None = None
    """Has the puzzle exactly one solution (the solver's proof), None when not settled. A step
    of a puzzle that is not unique holds in every solution, and the text says the puzzle is not
    unique."""

    def as_dict(self) -> dict:
        out: dict[str, object] = {
            "puzzle": self.puzzle.source,
            "status": self.status,
            "wrong_cells": [list(c) for c in self.wrong_cells],
            "message": self.message,
            "unique": self.unique,
        }
        if self.step is not None:
            out["step"] = self.step.as_dict()
        return out

    def text(self) -> str:
        if self.status == "wrong":
            return (
                f"{self.puzzle.source}: {len(self.wrong_cells)} wrong "
                f"{'cell' if len(self.wrong_cells) == 1 else 'cells'}: "
                f"{', '.join(name(c) for c in self.wrong_cells)}\n"
            )
        if self.step is not None:
            return f"{self.puzzle.source}: next step [{self.step.rule}] {self.step.text}\n" + (
                f"{self.puzzle.source}: {NOT_UNIQUE}\n" if self.unique is False else ""
            )
        return f"{self.puzzle.source}: {self.status}" + (f" ({self.message})" if self.message else "") + "\n"


NOT_UNIQUE = "the puzzle is not unique (more than one solution); this step holds in every one of them"
"""What a hint of a puzzle with several solutions says."""


def check_progress(puzzle: Puzzle, progress: Grid) -> None:
    """A progress grid must have the puzzle's shape and keep its clues."""
    if len(progress) != puzzle.height or any(len(row) != puzzle.width for row in progress):
        raise InputError(
            f"the progress grid is {len(progress)}x{len(progress[0]) if progress else 0}, "
            f"the puzzle {puzzle.height}x{puzzle.width}"
        )


def hint(
    puzzle: Puzzle, progress: Grid | None = None, *, deadline: float | None = None, solver: str = DEFAULT_SOLVER
) -> Hint:
    """A hint for a player (module text). ``progress`` has the puzzle's shape; 0 = not filled;
    a clue cell may hold its clue or 0."""
    if progress is None:
        progress = puzzle.cells
    check_progress(puzzle, progress)
    found = ask_solver(puzzle, solver, deadline)
    if found.status == "unique":
        solution = found.solution
        assert solution is not None  # a unique answer comes with its solution (ask_solver)
        wrong = [(r, c) for r, row in enumerate(progress) for c, v in enumerate(row) if v and v != solution[r][c]]
        if wrong:
            return Hint(puzzle, wrong, None, "wrong", unique=True)
    else:
        clash = [(r, c) for r, c, v in puzzle.clues() if progress[r][c] not in (0, v)]
        if clash:  # a changed clue is wrong whatever the solution
            return Hint(puzzle, clash, None, "wrong")
    unique = {"unique": True, "multiple": False}.get(found.status)
    merged = tuple(tuple(v or p for v, p in zip(crow, prow)) for crow, prow in zip(puzzle.cells, progress))
    given = Puzzle(puzzle.height, puzzle.width, merged, puzzle.source)
    # the player's numbers are the solution's: the puzzle with them has the same unique solution
    known = found if found.status == "unique" else None
    if given.empty_cells == 0:
        ok = not check_solution(puzzle.cells, merged)
        return Hint(
            puzzle,
            [],
            None,
            "solved" if ok else "no-solution",
            "" if ok else "the filled grid is not a solution",
            unique,
        )
    path = explain(given, deadline=deadline, stop_at_first_fix=True, solver=solver, known=known)
    fixing = [s for s in path.steps if s.cells]
    if fixing:
        return Hint(puzzle, [], fixing[0], "step", NOT_UNIQUE if unique is False else "", unique)
    if path.status == "no-solution":
        return Hint(puzzle, [], None, "no-solution", "no solution agrees with the numbers filled in", unique)
    return Hint(puzzle, [], None, path.status, path.message, unique)


__all__ = ["Explanation", "Hint", "STATUSES", "explain", "hint", "replay"]
