"""Making a puzzle unique: clues to add, the clues that conflict, the clues not needed.

For any kind with uniqueness (Fillomino, BlockNumber); everything is decided by a real solver in
incremental solvers (never an optimiser, so a signal or a time limit stops every stage at once),
and every grid is checked by the kind's independent checker.

:func:`repair` — a puzzle with several solutions gets clues, each the number of one solution S in
one of its empty cells, after which S is its only solution; as few as the time allows, in two
stages.

1. *The fewest for one solution.* Every other solution G met differs from S on a set of cells
   D(G); S's numbers exclude G exactly when they are given at a cell of D(G). The smallest set of
   cells that meets every D(G) met so far (an exact branch-and-bound over these few sets,
   :func:`~fillsmt.setter.hitting_sets.fewest_cells`) is put to the *check* solver: a solution
   with S's numbers there that is not S? ``unsat`` proves the cells enough, and no smaller set of
   S's numbers is (each misses some D(G) and so lets G in); a model is a new G. Each G is first
   *narrowed*: while some solution agrees with S outside D(G) and differs from S on fewer of its
   cells, that one is taken instead, so that every D(G) is small and each question rules out much.
2. *Fewer with another solution.* The *choice* solver holds the puzzle a second time, with one
   Boolean per empty cell (a clue goes there), and asks for a solution S' and at most m clue
   cells that tell S' from every solution known (each one is S' or differs from it at a clue
   cell) and that meet every swap's cells where the swap applies (below); m is the fewest clues
   not yet ruled out, from 1 up, so the solutions proposed are those that the least known
   ambiguity touches. Each S' proposed is explored as in stage 1, until its cells are fewer than
   the best repair's k (a better repair) or its D(G) need k cells. ``unsat`` proves that every
   repair needs more than m clues; once m reaches k, the best repair is the fewest over every
   solution. When the time limit comes first, the best repair found stands, marked as not proven
   the fewest, with the fewest clues proven needed so far.

A *swap* is what a narrowed G teaches: the cells D where it differs from its S and its numbers
there. Put into any other solution that agrees with S on D, it gives a grid which, when it passes
the kind's checker, is one more solution, differing exactly on D: stage 1 on a new solution starts
from every swap that applies to it, without asking a solver. A kind that can name a swap's
*context* (:meth:`fillsmt.protocol.Clues.swap_context`: cells on which every solution that agrees with
S there takes the swap) lets the choice learn the swap itself: a solution that agrees with S on
the context needs a clue in D. Every swap also goes the other way, from G's numbers on D to S's.

With the setter's solution (``solution``), stage 1 alone runs for it: the clues added are the
fewest of its numbers (proven), and the lower bound is that count. A kind may name solutions to
try first (:meth:`~fillsmt.protocol.Clues.first_tries`: Fillomino's one region of H*W cells,
for a grid whose clues allow it): stage 1 starts from that one, its questions settled by the
kind's uniqueness oracle first, so that an empty grid ends with one clue, proven the fewest
(no unique puzzle has none, as its solutions are several).

The repaired puzzle is then proven unique once more by a fresh solver, when the time limit
leaves room for it (the check solver's ``unsat`` already proved it). A puzzle with no solution
gets instead an unsatisfiable core: its clues are sent as named assertions over the clue-free
puzzle and the solver's ``get-unsat-core`` names the ones that conflict; the core is then shrunk,
clue by clue, to one in which every clue is needed (each removal checked).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine.solutions import Search
from fillsmt.errors import FillsmtError, InputError, OracleUndecided
from fillsmt.setter.clues import (
    Cell,
    Grid,
    Placed,
    RepairUndecided,
    cell_is,
    clue_kind,
    clues_of,
    open_search,
    remaining,
    settled,
    undecided_on_timeout,
    with_clues,
)
from fillsmt.setter.conflicts import unsat_core
from fillsmt.setter.hitting_sets import OutOfTime, fewest_cells
from fillsmt.smtlib.status import Status


class _Stop(Exception):
    """The search for fewer clues ends here (its deadline passed, or the solver did not answer)."""


DEFAULT_TIMEOUT = 60.0
"""Seconds ``fillsmt repair`` and ``fillsmt minimize`` run without ``--timeout``: repairing a
10x10 puzzle that lost a few clues takes seconds to find a repair and can take far longer to
prove no solution needs fewer clues."""

PROOF_SHARE = 0.2
"""At most this share of a time limit is kept back from the search for fewer clues for the
fresh solver that proves the repair unique once more."""

PROOF_ROOM = 3.0
"""The time kept back for that proof, as a multiple of the longest proof so far (the check
solver's ``unsat`` answers), and at least a second."""


NARROW_FIRST = 2
"""The cells the first narrowing question allows a second solution to change (module text)."""


TIME_LIMIT = "the time limit came"
"""What a result stopped by its time limit says stopped it."""


# -- repair ------------------------------------------------------------------------------------


@dataclass
class Repair:
    """What :func:`repair` found. ``status``: ``unique`` (nothing to add), ``repaired``
    (``added`` makes ``solution`` the only solution of ``puzzle``), or ``no-solution``
    (``core``: clues that cannot all hold, each of them needed). A repair's ``fewest_proven``
    says that no solution becomes unique with fewer added clues; without it, ``added`` is the
    fewest of ``solution``'s numbers that make it unique, ``at_least`` the fewest clues any
    repair is proven to need, and ``stopped`` says why the search for fewer ended (the time
    limit, or a solver's ``unknown``)."""

    puzzle: Any
    status: str
    added: list[Placed] = field(default_factory=list)
    repaired: Any = None
    solution: Grid | None = None
    core: list[Placed] = field(default_factory=list)
    counterexamples: int = 0
    checks: int = 0
    seconds: float = 0.0
    fewest_proven: bool = True
    at_least: int = 0
    stopped: str = ""
    solutions_tried: int = 0
    for_solution: bool = False
    """The setter gave the solution to keep: ``added`` is the fewest of its numbers (proven),
    and ``fewest_proven`` speaks of that solution only."""

    def as_dict(self) -> dict:
        return {
            "puzzle": self.puzzle.source,
            "status": self.status,
            "added_clues": [list(p) for p in self.added],
            "core": [list(p) for p in self.core],
            "fewest_proven": self.fewest_proven if self.status != "no-solution" else None,
            "fewest_at_least": self.at_least if self.status == "repaired" else None,
            "stopped": self.stopped or None,
            "counterexamples": self.counterexamples,
            "checks": self.checks,
            "solutions_tried": self.solutions_tried,
            "for_solution": self.for_solution,
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class _Swap:
    """What one narrowed counterexample teaches (module text): ``base``, a solution; ``cells``,
    where another solution differs from it; ``numbers``, that solution's numbers there; and
    ``context``, the kind's cells on which agreeing with ``base`` makes the swap apply to any
    solution (None when the kind names none)."""

    base: Grid
    cells: tuple[Cell, ...]
    numbers: tuple[int, ...]
    context: frozenset[Cell] | None

    def onto(self, grid: Grid) -> Grid | None:
        """``grid`` with the swap's numbers at its cells, when ``grid`` agrees with ``base``
        there (else None); a solution only if the kind's checker says so."""
        if any(grid[r][c] != self.base[r][c] for r, c in self.cells):
            return None
        rows = [list(row) for row in grid]
        for (r, c), v in zip(self.cells, self.numbers):
            rows[r][c] = v
        return tuple(tuple(row) for row in rows)

    @property
    def other(self) -> Grid:
        """The solution the swap was learnt from."""
        grid = self.onto(self.base)
        assert grid is not None
        return grid


def _differing(a: Grid, b: Grid) -> tuple[Cell, ...]:
    return tuple((r, c) for r, row in enumerate(a) for c, v in enumerate(row) if b[r][c] != v)


class _Checks:
    """The check solver's questions about one solution at a time (module text)."""

    def __init__(self, puzzle: Any, search: Search):
        self.puzzle, self.search = puzzle, search
        self.kind = clue_kind(puzzle)
        self.found = 0  # other solutions the solver gave
        self.longest_proof = 0.0  # seconds of the slowest "no other solution" answer

    def _ask(self, terms: list[str], what: str) -> Grid | None:
        """A (checked) solution of the puzzle with ``terms`` asserted, or None when the solver
        proves there is none; the assertions go again with the scope."""
        search, solver = self.search, self.search.session
        solver.push(search._remaining())
        for term in terms:
            solver.assert_term(term, search._remaining())
        status = settled(search.check(), what)
        found = search.model().grid if status is Status.SAT else None
        solver.pop(search._remaining())
        if found is not None:
            self.found += 1
        return found

    def is_(self, solution: Grid, cell: Cell) -> str:
        return cell_is(self.puzzle, cell[0], cell[1], solution[cell[0]][cell[1]])

    def other(self, solution: Grid, cells: list[Cell]) -> Grid | None:
        """A solution with ``solution``'s numbers at ``cells`` that is not ``solution``, or None
        when the solver proves there is none."""
        every = [(r, c) for r in range(self.puzzle.height) for c in range(self.puzzle.width)]
        differ = [f"(not {self.is_(solution, x)})" for x in every]
        terms = [self.is_(solution, x) for x in cells] + [f"(or {' '.join(differ)})" if len(differ) > 1 else differ[0]]
        started = time.monotonic()
        other = self._ask(terms, "checking the clues chosen")
        if other is None:
            self.longest_proof = max(self.longest_proof, time.monotonic() - started)
        if other is not None and (other == solution or any(other[r][c] != solution[r][c] for r, c in cells)):
            raise FillsmtError("the solver's model breaks the assertions it was given")
        return other

    def narrowed(self, solution: Grid, other: Grid) -> Grid:
        """``other``, or a solution differing from ``solution`` on fewer of the same cells (and
        nowhere else), until none does (module text). Most narrowed solutions differ on two
        cells, so the first question asks for at most :data:`NARROW_FIRST` of them."""
        first = True
        while True:
            cells = _differing(solution, other)
            if len(cells) <= 1:
                return other
            most = NARROW_FIRST if first and len(cells) > NARROW_FIRST + 1 else len(cells) - 1
            first = False
            outside = set(cells)
            same = [
                self.is_(solution, (r, c))
                for r in range(self.puzzle.height)
                for c in range(self.puzzle.width)
                if (r, c) not in outside
            ]
            changed = " ".join(f"(ite {self.is_(solution, x)} 0 1)" for x in cells)
            fewer = f"(and (<= 1 (+ {changed})) (<= (+ {changed}) {most}))"
            smaller = self._ask(same + [fewer], "narrowing a second solution")
            if smaller is None:
                if most < len(cells) - 1:
                    continue
                return other
            if smaller == solution or not set(_differing(solution, smaller)) < outside:
                raise FillsmtError("the solver's model breaks the assertions it was given")
            other = smaller


class _Choice:
    """The choice solver (module text): a solution and at most k clue cells that tell it from
    every solution and swap known."""

    def __init__(self, puzzle: Any, script, driver: Driver, deadline: float | None):
        kind = clue_kind(puzzle)
        self.puzzle, self.kind, self.deadline = puzzle, kind, deadline
        clued = {(r, c) for r, c, _ in clues_of(puzzle)}
        self.cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
        self.open = [cell for cell in self.cells if cell not in clued]
        self.value = {cell: kind.cell_var(puzzle, *cell) for cell in self.cells}
        self.mark = {cell: f"repair_clue_{cell[0]}_{cell[1]}" for cell in self.open}
        self.solver = driver.open_session()
        try:
            self.solver.load(script, remaining(deadline))
            self.solver.send("".join(f"(declare-fun {m} () Bool)\n" for m in self.mark.values()), remaining(deadline))
        except BaseException:  # a time-out, a signal: the solver goes with it
            self.solver.close()
            raise
        self.checks = 0
        self.known: set[Grid] = set()

    def close(self) -> None:
        self.solver.close()

    def _is(self, cell: Cell, number: int) -> str:
        return cell_is(self.puzzle, cell[0], cell[1], number)

    def know(self, solution: Grid) -> None:
        """Every solution proposed from now on is ``solution`` or differs from it at a clue cell."""
        if solution in self.known:
            return
        self.known.add(solution)
        same = " ".join(self._is(x, solution[x[0]][x[1]]) for x in self.cells)
        told = " ".join(f"(and {self.mark[x]} (not {self._is(x, solution[x[0]][x[1]])}))" for x in self.open)
        self.solver.send(f"(assert (or (and {same}) {told}))\n", remaining(self.deadline))

    def swap(self, swap: _Swap) -> None:
        """A solution proposed that agrees with the swap's base on its context has a clue
        cell among the swap's cells (nothing is learnt from a swap without a context)."""
        if swap.context is None:
            return
        agree = " ".join(self._is(x, swap.base[x[0]][x[1]]) for x in sorted(swap.context))
        marks = " ".join(self.mark[x] for x in swap.cells if x in self.mark)
        self.solver.send(f"(assert (=> (and true {agree}) (or false {marks})))\n", remaining(self.deadline))

    def propose(self, most: int) -> tuple[Grid, list[Cell]] | None:
        """A solution and at most ``most`` clue cells consistent with what was learnt, or None
        when the solver proves there are none."""
        solver = self.solver
        total = " ".join(f"(ite {m} 1 0)" for m in self.mark.values())
        solver.push(remaining(self.deadline))
        solver.assert_term(f"(<= (+ 0 {total}) {most})", remaining(self.deadline))
        self.checks += 1
        status = solver.check(remaining(self.deadline))
        if status is Status.TIMEOUT:
            raise _Stop(TIME_LIMIT)
        if status not in (Status.SAT, Status.UNSAT):
            raise _Stop(f"the solver answered {status.value} while choosing a solution")
        values = None
        if status is Status.SAT:
            values = solver.get_values([*self.value.values(), *self.mark.values()], timeout=remaining(self.deadline))
        solver.pop(remaining(self.deadline))
        if values is None:
            return None
        try:
            grid = tuple(
                tuple(int(values[self.value[(r, c)]]) for c in range(self.puzzle.width))
                for r in range(self.puzzle.height)
            )
        except (KeyError, TypeError, ValueError) as e:
            raise FillsmtError(f"{solver.name} gave an unreadable value while choosing a solution: {e}") from None
        problems = self.kind.check(self.puzzle, grid)
        if problems:
            raise FillsmtError(f"{solver.name}'s chosen solution fails the independent check: {problems[0]}")
        return grid, [x for x in self.open if values[self.mark[x]] is True]


class _Repairer:
    """The two stages of the module text over one puzzle, with its check solver."""

    def __init__(self, puzzle: Any, search: Search, deadline: float | None, driver: Driver | None = None):
        self.puzzle, self.search, self.deadline = puzzle, search, deadline
        self.driver = driver
        self.kind = clue_kind(puzzle)
        self.checks = _Checks(puzzle, search)
        self.swaps: list[_Swap] = []
        self.choice: _Choice | None = None
        self.tried = 0

    def _learn(self, solution: Grid, other: Grid) -> _Swap:
        """The swap from ``solution`` to ``other``, and the one back (both are solutions, so
        each direction is a swap of its own), kept and taught to the choice solver."""
        cells = _differing(solution, other)
        made = []
        for a, b in ((solution, other), (other, solution)):
            context = self.kind.swap_context(self.puzzle, a, b)
            made.append(
                _Swap(a, cells, tuple(b[r][c] for r, c in cells), None if context is None else frozenset(context))
            )
        self.swaps.extend(made)
        if self.choice is not None:
            self.choice.know(other)
            for swap in made:
                self.choice.swap(swap)
        return made[0]

    def fewest(self, solution: Grid, most: int | None = None, narrow: bool = True) -> list[Cell] | None:
        """Stage 1 for ``solution``: its fewest clue cells, or None once they would be more
        than ``most``. ``narrow``: narrow each other solution found (not for a kind's first try,
        :meth:`~fillsmt.protocol.Clues.first_tries`, where the solver may find it hard to show
        that no solution differs on fewer cells, and a single clue is what is looked for)."""
        self.tried += 1
        sets = []
        for swap in self.swaps:
            grid = swap.onto(solution)
            if grid is not None and not self.kind.check(self.puzzle, grid):
                sets.append(swap.cells)
                if self.choice is not None:
                    self.choice.know(grid)
        while True:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Stop(TIME_LIMIT)
            cells = fewest_cells(sets, self.deadline)
            if most is not None and len(cells) > most:
                return None
            if not narrow and self.proven_by_oracle(solution, cells):
                return cells
            other = self.checks.other(solution, cells)
            if other is None:
                return cells
            if narrow:
                other = self.checks.narrowed(solution, other)
            sets.append(self._learn(solution, other).cells)

    def proven_by_oracle(self, solution: Grid, cells: list[Cell]) -> bool:
        """Does the kind's exact uniqueness oracle (its rules first, as ``generate`` asks it)
        prove ``solution`` the only one with its numbers at ``cells``? For a first try, where
        the plain solver may take long to show it."""
        if self.driver is None:
            return False
        trial = with_clues(self.puzzle, sorted(clues_of(self.puzzle) + [(r, c, solution[r][c]) for r, c in cells]))
        oracle = self.kind.uniqueness_oracle(self.driver, self.deadline)
        try:
            return bool(oracle(trial, solution))
        except OracleUndecided:
            return False
        finally:
            oracle.close()

    def fewer(self, best: tuple[Grid, list[Cell]], driver: Driver) -> tuple[tuple[Grid, list[Cell]], int, str]:
        """Stage 2 from the ``best`` repair: (the best repair, the fewest clues any repair is
        proven to need, why the search stopped before that met the best; "" when it did)."""
        low = 1  # the puzzle is not unique: every repair adds a clue
        try:
            self.choice = _Choice(self.puzzle, self.search.problem.script, driver, self.deadline)
            try:
                self.choice.know(best[0])
                for swap in self.swaps:
                    self.choice.know(swap.base)
                    self.choice.know(swap.other)
                    self.choice.swap(swap)
                while low < len(best[1]):
                    proposed = self.choice.propose(low)
                    if proposed is None:
                        low += 1
                        continue
                    solution = proposed[0]
                    self.choice.know(solution)
                    cells = self.fewest(solution, len(best[1]) - 1)
                    if cells is not None:
                        best = (solution, cells)
                return best, len(best[1]), ""
            finally:
                self.choice.close()
        except (_Stop, OutOfTime, RepairUndecided, SessionTimeout) as e:
            late = self.deadline is not None and time.monotonic() >= self.deadline
            return best, low, TIME_LIMIT if late or isinstance(e, SessionTimeout) else str(e)


def repair(puzzle: Any, driver: Driver, timeout: float | None = None, solution: Grid | None = None) -> Repair:
    """Repair ``puzzle`` (module text) with ``driver``'s solver; ``timeout`` bounds the whole:
    the best repair found by then is returned, marked as not proven the fewest, and
    :class:`RepairUndecided` is raised when no repair was proven unique by then. ``solution``
    (the setter's, checked to be one of the puzzle's): keep it, with the fewest of its numbers
    (stage 1 alone, so proven the fewest for it; ``for_solution`` is set)."""
    return undecided_on_timeout(lambda: _repair(puzzle, driver, timeout, solution))


def _repair(puzzle: Any, driver: Driver, timeout: float | None, solution: Grid | None = None) -> Repair:
    kind = clue_kind(puzzle)
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    if solution is not None:
        problems = kind.check(puzzle, solution)
        if problems:
            raise InputError(f"{puzzle.source}: --solution is not a solution of the puzzle: {problems[0]}")
    search = open_search(puzzle, driver, deadline)
    try:
        if solution is not None:
            result = _for_solution(puzzle, search, solution)
        else:
            status, first = search.solution()
            if settled(status, "looking for a solution") is Status.UNSAT:
                result = Repair(puzzle, "no-solution", core=unsat_core(puzzle, driver, deadline))
                result.checks = search.checks
            else:
                assert first is not None  # a SAT answer comes with its solution
                result = _add_clues(puzzle, search, first.grid, driver, deadline, timeout)
    finally:
        search.session.close()
    if result.status == "repaired" and result.solution is not None:
        try:
            _prove_unique(result.repaired, result.solution, driver, deadline)
        except (RepairUndecided, SessionTimeout):
            pass  # out of time for the second proof: the check solver's "unsat" proved it already
    result.seconds = time.monotonic() - start
    return result


def _for_solution(puzzle: Any, search: Search, solution: Grid) -> Repair:
    """Stage 1 for the setter's solution: its fewest numbers that make it the only solution."""
    repairer = _Repairer(puzzle, search, search.deadline)
    try:
        cells = repairer.fewest(solution)
    except (_Stop, OutOfTime) as e:
        raise RepairUndecided(f"{e} before a repair for the solution given was proven unique") from None
    assert cells is not None  # None only past a bound (``most``), and none is given here
    added = sorted((r, c, solution[r][c]) for r, c in cells)
    repaired = with_clues(puzzle, sorted(clues_of(puzzle) + added)) if added else None
    return Repair(
        puzzle,
        "repaired" if added else "unique",
        added,
        repaired,
        solution,
        counterexamples=repairer.checks.found,
        checks=search.checks,
        at_least=len(added),
        solutions_tried=1,
        for_solution=True,
    )


def _add_clues(
    puzzle: Any, search: Search, first: Grid, driver: Driver, deadline: float | None, timeout: float | None
) -> Repair:
    """The two stages of the module text from the solver's first solution; the second ends
    early enough to leave the final proof (:data:`PROOF_ROOM`) its time."""
    repairer = _Repairer(puzzle, search, deadline, driver)
    try:
        tries = [grid for grid in repairer.kind.first_tries(puzzle) if not repairer.kind.check(puzzle, grid)]
        if tries:
            first = tries[0]  # a solution the kind knows one clue can make unique
        fewest = repairer.fewest(first, narrow=not tries)
    except (_Stop, OutOfTime) as e:
        raise RepairUndecided(f"{e} before any repair was proven unique") from None
    assert fewest is not None  # None only past a bound (``most``), and none is given here
    cells = fewest
    solution, at_least, why = first, len(cells), ""
    if len(cells) > 1:  # one clue cannot be bettered
        if deadline is not None and timeout is not None:
            room = min(PROOF_SHARE * timeout, max(1.0, PROOF_ROOM * repairer.checks.longest_proof))
            repairer.deadline = search.deadline = deadline - room
        (solution, cells), at_least, why = repairer.fewer((first, cells), driver)
    added = sorted((r, c, solution[r][c]) for r, c in cells)
    checks = search.checks + (repairer.choice.checks if repairer.choice else 0)
    if not added:
        return Repair(
            puzzle,
            "unique",
            solution=solution,
            counterexamples=repairer.checks.found,
            checks=checks,
            solutions_tried=repairer.tried,
        )
    repaired = with_clues(puzzle, sorted(clues_of(puzzle) + added))
    return Repair(
        puzzle,
        "repaired",
        added,
        repaired,
        solution,
        fewest_proven=at_least == len(added),
        at_least=at_least,
        stopped=why,
        counterexamples=repairer.checks.found,
        checks=checks,
        solutions_tried=repairer.tried,
    )


def _prove_unique(puzzle: Any, solution: Grid, driver: Driver, deadline: float | None) -> None:
    """A fresh session: ``solution`` solves ``puzzle`` and nothing else does."""
    search = open_search(puzzle, driver, deadline)
    try:
        status, found = search.next_solution()
        if settled(status, "proving the repair") is not Status.SAT or found is None or found.grid != solution:
            raise FillsmtError(f"{puzzle.source}: the repaired puzzle does not have the chosen solution")
        if settled(search.check(), "proving the repair") is not Status.UNSAT:
            raise FillsmtError(f"{puzzle.source}: the repaired puzzle is not unique (a bug)")
    finally:
        search.session.close()


__all__ = [
    "DEFAULT_TIMEOUT",
    "Repair",
    "RepairUndecided",
    "cell_is",
    "clues_of",
    "fewest_cells",
    "repair",
    "unsat_core",
    "with_clues",
]
