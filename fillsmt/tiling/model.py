"""The tiling problem as data: pieces, orientations, placements and upper bounds.

Cells are ``(row, col)`` pairs counted from 0 at the top-left corner, rows going down.
A piece's cells are normalised: the smallest row and the smallest column are 0.

Orientations: with ``rotations`` the four quarter turns; with ``reflections`` also the mirror
image (left–right); with both, all eight symmetries; with neither, the piece as drawn.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar, Iterable

from fillsmt.grid import cell_groups
from fillsmt.pictures.notebook import ShowsAsSvg

Cell = tuple[int, int]


def normalise(cells: Iterable[Cell]) -> frozenset[Cell]:
    """``cells`` shifted so that their smallest row and smallest column are 0."""
    cells = list(cells)
    if not cells:
        return frozenset()
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def extent(cells: Iterable[Cell]) -> tuple[int, int]:
    """(height, width) of the bounding box of normalised ``cells``."""
    cells = list(cells)
    return (max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1) if cells else (0, 0)


def is_connected(cells: frozenset[Cell]) -> bool:
    """True when ``cells`` is non-empty and 4-connected."""
    return len(cell_groups(cells)) == 1


@dataclass(frozen=True)
class Piece:
    """A polyomino: its name, its normalised cells, and how many copies may be used (None: any)."""

    name: str
    cells: frozenset[Cell]
    limit: int | None = None

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class TilingProblem(ShowsAsSvg):
    """An H×W board with blocked cells, the pieces, and the orientations allowed."""

    kind: ClassVar[str] = "tiling"
    """The name of the puzzle's kind in the registry (:mod:`fillsmt.kinds`)."""

    height: int
    width: int
    blocked: frozenset[Cell]
    pieces: tuple[Piece, ...]
    rotations: bool = False
    reflections: bool = False
    source: str = "<problem>"

    @property
    def free_cells(self) -> int:
        return self.height * self.width - len(self.blocked)


@dataclass(frozen=True)
class Placement:
    """One way to put one piece on the board: the piece's index, the orientation's index in
    :func:`orientations`, the top-left corner of the orientation's bounding box, and the cells."""

    piece: int
    orientation: int
    row: int
    col: int
    cells: tuple[Cell, ...]


def _rotate(cells: frozenset[Cell]) -> frozenset[Cell]:
    """A quarter turn clockwise."""
    return normalise((c, -r) for r, c in cells)


def _mirror(cells: frozenset[Cell]) -> frozenset[Cell]:
    """The left–right mirror image."""
    return normalise((r, -c) for r, c in cells)


def orientations(cells: frozenset[Cell], rotations: bool, reflections: bool) -> tuple[frozenset[Cell], ...]:
    """The distinct orientations of a piece's ``cells``, the piece as drawn first."""
    base = normalise(cells)
    candidates = [base]
    if reflections:
        candidates.append(_mirror(base))
    if rotations:
        for start in list(candidates):
            shape = start
            for _ in range(3):
                shape = _rotate(shape)
                candidates.append(shape)
    out: list[frozenset[Cell]] = []
    for shape in candidates:
        if shape not in out:
            out.append(shape)
    return tuple(out)


def piece_orientations(problem: TilingProblem, index: int) -> tuple[frozenset[Cell], ...]:
    return orientations(problem.pieces[index].cells, problem.rotations, problem.reflections)


@functools.lru_cache(maxsize=16)
def placements(problem: TilingProblem) -> tuple[Placement, ...]:
    """Every placement inside the board and off the blocked cells, in a fixed order
    (piece, orientation, row, column). A piece whose limit is 0 has none."""
    out = []
    for k, piece in enumerate(problem.pieces):
        if piece.limit == 0:
            continue
        for o, shape in enumerate(piece_orientations(problem, k)):
            h, w = extent(shape)
            ordered = sorted(shape)
            for r in range(problem.height - h + 1):
                for c in range(problem.width - w + 1):
                    cells = tuple((r + dr, c + dc) for dr, dc in ordered)
                    if not any(cell in problem.blocked for cell in cells):
                        out.append(Placement(k, o, r, c, cells))
    return tuple(out)


def cover_lists(problem: TilingProblem) -> dict[Cell, list[int]]:
    """For each coverable cell (in row-major order), the indices of the placements covering it.
    Cells no placement can cover are absent."""
    covers: dict[Cell, list[int]] = {}
    for i, p in enumerate(placements(problem)):
        for cell in p.cells:
            covers.setdefault(cell, []).append(i)
    return {cell: covers[cell] for cell in sorted(covers)}


def best_sum(target: int, pieces: Iterable[tuple[int, int | None]]) -> int:
    """The largest number ≤ ``target`` that is a sum of piece sizes, each (size, limit) used at
    most ``limit`` times (any number of times when the limit is None)."""
    mask = (1 << (target + 1)) - 1
    reachable = 1  # bit s set: s is a sum
    for size, limit in pieces:
        if size <= 0 or size > target:
            continue
        copies = target // size if limit is None else min(limit, target // size)
        for _ in range(copies):
            grown = (reachable | (reachable << size)) & mask
            if grown == reachable:
                break
            reachable = grown
    return reachable.bit_length() - 1


@dataclass(frozen=True)
class Bounds:
    """Upper bounds on the covered cells, each valid on its own; ``best`` is the smallest."""

    free: int  # cells not blocked
    coverable: int  # cells some placement covers
    sums: int  # largest sum of piece sizes (limits kept) ≤ coverable
    components: int  # the same, region by region of coverable cells (pieces are connected)

    @property
    def best(self) -> int:
        return min(self.free, self.coverable, self.sums, self.components)


def upper_bounds(problem: TilingProblem) -> Bounds:
    covers = cover_lists(problem)
    usable = [(p.size, p.limit) for p in problem.pieces if p.limit != 0]
    coverable = len(covers)
    sums = best_sum(coverable, usable)
    components = sum(best_sum(n, usable) for n in map(len, cell_groups(covers)))
    return Bounds(problem.free_cells, coverable, sums, components)


def upper_bound(problem: TilingProblem) -> int:
    """The best of the :class:`Bounds`: no tiling covers more cells."""
    return upper_bounds(problem).best
