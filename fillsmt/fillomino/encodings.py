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
from fillsmt.fillomino.model import Puzzle
from fillsmt.smtlib import Script

Encoder = Callable[[Puzzle, Optional[Domains]], Script]


def _tree(**options) -> Encoder:
    chosen = TreeOptions(**options)
    return lambda puzzle, domains=None: encode_tree(puzzle, domains, chosen)


ENCODINGS: dict[str, Encoder] = {
    "thesis": lambda puzzle, domains=None: encode_thesis(puzzle),
    "tree": _tree(),
    "tree-bfs": _tree(bfs=True),
    "tree-bv": _tree(bitvector=True),
    "tree-bfs-bv": _tree(bfs=True, bitvector=True),
    "onehot-prop": encode_onehot,
    "tree-bfs-onehot": encode_tree_onehot,
}
DEFAULT_ENCODING = "tree-bfs"
