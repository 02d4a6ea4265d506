"""The Fillomino puzzle as data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator

from fillsmt.grid import empty_count, filled_cells
from fillsmt.pictures.notebook import ShowsAsSvg

Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Puzzle(ShowsAsSvg):
    """A Fillomino puzzle: ``cells[r][c]`` is a clue (> 0) or 0 for an empty cell."""

    kind: ClassVar[str] = "fillomino"
    """The name of the puzzle's kind in the registry (:mod:`fillsmt.kinds`)."""

    height: int
    width: int
    cells: Grid
    source: str = "<puzzle>"

    def clues(self) -> Iterator[tuple[int, int, int]]:
        """Every clue as (row, column, value), row by row."""
        return filled_cells(self.cells)

    @property
    def empty_cells(self) -> int:
        return empty_count(self.cells)
