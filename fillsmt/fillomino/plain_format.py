"""The plain grid format (from the thesis): ``H W`` then H×W integers, 0 for an empty cell.

Any whitespace layout is accepted. Every problem is reported as a :class:`FormatError` naming
the file, the line and what was expected.
"""

from __future__ import annotations

import re

from fillsmt.errors import FormatError
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.formats.text import MAX_SIDE, read_text

_INT = re.compile(r"[0-9]+")
_NEG = re.compile(r"-[0-9]+")


def _tokens(text: str) -> list[tuple[str, int]]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        out.extend((tok, number) for tok in line.split())
    return out


def _integer(tok: str, line: int, source: str, what: str) -> int:
    if _INT.fullmatch(tok):
        return int(tok)
    if _NEG.fullmatch(tok):
        raise FormatError(source, line, f"{what} is negative ({tok}); expected 0 or a positive integer")
    raise FormatError(source, line, f"expected an integer for {what}, found {tok!r}")


def parse_grid(text: str, source: str = "<text>") -> tuple[int, int, Grid]:
    """Parse ``H W`` and H×W non-negative integers. Returns (height, width, rows)."""
    toks = _tokens(text)
    if not toks:
        raise FormatError(source, 1, "the file is empty; expected the height and width, then the grid")
    if len(toks) < 2:
        raise FormatError(source, toks[0][1], "expected the height and the width, found only one number")
    dims = []
    for (tok, line), name in zip(toks[:2], ("the height", "the width")):
        value = _integer(tok, line, source, name)
        if value < 1:
            raise FormatError(source, line, f"{name} must be at least 1, found {value}")
        if value > MAX_SIDE:
            raise FormatError(source, line, f"{name} {value} is larger than the limit of {MAX_SIDE}")
        dims.append(value)
    height, width = dims
    expected = height * width
    cells = toks[2:]
    if len(cells) < expected:
        last_line = toks[-1][1]
        raise FormatError(
            source, last_line,
            f"expected {expected} cell values ({height} rows of {width}), found {len(cells)}",
        )
    if len(cells) > expected:
        tok, line = cells[expected]
        raise FormatError(
            source, line,
            f"expected {expected} cell values ({height} rows of {width}), found {len(cells)}; "
            f"the first extra value is {tok!r}",
        )
    values = []
    for i, (tok, line) in enumerate(cells):
        r, c = divmod(i, width)
        values.append(_integer(tok, line, source, f"the cell at row {r + 1}, column {c + 1}"))
    rows = tuple(tuple(values[r * width : (r + 1) * width]) for r in range(height))
    return height, width, rows


def parse_puzzle(text: str, source: str = "<text>") -> Puzzle:
    """Parse a Fillomino puzzle; a clue larger than the grid is refused."""
    height, width, rows = parse_grid(text, source)
    area = height * width
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v > area:
                raise FormatError(
                    source, _line_of_cell(text, r * width + c),
                    f"the clue {v} at row {r + 1}, column {c + 1} is larger than the grid "
                    f"({height}x{width} = {area} cells)",
                )
    return Puzzle(height, width, rows, source)


def _line_of_cell(text: str, index: int) -> int:
    return _tokens(text)[2 + index][1]


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
