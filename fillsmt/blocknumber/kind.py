"""BlockNumber (Suguru) as a :class:`~fillsmt.protocol.Kind`: the package's pieces behind the one protocol."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from fillsmt.blocknumber import plain_format
from fillsmt.blocknumber.decode import decode_grid
from fillsmt.blocknumber.encodings import DEFAULT_ENCODING, ENCODINGS
from fillsmt.blocknumber.model import Puzzle
from fillsmt.blocknumber.render import render_pretty
from fillsmt.blocknumber.verify import check_solution
from fillsmt.grid import grid_with
from fillsmt.protocol import Clues, Encoding, Generates, JsonForm, Pictures, UrlForm

if TYPE_CHECKING:
    from fillsmt.blocknumber.encodings import Encoding as BlockNumberEncoding
    from fillsmt.smtlib import Script


def _without_hints(encoding: BlockNumberEncoding) -> Callable[[Puzzle, Any], Script]:
    """``encoding``'s encoder as a kind's ``encode(puzzle, hints)`` (BlockNumber has no presolve hints)."""
    return lambda puzzle, hints: encoding.encode(puzzle)


class BlockNumber(JsonForm, UrlForm, Pictures, Generates, Clues):
    name = "blocknumber"
    summary = "fill each block of n cells with 1..n; touching cells (diagonals too) differ"
    theory_encodings = {"QF_BV": "bv"}
    encodings = tuple(Encoding(e.name, _without_hints(e), e.description) for e in ENCODINGS.values())
    default_encoding = DEFAULT_ENCODING

    def looks_like(self, text: str) -> bool:
        return plain_format.looks_like_blocknumber(text)

    def parse(self, text: str, source: str) -> Puzzle:
        return plain_format.parse_puzzle(text, source)

    def format_puzzle(self, puzzle: Puzzle) -> str:
        return plain_format.format_puzzle(puzzle)

    def to_dict(self, puzzle: Puzzle) -> dict:
        return {
            "kind": "blocknumber",
            "height": puzzle.height,
            "width": puzzle.width,
            "givens": [list(row) for row in puzzle.givens],
            "blocks": [list(row) for row in puzzle.blocks],
        }

    def from_dict(self, obj: dict, reader: Any) -> Puzzle:
        reader.keys(obj, ("kind", "height", "width", "givens", "blocks"), what="a blocknumber puzzle")
        height, width = reader.size(obj)
        givens = reader.grid(obj["givens"], "givens", height, width)
        blocks = reader.grid(obj["blocks"], "blocks", height, width, minimum=None)
        return reader.reparse(
            plain_format.parse_puzzle, [f"{height} {width}", *reader.plain_rows(givens), *reader.plain_rows(blocks)]
        )

    url_types = ("suguru",)

    def to_url(self, puzzle: Puzzle) -> str:
        from fillsmt.blocknumber.url import to_url

        return to_url(puzzle)

    def from_url(self, url, unknown: str) -> Puzzle:
        from fillsmt.blocknumber.url import parse

        return parse(url, unknown)

    def parse_solution(self, text: str, source: str, puzzle: Puzzle):
        return plain_format.parse_grid(text, source, puzzle.height, puzzle.width)

    def format_solution(self, puzzle: Puzzle, grid) -> str:
        return plain_format.format_grid(grid)

    def pretty(self, puzzle: Puzzle, grid) -> str:
        return render_pretty(puzzle, grid)

    def svg(self, puzzle: Puzzle, grid, title: str | None = None, style: Any = None) -> str:
        from fillsmt.blocknumber.render import svg_picture

        return svg_picture(puzzle, grid, title=title, style=style)

    def check(self, puzzle: Puzzle, grid) -> list[str]:
        return check_solution(puzzle.givens, puzzle.blocks, grid)

    def check_request(self, opts, asked: dict):
        from fillsmt.blocknumber.setter import check_request

        return check_request(opts, asked)

    def generate(self, opts, seed, driver):
        from fillsmt.blocknumber.setter import make_blocknumber

        return make_blocknumber(opts, seed, driver)

    def generated_words(self, made) -> str:
        return f"{made.clues} givens"

    def option_notes(self) -> dict[str, str]:
        from fillsmt.blocknumber.setter import DEFAULT_MAX_BLOCK

        return {"max_region": f"BlockNumber: {DEFAULT_MAX_BLOCK}"}

    def decode(self, puzzle: Puzzle, values: dict, encoding: str, source: str):
        return decode_grid(puzzle, values, encoding, source=source)

    def guess_encoding(self, values: dict) -> str:
        """onehot answers name their Booleans is_R_C_V; the others give numbers."""
        return "onehot" if any(k.startswith("is_") for k in values) else "int-distinct"

    def term_cell(self, puzzle: Puzzle, term: str) -> tuple[int, int]:
        from fillsmt.blocknumber.names import read_var

        r, c, _ = read_var(term)
        return r, c

    def term_value(self, puzzle: Puzzle, term: str, number: int) -> int | bool:
        """A number term holds the cell's number, a one-hot ``is_R_C_V`` whether it is V."""
        from fillsmt.blocknumber.names import read_var

        v = read_var(term)[2]
        return number if v is None else number == v

    clue_encoding = "int-distinct"

    def clues(self, puzzle: Puzzle) -> list[tuple[int, int, int]]:
        return list(puzzle.given_cells())

    def with_clues(self, puzzle: Puzzle, clues: list[tuple[int, int, int]]) -> Puzzle:
        return Puzzle(
            puzzle.height, puzzle.width, grid_with(puzzle.height, puzzle.width, clues), puzzle.blocks, puzzle.source
        )

    def cell_var(self, puzzle: Puzzle, row: int, col: int) -> str:
        from fillsmt.blocknumber.names import number_var

        return number_var(row, col)

    def clue_free_script(self, puzzle: Puzzle):
        """The blocks alone (their sizes bound the numbers, whatever the givens)."""
        return self.encode(self.with_clues(puzzle, []), self.clue_encoding)

    def swap_context(self, puzzle: Puzzle, a, b) -> set[tuple[int, int]]:
        """The cells where ``a`` and ``b`` differ, the blocks that hold them, and every cell
        touching them (diagonals too): a solution that agrees with ``a`` there keeps each
        block's numbers 1..n (the changed blocks become ``b``'s) and every touching pair
        different (the pairs at a changed cell are ``b``'s)."""
        changed = {(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if a[r][c] != b[r][c]}
        blocks = {puzzle.blocks[r][c] for r, c in changed}
        out = {(r, c) for r in range(puzzle.height) for c in range(puzzle.width) if puzzle.blocks[r][c] in blocks}
        for r, c in changed:
            out |= {
                (r + dr, c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < puzzle.height and 0 <= c + dc < puzzle.width
            }
        return out

    def uniqueness_oracle(self, driver, deadline: float | None):
        from fillsmt.blocknumber.oracle import SessionOracle

        return SessionOracle(driver, deadline)


KIND = BlockNumber()
