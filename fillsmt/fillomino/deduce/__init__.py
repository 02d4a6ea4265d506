"""Deduction rules for Fillomino: shrink every cell's set of possible numbers by sound logic.

:func:`deduce` starts from a domain per cell (a clue's value; otherwise 1 up to a sound bound)
and applies the rules until none changes anything (a fixpoint). A cell whose domain has one
value is *fixed*. Every rule is **sound for the general variant**, where a region may carry few
clues or none at all: a rule removes a value from a cell only when no solution writes that value
there. So the deduced domains contain every solution, the SMT encoders may use them as bounds,
and an empty domain proves that the puzzle has no solution.

Two facts are always checked, whatever the rules: a k-group (connected cells fixed to k) of more
than k cells, or an incomplete k-group with no neighbour allowing k, proves that there is no
solution.

The package, by concern:

- :mod:`.masks` — a set of values as a bit mask;
- :mod:`.board` — the neighbour table, the k-groups, the contradiction error;
- :mod:`.state` — the domains of one run and the bookkeeping of what changed;
- :mod:`.searches` — budget distances, free areas, cut vertices, size caps;
- :mod:`.value_rules` — the rules run per value (``complete-group`` … ``forced-cell``);
- :mod:`.grid_rules` — the rules run over the whole grid (``neighbour-support`` … ``size-cap``);
- :mod:`.fixpoint` — :data:`ALL_RULES`, :func:`deduce` and its :class:`Deduction`;
- :mod:`.capacity` — counting rules for the search only, not in :data:`ALL_RULES`;
- :mod:`.steiner` — the fewest cells of one region holding several groups (for ``capacity``).

Pure: a puzzle in, a :class:`Deduction` out.
"""

from fillsmt.fillomino.deduce.fixpoint import ALL_RULES, Deduction, deduce, initial_masks, propagate_masks
from fillsmt.fillomino.deduce.masks import Mask

__all__ = ["ALL_RULES", "Deduction", "Mask", "deduce", "initial_masks", "propagate_masks"]
