"""The BlockNumber plain format: ``H W``, then H rows of givens (0 = empty), then H rows of block
labels (any integers; equal labels make one block, which must be connected).

Any whitespace layout is accepted. Every problem is reported as a :class:`FormatError` naming
the file, the line and what was expected; a puzzle whose givens already break the rules (a given
larger than its block, two equal givens in one block or in touching cells) is refused with the
cells named, rows and columns counted from 1. A solution file is ``H W`` then H rows of numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fillsmt import limits
from fillsmt.blocknumber.names import KING_STEPS
from fillsmt.errors import FormatError
from fillsmt.formats.text import read_size, read_text, tokens
from fillsmt.grid import cell_groups

if TYPE_CHECKING:  # the model loads when a puzzle is read, not when a file's kind is told
    from fillsmt.blocknumber.model import Grid, Puzzle


Token = tuple[str, int]
"""A whitespace-separated word of the file and the line it is on."""


def _at(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


def _natural(tok: Token, source: str, what: str, negative: bool = False) -> int:
    text, line = tok
    try:
        return limits.integer(text, what, negative=negative)
    except ValueError as e:
        raise FormatError(source, line, str(e)) from None


def _label(tok: Token, source: str, what: str) -> int:
    return _natural(tok, source, what, negative=True)


def _size(toks: list[Token], source: str, expected: str) -> tuple[int, int]:
    """The height and width from the first two tokens."""
    return read_size(toks, source, expected, lambda tok, name: _side(tok, source, name))


def _side(tok: Token, source: str, name: str) -> int:
    text, line = tok
    if limits.is_int(text, negative=True) and text.startswith("-"):
        raise FormatError(source, line, f"{name} is negative ({text}); expected a positive integer")
    return _natural(tok, source, name)


def _rows(values: list[int], height: int, width: int) -> Grid:
    return tuple(tuple(values[r * width : (r + 1) * width]) for r in range(height))


def _check_count(toks: list[Token], body: list[Token], height: int, width: int, source: str) -> None:
    cells = height * width
    expected = 2 * cells
    shape = (
        f"expected {expected} values after the height and width ({height} rows of {width} givens, "
        f"then {height} rows of {width} block labels)"
    )
    if len(body) < expected:
        line = toks[-1][1]
        if len(body) == cells:
            raise FormatError(source, line, f"{shape}, found only {cells}: the block labels are missing")
        raise FormatError(source, line, f"{shape}, found {len(body)}")
    if len(body) > expected:
        text, line = body[expected]
        raise FormatError(source, line, f"{shape}, found {len(body)}; the first extra value is {text!r}")


class _Reader:
    """The checks that need the whole puzzle read; each error names the line of the cell it cites."""

    def __init__(
        self, source: str, height: int, width: int, givens: Grid, labels: Grid, given_lines: Grid, label_lines: Grid
    ):
        self.source, self.h, self.w = source, height, width
        self.givens, self.labels = givens, labels
        self.given_lines, self.label_lines = given_lines, label_lines

    def cells_by_label(self) -> dict[int, list[tuple[int, int]]]:
        out: dict[int, list[tuple[int, int]]] = {}
        for r in range(self.h):
            for c in range(self.w):
                out.setdefault(self.labels[r][c], []).append((r, c))
        return out

    def check_connected(self, label: int, cells: list[tuple[int, int]]) -> None:
        start = cells[0]  # the block's first cell, row by row: cell_groups' first group holds it
        seen = set(cell_groups(cells)[0])
        for r, c in cells:
            if (r, c) not in seen:
                raise FormatError(
                    self.source,
                    self.label_lines[r][c],
                    f"the block labelled {label} is not connected: {_at(*start)} and {_at(r, c)} are both "
                    f"labelled {label}, but no path of side-by-side cells labelled {label} joins them",
                )

    def check_givens_fit(self, label: int, cells: list[tuple[int, int]]) -> None:
        first_with: dict[int, tuple[int, int]] = {}
        for r, c in cells:
            v = self.givens[r][c]
            if not v:
                continue
            if v > len(cells):
                raise FormatError(
                    self.source,
                    self.given_lines[r][c],
                    f"the given {v} at {_at(r, c)} is larger than its block (label {label}, "
                    f"{len(cells)} cell{'s' if len(cells) != 1 else ''}); a block of n cells holds 1..n",
                )
            if v in first_with:
                raise FormatError(
                    self.source,
                    self.given_lines[r][c],
                    f"the givens at {_at(*first_with[v])} and {_at(r, c)} are both {v}, in the same block "
                    f"(label {label}); a block holds each number once",
                )
            first_with[v] = (r, c)

    def check_touching_givens(self) -> None:
        for r in range(self.h):
            for c in range(self.w):
                v = self.givens[r][c]
                for dr, dc in KING_STEPS[:4]:  # the neighbours read before (r, c)
                    pr, pc = r + dr, c + dc
                    if 0 <= pr < self.h and 0 <= pc < self.w and v and self.givens[pr][pc] == v:
                        how = "diagonally" if dr and dc else "side by side"
                        raise FormatError(
                            self.source,
                            self.given_lines[r][c],
                            f"the givens at {_at(pr, pc)} and {_at(r, c)} are both {v} and touch {how}; "
                            f"touching cells must hold different numbers",
                        )

    def check(self) -> None:
        blocks = self.cells_by_label()
        for label, cells in blocks.items():
            self.check_connected(label, cells)
        for label, cells in blocks.items():
            self.check_givens_fit(label, cells)
        self.check_touching_givens()


def parse_puzzle(text: str, source: str = "<text>") -> Puzzle:
    """Parse a BlockNumber puzzle; block labels are normalised (see :class:`Puzzle`)."""
    from fillsmt.blocknumber.model import Puzzle, normalise_labels

    toks = tokens(text, source)
    height, width = _size(toks, source, "the givens and the block labels")
    body = toks[2:]
    _check_count(toks, body, height, width, source)
    cells = height * width
    givens = [_natural(tok, source, f"the given at {_at(*divmod(i, width))}") for i, tok in enumerate(body[:cells])]
    labels = [_label(tok, source, f"the block label at {_at(*divmod(i, width))}") for i, tok in enumerate(body[cells:])]
    given_grid, label_grid = _rows(givens, height, width), _rows(labels, height, width)
    lines = [line for _, line in body]
    _Reader(
        source,
        height,
        width,
        given_grid,
        label_grid,
        _rows(lines[:cells], height, width),
        _rows(lines[cells:], height, width),
    ).check()
    return Puzzle(height, width, given_grid, normalise_labels(label_grid), source)


def parse_grid(text: str, source: str = "<text>", height: int | None = None, width: int | None = None) -> Grid:
    """Parse a solution grid: ``H W`` then H×W non-negative integers.

    With ``height`` and ``width`` (the puzzle's), a grid of another shape is refused.
    """
    toks = tokens(text, source)
    h, w = _size(toks, source, "the grid")
    if (height is not None and h != height) or (width is not None and w != width):
        raise FormatError(source, toks[0][1], f"the grid is {h}x{w}, but the puzzle is {height}x{width}")
    body = toks[2:]
    expected = h * w
    shape = f"expected {expected} cell values ({h} rows of {w})"
    if len(body) < expected:
        raise FormatError(source, toks[-1][1], f"{shape}, found {len(body)}")
    if len(body) == 2 * expected:
        raise FormatError(
            source,
            body[expected][1],
            f"{shape}, found {len(body)}: this looks like a puzzle file (givens, then block "
            f"labels), not a solution grid",
        )
    if len(body) > expected:
        raise FormatError(
            source, body[expected][1], f"{shape}, found {len(body)}; the first extra value is {body[expected][0]!r}"
        )
    values = [_natural(tok, source, f"the cell at {_at(*divmod(i, w))}") for i, tok in enumerate(body)]
    return _rows(values, h, w)


def looks_like_blocknumber(text: str) -> bool:
    """True when ``text`` has the shape of a BlockNumber puzzle: ``H W`` then 2×H×W values.

    A Fillomino puzzle has H×W values after its size, so the two kinds never look alike. Never
    raises; the values themselves are not checked (the parser reports those).
    """
    try:
        toks = text.lstrip("\ufeff").split()
        if len(toks) < 2 or not (limits.is_int(toks[0]) and limits.is_int(toks[1])):
            return False
        height, width = int(toks[0]), int(toks[1])
        return height >= 1 and width >= 1 and len(toks) == 2 + 2 * height * width
    except Exception:  # noqa: BLE001 - a detector must answer, whatever it was given
        return False


def read_puzzle(path: str) -> Puzzle:
    """Read a puzzle file (``-`` is standard input)."""
    text, source = read_text(path)
    return parse_puzzle(text, source)


def read_grid(path: str, height: int | None = None, width: int | None = None) -> Grid:
    """Read a solution file (``-`` is standard input)."""
    text, source = read_text(path)
    return parse_grid(text, source, height, width)


def _aligned(rows: Grid) -> list[str]:
    cell = max((len(str(v)) for row in rows for v in row), default=1)
    return [" ".join(str(v).rjust(cell) for v in row) for row in rows]


def format_grid(grid: Grid) -> str:
    """A solution file: an ``H W`` line, then the rows with right-aligned columns."""
    height, width = len(grid), len(grid[0]) if grid else 0
    return "\n".join([f"{height} {width}", *_aligned(grid)]) + "\n"


def format_puzzle(puzzle: Puzzle) -> str:
    """The puzzle file: ``H W``, the rows of givens, then the rows of (normalised) block labels."""
    lines = [f"{puzzle.height} {puzzle.width}", *_aligned(puzzle.givens), *_aligned(puzzle.blocks)]
    return "\n".join(lines) + "\n"
