"""The exact uniqueness oracle of the BlockNumber generator: one solver session per solution.

:func:`~fillsmt.blocknumber.generate.generate` asks, given after given, whether the puzzle
without one more given still has the known grid as its only solution. Every question about one
generated puzzle shares its blocks and its grid, so :class:`SessionOracle` opens one
incremental session per grid (:mod:`fillsmt.drivers.session`) with the one-hot encoding of the
blocks *without givens*, and asks each question with ``check-sat-assuming``: the givens are
the assumptions ``is_R_C_V``. The solver keeps what it learns from one question to the next.

Which cells must a second solution change? The oracle remembers the sets of givens it proved
unique (and the full grid): when the puzzle's givens are a subset of such a set U, a second
solution differs from the known grid in a cell of D = U's givens minus the puzzle's (otherwise
it would also solve U). With one cell in D, that is one more assumption, ``(not is_R_C_V)``;
with more, a clause asserted between ``push`` and ``pop``. ``unsat`` proves uniqueness; on
``sat`` the model is decoded and must pass the independent checker (a second solution).
A time-out or ``unknown`` raises :class:`~fillsmt.errors.OracleUndecided` (the session is
opened again for the next question).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from fillsmt.blocknumber.encodings import ENCODINGS
from fillsmt.blocknumber.model import Grid, Puzzle
from fillsmt.blocknumber.names import value_var
from fillsmt.blocknumber.verify import check_solution
from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine import solutions
from fillsmt.engine.solutions import Search, WrongAnswer
from fillsmt.errors import FillsmtError, OracleUndecided, SolverError
from fillsmt.smtlib.script import disj, render_term
from fillsmt.smtlib.status import Status

Cell = tuple[int, int]

ENCODING = "onehot"
"""The encoding of the session (its Booleans are the assumptions)."""


@dataclass
class OracleStats(solutions.OracleStats):
    calls: int = 0
    unique: int = 0
    multiple: int = 0
    sessions: int = 0
    seconds: float = 0.0


@dataclass
class SessionOracle:
    """``oracle(puzzle, grid) -> bool`` over one session per grid (module text). Use it as a
    context manager, or call :meth:`close`, to end the last session."""

    driver: Driver
    deadline: float | None = None
    """A :func:`time.monotonic` value bounding every exchange with the solver."""
    stats: OracleStats = field(default_factory=OracleStats)
    _key: tuple[Grid, Grid] | None = None
    _search: Search | None = None
    _known: list[frozenset[Cell]] = field(default_factory=list)

    def __call__(self, puzzle: Puzzle, grid: Grid) -> bool:
        self.stats.calls += 1
        if check_solution(puzzle.givens, puzzle.blocks, grid):
            return False  # not even a solution
        start = time.perf_counter()
        try:
            return self._ask(puzzle, grid)
        except SessionTimeout:
            self.close()
            raise OracleUndecided(f"{puzzle.source}: {self.driver.name} ran out of time") from None
        except BaseException:
            self.close()  # the session may be left inside a push: the next question reopens it
            raise
        finally:
            self.stats.seconds += time.perf_counter() - start

    def proved_unique(self, puzzle: Puzzle, grid: Grid) -> bool:
        """Has this oracle proved that ``puzzle`` has ``grid`` as its only solution?"""
        return self._key == (puzzle.blocks, grid) and _given_cells(puzzle) in self._known

    def close(self) -> None:
        if self._search is not None:
            self._search.session.close()
        self._search, self._key = None, None

    def __enter__(self) -> SessionOracle:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- one question ------------------------------------------------------------------------
    def _remaining(self) -> float | None:
        return None if self.deadline is None else max(0.001, self.deadline - time.monotonic())

    def _open(self, puzzle: Puzzle, grid: Grid) -> None:
        """A new search over the blocks alone (no givens: they come as assumptions)."""
        from fillsmt.kinds import get_kind

        self.close()
        bare = Puzzle(puzzle.height, puzzle.width, ((0,) * puzzle.width,) * puzzle.height, puzzle.blocks)
        script = ENCODINGS[ENCODING].encode(bare)
        problem = get_kind(Puzzle.kind).problem(bare, script, ENCODING, self.driver.name)
        self._search = Search(problem, self.driver.open_session(), self.deadline)
        self._key, self._known = (puzzle.blocks, grid), []
        self.stats.sessions += 1
        self._search.start()

    def _ask(self, puzzle: Puzzle, grid: Grid) -> bool:
        if self._key != (puzzle.blocks, grid) or self._search is None or not self._search.session.alive:
            self._open(puzzle, grid)
        givens = _given_cells(puzzle)
        everything = frozenset((r, c) for r in range(puzzle.height) for c in range(puzzle.width))
        differ_in = min((known - givens for known in [everything, *self._known] if givens <= known), key=len)
        if not differ_in:
            return True  # proved before
        search = self._search
        assert search is not None  # opened above
        assumptions = [value_var(r, c, grid[r][c]) for r, c in sorted(givens)]
        blocking: list[str] = []
        if len(differ_in) > 1:
            blocking.append(render_term(disj([("not", value_var(r, c, grid[r][c])) for r, c in sorted(differ_in)])))
        else:
            ((r, c),) = differ_in
            assumptions.append(f"(not {value_var(r, c, grid[r][c])})")
        try:
            status, second = search.ask(blocking, assumptions)  # a filling of the blocks, checked
        except WrongAnswer as e:
            raise SolverError(str(e)) from None
        if status is Status.TIMEOUT:
            raise SessionTimeout(f"{self.driver.name} gave no answer in time")
        if second is not None:
            self._check_second(puzzle, grid, differ_in, second.grid)
        if status is Status.UNSAT:
            self.stats.unique += 1
            if givens not in self._known:
                self._known.append(givens)
            return True
        if status is Status.SAT:
            self.stats.multiple += 1
            return False
        raise OracleUndecided(f"{puzzle.source}: {self.driver.name} answered {status.value}")

    def _check_second(self, puzzle: Puzzle, grid: Grid, differ_in: frozenset[Cell], second: Grid) -> None:
        """The model must be a solution of ``puzzle`` (its givens too) that differs from ``grid`` in D."""
        problems = check_solution(puzzle.givens, puzzle.blocks, second)
        if problems:
            raise SolverError(f"{self.driver.name}'s answer fails the independent check: {'; '.join(problems)}")
        if all(second[r][c] == grid[r][c] for r, c in differ_in):
            raise SolverError(f"{self.driver.name}'s model ignores the blocking clause")


def _given_cells(puzzle: Puzzle) -> frozenset[Cell]:
    return frozenset((r, c) for r, c, _ in puzzle.given_cells())


def uniqueness_proof(oracle: SessionOracle, puzzle: Puzzle, grid: Grid) -> str:
    """How ``puzzle`` is known to have ``grid`` as its only solution: ``"givens"`` (every cell
    is given) or ``"oracle"`` (proved while generating, or now). Raises
    :class:`~fillsmt.errors.FillsmtError` if it is not unique."""
    if check_solution(puzzle.givens, puzzle.blocks, grid):
        raise FillsmtError(f"{puzzle.source}: the generated solution fails the checker")
    if puzzle.empty_cells == 0:
        return "givens"
    if oracle.proved_unique(puzzle, grid) or oracle(puzzle, grid):
        return "oracle"
    raise FillsmtError(f"{puzzle.source}: the generated puzzle is not unique (a bug)")


__all__ = ["ENCODING", "OracleStats", "SessionOracle", "uniqueness_proof"]
