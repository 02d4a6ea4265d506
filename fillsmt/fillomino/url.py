"""Fillomino's puzz.link URLs: ``fillomino/<cols>/<rows>/<body>``, the numbers cell by cell, then
given borders (walls) only when the puzzle has any (:mod:`fillsmt.formats.puzzlink` has the codes)."""

from __future__ import annotations

from fillsmt.fillomino.model import Puzzle
from fillsmt.formats.puzzlink import (
    Body,
    Url,
    at,
    check_clues,
    clue_values,
    count,
    encode_numbers,
    make_url,
    refuse_flag,
    rows_of,
    shorten,
    wall_chars,
)

URL_TYPE = "fillomino"

FLAGS_NAMED = {"t": "the 't' flag (Fillomino tri: no region larger than 3 cells) is not supported yet"}
"""The flags of a fillomino URL that fillsmt knows but does not read, with what it says of them."""


def parse(url: Url, unknown: str) -> Puzzle:
    """The puzzle of a fillomino URL: given borders are refused when any wall is drawn (a drawn
    border would be a rule); a clue is 1..H×W."""
    refuse_flag(url, FLAGS_NAMED)
    cols, rows, src = url.cols, url.rows, url.source
    body = Body(url.body, src)
    cells = cols * rows
    values = body.numbers(cells, cols)
    rest = body.rest()
    if rest:
        expected = wall_chars(cols, rows)
        if len(rest) != expected:
            body.fail(
                f"{count(len(rest), 'character')} after the {cells} cells "
                f"({shorten(rest, 20)!r}); given borders of a {cols}x{rows} grid take {expected}"
            )
        vertical, horizontal = body.walls(cols, rows)
        if any(vertical) or any(horizontal):
            body.fail("given borders (walls drawn in the puzzle) are not supported yet")
    clues = clue_values(values, cols, src, unknown)
    for i, v in enumerate(clues):
        if v > cells:
            body.fail(f"the clue {v} at {at(i, cols)} is larger than the grid ({rows}x{cols} = {cells} cells)")
    return Puzzle(rows, cols, rows_of(clues, rows, cols), src)


def to_url(puzzle: Puzzle) -> str:
    """The puzzle's fillomino URL: its numbers (no given borders)."""
    flat = check_clues(puzzle.cells, puzzle.source)
    return make_url(URL_TYPE, puzzle.width, puzzle.height, encode_numbers(flat))
