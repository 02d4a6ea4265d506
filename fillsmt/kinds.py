"""The puzzle kinds, and how a puzzle is found in what the user gave.

A :class:`Kind` bundles what the CLI and the pipeline need of one kind: its reader and writers,
its encodings, the decoder and checker behind a :class:`~fillsmt.solutions.Problem`, and its
pretty picture. :func:`load` reads a file, standard input (``-``) or a puzz.link URL, and tells
the kind from the text (a tiling keyword such as ``board``: a tiling problem; two grids:
BlockNumber; ``{``: JSON; otherwise the Fillomino plain format) unless ``--kind`` says it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from fillsmt.errors import InputError
from fillsmt.smtlib import Script
from fillsmt.solutions import Problem


@dataclass(frozen=True)
class Kind:
    name: str
    parse: Callable[[str, str], Any]
    format_puzzle: Callable[[Any], str]
    parse_solution: Callable[[str, str, Any], Any]
    format_solution: Callable[[Any], str]
    pretty: Callable[[Any, Any], str]
    check: Callable[[Any, Any], list[str]]
    encodings: tuple[str, ...]
    default_encoding: str
    encode: Callable[[Any, str], Script]
    problem: Callable[[Any, Script, str, str], Problem]
    """(puzzle, script, encoding, solver name) → what a session or a one-shot run needs."""


# -- Fillomino --------------------------------------------------------------------------------

def _fillomino() -> Kind:
    from fillsmt.fillomino import plain_format as pf
    from fillsmt.fillomino.encodings import DEFAULT_ENCODING, ENCODINGS
    from fillsmt.fillomino.render import render_pretty
    from fillsmt.fillomino.verify import check_solution

    def parse_solution(text, source, puzzle):
        return pf.parse_grid(text, source)[2]

    def encode(puzzle, encoding):
        if encoding not in ENCODINGS:
            raise InputError(f"unknown Fillomino encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
        return ENCODINGS[encoding](puzzle, None)

    def problem(puzzle, script, encoding, solver):
        from fillsmt.pipeline import fillomino_problem

        return fillomino_problem(puzzle, script, solver)

    return Kind("fillomino", pf.parse_puzzle, pf.format_puzzle, parse_solution, pf.format_grid,
                lambda puzzle, grid: render_pretty(grid), lambda p, g: check_solution(p.cells, g),
                tuple(ENCODINGS), DEFAULT_ENCODING, encode, problem)


# -- BlockNumber ------------------------------------------------------------------------------

def _blocknumber() -> Kind:
    from fillsmt.blocknumber import plain_format as pf
    from fillsmt.blocknumber.decode import decode_grid
    from fillsmt.blocknumber.encodings import DEFAULT_ENCODING, ENCODINGS
    from fillsmt.blocknumber.render import render_pretty
    from fillsmt.blocknumber.verify import check_solution

    def parse_solution(text, source, puzzle):
        return pf.parse_grid(text, source, puzzle.height, puzzle.width)

    def encode(puzzle, encoding):
        if encoding not in ENCODINGS:
            raise InputError(f"unknown BlockNumber encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
        return ENCODINGS[encoding].encode(puzzle)

    def problem(puzzle, script, encoding, solver):
        def term_cell(term):  # b_R_C or is_R_C_V
            parts = term.split("_")
            return int(parts[1]), int(parts[2])

        return Problem(script=script,
                       decode=lambda values: decode_grid(puzzle, values, encoding, source=f"{solver}'s answer"),
                       check=lambda grid: check_solution(puzzle.givens, puzzle.blocks, grid),
                       term_cell=term_cell)

    return Kind("blocknumber", pf.parse_puzzle, pf.format_puzzle, parse_solution, pf.format_grid,
                render_pretty, lambda p, g: check_solution(p.givens, p.blocks, g),
                tuple(ENCODINGS), DEFAULT_ENCODING, encode, problem)


# -- Tiling -----------------------------------------------------------------------------------

def _tiling() -> Kind:
    from fillsmt.tiling import format as tf
    from fillsmt.tiling.decode import decode_placements
    from fillsmt.tiling.encode import AMO_ENCODINGS, encode_maximize
    from fillsmt.tiling.render import render_plain, render_pretty
    from fillsmt.tiling.solution import Tiling, check, parse_labelled

    def problem(puzzle, script, encoding, solver):
        return Problem(script=script,
                       decode=lambda values: Tiling(puzzle, tuple(decode_placements(puzzle, values))),
                       check=lambda tiling: check(puzzle, tiling),
                       term_cell=lambda term: (0, 0))

    return Kind("tiling", tf.parse_problem, tf.format_problem, parse_labelled,
                lambda t: render_plain(t.problem, t.placements),
                lambda p, t: render_pretty(p, t.placements), check,
                AMO_ENCODINGS, "auto", encode_maximize, problem)


KIND_NAMES = ("fillomino", "blocknumber", "tiling")
_BUILDERS = {"fillomino": _fillomino, "blocknumber": _blocknumber, "tiling": _tiling}
_CACHE: dict[str, Kind] = {}


def get_kind(name: str) -> Kind:
    if name not in _BUILDERS:
        raise InputError(f"unknown puzzle kind {name!r}; choose one of {', '.join(KIND_NAMES)}")
    if name not in _CACHE:
        _CACHE[name] = _BUILDERS[name]()
    return _CACHE[name]


def all_encodings() -> list[str]:
    """Every kind's encoding names, sorted (a name two kinds share is listed once)."""
    return sorted({e for name in KIND_NAMES for e in get_kind(name).encodings})


def kind_of(puzzle: Any) -> Kind:
    """The kind a puzzle object belongs to."""
    from fillsmt.blocknumber.model import Puzzle as BlockPuzzle
    from fillsmt.tiling.model import TilingProblem

    if isinstance(puzzle, TilingProblem):
        return get_kind("tiling")
    return get_kind("blocknumber" if isinstance(puzzle, BlockPuzzle) else "fillomino")


def detect(text: str) -> str:
    """The kind of a puzzle file's text: a tiling keyword first (``board``, ``piece``, …) is a
    tiling problem, two grids are BlockNumber, else Fillomino."""
    from fillsmt.blocknumber.plain_format import looks_like_blocknumber
    from fillsmt.tiling.format import looks_like_tiling

    if looks_like_tiling(text):
        return "tiling"
    return "blocknumber" if looks_like_blocknumber(text) else "fillomino"


def load(source: str, kind: str | None = None) -> Any:
    """A puzzle from a file name, ``-`` (standard input), a puzz.link / pzv.jp URL, or JSON text
    in a file; ``kind`` (``--kind``) overrides the detection and must match a URL's type."""
    from fillsmt.fillomino.plain_format import read_text
    from fillsmt.formats import json_format, puzzlink

    if puzzlink.is_puzzle_url(source):
        puzzle = puzzlink.parse_url(source)
        found = kind_of(puzzle).name
        if kind is not None and kind != found:
            raise InputError(f"{puzzlink.shorten(source)}: a {found} URL, but --kind {kind} was given")
        return puzzle
    text, name = read_text(source)
    if json_format.looks_like_json(text):
        puzzle = json_format.parse_puzzle(text, name)
        found = kind_of(puzzle).name
        if kind is not None and kind != found:
            raise InputError(f"{name}: a {found} puzzle, but --kind {kind} was given")
        return puzzle
    return get_kind(kind or detect(text)).parse(text, name)


__all__ = ["KIND_NAMES", "Kind", "all_encodings", "detect", "get_kind", "kind_of", "load"]
