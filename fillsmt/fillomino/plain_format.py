"""The plain grid format (from the thesis): ``H W`` then H×W integers, 0 for an empty cell.

Any whitespace layout is accepted. Every problem is reported as a :class:`FormatError` naming
the file, the line and what was expected.
"""

from __future__ import annotations

from fillsmt import limits
from fillsmt.errors import FormatError
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.formats.text import read_size, read_text, tokens


def _integer(tok: str, line: int, source: str, what: str) -> int:
    try:
        return limits.integer(tok, what)
    except ValueError as e:
        raise FormatError(source, line, str(e)) from None


def parse_grid(text: str, source: str = "<text>", puzzle: bool = False) -> tuple[int, int, Grid]:
    """Parse ``H W`` and H×W non-negative integers. Returns (height, width, rows). With
    ``puzzle``, far too many values (more than half again) are said to be how a BlockNumber
    puzzle looks: one such puzzle short of a value is not taken for Fillomino silently."""
    toks = tokens(text, source)
    height, width = read_size(toks, source, "the grid", lambda tok, name: _integer(*tok, source, name))
    expected = height * width
    cells = toks[2:]
    if len(cells) < expected:
        last_line = toks[-1][1]
        raise FormatError(
            source,
            last_line,
            f"expected {expected} cell values ({height} rows of {width}), found {len(cells)}",
        )
    if len(cells) > expected:
        tok, line = cells[expected]
        also = (
            (f" (a BlockNumber puzzle has {2 * expected}: {height} rows of givens, then {height} rows of block labels)")
            if puzzle and 2 * len(cells) > 3 * expected
            else ""
        )
        raise FormatError(
            source,
            line,
            f"expected {expected} cell values ({height} rows of {width}), found {len(cells)}; "
            f"the first extra value is {limits.shown(tok)}{also}",
        )
    values = []
    for i, (tok, line) in enumerate(cells):
        r, c = divmod(i, width)
        values.append(_integer(tok, line, source, f"the cell at row {r + 1}, column {c + 1}"))
    rows = tuple(tuple(values[r * width : (r + 1) * width]) for r in range(height))
    return height, width, rows


def parse_puzzle(text: str, source: str = "<text>") -> Puzzle:
    """Parse a Fillomino puzzle; a clue larger than the grid is refused."""
    height, width, rows = parse_grid(text, source, puzzle=True)
    area = height * width
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v > area:
                raise FormatError(
                    source,
                    _line_of_cell(text, r * width + c),
                    f"the clue {v} at row {r + 1}, column {c + 1} is larger than the grid "
                    f"({height}x{width} = {area} cells)",
                )
    return Puzzle(height, width, rows, source)


def _line_of_cell(text: str, index: int) -> int:
    return tokens(text, "<text>")[2 + index][1]


def read_puzzle(path: str) -> Puzzle:
    text, source = read_text(path)
    return parse_puzzle(text, source)


def read_grid(path: str) -> tuple[int, int, Grid]:
    text, source = read_text(path)
    return parse_grid(text, source)


def format_grid(rows: Grid) -> str:
    """The plain format: an ``H W`` line, then the rows with right-aligned columns."""
    height, width = len(rows), len(rows[0]) if rows else 0
    cell = max((len(str(v)) for row in rows for v in row), default=1)
    lines = [f"{height} {width}"]
    lines += [" ".join(str(v).rjust(cell) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def format_puzzle(puzzle: Puzzle) -> str:
    return format_grid(puzzle.cells)
