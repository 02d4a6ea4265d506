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


def _tree(**options) -> Encoder:
    chosen = TreeOptions(**options)
    return lambda puzzle, domains=None: encode_tree(puzzle, domains, chosen)


ENCODINGS: dict[str, Encoder] = {
    "thesis": lambda puzzle, domains=None: encode_thesis(puzzle),
    "tree": _tree(),
    "tree-bfs": _tree(bfs=True, skip_closed=True),
    "tree-bv": _tree(bitvector=True),
    "tree-bfs-bv": _tree(bfs=True, bitvector=True),
    # Issue 17, sixth session: tree-bfs plus redundant constraints (measured in benchmarks/README.md).
    "tree-bfs-count": _tree(bfs=True, root_counts=True),
    "tree-bfs-depth": _tree(bfs=True, depth_bounds=True),
    "tree-bfs-sizedepth": _tree(bfs=True, size_depth=True),
    "tree-bfs-lean": _tree(bfs=True, anchor_depths=False),
    "tree-bfs-count-lean": _tree(bfs=True, root_counts=True, anchor_depths=False),
    "tree-bfs-full": _tree(bfs=True),
    "onehot-prop": encode_onehot,
    "tree-bfs-onehot": encode_tree_onehot,
}
DEFAULT_ENCODING = "tree-bfs"

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
