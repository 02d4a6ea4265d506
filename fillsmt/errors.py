"""The one exception root of fillsmt, and the exit codes the CLI maps them to.

Exit codes (documented in the README):

* 0 – solved / valid
* 1 – no solution / invalid solution
* 2 – usage error or bad input
* 3 – unknown or time-out
* 4 – solver missing or failed
* 5 – solved, but not unique (``solve --unique`` found a second solution)
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_UNKNOWN = 3
EXIT_SOLVER = 4
EXIT_NOT_UNIQUE = 5


class FillsmtError(Exception):
    """Root of every error fillsmt raises on purpose."""

    exit_code = EXIT_SOLVER


class InputError(FillsmtError):
    """Something the user gave (a file, an option) is not what was expected."""

    exit_code = EXIT_BAD_INPUT


class FormatError(InputError):
    """A file does not follow its format; names the file and line."""

    def __init__(self, source: str, line: int | None, problem: str):
        self.source = source
        self.line = line
        self.problem = problem
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")


class AnswerError(FormatError):
    """A solver's answer lacks a value the solution needs, or gives one of the wrong kind."""


class SolverError(FillsmtError):
    """A solver is missing, crashed, or said something fillsmt cannot use."""

    exit_code = EXIT_SOLVER


class SolverMissing(SolverError):
    """The requested solver is not installed."""


class OracleUndecided(FillsmtError):
    """A uniqueness oracle could not settle its question (a time-out, or a solver's ``unknown``)."""

    exit_code = EXIT_UNKNOWN


class NoSolution(FillsmtError):
    """The puzzle is proven to have no solution (by a presolve, before any solver ran)."""

    exit_code = EXIT_NO_SOLUTION
