"""BlockNumber's puzz.link URLs: puzz.link's ``suguru``, the block walls first, always, then the
numbers; the blocks are the groups of cells no wall separates (:mod:`fillsmt.formats.puzzlink`
has the codes). A wall with the same block on both sides (a dead end inside a block) is dropped:
the blocks are the puzzle, and :func:`to_url` writes exactly the walls between different blocks."""

from __future__ import annotations

from fillsmt.blocknumber.model import Puzzle
from fillsmt.errors import FormatError
from fillsmt.formats.puzzlink import (
    Body,
    Url,
    check_clues,
    clue_values,
    count,
    encode_numbers,
    encode_walls,
    make_url,
    refuse_flag,
    regions_from_walls,
    rows_of,
    shorten,
    wall_chars,
    walls_from_regions,
)

URL_TYPE = "suguru"


def parse(url: Url, unknown: str) -> Puzzle:
    """The puzzle of a suguru URL, built through the BlockNumber reader so that its checks apply
    (a given larger than its block, two equal givens in a block or touching)."""
    refuse_flag(url)
    cols, rows, src, text = url.cols, url.rows, url.source, url.body
    body = Body(text, src)
    need = wall_chars(cols, rows)
    if len(text) < need:
        what = "the body is empty" if not text else f"the body has only {len(text)} characters"
        body.fail(f"{what}; the region walls of a {cols}x{rows} grid take {need}, then come the cells")
    vertical, horizontal = body.walls(cols, rows)
    cells = cols * rows
    values = body.numbers(cells, cols)
    rest = body.rest()
    if rest:
        body.fail(f"{count(len(rest), 'unexpected character')} after the {cells} cells: {shorten(rest, 20)!r}")
    givens = clue_values(values, cols, src, unknown)
    labels = regions_from_walls(cols, rows, vertical, horizontal)
    from fillsmt.blocknumber import plain_format

    lines = [f"{rows} {cols}"]
    lines += [" ".join(map(str, row)) for row in rows_of(givens, rows, cols)]
    lines += [" ".join(map(str, row)) for row in labels]
    try:
        return plain_format.parse_puzzle("\n".join(lines) + "\n", src)
    except FormatError as e:
        raise FormatError(src, None, e.problem) from None


def to_url(puzzle: Puzzle) -> str:
    """A BlockNumber puzzle as puzz.link's suguru: the block walls, then the givens."""
    flat = check_clues(puzzle.givens, puzzle.source)
    vertical, horizontal = walls_from_regions(puzzle.blocks)
    body = encode_walls(vertical) + encode_walls(horizontal) + encode_numbers(flat)
    return make_url(URL_TYPE, puzzle.width, puzzle.height, body)
