"""Read a solver's get-value answer back into a grid, through the encoders' naming functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fillsmt.blocknumber.encode import domains
from fillsmt.blocknumber.encodings import ENCODINGS
from fillsmt.blocknumber.model import Grid, Puzzle
from fillsmt.blocknumber.names import number_var, value_var
from fillsmt.errors import AnswerError, InputError

if TYPE_CHECKING:
    from fillsmt.smtlib.answer import Value


def _at(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


def _number(values: dict[str, Value], r: int, c: int, source: str) -> int:
    name = number_var(r, c)
    if name not in values:
        raise AnswerError(source, None, f"no value for {name} ({_at(r, c)}) in the solver's answer")
    v = values[name]
    if isinstance(v, bool) or not isinstance(v, int):
        raise AnswerError(source, None, f"the value of {name} is {v!r}, expected an integer")
    return v


def _onehot(values: dict[str, Value], r: int, c: int, dom: range, source: str) -> int:
    if not dom:
        raise AnswerError(source, None, f"{_at(r, c)} can hold no value: its given is larger than its block")
    true = []
    for v in dom:
        name = value_var(r, c, v)
        if name not in values:
            raise AnswerError(source, None, f"no value for {name} ({_at(r, c)}) in the solver's answer")
        if not isinstance(values[name], bool):
            raise AnswerError(source, None, f"the value of {name} is {values[name]!r}, expected true or false")
        if values[name]:
            true.append(v)
    if not true:
        span = value_var(r, c, dom[0]) if len(dom) == 1 else f"{value_var(r, c, dom[0])}..{value_var(r, c, dom[-1])}"
        raise AnswerError(source, None, f"{_at(r, c)}: none of {span} is true in the solver's answer")
    if len(true) > 1:
        both = " and ".join(value_var(r, c, v) for v in true)
        raise AnswerError(
            source, None, f"{_at(r, c)}: {both} are true together in the solver's answer; exactly one should be"
        )
    return true[0]


def decode_grid(puzzle: Puzzle, values: dict[str, Value], encoding_name: str, source: str = "<answer>") -> Grid:
    """The grid the answer describes under ``encoding_name``: each cell's number term, or, for a
    one-hot encoding, the one value whose Boolean is true."""
    if encoding_name not in ENCODINGS:
        raise InputError(f"unknown encoding {encoding_name!r}; choose one of {', '.join(ENCODINGS)}")
    reads = ENCODINGS[encoding_name].reads
    dom = domains(puzzle) if reads == "onehot" else {}
    rows = []
    for r in range(puzzle.height):
        row = []
        for c in range(puzzle.width):
            row.append(_onehot(values, r, c, dom[r, c], source) if reads == "onehot" else _number(values, r, c, source))
        rows.append(tuple(row))
    return tuple(rows)
