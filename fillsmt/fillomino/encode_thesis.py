"""The thesis' spanning-tree encoding (Behari, sections 8.1–8.10 and appendix B), kept faithful.

Every region of the solution is a directed spanning tree: 0/1 integer edge variables
``e_x_y``, at most one incoming edge per cell, subtree sizes ``s_x = 1 + Σ ite(e_x_y = 1, s_y, 0)``,
a root (a cell with no incoming edge) has ``s_x = n_x`` and ``r_x = x``, an edge forces equal
numbers, and equal adjacent numbers force equal roots. The commands come in the order of
appendix B, ending with ``(check-sat)`` and one ``(get-value (n_x))`` per cell.

The one departure from appendix B's text: an empty sum (only in a 1×1 grid, where a cell has
no neighbours) is written ``0``, because ``(+)`` is rejected by both Z3 and Yices.

This module is pure: puzzle in, :class:`~fillsmt.smtlib.Script` out.
"""

from __future__ import annotations

from typing import Iterator

from fillsmt.fillomino.model import Puzzle
from fillsmt.fillomino.names import edge_var, neighbour_indices, number_var, root_var, size_var
from fillsmt.smtlib.script import assertion, declare
from fillsmt.smtlib import Command, Script, Term

INT = "Int"


def _sum(terms: list[Term]) -> Term:
    return ("+", *terms) if terms else 0


def _incoming(puzzle: Puzzle, x: int) -> Term:
    return _sum([edge_var(y, x) for y in neighbour_indices(puzzle.height, puzzle.width, x)])


def _cells(puzzle: Puzzle) -> range:
    return range(puzzle.height * puzzle.width)


def _pairs(puzzle: Puzzle) -> Iterator[tuple[int, int]]:
    """Every (cell, neighbour) pair, in appendix B's loop order."""
    for x in _cells(puzzle):
        for y in neighbour_indices(puzzle.height, puzzle.width, x):
            yield x, y


def edge_declarations(puzzle: Puzzle) -> Iterator[Command]:
    """8.1 and 8.2: one 0/1 integer per directed edge between neighbours."""
    for x, y in _pairs(puzzle):
        e = edge_var(x, y)
        yield declare(e, INT)
        yield assertion(("or", ("=", e, 0), ("=", e, 1)))


def no_two_way_edges(puzzle: Puzzle) -> Iterator[Command]:
    """8.3: e_x_y + e_y_x <= 1."""
    for x, y in _pairs(puzzle):
        yield assertion(("<=", ("+", edge_var(x, y), edge_var(y, x)), 1))


def at_most_one_incoming(puzzle: Puzzle) -> Iterator[Command]:
    """8.4: Σ_y e_y_x <= 1."""
    for x in _cells(puzzle):
        yield assertion(("<=", _incoming(puzzle, x), 1))


def number_declarations(puzzle: Puzzle) -> Iterator[Command]:
    for x in _cells(puzzle):
        yield declare(number_var(x), INT)


def clues(puzzle: Puzzle) -> Iterator[Command]:
    """8.5: n_x = k for every clue."""
    for r, c, k in puzzle.clues():
        yield assertion(("=", number_var(r * puzzle.width + c), k))


def size_declarations(puzzle: Puzzle) -> Iterator[Command]:
    for x in _cells(puzzle):
        yield declare(size_var(x), INT)


def size_propagation(puzzle: Puzzle) -> Iterator[Command]:
    """8.7: s_x = 1 + Σ_y ite(e_x_y = 1, s_y, 0)."""
    for x in _cells(puzzle):
        children = [
            ("ite", ("=", edge_var(x, y), 1), size_var(y), 0)
            for y in neighbour_indices(puzzle.height, puzzle.width, x)
        ]
        yield assertion(("=", size_var(x), ("+", 1, *children)))


def root_size(puzzle: Puzzle) -> Iterator[Command]:
    """8.6: no incoming edge => s_x = n_x."""
    for x in _cells(puzzle):
        yield assertion(("=>", ("=", _incoming(puzzle, x), 0), ("=", size_var(x), number_var(x))))


def edge_same_number(puzzle: Puzzle) -> Iterator[Command]:
    """8.8: e_x_y = 1 => n_x = n_y."""
    for x, y in _pairs(puzzle):
        yield assertion(("=>", ("=", edge_var(x, y), 1), ("=", number_var(x), number_var(y))))


def root_declarations(puzzle: Puzzle) -> Iterator[Command]:
    for x in _cells(puzzle):
        yield declare(root_var(x), INT)


def root_is_own_index(puzzle: Puzzle) -> Iterator[Command]:
    """8.9: no incoming edge => r_x = x."""
    for x in _cells(puzzle):
        yield assertion(("=>", ("=", _incoming(puzzle, x), 0), ("=", root_var(x), x)))


def same_number_same_root(puzzle: Puzzle) -> Iterator[Command]:
    """8.10: n_x = n_y => r_x = r_y for neighbours."""
    for x, y in _pairs(puzzle):
        yield assertion(("=>", ("=", number_var(x), number_var(y)), ("=", root_var(x), root_var(y))))


def query(puzzle: Puzzle) -> Iterator[Command]:
    yield Command("check-sat")
    for x in _cells(puzzle):
        yield Command("get-value", ((number_var(x),),))


def encode_thesis(puzzle: Puzzle) -> Script:
    """The full thesis script for ``puzzle``."""
    parts = (
        edge_declarations, no_two_way_edges, at_most_one_incoming,
        number_declarations, clues, size_declarations, size_propagation, root_size,
        edge_same_number, root_declarations, root_is_own_index, same_number_same_root, query,
    )
    header = [
        Command("set-option", (":print-success", "false")),
        Command("set-logic", ("QF_UFLIA",)),
    ]
    return Script.of([*header, *(cmd for part in parts for cmd in part(puzzle))])
