"""fillsmt: grid logic puzzles to SMT-LIB, solved by real SMT solvers, checked independently.

The Python API::

    import fillsmt

    puzzle = fillsmt.load("instances/fillomino/g12-5x5.txt")   # a file, "-", a puzz.link URL
    result = fillsmt.solve(puzzle, solver="yices", unique=True)
    result.status, result.grid, result.unique, result.times
    text = fillsmt.encode(puzzle)                               # SMT-LIB for any solver

Every grid a result carries has passed the kind's independent checker.
"""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # not typing's: importing typing (and re with it) is most of `fillsmt --version`
if TYPE_CHECKING:
    from typing import Any

    from fillsmt.engine.pipeline import SolveResult


def load(source: str, kind: str | None = None) -> Any:
    """A puzzle (Fillomino, BlockNumber or a tiling problem) from a file name, ``-`` (standard input), JSON, or a
    puzz.link / pzv.jp URL. ``kind`` overrides the detection. Raises
    :class:`fillsmt.errors.InputError` (with the file, line and what was expected) on bad input."""
    from fillsmt.formats.source import load as _load

    return _load(source, kind)


def solve(
    puzzle: Any,
    solver: str = "yices",
    encoding: str | None = None,
    *,
    timeout: float | None = None,
    presolve: bool = True,
    unique: bool = False,
    forced: bool = False,
) -> "SolveResult":
    """Solve ``puzzle`` with ``solver`` (``z3``, ``yices``, ``z3-api``, ``pysmt[:NAME]``,
    ``portfolio[:A,B]``, or ``rules``: the deduction rules plus backtracking, Fillomino only).
    The result has ``status`` (a :class:`fillsmt.smtlib.answer.Status`), ``grid`` (checked, or
    None), ``times`` (seconds by stage) and, with ``unique``, ``unique`` (True / False / None
    when not settled), ``second_grid`` and ``differing_cells``. A tiling problem is optimised
    instead: ``grid`` is the best tiling found (checked: ``covered``, ``placements``), ``status``
    is SAT when it is proven optimal, ``optimum`` the optimiser's report (``optimal``,
    ``upper_bound``, …), and ``encoding`` the at-most-one encoding."""
    from fillsmt.drivers import get_driver
    from fillsmt.engine.pipeline import solve as _solve

    return _solve(puzzle, get_driver(solver), encoding, timeout, presolve=presolve, unique=unique, forced=forced)


def encode(puzzle: Any, encoding: str | None = None) -> str:
    """The SMT-LIB 2 script of ``puzzle`` (ends with ``check-sat`` and ``get-value`` of every cell)."""
    from fillsmt.kinds import kind_of

    return kind_of(puzzle).encode(puzzle, encoding).text()


__all__ = ["__version__", "encode", "load", "solve"]
