"""Solver values → the chosen placements, through the same names the encoder used."""

from __future__ import annotations

from typing import Mapping

from fillsmt.errors import SolverError
from fillsmt.tiling.model import Placement, TilingProblem, placements
from fillsmt.tiling.names import placement_var


def decode_placements(problem: TilingProblem, values: Mapping[str, object]) -> list[Placement]:
    """The placements whose variables are true in ``values`` (a get-value answer)."""
    chosen = []
    for p in placements(problem):
        name = placement_var(p)
        if name not in values:
            raise SolverError(f"the solver's answer has no value for {name}")
        value = values[name]
        if value is True:
            chosen.append(p)
        elif value is not False:
            raise SolverError(f"the solver's value of {name} is not a Boolean: {value!r}")
    return chosen
