"""The thesis' spanning-tree encoding (Behari, sections 8.1–8.10 and appendix B), kept faithful.

Every region of the solution is a directed spanning tree: 0/1 integer edge variables
``e_x_y``, at most one incoming edge per cell, subtree sizes ``s_x = 1 + Σ ite(e_x_y = 1, s_y, 0)``,
a root (a cell with no incoming edge) has ``s_x = n_x`` and ``r_x = x``, an edge forces equal
numbers, and equal adjacent numbers force equal roots. The commands come in the order of
appendix B, ending with ``(check-sat)`` and one ``(get-value (n_x))`` per cell.

Two departures from appendix B's text: an empty sum (only in a 1×1 grid, where a cell has
no neighbours) is written ``0``, because ``(+)`` is rejected by both Z3 and Yices; and the
variables are named by the cell's row and column (``n_R_C``, ``e_R_C_R2_C2``,
:mod:`fillsmt.fillomino.names`) where appendix B numbers the cells (x above is the index
``row * width + col``, the value a root variable holds). The logic is QF_LIA: appendix B
declares QF_UFLIA, but the script uses no uninterpreted function.

This module is pure: puzzle in, :class:`~fillsmt.smtlib.Script` out.
"""

from __future__ import annotations

from typing import Iterator

from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import GridNames, neighbour_indices
from fillsmt.smtlib import Command, Script, Term
from fillsmt.smtlib.script import assertion, declare

INT = "Int"


def _sum(terms: list[Term]) -> Term:
    return ("+", *terms) if terms else 0


def _names(puzzle: Puzzle) -> GridNames:
    return GridNames(puzzle.height, puzzle.width)


def _incoming(puzzle: Puzzle, x: int) -> Term:
    v = _names(puzzle)
    return _sum([v.edge(y, x) for y in neighbour_indices(puzzle.height, puzzle.width, x)])


def _cells(puzzle: Puzzle) -> range:
    return range(puzzle.height * puzzle.width)


def _pairs(puzzle: Puzzle) -> Iterator[tuple[int, int]]:
    """Every (cell, neighbour) pair, in appendix B's loop order."""
    for x in _cells(puzzle):
        for y in neighbour_indices(puzzle.height, puzzle.width, x):
            yield x, y


def edge_declarations(puzzle: Puzzle) -> Iterator[Command]:
    """8.1 and 8.2: one 0/1 integer per directed edge between neighbours."""
    v = _names(puzzle)
    for x, y in _pairs(puzzle):
        e = v.edge(x, y)
        yield declare(e, INT)
        yield assertion(("or", ("=", e, 0), ("=", e, 1)))


def no_two_way_edges(puzzle: Puzzle) -> Iterator[Command]:
    """8.3: e_x_y + e_y_x <= 1."""
    v = _names(puzzle)
    for x, y in _pairs(puzzle):
        yield assertion(("<=", ("+", v.edge(x, y), v.edge(y, x)), 1))


def at_most_one_incoming(puzzle: Puzzle) -> Iterator[Command]:
    """8.4: Σ_y e_y_x <= 1."""
    for x in _cells(puzzle):
        yield assertion(("<=", _incoming(puzzle, x), 1))


def number_declarations(puzzle: Puzzle) -> Iterator[Command]:
    v = _names(puzzle)
    for x in _cells(puzzle):
        yield declare(v.number(x), INT)


def clues(puzzle: Puzzle) -> Iterator[Command]:
    """8.5: n_x = k for every clue."""
    v = _names(puzzle)
    for r, c, k in puzzle.clues():
        yield assertion(("=", v.number(r * puzzle.width + c), k))


def size_declarations(puzzle: Puzzle) -> Iterator[Command]:
    v = _names(puzzle)
    for x in _cells(puzzle):
        yield declare(v.size(x), INT)


def size_propagation(puzzle: Puzzle) -> Iterator[Command]:
    """8.7: s_x = 1 + Σ_y ite(e_x_y = 1, s_y, 0)."""
    v = _names(puzzle)
    for x in _cells(puzzle):
        children = [
            ("ite", ("=", v.edge(x, y), 1), v.size(y), 0) for y in neighbour_indices(puzzle.height, puzzle.width, x)
        ]
        yield assertion(("=", v.size(x), ("+", 1, *children)))


def root_size(puzzle: Puzzle) -> Iterator[Command]:
    """8.6: no incoming edge => s_x = n_x."""
    v = _names(puzzle)
    for x in _cells(puzzle):
        yield assertion(("=>", ("=", _incoming(puzzle, x), 0), ("=", v.size(x), v.number(x))))


def edge_same_number(puzzle: Puzzle) -> Iterator[Command]:
    """8.8: e_x_y = 1 => n_x = n_y."""
    v = _names(puzzle)
    for x, y in _pairs(puzzle):
        yield assertion(("=>", ("=", v.edge(x, y), 1), ("=", v.number(x), v.number(y))))


def root_declarations(puzzle: Puzzle) -> Iterator[Command]:
    v = _names(puzzle)
    for x in _cells(puzzle):
        yield declare(v.root(x), INT)


def root_is_own_index(puzzle: Puzzle) -> Iterator[Command]:
    """8.9: no incoming edge => r_x = x."""
    v = _names(puzzle)
    for x in _cells(puzzle):
        yield assertion(("=>", ("=", _incoming(puzzle, x), 0), ("=", v.root(x), x)))


def same_number_same_root(puzzle: Puzzle) -> Iterator[Command]:
    """8.10: n_x = n_y => r_x = r_y for neighbours."""
    v = _names(puzzle)
    for x, y in _pairs(puzzle):
        yield assertion(("=>", ("=", v.number(x), v.number(y)), ("=", v.root(x), v.root(y))))


def query(puzzle: Puzzle) -> Iterator[Command]:
    v = _names(puzzle)
    yield Command("check-sat")
    for x in _cells(puzzle):
        yield Command("get-value", ((v.number(x),),))


def encode_thesis(puzzle: Puzzle) -> Script:
    """The full thesis script for ``puzzle``."""
    parts = (
        edge_declarations,
        no_two_way_edges,
        at_most_one_incoming,
        number_declarations,
        clues,
        size_declarations,
        size_propagation,
        root_size,
        edge_same_number,
        root_declarations,
        root_is_own_index,
        same_number_same_root,
        query,
    )
    header = [
        Command("set-option", (":print-success", "false")),
        Command("set-logic", ("QF_LIA",)),
    ]
    return Script.of([*header, *(cmd for part in parts for cmd in part(puzzle))])
