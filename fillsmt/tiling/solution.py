"""A tiling as a solution: the placed copies, read back from the labelled grid and checked.

The plain output of a tiling is a labelled grid (:func:`~fillsmt.tiling.render.render_plain`):
one character per cell, equal characters on the cells of one copy (touching copies always
differ), ``.`` uncovered, ``#`` blocked. :func:`parse_labelled` reads such a grid back: each
connected group of equal labels is one copy, and the piece it is a copy of is found among the
images the referee (:mod:`fillsmt.tiling.verify`) allows (a group that is no copy of any piece is
kept aside, and :func:`check` reports it). :func:`check` hands the copies to the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

from fillsmt.errors import FormatError
from fillsmt.tiling.model import Placement, TilingProblem
from fillsmt.tiling.verify import allowed_images, check_tiling

Cell = tuple[int, int]


@dataclass(frozen=True)
class Tiling:
    """The copies placed on ``problem``'s board (in any order)."""

    problem: TilingProblem
    placements: tuple[Placement, ...]
    unknown: tuple[tuple[str, tuple[Cell, ...]], ...] = ()
    """(label, cells) of groups in a labelled grid that are no copy of any piece."""

    @property
    def covered(self) -> int:
        return sum(len(p.cells) for p in self.placements)

    def placed(self) -> list[tuple[str, tuple[Cell, ...]]]:
        """(piece name, cells) of each copy: what the referee reads."""
        return [(self.problem.pieces[p.piece].name, p.cells) for p in self.placements]


def check(problem: TilingProblem, tiling: Tiling, covered: int | None = None) -> list[str]:
    """Every rule ``tiling`` breaks on ``problem`` (empty: a legal tiling)."""
    names = ", ".join(p.name for p in problem.pieces)
    return [
        f"the {len(cells)} cell{'s' if len(cells) > 1 else ''} labelled {label!r} "
        f"from cell {cells[0][0]} {cells[0][1]} are not a copy "
        f"of any piece ({names}{' in any allowed turn' if problem.rotations or problem.reflections else ''})"
        for label, cells in tiling.unknown
    ] + check_tiling(
        problem.height,
        problem.width,
        problem.blocked,
        {p.name: p.cells for p in problem.pieces},
        {p.name: p.limit for p in problem.pieces},
        problem.rotations,
        problem.reflections,
        tiling.placed(),
        covered,
    )


def _groups(rows: list[str]) -> list[tuple[str, list[Cell]]]:
    """Connected groups (4-neighbours) of equal characters other than ``.`` and ``#``."""
    seen: set[Cell] = set()
    groups = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in ".#" or (r, c) in seen:
                continue
            seen.add((r, c))
            todo, cells = [(r, c)], []
            while todo:
                cell = todo.pop()
                cells.append(cell)
                y, x = cell
                for n in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if (
                        n not in seen
                        and 0 <= n[0] < len(rows)
                        and 0 <= n[1] < len(rows[n[0]])
                        and rows[n[0]][n[1]] == ch
                    ):
                        seen.add(n)
                        todo.append(n)
            groups.append((ch, sorted(cells)))
    return groups


def parse_labelled(text: str, source: str, problem: TilingProblem) -> Tiling:
    """The copies drawn in a labelled grid (comments ``#…`` with a space and blank lines
    skipped); a :class:`FormatError` names the line of what does not fit."""
    rows: list[str] = []
    first_line: dict[int, int] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or (line.startswith("#") and (" " in line or len(rows) >= problem.height)):
            continue
        if len(rows) == problem.height:
            raise FormatError(source, n, f"more than the board's {problem.height} rows")
        if len(line) != problem.width:
            raise FormatError(
                source, n, f"expected a row of {problem.width} characters (one per cell), found {len(line)}"
            )
        first_line[len(rows)] = n
        rows.append(line)
    if len(rows) < problem.height:
        raise FormatError(source, None, f"expected {problem.height} rows of the labelled grid, found {len(rows)}")
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ((r, c) in problem.blocked) != (ch == "#"):
                what = "is blocked but not marked #" if (r, c) in problem.blocked else "is not blocked but marked #"
                raise FormatError(source, first_line[r], f"cell {r} {c} {what}")
    shapes = [
        (k, allowed_images(piece.cells, problem.rotations, problem.reflections))
        for k, piece in enumerate(problem.pieces)
    ]
    chosen, unknown = [], []
    for label, cells in _groups(rows):
        top, left = min(r for r, _ in cells), min(c for _, c in cells)
        shape = frozenset((r - top, c - left) for r, c in cells)
        piece = next((k for k, images in shapes if shape in images), None)
        if piece is None:
            unknown.append((label, tuple(cells)))
        else:
            chosen.append(Placement(piece, -1, top, left, tuple(cells)))
    return Tiling(problem, tuple(chosen), tuple(unknown))


__all__ = ["Tiling", "check", "parse_labelled"]
