"""A toy puzzle kind defined only in the tests, to prove that a kind needs no edit outside its own
code: registered at run time, it goes through solve, encode, decode, check, JSON and bench.
:class:`RowKind` is the core of the kind protocol alone (:class:`fillsmt.protocol.Kind`);
:class:`JsonRowKind` adds one capability, the JSON form.

The puzzle: a row of N cells, some given; fill the others so the row holds 1..N once each. A
file reads ``row N`` and then the N values (0 = empty).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from fillsmt.errors import AnswerError, FormatError
from fillsmt.protocol import Encoding, JsonForm, Kind
from fillsmt.smtlib import Command, Script
from fillsmt.smtlib.script import assertion, declare


@dataclass(frozen=True)
class Row:
    kind: ClassVar[str] = "row"
    cells: tuple[int, ...]
    source: str = "<row>"

    @property
    def height(self) -> int:
        return 1

    @property
    def width(self) -> int:
        return len(self.cells)


def var(i: int) -> str:
    return f"x_{i}"


def encode_int(row: Row, hints: Any = None) -> Script:
    n = row.width
    commands = [Command("set-option", (":produce-models", "true")), Command("set-logic", ("QF_LIA",))]
    commands += [declare(var(i), "Int") for i in range(n)]
    commands += [assertion(("and", ("<=", 1, var(i)), ("<=", var(i), n))) for i in range(n)]
    if n > 1:
        commands.append(assertion(("distinct", *(var(i) for i in range(n)))))
    commands += [assertion(("=", var(i), v)) for i, v in enumerate(row.cells) if v]
    commands += [Command("check-sat"), Command("get-value", (tuple(var(i) for i in range(n)),))]
    return Script.of(commands)


def _numbers(words: list[str], source: str, what: str) -> list[int]:
    if not all(w.isascii() and w.isdigit() for w in words):
        raise FormatError(source, None, f"expected {what} as numbers")
    return [int(w) for w in words]


class RowKind(Kind):
    name = "row"
    summary = "fill a row with 1..N, each once"
    encodings = (Encoding("int", encode_int),)
    default_encoding = "int"

    def looks_like(self, text: str) -> bool:
        return text.split()[:1] == ["row"]

    def parse(self, text: str, source: str) -> Row:
        words = text.split()
        if len(words) < 2 or words[0] != "row":
            raise FormatError(source, 1, "expected 'row N'")
        n, *cells = _numbers(words[1:], source, "the length and the cells")
        if len(cells) != n or any(v > n for v in cells):
            raise FormatError(source, 2, f"expected {n} values from 0 to {n}")
        return Row(tuple(cells), source)

    def format_puzzle(self, row: Row) -> str:
        return f"row {row.width}\n" + " ".join(map(str, row.cells)) + "\n"

    def parse_solution(self, text: str, source: str, row: Row):
        return (tuple(_numbers(text.split(), source, "the row's values")),)

    def format_solution(self, row: Row, grid) -> str:
        return " ".join(map(str, grid[0])) + "\n"

    def check(self, row: Row, grid) -> list[str]:
        values = list(grid[0]) if len(grid) == 1 else []
        problems = [] if sorted(values) == list(range(1, row.width + 1)) else ["not 1..N once each"]
        return problems + [f"cell {i + 1} should be {v}" for i, v in enumerate(row.cells)
                           if v and i < len(values) and values[i] != v]

    def decode(self, row: Row, values: dict, encoding: str, source: str):
        if any(var(i) not in values for i in range(row.width)):
            raise AnswerError(source, None, "a cell has no value in the solver's answer")
        return (tuple(values[var(i)] for i in range(row.width)),)

    def term_cell(self, row: Row, term: str):
        return 0, int(term.split("_")[1])


class JsonRowKind(RowKind, JsonForm):
    """The toy kind with its puzzles' JSON form."""

    def to_dict(self, row: Row) -> dict:
        return {"kind": "row", "height": 1, "width": row.width, "cells": [list(row.cells)]}

    def from_dict(self, obj: dict, reader: Any) -> Row:
        reader.keys(obj, ("kind", "height", "width", "cells"), what="a row puzzle")
        (cells,) = reader.grid(obj["cells"], "cells", 1, reader.side(obj, "width"))
        return self.parse(f"row {len(cells)}\n" + " ".join(map(str, cells)), reader.source)
