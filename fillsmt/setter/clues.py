"""What repair and minimize share: a puzzle's clues through its kind, a solver session over the
puzzle, and the error for a question the solver left unsettled."""

from __future__ import annotations

import time
from typing import Any

from fillsmt.drivers.base import Driver
from fillsmt.drivers.session import SessionTimeout
from fillsmt.engine.solutions import Search
from fillsmt.errors import EXIT_UNKNOWN, FillsmtError
from fillsmt.protocol import Clues
from fillsmt.smtlib.status import Status

Placed = tuple[int, int, int]
Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


class RepairUndecided(FillsmtError):
    """The solver gave no answer (time-out or unknown) before the question was settled."""

    exit_code = EXIT_UNKNOWN


def undecided_on_timeout(work):
    """Run ``work()``; a session's time-out becomes :class:`RepairUndecided`."""
    try:
        return work()
    except SessionTimeout as e:
        raise RepairUndecided(f"the solver ran out of time ({e})") from None


# -- the kinds, as far as clues are concerned ------------------------------------------------


def clue_kind(puzzle: Any) -> Clues:
    """The puzzle's kind, which must have :class:`~fillsmt.protocol.Clues` (an InputError otherwise)."""
    from fillsmt.kinds import kind_of

    return Clues.of(kind_of(puzzle), puzzle.source)


def clues_of(puzzle: Any) -> list[Placed]:
    """The puzzle's clues (givens) as (row, col, number), row by row."""
    return clue_kind(puzzle).clues(puzzle)


def with_clues(puzzle: Any, clues: list[Placed]) -> Any:
    """The same puzzle with exactly ``clues`` as its clues."""
    return clue_kind(puzzle).with_clues(puzzle, clues)


def cell_is(puzzle: Any, r: int, c: int, v: int) -> str:
    """The SMT-LIB term "cell (r, c) holds v" under the kind's clue encoding."""
    return clue_kind(puzzle).cell_is(puzzle, r, c, v)


def open_search(puzzle: Any, driver: Driver, deadline: float | None) -> Search:
    """An open session over ``puzzle`` (its clues included) under the kind's clue encoding."""
    kind = clue_kind(puzzle)
    script = kind.encode(puzzle, kind.clue_encoding)
    search = Search(kind.problem(puzzle, script, kind.clue_encoding, driver.name), driver.open_session(), deadline)
    try:
        search.start()
    except BaseException:  # a time-out, a signal: the solver goes with it
        search.session.close()
        raise
    return search


def settled(status: Status, what: str) -> Status:
    if status not in (Status.SAT, Status.UNSAT):
        raise RepairUndecided(f"the solver answered {status.value} while {what}")
    return status


def remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.monotonic())


__all__ = [
    "Cell",
    "Grid",
    "Placed",
    "RepairUndecided",
    "cell_is",
    "clue_kind",
    "clues_of",
    "open_search",
    "remaining",
    "settled",
    "undecided_on_timeout",
    "with_clues",
]
