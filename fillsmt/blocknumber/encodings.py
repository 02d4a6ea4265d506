"""The BlockNumber encodings ``--encoding`` can name, with what the rest of fillsmt needs of each.

An :class:`Encoding` bundles the pure encoder with :meth:`Encoding.cell_is`, the SMT-LIB term
that is true exactly when a cell holds a value under that encoding (for blocking clauses such as
"the grid differs from this one somewhere", and for forced-cell checks), its logic, and how the
decoder reads its answer (``reads``: ``"numbers"`` — one number term per cell — or
``"onehot"`` — one Boolean per cell and value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from fillsmt.blocknumber.encode import (
    bv_const,
    bv_width,
    cell_domain,
    encode_bv,
    encode_int_distinct,
    encode_int_pairwise,
    encode_onehot,
)
from fillsmt.blocknumber.model import Puzzle
from fillsmt.blocknumber.names import number_var, value_var
from fillsmt.smtlib import Script, Term


def _int_cell_is(puzzle: Puzzle, r: int, c: int, value: int) -> Term:
    return ("=", number_var(r, c), value)


def _bv_cell_is(puzzle: Puzzle, r: int, c: int, value: int) -> Term:
    width = bv_width(puzzle)
    if not 0 <= value < 2**width:
        return "false"
    return ("=", number_var(r, c), bv_const(value, width))


def _onehot_cell_is(puzzle: Puzzle, r: int, c: int, value: int) -> Term:
    return value_var(r, c, value) if value in cell_domain(puzzle, r, c) else "false"


@dataclass(frozen=True)
class Encoding:
    """One way of writing a BlockNumber puzzle in SMT-LIB."""

    name: str
    encode: Callable[[Puzzle], Script]
    cell_is: Callable[[Puzzle, int, int, int], Term]
    logic: str
    reads: str
    description: str


ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in (
        Encoding(
            "int-distinct",
            encode_int_distinct,
            _int_cell_is,
            "QF_LIA",
            "numbers",
            "Int per cell, one distinct per block, touching cells of different blocks differ",
        ),
        Encoding(
            "int-pairwise",
            encode_int_pairwise,
            _int_cell_is,
            "QF_LIA",
            "numbers",
            "Int per cell, all-different and touching cells as (not (= a b)) pairs",
        ),
        Encoding(
            "onehot",
            encode_onehot,
            _onehot_cell_is,
            "QF_UF",
            "onehot",
            "one Boolean per cell and value: exactly one per cell, each value once per block",
        ),
        Encoding(
            "bv",
            encode_bv,
            _bv_cell_is,
            "QF_BV",
            "numbers",
            "int-distinct over bit-vectors just wide enough for the largest block",
        ),
    )
}

DEFAULT_ENCODING = "onehot"
"""The encoding a solver gets unless it decides one logic only: one Boolean per cell and value
leaves the solver a pure SAT problem, with nothing to relax."""
