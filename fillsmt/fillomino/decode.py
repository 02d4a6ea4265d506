"""Read a solver's get-value answer back into a grid, through the encoder's naming function."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from fillsmt.errors import AnswerError
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.names import number_var, number_vars

if TYPE_CHECKING:
    from fillsmt.smtlib.answer import Value


def decode_grid(puzzle: Puzzle, values: dict[str, Value], source: str = "<answer>") -> Grid:
    """The grid whose cell at row r, column c holds the value of ``number_var(r, c)``."""
    h, w = puzzle.height, puzzle.width
    try:  # the usual answer, in one pass (a lazy session decodes a model every round)
        flat = [values[name] for name in number_vars(h, w)]
        if all(type(v) is int for v in flat):
            ints = cast("list[int]", flat)  # every value checked just above
            return tuple(tuple(ints[r * w : (r + 1) * w]) for r in range(h))
    except KeyError:
        pass
    return _decode_checked(puzzle, values, source)


def _decode_checked(puzzle: Puzzle, values: dict[str, Value], source: str) -> Grid:
    """:func:`decode_grid` cell by cell: the grid, or the first missing or wrong value's error."""
    rows = []
    for r in range(puzzle.height):
        row = []
        for c in range(puzzle.width):
            name = number_var(r, c)
            if name not in values:
                raise AnswerError(
                    source, None, f"no value for {name} (row {r + 1}, column {c + 1}) in the solver's answer"
                )
            v = values[name]
            if isinstance(v, bool) or not isinstance(v, int):
                raise AnswerError(source, None, f"the value of {name} is {v!r}, expected an integer")
            row.append(v)
        rows.append(tuple(row))
    return tuple(rows)
