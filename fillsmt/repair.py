"""Making a puzzle unique: the fewest clues to add, the clues that conflict, the clues not needed.

For any kind with uniqueness (Fillomino, BlockNumber); everything is decided by a real solver
and every grid is checked by the kind's independent checker.

:func:`repair` — a puzzle with several solutions gets the fewest clues, each taken from one
solution S, after which S is its only solution (the fewest over every choice of S). A
counterexample-guided loop: z3's optimizer (the *choice*) picks a solution S of the puzzle and
the fewest cells C such that every solution G found so far is S or differs from S in a cell of
C; a solver session (the *check*) then asks for a solution with S's numbers at C that is not S.
``unsat`` proves C enough; a ``sat`` model is a new G (decoded and checked) for the choice.
Since the choice is an exact minimum over all solutions consistent with what is known, the
first C the check accepts is a minimum (any smaller set would be consistent with some G that
the choice knows, or would have been chosen). A fresh solver session then proves the repaired
puzzle unique once more. A puzzle with no solution gets instead an unsatisfiable core: its clues are
sent as named assertions over the clue-free puzzle and the solver's ``get-unsat-core`` names
the ones that conflict; the core is then shrunk, clue by clue, to one in which every clue is
needed (each removal checked).

:func:`minimize` — remove clues, in row-major order, while the solution stays the only one
(each question asked of the kind's uniqueness oracle, as the generator does, after it has proved
the whole clue set unique, so that a second solution must differ at the removed clue); every clue left
is needed, since removing it from a larger set already gave a second solution. With
``keep_rated`` (Fillomino) a clue also stays when removing it would change the label of
``fillsmt rate``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.errors import EXIT_UNKNOWN, FillsmtError, InputError, OracleUndecided
from fillsmt.smtlib.answer import Status
from fillsmt.solutions import Search

Placed = tuple[int, int, int]
Grid = tuple[tuple[int, ...], ...]


class RepairUndecided(FillsmtError):
    """The solver gave no answer (time-out or unknown) before the question was settled."""

    exit_code = EXIT_UNKNOWN


def _undecided_on_timeout(work):
    """Run ``work()``; a session's time-out becomes :class:`RepairUndecided`."""
    try:
        return work()
    except SessionTimeout as e:
        raise RepairUndecided(f"the solver ran out of time ({e})") from None


# -- the kinds, as far as clues are concerned ------------------------------------------------

def _kind(puzzle: Any):
    from fillsmt.registry import kind_of

    kind = kind_of(puzzle)
    if not kind.clue_encoding:
        raise InputError(f"{puzzle.source}: {kind.name} puzzles have no clues to add or remove")
    return kind


def clues_of(puzzle: Any) -> list[Placed]:
    """The puzzle's clues (givens) as (row, col, number), row by row."""
    return _kind(puzzle).clues(puzzle)


def with_clues(puzzle: Any, clues: list[Placed]) -> Any:
    """The same puzzle with exactly ``clues`` as its clues."""
    return _kind(puzzle).with_clues(puzzle, clues)


def cell_is(puzzle: Any, r: int, c: int, v: int) -> str:
    """The SMT-LIB term "cell (r, c) holds v" under the kind's clue encoding."""
    return _kind(puzzle).cell_is(puzzle, r, c, v)


def _search(puzzle: Any, driver: Driver, deadline: float | None) -> Search:
    """An open session over ``puzzle`` (its clues included) under the kind's clue encoding."""
    kind = _kind(puzzle)
    script = kind.encode(puzzle, kind.clue_encoding)
    search = Search(kind.problem(puzzle, script, kind.clue_encoding, driver.name), driver.open_session(), deadline)
    search.start()
    return search


def _settled(status: Status, what: str) -> Status:
    if status not in (Status.SAT, Status.UNSAT):
        raise RepairUndecided(f"the solver answered {status.value} while {what}")
    return status


# -- repair ------------------------------------------------------------------------------------

@dataclass
class Repair:
    """What :func:`repair` found. ``status``: ``unique`` (nothing to add), ``repaired``
    (``added`` makes ``solution`` the only solution of ``puzzle``), or ``no-solution``
    (``core``: clues that cannot all hold, each of them needed)."""

    puzzle: Any
    status: str
    added: list[Placed] = field(default_factory=list)
    repaired: Any = None
    solution: Grid | None = None
    core: list[Placed] = field(default_factory=list)
    counterexamples: int = 0
    checks: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"puzzle": self.puzzle.source, "status": self.status,
                "added_clues": [list(p) for p in self.added],
                "core": [list(p) for p in self.core],
                "counterexamples": self.counterexamples, "checks": self.checks,
                "seconds": round(self.seconds, 4)}


class _Choice:
    """The outer problem, in z3's optimizer: a solution S of the puzzle and clue cells C, with
    the fewest cells, such that every solution G found so far is S itself or differs from S in
    a cell of C."""

    def __init__(self, puzzle: Any, script):
        import z3

        from fillsmt.smtlib.script import script_body

        self.z3, self.puzzle = z3, puzzle
        self.opt = z3.Optimize()
        self.opt.add(z3.parse_smt2_string(script_body(script, False)))
        clued = {(r, c) for r, c, _ in clues_of(puzzle)}
        self.cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
        self.open = [cell for cell in self.cells if cell not in clued]
        kind = _kind(puzzle)
        self.value = {cell: z3.Int(kind.cell_var(puzzle, *cell)) for cell in self.cells}
        self.pick = {cell: z3.Bool(f"pick_{cell[0]}_{cell[1]}") for cell in self.open}
        self.opt.minimize(z3.Sum([z3.If(p, 1, 0) for p in self.pick.values()]))

    def exclude(self, other: Grid) -> None:
        z3, v = self.z3, self.value
        same = z3.And([v[(r, c)] == other[r][c] for r, c in self.cells])
        told = z3.Or([z3.And(self.pick[(r, c)], v[(r, c)] != other[r][c]) for r, c in self.open])
        self.opt.add(z3.Or(same, told))

    def best(self) -> tuple[Grid, list[tuple[int, int]]]:
        if self.opt.check() != self.z3.sat:
            raise FillsmtError(f"{self.puzzle.source}: no solution and clue set is left to choose (a bug)")
        model = self.opt.model()
        grid = tuple(tuple(model.eval(self.value[(r, c)], model_completion=True).as_long()
                           for c in range(self.puzzle.width)) for r in range(self.puzzle.height))
        return grid, [cell for cell in self.open if self.z3.is_true(model.eval(self.pick[cell]))]


def repair(puzzle: Any, driver: Driver, timeout: float | None = None) -> Repair:
    """Repair ``puzzle`` (module text) with ``driver``'s solver; ``timeout`` bounds the whole
    (:class:`RepairUndecided` when it runs out)."""
    return _undecided_on_timeout(lambda: _repair(puzzle, driver, timeout))


def _repair(puzzle: Any, driver: Driver, timeout: float | None) -> Repair:
    _kind(puzzle)
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    search = _search(puzzle, driver, deadline)
    try:
        status = _settled(search.check(), "looking for a solution")
        if status is Status.UNSAT:
            result = Repair(puzzle, "no-solution", core=unsat_core(puzzle, driver, deadline))
        else:
            result = _add_clues(puzzle, search, search.model().grid)
    finally:
        search.session.close()
    result.seconds = time.monotonic() - start
    if result.status == "repaired":
        _prove_unique(result.repaired, result.solution, driver, deadline)
    return result


def _add_clues(puzzle: Any, search: Search, first: Grid) -> Repair:
    """The loop of the module text: the fewest clues over every solution, proven by ``unsat``."""
    choice = _Choice(puzzle, search.problem.script)
    solution, chosen, found = first, [], 0
    while True:
        other = _other_solution(puzzle, search, solution, chosen)
        if other is None:
            break
        found += 1
        choice.exclude(other)
        if found == 1:
            choice.exclude(solution)
        solution, chosen = choice.best()
        problems = search.problem.check(solution)
        if problems:
            raise FillsmtError(f"z3's chosen solution fails the independent check: {problems[0]}")
    added = sorted((r, c, solution[r][c]) for r, c in chosen)
    if not added:
        return Repair(puzzle, "unique", solution=solution, checks=search.checks)
    repaired = with_clues(puzzle, sorted(clues_of(puzzle) + added))
    return Repair(puzzle, "repaired", added, repaired, solution, counterexamples=found,
                  checks=search.checks)


def _other_solution(puzzle: Any, search: Search, solution: Grid, chosen: list[tuple[int, int]]
                    ) -> Grid | None:
    """A solution of the puzzle with ``solution``'s numbers at ``chosen`` that is not
    ``solution`` (checked), or None when the solver proves there is none."""
    session = search.session
    session.push(search._remaining())
    for r, c in chosen:
        session.assert_term(cell_is(puzzle, r, c, solution[r][c]), search._remaining())
    differ = [f"(not {cell_is(puzzle, r, c, v)})" for r, row in enumerate(solution) for c, v in enumerate(row)]
    session.assert_term(f"(or {' '.join(differ)})" if len(differ) > 1 else differ[0], search._remaining())
    status = _settled(search.check(), "checking the clues chosen")
    other = search.model().grid if status is Status.SAT else None  # checked against the clues
    session.pop(search._remaining())
    if other is not None and (other == solution or any(other[r][c] != solution[r][c] for r, c in chosen)):
        raise FillsmtError("the solver's model breaks the assertions it was given")
    return other


def _prove_unique(puzzle: Any, solution: Grid, driver: Driver, deadline: float | None) -> None:
    """A fresh session: ``solution`` solves ``puzzle`` and nothing else does."""
    search = _search(puzzle, driver, deadline)
    try:
        status, found = search.next_solution()
        if _settled(status, "proving the repair") is not Status.SAT or found.grid != solution:
            raise FillsmtError(f"{puzzle.source}: the repaired puzzle does not have the chosen solution")
        if _settled(search.check(), "proving the repair") is not Status.UNSAT:
            raise FillsmtError(f"{puzzle.source}: the repaired puzzle is not unique (a bug)")
    finally:
        search.session.close()


# -- unsatisfiable cores -------------------------------------------------------------------------

def _clue_name(r: int, c: int) -> str:
    return f"clue_{r}_{c}"


def unsat_core(puzzle: Any, driver: Driver, deadline: float | None = None) -> list[Placed]:
    """Clues of ``puzzle`` that cannot all hold, each one needed (module text). The clue-free
    puzzle is encoded with every number up to the board's size allowed (Fillomino) or its
    blocks (BlockNumber), so the core owes nothing to bounds derived from the other clues."""
    _kind(puzzle)
    clues = {(r, c): v for r, c, v in clues_of(puzzle)}
    session = driver.open_session()
    remaining = (lambda: None) if deadline is None else (lambda: max(0.001, deadline - time.monotonic()))
    try:
        session.send("(set-option :produce-unsat-cores true)\n", remaining())
        session.load(_kind(puzzle).clue_free_script(puzzle), remaining())

        def core_of(cells: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
            session.push(remaining())
            for r, c in cells:
                session.send(f"(assert (! {cell_is(puzzle, r, c, clues[(r, c)])} :named {_clue_name(r, c)}))\n",
                             remaining())
            status = _settled(session.check(remaining()), "looking for conflicting clues")
            core = None
            if status is Status.UNSAT:
                named = {_clue_name(r, c): (r, c) for r, c in cells}
                core = sorted(named[n] for n in session.get_unsat_core(remaining()))
            session.pop(remaining())
            return core

        core = core_of(sorted(clues))
        if core is None:
            raise FillsmtError(f"{puzzle.source}: the clues are consistent on their own; the puzzle "
                               "has a solution")
        for cell in list(core):
            if cell in core:
                smaller = core_of([x for x in core if x != cell])
                if smaller is not None:
                    core = smaller
    finally:
        session.close()
    return [(r, c, clues[(r, c)]) for r, c in core]


# -- minimize ------------------------------------------------------------------------------------

@dataclass
class Minimized:
    """What :func:`minimize` kept and removed; ``puzzle`` is the minimized puzzle."""

    original: Any
    puzzle: Any
    solution: Grid
    removed: list[Placed]
    label: str | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"puzzle": self.original.source, "removed_clues": [list(p) for p in self.removed],
                "clues_before": len(clues_of(self.original)), "clues_after": len(clues_of(self.puzzle)),
                "label": self.label, "seconds": round(self.seconds, 4)}


def minimize(puzzle: Any, driver: Driver, *, keep_rated: bool = False, timeout: float | None = None) -> Minimized:
    """Minimize ``puzzle``'s clues (module text). The puzzle must have exactly one solution;
    ``timeout`` bounds the whole (:class:`RepairUndecided` when it runs out)."""
    return _undecided_on_timeout(lambda: _minimize(puzzle, driver, keep_rated, timeout))


def _minimize(puzzle: Any, driver: Driver, keep_rated: bool, timeout: float | None) -> Minimized:
    _kind(puzzle)
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    solution = _unique_solution(puzzle, driver, deadline)
    kind = _kind(puzzle)
    label = kind.rating_label(puzzle) if keep_rated else None
    kept = clues_of(puzzle)
    removed: list[Placed] = []
    unique = kind.uniqueness_oracle(driver, deadline)
    try:
        # the oracle remembers the clue sets it proved unique: with the whole set proved first,
        # a second solution of the set without one clue must differ from the solution at that
        # clue, which makes each question a small one (the generator's questions are the same)
        if not unique(puzzle, solution):
            raise FillsmtError(f"{puzzle.source}: the uniqueness oracle disagrees with the solver (a bug)")
        for clue in list(kept):
            trial = with_clues(puzzle, [k for k in kept if k != clue])
            try:
                if not unique(trial, solution):
                    continue
            except OracleUndecided as e:
                raise RepairUndecided(f"{puzzle.source}: {e}") from None
            if keep_rated and kind.rating_label(trial) != label:
                continue
            kept.remove(clue)
            removed.append(clue)
    finally:
        unique.close()
    return Minimized(puzzle, with_clues(puzzle, kept), solution, removed, label, time.monotonic() - start)


def _unique_solution(puzzle: Any, driver: Driver, deadline: float | None) -> Grid:
    search = _search(puzzle, driver, deadline)
    try:
        status, found = search.next_solution()
        if _settled(status, "looking for a solution") is Status.UNSAT:
            raise InputError(f"{puzzle.source}: the puzzle has no solution, so no clue can be removed "
                             "(fillsmt repair names the clues that conflict)")
        if _settled(search.check(), "checking uniqueness") is Status.SAT:
            raise InputError(f"{puzzle.source}: the puzzle has more than one solution; minimize needs a "
                             "unique one (fillsmt repair adds the clues it lacks)")
        return found.grid
    finally:
        search.session.close()


__all__ = ["Minimized", "Repair", "RepairUndecided", "cell_is", "clues_of", "min_hitting_set",
           "minimize", "repair", "unsat_core", "with_clues"]
