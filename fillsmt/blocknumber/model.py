"""The BlockNumber (Suguru) puzzle as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator, Sequence

from fillsmt.grid import empty_count, filled_cells
from fillsmt.pictures.notebook import ShowsAsSvg

Grid = tuple[tuple[int, ...], ...]


def normalise_labels(labels: Sequence[Sequence[int]]) -> Grid:
    """The same partition with labels renumbered 0, 1, 2, … in row-major order of first appearance."""
    renumber: dict[int, int] = {}
    return tuple(tuple(renumber.setdefault(v, len(renumber)) for v in row) for row in labels)


@dataclass(frozen=True)
class Puzzle(ShowsAsSvg):
    """A BlockNumber puzzle.

    ``givens[r][c]`` is a given number (> 0) or 0 for an empty cell; ``blocks[r][c]`` is the label
    of the block the cell belongs to, normalised to 0..k-1 in row-major order of first appearance
    (so two puzzles with the same partition have equal ``blocks``; labels given otherwise, or
    lists instead of tuples, are normalised on construction). A block of n cells holds 1..n once
    each, and no two king-adjacent cells (diagonals included) hold the same number.
    """

    kind: ClassVar[str] = "blocknumber"
    """The name of the puzzle's kind in the registry (:mod:`fillsmt.kinds`)."""

    height: int
    width: int
    givens: Grid
    blocks: Grid
    source: str = "<puzzle>"

    def __post_init__(self) -> None:
        object.__setattr__(self, "givens", tuple(tuple(row) for row in self.givens))
        object.__setattr__(self, "blocks", normalise_labels(self.blocks))

    @property
    def block_count(self) -> int:
        return 1 + max((v for row in self.blocks for v in row), default=-1)

    def block_cells(self) -> list[list[tuple[int, int]]]:
        """The cells of each block, indexed by label, each list in row-major order."""
        cells: list[list[tuple[int, int]]] = [[] for _ in range(self.block_count)]
        for r, row in enumerate(self.blocks):
            for c, label in enumerate(row):
                cells[label].append((r, c))
        return cells

    def block_sizes(self) -> list[int]:
        """The number of cells of each block, indexed by label."""
        sizes = [0] * self.block_count
        for row in self.blocks:
            for label in row:
                sizes[label] += 1
        return sizes

    def block_of(self, r: int, c: int) -> int:
        return self.blocks[r][c]

    def block_size(self, r: int, c: int) -> int:
        """The size of the block cell (r, c) belongs to: the largest number it may hold."""
        label = self.blocks[r][c]
        return sum(row.count(label) for row in self.blocks)

    def given_cells(self) -> Iterator[tuple[int, int, int]]:
        """Every given as (row, column, value), row by row."""
        return filled_cells(self.givens)

    @property
    def empty_cells(self) -> int:
        return empty_count(self.givens)
