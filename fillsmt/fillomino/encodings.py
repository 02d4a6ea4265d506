"""The Fillomino encodings ``--encoding`` can name.

Each is a pure function ``(puzzle, domains) -> Script``; ``domains`` (one frozenset of allowed
numbers per cell, from the presolve) may be None. The thesis encoding is the unchanged baseline:
it ignores domains, and sees a presolve's work only as the cells it fixed, written as clues.
"""

from __future__ import annotations

from typing import Callable, Optional

from fillsmt.fillomino.encode_onehot import encode_onehot, encode_tree_onehot
from fillsmt.fillomino.encode_thesis import encode_thesis
from fillsmt.fillomino.encode_tree import Domains, TreeOptions, encode_tree
from fillsmt.fillomino.lazy import CutOptions, cut_texts, encode_anchored, encode_local
from fillsmt.fillomino.model import Puzzle
from fillsmt.smtlib import Script

Encoder = Callable[[Puzzle, Optional[Domains]], Script]


def _tree(chosen: TreeOptions) -> Encoder:
    return lambda puzzle, domains=None: encode_tree(puzzle, domains, chosen)


TREES: dict[str, TreeOptions] = {
    "tree": TreeOptions(),
    "tree-bfs": TreeOptions(bfs=True, skip_closed=True),
    "tree-bv": TreeOptions(bitvector=True),
    "tree-bfs-bv": TreeOptions(bfs=True, bitvector=True),
    # Issue 17, sixth session: tree-bfs plus redundant constraints (measured in benchmarks/README.md).
    "tree-bfs-count": TreeOptions(bfs=True, root_counts=True),
    "tree-bfs-depth": TreeOptions(bfs=True, depth_bounds=True),
    "tree-bfs-sizedepth": TreeOptions(bfs=True, size_depth=True),
    "tree-bfs-lean": TreeOptions(bfs=True, anchor_depths=False),
    "tree-bfs-count-lean": TreeOptions(bfs=True, root_counts=True, anchor_depths=False),
    "tree-bfs-full": TreeOptions(bfs=True),
}
"""The spanning-tree encodings (:mod:`fillsmt.fillomino.encode_tree`) by name."""

ENCODINGS: dict[str, Encoder] = {
    "thesis": lambda puzzle, domains=None: encode_thesis(puzzle),
    **{name: _tree(options) for name, options in TREES.items()},
    "onehot-prop": encode_onehot,
    "tree-bfs-onehot": encode_tree_onehot,
}
DEFAULT_ENCODING = "tree-bfs"
CANONICAL_TREES = frozenset(name for name, options in TREES.items() if options.bfs)
"""The encodings written by :func:`encode_tree` with ``bfs``: exactly one model of the tree
variables per solution (:mod:`fillsmt.fillomino.blocking` blocks a solution by its tree)."""

Cuts = Callable[..., list]
"""``cuts(grid, fixed=frozenset(), bounds=None)``: the clauses a decoded grid breaks; ``fixed`` the
cells the script pins, ``bounds`` its cells' numbers' bounds (:func:`fillsmt.fillomino.lazy.cut_texts`)."""


def _cutter(options: CutOptions) -> Cuts:
    return lambda grid, fixed=frozenset(), bounds=None: cut_texts(grid, options, fixed, bounds)


def _lazy() -> dict[str, tuple[Encoder, Cuts]]:
    one, many, general = CutOptions(), CutOptions(many=True), CutOptions(general=True)
    return {
        "lazy-local": (lambda puzzle, domains=None: encode_local(puzzle, domains), _cutter(one)),
        "lazy-local-general": (lambda puzzle, domains=None: encode_local(puzzle, domains),
                               _cutter(general)),
        "lazy-local-shapes3": (lambda puzzle, domains=None: encode_local(puzzle, domains, shapes=3),
                               _cutter(general)),
        "lazy-local-many": (lambda puzzle, domains=None: encode_local(puzzle, domains),
                            _cutter(many)),
        "lazy-local-seeded": (lambda puzzle, domains=None: encode_local(puzzle, domains, seed_k=4),
                              _cutter(many)),
        "lazy-tree": (encode_anchored, _cutter(one)),
        "lazy-tree-many": (encode_anchored, _cutter(many)),
    }


LAZY_ENCODINGS = _lazy()
"""The lazy region cuts (:mod:`fillsmt.fillomino.lazy`): name → (relaxation, cuts)."""
