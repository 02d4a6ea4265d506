"""Pictures of a tiling: a labelled grid (``plain``) and one with borders (``pretty``)."""

from __future__ import annotations

import string
from typing import Any, Hashable, Sequence

from fillsmt.fillomino.render import render_pretty as _boxed
from fillsmt.tiling.model import Placement, TilingProblem

LABELS = string.ascii_uppercase + string.ascii_lowercase + string.digits
"""Plain labels, chosen per placed copy so that touching copies differ."""


def _owners(problem: TilingProblem, chosen: Sequence[Placement]) -> dict[tuple[int, int], int]:
    return {cell: i for i, p in enumerate(chosen) for cell in p.cells}


def _labels(chosen: Sequence[Placement], owner: dict) -> list[str]:
    labels: list[str] = []
    for i, p in enumerate(chosen):
        taken = set()
        for r, c in p.cells:
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = owner.get(n)
                if j is not None and j < i:
                    taken.add(labels[j])
        labels.append(next((ch for ch in LABELS if ch not in taken), "?"))
    return labels


def render_plain(problem: TilingProblem, chosen: Sequence[Placement]) -> str:
    """One character per cell: a letter or digit per placed copy (touching copies differ),
    ``.`` uncovered, ``#`` blocked."""
    owner = _owners(problem, chosen)
    labels = _labels(chosen, owner)
    rows = []
    for r in range(problem.height):
        row = []
        for c in range(problem.width):
            if (r, c) in problem.blocked:
                row.append("#")
            elif (r, c) in owner:
                row.append(labels[owner[(r, c)]])
            else:
                row.append(".")
        rows.append("".join(row))
    return "\n".join(rows) + "\n"


class _Cell:
    """A grid value that prints as the piece name but compares by placed copy."""

    def __init__(self, key, text: str):
        self.key, self.text = key, text

    def __eq__(self, other) -> bool:
        return isinstance(other, _Cell) and self.key == other.key

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return self.text


def render_pretty(problem: TilingProblem, chosen: Sequence[Placement]) -> str:
    """The piece names, with box-drawing borders between different copies; ``#`` blocked and
    ``.`` uncovered cells each form their own boxes."""
    owner = _owners(problem, chosen)
    grid = []
    for r in range(problem.height):
        row = []
        for c in range(problem.width):
            if (r, c) in problem.blocked:
                row.append(_Cell(("blocked", r, c), "#"))
            elif (r, c) in owner:
                i = owner[(r, c)]
                row.append(_Cell(i, problem.pieces[chosen[i].piece].name))
            else:
                row.append(_Cell(("free", r, c), "."))
        grid.append(row)
    return _boxed(grid)


# --- the SVG picture (:mod:`fillsmt.pictures.svg` draws it) --------------------------------------


def svg_picture(problem: Any, tiling: Any = None, *, style: Any = None, title: str | None = None) -> str:
    """A tiling problem's board (blocked cells shaded), or a tiling: each copy outlined and
    labelled with its piece's name, uncovered and blocked cells shaded."""
    from fillsmt.pictures.svg import DEFAULT_STYLE, CellText, grid_svg

    labels: list[list[Hashable]] = [["" for _ in range(problem.width)] for _ in range(problem.height)]
    names: dict[tuple[int, int], str] = {}
    for index, placement in enumerate(tiling.placements if tiling is not None else ()):
        for r, c in placement.cells:
            labels[r][c] = (index, problem.pieces[placement.piece].name)
            names[(r, c)] = problem.pieces[placement.piece].name
    for r, c in problem.blocked:
        labels[r][c] = "."
    if tiling is not None:
        labels = [[v if v != "" else "." for v in row] for row in labels]
    shaded = [(r, c) for r in range(problem.height) for c in range(problem.width) if labels[r][c] == "."]
    texts = [CellText(r, c, name, "label") for (r, c), name in sorted(names.items())]
    return grid_svg(
        problem.height,
        problem.width,
        labels=labels,
        texts=texts,
        shaded=shaded,
        style=style or DEFAULT_STYLE,
        title=title,
    )
