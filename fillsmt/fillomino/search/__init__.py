"""Rules plus backtracking: the thesis' own solver (sections 6.1 and 6.2), complete and sound.

Each node of the search applies the deduction rules (:mod:`fillsmt.fillomino.deduce`) to a
fixpoint. A contradiction ends the node (the search backtracks); a node whose cells the rules
all fix is a solution; otherwise the search guesses: it picks an unfixed cell x and a value v of
its domain and explores two children, first "x is v" (the guess), then "x is not v" (the rest of
x's domain). The two split the node's solutions between them and the rules never remove a value
some solution uses, so no solution is lost, whatever the clues (regions without clues, of any
size, included). Every solution returned is also checked by the independent
:func:`~fillsmt.fillomino.verify.check_solution`. The walk is depth first and deterministic.

Depth (thesis 6.2: "how many successive guesses in a row the program has made before starting
to backtrack"): the root, the puzzle after the rules alone, is at depth 0; a guess is one deeper
than its parent; its complement stays at the parent's depth, since the search explores it only
once every solution of the guess is accounted for. So a cell whose values are tried in turn
costs one level, as in the thesis, except that the thesis counts its last value as one more
guess. ``max_depth`` is 0 exactly when the rules alone settle the puzzle.

By concern:

- :mod:`.options` — :class:`SearchOptions` and the named sets the solver uses;
- :mod:`.result` — :class:`SearchResult`, :class:`SearchError`;
- :mod:`.guesses` — where a node guesses: the orders, the last conflict, failure weights,
  shared exits;
- :mod:`.tree` — nodes, probing, the depth-first walk, :func:`solve_by_search`;
- :mod:`.strong` — the two-phase strong search, :func:`solve_strong`.
"""

from fillsmt.fillomino.search.options import (
    CELL_ORDERS,
    FIRST_PHASE_BUDGET,
    PROBE_BUDGET,
    QUICK_PROOF_SEARCH,
    QUICK_SEARCH,
    RACE_SEARCH,
    SEARCH_ORDERS,
    SECOND_PHASE_ORDERS,
    STRONG_SEARCH,
    THESIS_SEARCH,
    WEIGHTED_WALK_ORDER,
    SearchOptions,
)
from fillsmt.fillomino.search.result import SearchError, SearchResult
from fillsmt.fillomino.search.strong import solve_strong
from fillsmt.fillomino.search.tree import solve_by_search

__all__ = [
    "CELL_ORDERS",
    "FIRST_PHASE_BUDGET",
    "PROBE_BUDGET",
    "QUICK_PROOF_SEARCH",
    "QUICK_SEARCH",
    "RACE_SEARCH",
    "SEARCH_ORDERS",
    "SECOND_PHASE_ORDERS",
    "STRONG_SEARCH",
    "THESIS_SEARCH",
    "WEIGHTED_WALK_ORDER",
    "SearchError",
    "SearchOptions",
    "SearchResult",
    "solve_by_search",
    "solve_strong",
]
