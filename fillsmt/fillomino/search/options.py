"""How a search walks its tree: :class:`SearchOptions`, and the named sets the solver uses.

A search takes one frozen :class:`SearchOptions`; nothing else steers it. Its defaults are the
thesis' search. The named sets below are the ways ``solve``, ``count``, ``--solver rules``, the
rating and the generator run it; a caller picks one, or derives its own with
:func:`dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import ALL_RULES
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES

CELL_ORDERS: tuple[str, ...] = ("group-exit", "smallest-domain", "row-major")
"""Where the search guesses (:mod:`.guesses`); the first is the default."""
SEARCH_ORDERS: tuple[str, ...] = CELL_ORDERS + ("big-value",)
"""Every order a search takes: :data:`CELL_ORDERS` and ``big-value``, the strong search's
second phase's."""

FIRST_PHASE_BUDGET = 50_000
"""Cells times nodes of the strong search's first phase (500 nodes on a 10x10)."""
PROBE_BUDGET = 100_000
"""Cells times probes the strong search may spend probing at its root."""
SECOND_PHASE_ORDERS: tuple[str, ...] = ("big-value", "group-exit")
"""The orders of the strong search's second phase's walks, which take turns node by node."""
WEIGHTED_WALK_ORDER = "group-exit"
"""The order of the second phase's walk that ``weighted_walk`` weighs from its root on."""


@dataclass(frozen=True)
class SearchOptions:
    """Every knob of a search. :func:`~.tree.solve_by_search` reads the fields up to
    ``shared_depth``; :func:`~.strong.solve_strong` reads them all (its first phase is the
    search they describe). Made with unknown rule names or orders, it raises
    :class:`~fillsmt.errors.InputError`."""

    rules: tuple[str, ...] = ALL_RULES
    """The deduction rules applied at every node (names from :data:`ALL_RULES`, kept in that
    order)."""
    search_rules: tuple[str, ...] = ()
    """The search-only rules (:data:`~fillsmt.fillomino.deduce.capacity.SEARCH_RULES`), run
    after the rules' fixpoint at every node, the two alternating to a common fixpoint. With them
    or probing, a child starts from its parent's settled state; without either (the thesis'
    search) every node's fixpoint starts from scratch, so the rules' counts are the thesis'."""
    cell_order: str = CELL_ORDERS[0]
    """Where to guess: one of :data:`SEARCH_ORDERS` (:mod:`.guesses`)."""
    probe_depth: int = -1
    """Probe the exits of the incomplete groups at every node up to this depth (-1: nowhere;
    :meth:`.tree.Search.probe`)."""
    probe_budget: int | None = None
    """Cells times probes one search may spend in all (None: no bound)."""
    steiner: bool = False
    """``capacity`` also counts by Steiner trees (:mod:`fillsmt.fillomino.deduce.capacity`)."""
    last_conflict: bool = False
    """A refuted guess is made again first wherever it still may be (:class:`.guesses.Conflicts`)."""
    wiped_out: bool = False
    """With ``last_conflict``: so is a guess whose complement was refuted."""
    weights: bool = False
    """Once a solution is found, failure weights break the order's ties (:mod:`.guesses`)."""
    weights_from_root: bool = False
    """Failure weights break the order's ties from the root on."""
    shared_depth: int = -1
    """At most this many guesses deep, the group orders guess where the tight groups meet
    (:func:`.guesses.shared_group_exit`; -1: nowhere)."""
    second_phase: bool = True
    """The strong search starts again with probing when its first phase does not settle the
    puzzle (False: the first phase alone)."""
    first_phase_budget: int = FIRST_PHASE_BUDGET
    """Cells times nodes of the strong search's first phase."""
    second_phase_orders: tuple[str, ...] = SECOND_PHASE_ORDERS
    """The orders of the second phase's walks."""
    weighted_walk: bool = False
    """The second phase's :data:`WEIGHTED_WALK_ORDER` walk breaks its ties by failure weights
    from its root on."""

    def __post_init__(self) -> None:
        for rule in self.rules:
            if rule not in ALL_RULES:
                raise InputError(f"unknown deduction rule {rule!r}; the rules are {', '.join(ALL_RULES)}")
        for rule in self.search_rules:
            if rule not in SEARCH_RULES:
                raise InputError(f"unknown search rule {rule!r}; the rules are {', '.join(SEARCH_RULES)}")
        for order in (self.cell_order, *self.second_phase_orders):
            if order not in SEARCH_ORDERS:
                raise InputError(f"unknown cell order {order!r}; the orders are {', '.join(SEARCH_ORDERS)}")
        if self.wiped_out and not self.last_conflict:
            raise InputError("wiped_out works with last_conflict only")
        object.__setattr__(self, "rules", tuple(r for r in ALL_RULES if r in self.rules))
        object.__setattr__(self, "search_rules", tuple(r for r in SEARCH_RULES if r in self.search_rules))

    def counted(self, probing: bool) -> list[str]:
        """The names a search's ``rules_used`` counts: the rules, the search rules, and
        ``"probe"`` when it probes."""
        return [*self.rules, *self.search_rules] + ["probe"] * probing


THESIS_SEARCH = SearchOptions()
"""The thesis' search: the deduction rules at every node, the group-exit order. The rating,
the generator and the uniqueness oracle run it (with their own rules or order)."""
STRONG_SEARCH = SearchOptions(search_rules=SEARCH_RULES, probe_budget=PROBE_BUDGET)
"""The strong search (:func:`~.strong.solve_strong`) with no guessing heuristic."""
QUICK_SEARCH = STRONG_SEARCH
"""The plain quick search: ``solve`` runs it in its own process before the race."""
QUICK_PROOF_SEARCH = replace(
    STRONG_SEARCH, second_phase=False, last_conflict=True, wiped_out=True, weights=True, shared_depth=0
)
"""The quick search with ``--unique``, ``--forced`` or ``count``: the first phase alone, with the
last conflict and the wiped-out guess, failure weights once a solution is found, and the guess
where the tight groups meet at the root and its complements."""
RACE_SEARCH = replace(STRONG_SEARCH, last_conflict=True, weighted_walk=True)
"""The race's search and ``solve --solver rules``: the last conflict in every walk, and the
second phase's group-exit walk weighing from its root on."""
