"""The Fillomino encodings ``--encoding`` can name.

Each is a pure function ``(puzzle, domains) -> Script``; ``domains`` (one frozenset of allowed
numbers per cell, from the presolve) may be None. The thesis encoding is the unchanged baseline:
it ignores domains, and sees a presolve's work only as the cells it fixed, written as clues.

Four are scripts any SMT-LIB solver decides on its own (:data:`ENCODINGS`): ``thesis``,
``tree`` and ``tree-bfs`` (the default), over integers, and ``tree-bfs-bv``, ``tree-bfs`` over
bit-vectors (QF_BV), for a solver without integers (Bitwuzla: :data:`BIT_VECTOR_ENCODING`).
Two are solving methods (:data:`METHODS`), whose script is exact only with what solves it:
``lazy-local-general``, a relaxation refined by region cuts in a session
(:mod:`fillsmt.fillomino.lazy`), and ``onehot-prop``, exact only with Z3's region propagator
(``--solver z3-prop``, :mod:`fillsmt.fillomino.encode_onehot`).
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


def _onehot(puzzle: Puzzle, domains: Domains | None = None) -> Script:
    from fillsmt.fillomino.encode_onehot import encode_onehot

    return encode_onehot(puzzle, domains)


TREES: dict[str, dict[str, Any]] = {
    "tree": {},
    "tree-bfs": {"bfs": True, "skip_closed": True, "root_counts": 10},
    "tree-bfs-bv": {"bfs": True, "skip_closed": True, "root_counts": 10, "bitvector": True},
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
"""The encoding of a solver that decides bit-vectors only (``Kind.theory_encodings``)."""
CANONICAL_TREES = frozenset(name for name, options in TREES.items() if options.get("bfs"))
"""The encodings written by :func:`encode_tree` with ``bfs``: exactly one model of the tree
variables per solution (:mod:`fillsmt.fillomino.blocking` blocks a solution by its tree)."""

Cuts = Callable[..., list]
"""``cuts(grid, fixed=frozenset(), bounds=None)``: the clauses a decoded grid breaks; ``fixed`` the
cells the script pins, ``bounds`` its cells' numbers' bounds (:func:`fillsmt.fillomino.lazy.cut_texts`)."""

LAZY_ENCODINGS: dict[str, tuple[Encoder, Cuts]] = {
    "lazy-local-general": (_local, _local_cuts),
}
"""The lazy region cuts (:mod:`fillsmt.fillomino.lazy`): name → (relaxation, cuts)."""

PROPAGATED: dict[str, tuple[Encoder, str]] = {
    "onehot-prop": (_onehot, PROPAGATOR_NAME),
}
"""The encodings exact only with a solver's propagator: name → (encoder, the propagator's name)."""

METHODS = (*LAZY_ENCODINGS, *PROPAGATED)
"""The solving methods: encodings whose script alone is not exact."""
