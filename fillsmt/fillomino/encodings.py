"""The Fillomino encodings ``--encoding`` can name.

Each is a pure function ``(puzzle, domains) -> Script``; ``domains`` (one frozenset of allowed
numbers per cell, from the presolve) may be None. The thesis encoding is the unchanged baseline:
it ignores domains, and sees a presolve's work only as the cells it fixed, written as clues.

Four are scripts any SMT-LIB solver decides on its own (:data:`ENCODINGS`): ``thesis``,
``tree`` and ``tree-bfs`` (the default), over integers, and ``tree-bfs-bv``, ``tree-bfs`` over
bit-vectors (QF_BV), for a solver without integers (:data:`BIT_VECTOR_ENCODING`).
The others are solving methods (:data:`METHODS`), whose script is exact only with what solves
it: ``lazy-local-general``, a relaxation refined by region cuts in a session
(:mod:`fillsmt.fillomino.lazy`), and ``lazy-local-general-bv``, the same over bit-vectors;
``bv-by-area``, one of ``lazy-local-general-bv`` and ``tree-bfs-bv`` by the grid's open area
(:data:`BY_AREA`: Bitwuzla's default, :data:`SOLVING_BY_THEORY`); and ``onehot-prop``, exact
only with Z3's region propagator (``--solver z3-prop``, :mod:`fillsmt.fillomino.encode_onehot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from fillsmt.fillomino.names import PROPAGATOR_NAME

if TYPE_CHECKING:
    from fillsmt.fillomino.encode_tree import Domains
    from fillsmt.fillomino.model import Puzzle
    from fillsmt.smtlib import Script

# Each encoder's module is imported when a script is first written: a solve that the rules or
# their search settle loads none of them (tests/test_startup.py).

Encoder = Callable[["Puzzle", Optional["Domains"]], "Script"]


def _tree(**options: Any) -> Encoder:
    def encode(puzzle: Puzzle, domains: Domains | None = None) -> Script:
        from fillsmt.fillomino.encode_tree import TreeOptions, encode_tree

        return encode_tree(puzzle, domains, TreeOptions(**options))

    return encode


def _thesis(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino.encode_thesis import encode_thesis

    return encode_thesis(puzzle)


def _local(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino.lazy import encode_local

    return encode_local(puzzle, domains)


def _local_cuts(grid, fixed=frozenset(), bounds=None) -> list:
    from fillsmt.fillomino.lazy import cut_texts

    return cut_texts(grid, fixed=fixed, bounds=bounds)


def _local_bv(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino.lazy import encode_local

    return encode_local(puzzle, domains, bitvector=True)


def _local_cuts_bv(grid, fixed=frozenset(), bounds=None) -> list:
    from fillsmt.fillomino.lazy import cut_texts, number_bits

    return cut_texts(grid, fixed=fixed, bounds=bounds, bits=number_bits(grid))


def _bv_by_area(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino import strategy

    if strategy.lead_encoding(puzzle, strategy.THRESHOLDS) is not None:  # a large open area
        return _local_bv(puzzle, domains)
    return ENCODINGS[BIT_VECTOR_ENCODING](puzzle, domains)


def _onehot(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino.encode_onehot import encode_onehot

    return encode_onehot(puzzle, domains)


TREES: dict[str, dict[str, Any]] = {
    "tree": {},
    "tree-bfs": {"bfs": True, "skip_closed": True, "root_counts": 10, "region_budget": True},
    "tree-bfs-bv": {"bfs": True, "skip_closed": True, "root_counts": 10, "region_budget": True, "bitvector": True},
}
"""The spanning-tree encodings (:mod:`fillsmt.fillomino.encode_tree`) by name: their
:class:`~fillsmt.fillomino.encode_tree.TreeOptions`."""

ENCODINGS: dict[str, Encoder] = {
    "thesis": _thesis,
    **{name: _tree(**options) for name, options in TREES.items()},
}
"""The scripts: exact on their own, for any SMT-LIB solver."""
DEFAULT_ENCODING = "tree-bfs"
BIT_VECTOR_ENCODING = "tree-bfs-bv"
"""The bit-vector script (what ``encode`` and ``export`` write for a bit-vector solver)."""
CANONICAL_TREES = frozenset(name for name, options in TREES.items() if options.get("bfs"))
"""The encodings written by :func:`encode_tree` with ``bfs``: exactly one model of the tree
variables per solution (:mod:`fillsmt.fillomino.blocking` blocks a solution by its tree)."""

Cuts = Callable[..., list]
"""``cuts(grid, fixed=frozenset(), bounds=None)``: the clauses a decoded grid breaks; ``fixed`` the
cells the script pins, ``bounds`` its cells' numbers' bounds, or a function that reads them when a
first cut is made (:func:`fillsmt.fillomino.lazy.cut_texts`)."""

LAZY_ENCODINGS: dict[str, tuple[Encoder, Cuts]] = {
    "lazy-local-general": (_local, _local_cuts),
    "lazy-local-general-bv": (_local_bv, _local_cuts_bv),
}
"""The lazy region cuts (:mod:`fillsmt.fillomino.lazy`): name → (relaxation, cuts); over
integers, and over bit-vectors (QF_BV) for a solver that decides no integers."""

BY_AREA: dict[str, tuple[Encoder, Cuts, str]] = {
    "bv-by-area": (
        _bv_by_area,
        _local_cuts_bv,
        "run in a solver session with region cuts: on a large open area a relaxation they refine, "
        "else the tree-bfs-bv script",
    ),
}
"""For a bit-vector solver (name → (encoder, cuts, what solves it, in the words of
:attr:`fillsmt.protocol.Encoding.method`)), by the grid's open area as the default plan reads it
(:func:`fillsmt.fillomino.strategy.lead_encoding`, the grid the encoding is given): the lazy
cuts over bit-vectors where the plan's lead is the lazy cuts (a large open area, where
``tree-bfs-bv`` is weak), else the ``tree-bfs-bv`` script. Run as the lazy cuts are, in a session
that asserts the cuts each decoded grid breaks: ``tree-bfs-bv``'s models are solutions, so its
loop ends at the first model with no cut. Bitwuzla's default for Fillomino
(:data:`SOLVING_BY_THEORY`)."""

SOLVING_BY_THEORY = {"QF_BV": "bv-by-area"}
"""What a solver that decides one theory only gets for Fillomino when no ``-e`` is named."""

PROPAGATED: dict[str, tuple[Encoder, str]] = {
    "onehot-prop": (_onehot, PROPAGATOR_NAME),
}
"""The encodings exact only with a solver's propagator: name → (encoder, the propagator's name)."""

METHODS = (*LAZY_ENCODINGS, *BY_AREA, *PROPAGATED)
"""The solving methods: encodings whose script alone is not exact."""
