"""SMT-LIB variable names and cell geometry for Fillomino: the one place they are made.

Cells are numbered row by row from the top-left corner, ``x = row * width + col`` (thesis,
section 8). Every Fillomino encoder names the number of cell ``x`` with :func:`number_var`, and
the decoder reads the grid back through the same function.
"""

from __future__ import annotations

from fillsmt import limits


def cell_index(width: int, row: int, col: int) -> int:
    return row * width + col


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


def neighbours(height: int, width: int, row: int, col: int) -> list[tuple[int, int]]:
    """Orthogonal neighbours in the thesis' order: up, down, left, right."""
    out = []
    if row - 1 >= 0:
        out.append((row - 1, col))
    if row + 1 < height:
        out.append((row + 1, col))
    if col - 1 >= 0:
        out.append((row, col - 1))
    if col + 1 < width:
        out.append((row, col + 1))
    return out


def neighbour_indices(height: int, width: int, x: int) -> list[int]:
    row, col = divmod(x, width)
    return [cell_index(width, r, c) for r, c in neighbours(height, width, row, col)]


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
