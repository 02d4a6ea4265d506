"""BlockNumber encoders: pure functions, Puzzle in, :class:`~fillsmt.smtlib.Script` out.

All of them state the same three rules: a given is kept; a block of n cells holds 1..n once
each; touching cells (diagonals included) hold different numbers. They differ in how:

* :func:`encode_int_distinct` — one ``Int`` per cell bounded by 1..block size, one ``distinct``
  per block, ``(not (= a b))`` for touching cells of different blocks (QF_LIA);
* :func:`encode_int_pairwise` — the same with every block's all-different written as
  ``(not (= a b))`` pairs (QF_LIA);
* :func:`encode_onehot` — one Boolean ``is_R_C_V`` per cell and possible value: exactly one per
  cell, each value exactly once per block, no value twice in touching cells; pure propositional
  logic (QF_UF), and the answer is the get-value of those Booleans;
* :func:`encode_bv` — :func:`encode_int_distinct` over bit-vectors just wide enough for the
  largest block (QF_BV).

A cell's domain is its given or 1..its block's size; a pair of touching cells whose domains do
not meet needs no constraint and gets none. Every script ends with ``(check-sat)`` and one
``(get-value (…))`` of the terms the decoder reads, cells in row-major order.
"""

from __future__ import annotations

from typing import Iterator

from fillsmt.blocknumber.model import Puzzle
from fillsmt.blocknumber.names import king_pairs, number_var, value_var
from fillsmt.smtlib import Command, Script, Term
from fillsmt.smtlib.script import assertion, declare, disj

Cell = tuple[int, int]


def _header(logic: str) -> list[Command]:
    return [Command("set-option", (":print-success", "false")), Command("set-logic", (logic,))]


def _query(terms: list[Term]) -> list[Command]:
    return [Command("check-sat"), Command("get-value", (tuple(terms),))]


def cells(puzzle: Puzzle) -> list[Cell]:
    """Every cell, row by row."""
    return [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]


def _domain(given: int, size: int) -> range:
    if given:
        return range(given, given + 1) if given <= size else range(0)
    return range(1, size + 1)


def cell_domain(puzzle: Puzzle, r: int, c: int) -> range:
    """The possible numbers of one cell: its given, or 1..its block's size (empty for a given
    larger than its block, which the parser refuses but a hand-made Puzzle may hold)."""
    return _domain(puzzle.givens[r][c], puzzle.block_size(r, c))


def domains(puzzle: Puzzle) -> dict[Cell, range]:
    """:func:`cell_domain` of every cell, row by row."""
    sizes = puzzle.block_sizes()
    return {(r, c): _domain(puzzle.givens[r][c], sizes[puzzle.blocks[r][c]]) for r, c in cells(puzzle)}


def touching_pairs(puzzle: Puzzle, dom: dict[Cell, range]) -> Iterator[tuple[Cell, Cell]]:
    """Touching cells of different blocks that could hold the same number (inside a block, the
    block's all-different already keeps touching cells apart)."""
    for a, b in king_pairs(puzzle.height, puzzle.width):
        if puzzle.blocks[a[0]][a[1]] == puzzle.blocks[b[0]][b[1]]:
            continue
        if set(dom[a]) & set(dom[b]):
            yield a, b


def bv_width(puzzle: Puzzle) -> int:
    """The bit-vector width of the ``bv`` encoding: enough for the largest block's size."""
    return max(max(puzzle.block_sizes(), default=1).bit_length(), 1)


def bv_const(v: int, width: int) -> Term:
    return ("_", f"bv{v}", width)


class _Numbers:
    """One number term per cell, as ``Int`` or as bit-vectors of a fixed width."""

    def __init__(self, puzzle: Puzzle, bitvector: bool):
        self.p, self.bitvector = puzzle, bitvector
        self.dom = domains(puzzle)
        self.width = bv_width(puzzle) if bitvector else 0

    def const(self, v: int) -> Term:
        return bv_const(v, self.width) if self.bitvector else v

    def le(self, a: Term, b: Term) -> Term:
        return ("bvule", a, b) if self.bitvector else ("<=", a, b)

    def declarations(self) -> Iterator[Command]:
        sort: Term = ("_", "BitVec", self.width) if self.bitvector else "Int"
        for r, c in cells(self.p):
            yield declare(number_var(r, c), sort)

    def bounds(self) -> Iterator[Command]:
        """A given fixes its cell; any other cell lies in 1..its block's size."""
        for (r, c), dom in self.dom.items():
            n = number_var(r, c)
            if not dom:
                yield assertion("false")
            elif len(dom) == 1:
                yield assertion(("=", n, self.const(dom[0])))
            else:
                yield assertion(("and", self.le(self.const(dom[0]), n), self.le(n, self.const(dom[-1]))))

    def blocks_distinct(self) -> Iterator[Command]:
        for block in self.p.block_cells():
            if len(block) > 1:
                yield assertion(("distinct", *(number_var(r, c) for r, c in block)))

    def blocks_pairwise(self) -> Iterator[Command]:
        for block in self.p.block_cells():
            for i, (r, c) in enumerate(block):
                for r2, c2 in block[i + 1 :]:
                    if set(self.dom[r, c]) & set(self.dom[r2, c2]):
                        yield assertion(("not", ("=", number_var(r, c), number_var(r2, c2))))

    def touching_differ(self) -> Iterator[Command]:
        for (r, c), (r2, c2) in touching_pairs(self.p, self.dom):
            yield assertion(("not", ("=", number_var(r, c), number_var(r2, c2))))

    def query(self) -> list[Command]:
        return _query([number_var(r, c) for r, c in cells(self.p)])


def encode_int_distinct(puzzle: Puzzle) -> Script:
    """Integers, one ``distinct`` per block, touching cells of different blocks differ (QF_LIA)."""
    n = _Numbers(puzzle, bitvector=False)
    return Script.of(
        [*_header("QF_LIA"), *n.declarations(), *n.bounds(), *n.blocks_distinct(), *n.touching_differ(), *n.query()]
    )


def encode_int_pairwise(puzzle: Puzzle) -> Script:
    """Integers, all-different as ``(not (= a b))`` pairs, touching cells of different blocks
    differ (QF_LIA): every pair of cells that must differ, once."""
    n = _Numbers(puzzle, bitvector=False)
    return Script.of(
        [*_header("QF_LIA"), *n.declarations(), *n.bounds(), *n.blocks_pairwise(), *n.touching_differ(), *n.query()]
    )


def encode_bv(puzzle: Puzzle) -> Script:
    """Bit-vectors just wide enough for the largest block, otherwise as ``int-distinct`` (QF_BV)."""
    n = _Numbers(puzzle, bitvector=True)
    return Script.of(
        [*_header("QF_BV"), *n.declarations(), *n.bounds(), *n.blocks_distinct(), *n.touching_differ(), *n.query()]
    )


def _at_most_one(terms: list[Term]) -> Iterator[Command]:
    for i, a in enumerate(terms):
        for b in terms[i + 1 :]:
            yield assertion(("not", ("and", a, b)))


class _OneHot:
    """One Boolean per cell and possible value."""

    def __init__(self, puzzle: Puzzle):
        self.p = puzzle
        self.dom = domains(puzzle)

    def declarations(self) -> Iterator[Command]:
        for (r, c), dom in self.dom.items():
            for v in dom:
                yield declare(value_var(r, c, v), "Bool")

    def one_value_per_cell(self) -> Iterator[Command]:
        """Exactly one value per cell (a given's single Boolean is simply asserted)."""
        for (r, c), dom in self.dom.items():
            options: list[Term] = [value_var(r, c, v) for v in dom]
            yield assertion(disj(options) if options else "false")
            yield from _at_most_one(options)

    def each_value_once_per_block(self) -> Iterator[Command]:
        """A block of n cells holds each of 1..n in exactly one of its cells."""
        for block in self.p.block_cells():
            for v in range(1, len(block) + 1):
                cells_with_v = [(r, c) for r, c in block if v in self.dom[r, c]]
                holders: list[Term] = [value_var(r, c, v) for r, c in cells_with_v]
                if len(cells_with_v) == 1 and len(self.dom[cells_with_v[0]]) == 1:
                    continue  # a given, already asserted by one_value_per_cell
                yield assertion(disj(holders) if holders else "false")
                yield from _at_most_one(holders)

    def touching_differ(self) -> Iterator[Command]:
        """Touching cells of different blocks never hold the same value."""
        for a, b in touching_pairs(self.p, self.dom):
            for v in self.dom[a]:
                if v in self.dom[b]:
                    yield assertion(("not", ("and", value_var(*a, v), value_var(*b, v))))

    def query(self) -> list[Command]:
        return _query([value_var(r, c, v) for (r, c), dom in self.dom.items() for v in dom])


def encode_onehot(puzzle: Puzzle) -> Script:
    """One Boolean per cell and value, pure propositional (QF_UF); get-value of the Booleans."""
    o = _OneHot(puzzle)
    return Script.of(
        [
            *_header("QF_UF"),
            *o.declarations(),
            *o.one_value_per_cell(),
            *o.each_value_once_per_block(),
            *o.touching_differ(),
            *o.query(),
        ]
    )
