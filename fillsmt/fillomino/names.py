"""SMT-LIB variable names for Fillomino: the one place they are made and read back.

Every name says the cell it belongs to, row and column counted from 0 at the top-left corner
(the messages users read count from 1): ``n_3_7`` is the number in row 3, column 7, and
``p_3_7_3_8`` says that cell's parent is its right-hand neighbour. Every Fillomino encoder names
its variables with these functions, and the decoder, the cuts, the blocking clauses and the
propagator read them back through :func:`cell_of_number_var` and :func:`cell_value_of_var`.

The encoders count cells by index, ``x = row * width + col`` (thesis, section 8): the values of
the root variables ``r_R_C`` are such indices (the index of the region's root), and
:class:`GridNames` gives the same names by index.
"""

from __future__ import annotations

from functools import lru_cache

from fillsmt import limits
from fillsmt.grid import cell_index, neighbour_indices, neighbours  # noqa: F401 (the geometry, re-exported)

PROPAGATOR_NAME = "fillomino-regions"
"""The propagator a script of ``onehot-prop`` asks for, with the grid's height and width as its
arguments (:func:`fillsmt.fillomino.encode_onehot.propagator_info`,
:attr:`fillsmt.fillomino.kind.Fillomino.propagators`): the one that makes it exact."""


def number_var(row: int, col: int) -> str:
    """The number written in the cell at ``row``, ``col``."""
    return f"n_{row}_{col}"


@lru_cache(maxsize=8)
def number_vars(height: int, width: int) -> tuple[str, ...]:
    """:func:`number_var` of every cell of a grid, by index ``x = row * width + col``."""
    return tuple(number_var(r, c) for r in range(height) for c in range(width))


def _numbers(name: str, prefix: str, count: int) -> tuple[int, ...]:
    """The ``count`` non-negative integers of ``PREFIX_a_b…``, or ValueError."""
    parts = name.split("_")
    if len(parts) != count + 1 or parts[0] != prefix or not all(limits.is_int(p) for p in parts[1:]):
        raise ValueError(f"{name!r} is not a {prefix}_{'_'.join('N' * count)} variable")
    return tuple(int(p) for p in parts[1:])


def cell_of_number_var(name: str) -> tuple[int, int]:
    """The (row, column) whose number :func:`number_var` names ``name``; ValueError for any
    other name."""
    row, col = _numbers(name, "n", 2)
    return row, col


def index_of_number_var(name: str, width: int) -> int:
    """The index ``row * width + col`` of the cell whose number ``name`` is."""
    row, col = cell_of_number_var(name)
    return row * width + col


def size_var(row: int, col: int) -> str:
    """The size of the spanning-tree subtree rooted at the cell."""
    return f"s_{row}_{col}"


def root_var(row: int, col: int) -> str:
    """The index (``row * width + col``) of the root of the tree the cell belongs to."""
    return f"r_{row}_{col}"


def edge_var(row: int, col: int, row2: int, col2: int) -> str:
    """The thesis' directed tree edge from the cell at (row, col) to its neighbour (row2, col2)."""
    return f"e_{row}_{col}_{row2}_{col2}"


def parent_var(row: int, col: int, row2: int, col2: int) -> str:
    """Boolean: the parent of the cell at (row, col) in its region's tree is its neighbour (row2, col2)."""
    return f"p_{row}_{col}_{row2}_{col2}"


def is_root_var(row: int, col: int) -> str:
    """Boolean: the cell is the root of its region's tree."""
    return f"t_{row}_{col}"


def depth_var(row: int, col: int) -> str:
    """The distance from the cell to its region's root, inside the region."""
    return f"d_{row}_{col}"


def anchored_var(row: int, col: int) -> str:
    """Boolean: the cell's region holds a fixed cell (a clue, or a cell the presolve fixed)."""
    return f"a_{row}_{col}"


def value_var(row: int, col: int, k: int) -> str:
    """Boolean: the cell holds the number ``k`` (the one-hot encoding's atoms)."""
    return f"v_{row}_{col}_{k}"


def cell_value_of_var(name: str) -> tuple[int, int, int]:
    """The (row, column, number) that :func:`value_var` names ``name``; ValueError for any other name."""
    row, col, k = _numbers(name, "v", 3)
    return row, col, k


class GridNames:
    """The names above for the cells of one grid, by index ``x = row * width + col`` (how the
    encoders count cells): each method calls the one naming function of its variable."""

    def __init__(self, height: int, width: int):
        self.width = width
        self.numbers = number_vars(height, width)

    def number(self, x: int) -> str:
        return self.numbers[x]

    def size(self, x: int) -> str:
        return size_var(*divmod(x, self.width))

    def root(self, x: int) -> str:
        return root_var(*divmod(x, self.width))

    def edge(self, x: int, y: int) -> str:
        return edge_var(*divmod(x, self.width), *divmod(y, self.width))

    def parent(self, x: int, y: int) -> str:
        return parent_var(*divmod(x, self.width), *divmod(y, self.width))

    def is_root(self, x: int) -> str:
        return is_root_var(*divmod(x, self.width))

    def depth(self, x: int) -> str:
        return depth_var(*divmod(x, self.width))

    def anchored(self, x: int) -> str:
        return anchored_var(*divmod(x, self.width))

    def value(self, x: int, k: int) -> str:
        return value_var(*divmod(x, self.width), k)
