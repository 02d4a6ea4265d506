"""How a Fillomino session asks for *another* solution (``--unique``, ``count``, repair's proof).

The generic clause (:func:`fillsmt.engine.solutions.differs`) says "some cell's number differs from
the first solution S": fresh disequalities ``n_x != v`` the solver has to split. Two clauses
with the same meaning over what the encodings already hold (:data:`BLOCKING` picks one):

* :func:`tree_clause` (``trees``, on an encoding with one tree per solution,
  :data:`~fillsmt.fillomino.encodings.CANONICAL_TREES`): "some parent pointer ``p_x_y`` or root
  flag ``t_x`` differs from S's model", Boolean variables only.
* :func:`boundary_clause` (``boundaries``): "some pair of neighbours is equal in one and unequal
  in the other", over the atoms ``(= n_x n_y)``.

Why each blocks S and no other solution:

* ``boundaries``. S breaks it: every literal compares a pair as S has it. Any other solution G
  satisfies it: in a Fillomino solution the regions are the connected groups of equal neighbours
  (two touching regions never hold the same number) and each cell's number is the size of its
  region, so if G had every pair of neighbours equal exactly where S has, G's regions would be
  S's, and so would every number: G = S. A pair both of whose cells the script pins
  (``Problem.pinned``: ``(assert (= n_x k))``) is left out: in every model it compares as in S,
  so its literal is false anyway and the argument holds with the pinned pairs taken as in S.
* ``trees``. On a tree-bfs encoding every solution has exactly one model of its tree variables
  (:mod:`fillsmt.fillomino.encode_tree`: the region's root is fixed by the grid, the depth is the
  BFS distance, a cell's parent is the first neighbour of its region one step closer). So S's
  model, the only one S has, breaks the clause. Any other solution G satisfies it: its parent
  pointers join each cell to a neighbour of its region, one step closer to the region's one root,
  so the trees' components are G's regions; the same pointers and root flags as S's would give
  S's regions, hence S's numbers, and G = S. A closed region's cells have no tree variables (they
  are pinned). The values are read from the solver's model after the first check (one more
  get-value), so the clause is exactly the tree the solver holds.

Only solutions are compared (a tree stands for its grid), as the generic clause does, so two
trees of one grid are still one solution. The clauses hold for grids only, not for a model of a
lazy relaxation that is no solution; such a model is cut away by the relaxation's own cuts.
"""

from __future__ import annotations

from typing import Iterable

from fillsmt.fillomino.names import number_vars
from fillsmt.grid import neighbour_indices

Grid = tuple[tuple[int, ...], ...]

BLOCKINGS = ("cells", "boundaries", "trees")
"""``cells``: the generic clause; ``boundaries``: :func:`boundary_clause`; ``trees``:
:func:`tree_clause` on an encoding with one tree per solution, else the generic clause."""

BLOCKING = "trees"
"""The one a Fillomino session uses: ``trees``, which makes yices's second check (the proof
that no other solution exists) a quarter cheaper in all on the janko puzzles it proves."""

TREE_PREFIXES = ("p_", "t_")
"""The tree variables :func:`tree_clause` compares: parent pointers and root flags."""


def boundary_clause(grid: Grid, pinned: Iterable[int] = ()) -> str:
    """ "Some pair of neighbours compares otherwise than in ``grid``" (module text); ``pinned``:
    cells ``x = row * width + col`` the script fixes, whose pairs with each other are left out."""
    height, width = len(grid), len(grid[0]) if grid else 0
    fixed = set(pinned)
    value = [v for row in grid for v in row]
    n = number_vars(height, width)
    parts = []
    for x in range(height * width):
        for y in neighbour_indices(height, width, x):
            if y < x or (x in fixed and y in fixed):
                continue
            equal = f"(= {n[x]} {n[y]})"
            parts.append(f"(not {equal})" if value[x] == value[y] else equal)
    if not parts:
        return "false"  # every pair pinned (or one cell): S is the only grid there is
    return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"


def tree_terms(declared: Iterable[tuple[str, str]]) -> list[str]:
    """The tree variables among (name, sort) declarations: the Boolean ``p_R_C_R2_C2`` and ``t_R_C``."""
    return [name for name, sort in declared if sort == "Bool" and name.startswith(TREE_PREFIXES)]


def tree_clause(values: dict[str, str]) -> str:
    """ "Some tree variable differs from ``values``" (the model's ``true`` / ``false``, module
    text); a value that is neither raises ValueError."""
    parts = []
    for name, text in values.items():
        if text not in ("true", "false"):
            raise ValueError(f"{name} = {text!r} is not a Boolean value")
        parts.append(f"(not {name})" if text == "true" else name)
    if not parts:
        return "false"
    return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"


__all__ = ["BLOCKING", "BLOCKINGS", "TREE_PREFIXES", "boundary_clause", "tree_clause", "tree_terms"]
