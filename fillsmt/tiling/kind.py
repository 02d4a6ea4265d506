"""Polyomino tiling with maximum coverage as a :class:`~fillsmt.protocol.Kind` (an optimisation kind)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from fillsmt import limits
from fillsmt.protocol import Encoding, JsonForm, Optimises, Pictures, framed
from fillsmt.tiling import plain_format
from fillsmt.tiling.decode import decode_placements
from fillsmt.tiling.encode import AMO_ENCODINGS, encode_maximize
from fillsmt.tiling.model import TilingProblem, extent, normalise
from fillsmt.tiling.render import render_plain, render_pretty
from fillsmt.tiling.solution import Tiling, check, parse_labelled

if TYPE_CHECKING:
    from fillsmt.smtlib import Script


def _maximize_with(amo: str) -> Callable[[TilingProblem, Any], Script]:
    """The encoder of the at-most-one encoding ``amo`` (a tiling has no presolve hints)."""
    return lambda problem, hints: encode_maximize(problem, amo)


class TilingKind(JsonForm, Pictures, Optimises):
    name = "tiling"
    summary = "place copies of polyomino pieces on a board to cover the most cells"
    theory_encodings = {"QF_BV": "bv"}
    encodings = tuple(Encoding(amo, _maximize_with(amo)) for amo in AMO_ENCODINGS)
    default_encoding = "auto"
    question = "which tiling covers the most cells? (z3's maximize command, an extension of SMT-LIB 2.6)"

    def looks_like(self, text: str) -> bool:
        return plain_format.looks_like_tiling(text)

    def parse(self, text: str, source: str) -> TilingProblem:
        return plain_format.parse_problem(text, source)

    def format_puzzle(self, puzzle: TilingProblem) -> str:
        return plain_format.format_problem(puzzle)

    def to_dict(self, puzzle: TilingProblem) -> dict:
        return {
            "kind": "tiling",
            "height": puzzle.height,
            "width": puzzle.width,
            "rotations": puzzle.rotations,
            "reflections": puzzle.reflections,
            "blocked": [list(cell) for cell in sorted(puzzle.blocked)],
            "pieces": [
                {"name": piece.name, "cells": [list(cell) for cell in sorted(piece.cells)], "limit": piece.limit}
                for piece in puzzle.pieces
            ],
        }

    def from_dict(self, obj: dict, reader: Any) -> TilingProblem:
        """The problem as the plain format writes it (``board``, …, each piece as a picture),
        read by the plain reader."""
        reader.keys(
            obj, ("kind", "height", "width", "pieces"), ("rotations", "reflections", "blocked"), what="a tiling problem"
        )
        height, width = reader.size(obj, "board")
        lines = [f"board {height} {width}"]
        for key in ("rotations", "reflections"):
            if not isinstance(obj.get(key, False), bool):
                reader.fail(f"{key}: expected true or false, found {reader.show(obj[key])}")
            lines.append(f"{key} {'yes' if obj.get(key, False) else 'no'}")
        blocked = reader.cells(obj.get("blocked", []), "blocked")
        if blocked:
            lines.append("blocked " + ", ".join(f"{r} {c}" for r, c in blocked))
        if not isinstance(obj["pieces"], list) or not obj["pieces"]:
            reader.fail(f"pieces: expected a non-empty list of pieces, found {reader.show(obj['pieces'])}")
        for i, piece in enumerate(obj["pieces"]):
            lines.extend(_piece_lines(reader, reader.object(piece, f"pieces[{i}]"), i))
        return reader.reparse(plain_format.parse_problem, lines)

    def parse_solution(self, text: str, source: str, puzzle: TilingProblem) -> Tiling:
        return parse_labelled(text, source, puzzle)

    def format_solution(self, puzzle: TilingProblem, tiling: Tiling) -> str:
        return render_plain(puzzle, tiling.placements)

    def solution_json(self, puzzle: TilingProblem, tiling: Tiling) -> list[str]:
        """The labelled rows of the plain output."""
        return self.format_solution(puzzle, tiling).splitlines()

    def pretty(self, puzzle: TilingProblem, tiling: Tiling) -> str:
        return render_pretty(puzzle, tiling.placements)

    def svg(self, puzzle: TilingProblem, tiling: Tiling | None, title: str | None = None, style: Any = None) -> str:
        from fillsmt.tiling.render import svg_picture

        return svg_picture(puzzle, tiling, title=title, style=style)

    def check(self, puzzle: TilingProblem, tiling: Tiling) -> list[str]:
        return check(puzzle, tiling)

    def describe(self, puzzle: TilingProblem, tiling: Tiling) -> str:
        return f"covers {tiling.covered} of {puzzle.free_cells} cells"

    def decode(self, puzzle: TilingProblem, values: dict, encoding: str, source: str) -> Tiling:
        return Tiling(puzzle, tuple(decode_placements(puzzle, values)))

    def term_cell(self, puzzle: TilingProblem, term: str):
        return (0, 0)

    def encode_at_least(self, puzzle: TilingProblem, bound: int, encoding: str | None = None):
        from fillsmt.tiling.encode import encode_bound

        name = self.encoding(encoding).name
        return framed(
            self,
            puzzle,
            encode_bound(puzzle, bound, name),
            name,
            question=f"is there a tiling covering at least {bound} cells?",
        )

    def optimize(
        self, puzzle: TilingProblem, driver: Any, timeout: float | None, encoding: str | None, method: str = "auto"
    ):
        from fillsmt.tiling.optimize import optimize

        return optimize(puzzle, driver, timeout, method=method, amo=encoding or self.default_encoding)

    def result_summary(self, result: Any) -> str:
        found = result.optimum
        if found.optimal:
            how = f"proven optimal in {found.time_proven:.2f} s"
        else:
            why = "time-out" if found.status.value == "timeout" else f"the solver answered {found.status.value}"
            how = f"not proven optimal ({why}; no tiling covers more than {found.upper_bound})"
        return f"{result.puzzle.source}: covers {found.covered} of {result.puzzle.free_cells} cells, {how}"

    def answer_values(self, puzzle: TilingProblem, answer: Any) -> dict[str, str]:
        """Each placement variable's value: true for the placements ``answer`` chose."""
        from fillsmt.tiling.encode import placement_names
        from fillsmt.tiling.names import placement_var

        chosen = {placement_var(p) for p in answer}
        return {name: "true" if name in chosen else "false" for name in placement_names(puzzle)}

    def result_fields(self, result: Any) -> dict:
        """The cells covered and the copies placed; after an optimisation, what is proven."""
        from fillsmt.tiling.optimize import placements_json

        fields: dict = {}
        if result.grid is not None:
            fields.update(
                covered=result.grid.covered, placements=placements_json(result.puzzle, result.grid.placements)
            )
        found = getattr(result, "optimum", None)
        if found is not None:
            fields.update(
                covered=found.covered,
                optimal=found.optimal,
                upper_bound=found.upper_bound,
                free_cells=result.puzzle.free_cells,
                method=found.method,
                amo=found.amo,
            )
        return fields


KIND = TilingKind()


def _piece_lines(reader: Any, piece: dict, i: int) -> list[str]:
    """The ``piece`` line and picture of the JSON object of piece ``i``."""
    reader.keys(piece, ("name", "cells"), ("limit",), what=f"pieces[{i}]")
    name = piece["name"]
    if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
        reader.fail(f"pieces[{i}].name: expected a name without spaces, found {reader.show(name)}")
    cells = reader.cells(piece["cells"], f"pieces[{i}].cells")
    if not cells:
        reader.fail(f"pieces[{i}].cells: a piece needs at least one cell")
    try:  # the piece is drawn as a picture: it must stay of a sane size
        limits.check_cells(*extent(normalise(cells)), "piece")
    except ValueError as e:
        reader.fail(f"pieces[{i}].cells: {e}")
    limit = piece.get("limit")
    if limit is not None:
        reader.integer(limit, f"pieces[{i}].limit", 0)
    return [f"piece {name}" + ("" if limit is None else f" max {limit}"), *plain_format.picture(normalise(cells))]
