"""The ``pretty`` picture of a grid: numbers, with box-drawing lines along region borders."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

# Junction glyph by the arms it has: (up, down, left, right).
_JUNCTION = {
    (0, 0, 0, 0): " ",
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (1, 1, 1, 1): "┼",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def render_pretty(grid: Sequence[Sequence[object]], marked: Iterable[tuple[int, int]] = ()) -> str:
    """Draw ``grid`` with a border between every two side-by-side cells of different numbers;
    each ``marked`` cell (row, column) gets a ``*`` before its number. The cells may be any
    values that compare and print (:func:`fillsmt.tiling.render.render_pretty` draws its own)."""
    marked = set(marked)
    height, width = len(grid), len(grid[0])
    cell_w = max(len(str(v)) for row in grid for v in row) + 2

    def value(r: int, c: int):
        return grid[r][c] if 0 <= r < height and 0 <= c < width else None

    def vwall(r: int, c: int) -> bool:
        """Wall on the left side of cell (r, c); c may be width (the right edge)."""
        return 0 <= r < height and value(r, c - 1) != value(r, c)

    def hwall(r: int, c: int) -> bool:
        """Wall on the top side of cell (r, c); r may be height (the bottom edge)."""
        return 0 <= c < width and value(r - 1, c) != value(r, c)

    lines = []
    for r in range(height + 1):
        border = []
        for c in range(width + 1):
            arms = (int(vwall(r - 1, c)), int(vwall(r, c)), int(hwall(r, c - 1)), int(hwall(r, c)))
            border.append(_JUNCTION[arms])
            if c < width:
                border.append(("─" if hwall(r, c) else " ") * cell_w)
        lines.append("".join(border).rstrip())
        if r < height:
            row = []
            for c in range(width + 1):
                row.append("│" if vwall(r, c) else " ")
                if c < width:
                    text = str(grid[r][c]).center(cell_w)
                    row.append("*" + text[1:] if (r, c) in marked else text)
            lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


# --- the SVG picture (:mod:`fillsmt.pictures.svg` draws it) --------------------------------------


def svg_picture(
    puzzle: Any,
    grid: Sequence[Sequence[int]] | None = None,
    *,
    style: Any = None,
    title: str | None = None,
    notes: Iterable[Any] = (),
) -> str:
    """A Fillomino puzzle, or its solution when ``grid`` is given (regions = equal numbers). A
    ``grid`` may be partial (a player's, 0 = empty): borders are drawn only between two filled
    cells of different numbers."""
    from fillsmt.pictures.svg import DEFAULT_STYLE, check_shape, grid_svg, number_texts

    labels = None
    if grid is not None:
        check_shape(grid, puzzle.height, puzzle.width, "solution")
        labels = [[v or None for v in row] for row in grid]
    return grid_svg(
        puzzle.height,
        puzzle.width,
        labels=labels,
        texts=number_texts(puzzle.cells, grid),
        style=style or DEFAULT_STYLE,
        title=title,
        notes=notes,
    )
