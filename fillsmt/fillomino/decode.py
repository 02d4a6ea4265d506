"""Read a solver's get-value answer back into a grid, through the encoder's naming function."""

from __future__ import annotations

from fillsmt.errors import AnswerError
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.names import number_var
from fillsmt.smtlib.answer import Value


def decode_grid(puzzle: Puzzle, values: dict[str, Value], source: str = "<answer>") -> Grid:
    """The grid whose cell ``x`` holds the value of ``number_var(x)``."""
    rows = []
    for r in range(puzzle.height):
        row = []
        for c in range(puzzle.width):
            name = number_var(r * puzzle.width + c)
            if name not in values:
                raise AnswerError(source, None, f"no value for {name} (row {r + 1}, column {c + 1}) in the solver's answer")
            v = values[name]
            if isinstance(v, bool) or not isinstance(v, int):
                raise AnswerError(source, None, f"the value of {name} is {v!r}, expected an integer")
            row.append(v)
        rows.append(tuple(row))
    return tuple(rows)
