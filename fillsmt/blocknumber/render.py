"""The ``pretty`` picture of a BlockNumber puzzle or solution: heavy box-drawing lines along block
borders and the outer edge, light lines between cells of one block."""

from __future__ import annotations

import unicodedata
from typing import Any

from fillsmt.blocknumber.model import Grid, Puzzle

NONE, LIGHT, HEAVY = 0, 1, 2

_WEIGHTS = {"LIGHT": LIGHT, "HEAVY": HEAVY}
_DIRECTIONS = {
    "UP": ("UP",),
    "DOWN": ("DOWN",),
    "LEFT": ("LEFT",),
    "RIGHT": ("RIGHT",),
    "VERTICAL": ("UP", "DOWN"),
    "HORIZONTAL": ("LEFT", "RIGHT"),
}


def _arms(name: str) -> tuple[int, int, int, int] | None:
    """The (up, down, left, right) weights a box-drawing character's Unicode name describes, e.g.
    ``BOX DRAWINGS DOWN LIGHT AND RIGHT HEAVY``; None for dashed, double or rounded lines. A part
    without a weight word takes the previous part's (``LIGHT DOWN AND RIGHT``)."""
    arms = dict.fromkeys(("UP", "DOWN", "LEFT", "RIGHT"), NONE)
    weight = None
    for part in name.removeprefix("BOX DRAWINGS ").split(" AND "):
        words = part.split()
        weight = next((_WEIGHTS[w] for w in words if w in _WEIGHTS), weight)
        for word in words:
            if word in _WEIGHTS:
                continue
            if word not in _DIRECTIONS or weight is None:
                return None
            for direction in _DIRECTIONS[word]:
                arms[direction] = weight
    return arms["UP"], arms["DOWN"], arms["LEFT"], arms["RIGHT"]


def _junctions() -> dict[tuple[int, int, int, int], str]:
    table = {(NONE, NONE, NONE, NONE): " "}
    for code in range(0x2500, 0x2580):
        arms = _arms(unicodedata.name(chr(code)))
        if arms is not None:
            table.setdefault(arms, chr(code))
    return table


JUNCTION = _junctions()
"""Junction glyph by the weights of its (up, down, left, right) arms: all 81 combinations."""

_HORIZONTAL = {NONE: " ", LIGHT: "─", HEAVY: "━"}
_VERTICAL = {NONE: " ", LIGHT: "│", HEAVY: "┃"}


def render_pretty(puzzle: Puzzle, grid: Grid | None = None) -> str:
    """Draw ``grid`` (a solution) or, when it is None, the puzzle's givens (``.`` = empty)."""
    height, width, blocks = puzzle.height, puzzle.width, puzzle.blocks
    shown = (
        [[str(v) for v in row] for row in grid]
        if grid is not None
        else [[str(v) if v else "." for v in row] for row in puzzle.givens]
    )
    cell_w = max(len(s) for row in shown for s in row) + 2

    def vwall(r: int, c: int) -> int:
        """The line on the left side of cell (r, c); c may be width (the right edge)."""
        if not 0 <= r < height:
            return NONE
        if c in (0, width) or blocks[r][c - 1] != blocks[r][c]:
            return HEAVY
        return LIGHT

    def hwall(r: int, c: int) -> int:
        """The line on the top side of cell (r, c); r may be height (the bottom edge)."""
        if not 0 <= c < width:
            return NONE
        if r in (0, height) or blocks[r - 1][c] != blocks[r][c]:
            return HEAVY
        return LIGHT

    lines = []
    for r in range(height + 1):
        border = []
        for c in range(width + 1):
            border.append(JUNCTION[vwall(r - 1, c), vwall(r, c), hwall(r, c - 1), hwall(r, c)])
            if c < width:
                border.append(_HORIZONTAL[hwall(r, c)] * cell_w)
        lines.append("".join(border))
        if r < height:
            row = []
            for c in range(width + 1):
                row.append(_VERTICAL[vwall(r, c)])
                if c < width:
                    row.append(shown[r][c].center(cell_w))
            lines.append("".join(row))
    return "\n".join(lines) + "\n"


# --- the SVG picture (:mod:`fillsmt.pictures.svg` draws it) --------------------------------------


def svg_picture(puzzle: Any, grid: Any = None, *, style: Any = None, title: str | None = None) -> str:
    """A BlockNumber (Suguru) puzzle with its block borders, and its solution when given."""
    from fillsmt.pictures.svg import DEFAULT_STYLE, check_shape, grid_svg, number_texts

    if grid is not None:
        check_shape(grid, puzzle.height, puzzle.width, "solution")
    return grid_svg(
        puzzle.height,
        puzzle.width,
        labels=puzzle.blocks,
        texts=number_texts(puzzle.givens, grid),
        style=style or DEFAULT_STYLE,
        title=title,
    )
