"""SMT-LIB variable names for tiling: the one place they are made.

* ``x_K_O_R_C`` — Boolean: piece K in orientation O is placed with its bounding box's top-left
  corner on row R, column C (a :class:`~fillsmt.tiling.model.Placement`);
* ``c_R_C`` — Boolean: the cell in row R, column C is covered;
* ``s_R_C_I`` — Boolean: one of the first I+1 placements covering that cell is chosen (the
  ladder that says "at most one").
"""

from __future__ import annotations

from fillsmt.tiling.model import Placement


def placement_var(p: Placement) -> str:
    return f"x_{p.piece}_{p.orientation}_{p.row}_{p.col}"


def cell_var(r: int, c: int) -> str:
    return f"c_{r}_{c}"


def ladder_var(r: int, c: int, i: int) -> str:
    return f"s_{r}_{c}_{i}"
