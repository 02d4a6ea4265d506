"""SMT-LIB variable names for Fillomino: the one place they are made.

Cells are numbered row by row from the top-left corner, ``x = row * width + col`` (thesis,
section 8). Every Fillomino encoder names the number of cell ``x`` with :func:`number_var`, and
the decoder reads the grid back through the same function.
"""

from __future__ import annotations

from fillsmt import limits
from fillsmt.grid import cell_index, neighbour_indices, neighbours  # noqa: F401 (the geometry, re-exported)


def number_var(x: int) -> str:
    """The number written in cell ``x``."""
    return f"n_{x}"


def cell_of_number_var(name: str) -> int:
    """The cell ``x`` whose number :func:`number_var` names ``name``."""
    prefix, _, x = name.partition("_")
    if prefix != "n" or not limits.is_int(x):
        raise ValueError(f"{name!r} is not a cell number variable")
    return int(x)


def size_var(x: int) -> str:
    """The size of the spanning-tree subtree rooted at cell ``x``."""
    return f"s_{x}"


def root_var(x: int) -> str:
    """The index of the root of the tree cell ``x`` belongs to."""
    return f"r_{x}"


def edge_var(x: int, y: int) -> str:
    """The directed tree edge from cell ``x`` to its neighbour ``y``."""
    return f"e_{x}_{y}"


def parent_var(x: int, y: int) -> str:
    """Boolean: the parent of cell ``x`` in its region's tree is its neighbour ``y``."""
    return f"p_{x}_{y}"


def is_root_var(x: int) -> str:
    """Boolean: cell ``x`` is the root of its region's tree."""
    return f"t_{x}"


def depth_var(x: int) -> str:
    """The distance from cell ``x`` to its region's root, inside the region."""
    return f"d_{x}"


def anchored_var(x: int) -> str:
    """Boolean: the region of cell ``x`` holds a fixed cell (a clue, or a cell the presolve fixed)."""
    return f"a_{x}"


def value_var(x: int, k: int) -> str:
    """Boolean: cell ``x`` holds the number ``k`` (the one-hot encodings' atoms)."""
    return f"v_{x}_{k}"


def cell_value_of_var(name: str) -> tuple[int, int]:
    """The (cell, number) that :func:`value_var` names ``name``."""
    prefix, x, k = (name.split("_") + ["", ""])[:3]
    if prefix != "v" or not (limits.is_int(x) and limits.is_int(k)) or name.count("_") != 2:
        raise ValueError(f"{name!r} is not a cell value variable")
    return int(x), int(k)
