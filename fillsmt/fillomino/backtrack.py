"""Rules plus backtracking: the thesis' own solver (sections 6.1 and 6.2), complete and sound.

Each node of the search applies the deduction rules (:mod:`fillsmt.fillomino.deduce`) to a
fixpoint. A contradiction ends the node (the search backtracks); a node whose cells the rules
all fix is a solution; otherwise the search makes a *guess*: it picks an unfixed cell x and a
value v of its domain and explores two children, first "x is v" (the guess), then "x is not v"
(the rest of x's domain). The two split the node's solutions between them and the rules never
remove a value some solution uses, so no solution is lost, whatever the clues (regions without
clues, of any size, included). Every solution returned is also checked by the independent
:func:`~fillsmt.fillomino.verify.check_solution`.

The walk is depth first and fully deterministic. Where to guess (``cell_order``):

``group-exit`` (default)
    Grow a region: take the incomplete group (connected cells fixed to one value k, fewer than
    k of them) with the fewest exits (outside neighbours still allowing k), then the fewest
    cells missing, then the first cell in row-major order; guess that its exit with the fewest
    values (row-major among equals) is k. With no incomplete group, as ``smallest-domain``.
``smallest-domain``
    An unfixed cell with the fewest values (row-major among equals), guessing its smallest value.
``row-major``
    The first unfixed cell row by row, guessing its smallest value: the thesis' order (6.1),
    which tries a cell's values in turn.

An order for the strong search only (:data:`SEARCH_ORDERS`; ``rate --cell-order`` offers the
three above), ``group-exit`` with another choice of group (ties: fewest exits, then the
first cell in row-major order), the same guess at that group's exit:

``big-value``
    The incomplete group of the largest value: grow the largest region first (hard-tail 266,
    whose time goes into its clued 15-, 11- and 10-regions). The strong search's second phase.

Every order is complete and sound alike: whichever cell and value it picks, the guess and its
complement split the node's solutions between them.

Issue 17 adds reasoning for the search only (``deduce``, ``explain``, ``hint`` and the rating
do not use it; the rating calls this search with both off): ``search_rules`` (the counting rules
of :mod:`fillsmt.fillomino.deduce.capacity`) alternate with the rules' fixpoint at every node,
and ``probe_depth`` probes: at a node up to that depth, every exit of every incomplete k-group
is assumed to be k and the node's state settled from there; a contradiction removes k from the
exit (failed-literal probing, sound because every step of the settling is), repeated until a
pass refutes none, within ``probe_budget``. Both on, probing at the root only once a first
plain phase has failed, is what the race and ``solve --solver rules`` use (:func:`solve_strong`);
its second phase walks the tree in two orders by turns, node by node, from the one probed root
(:data:`SECOND_PHASE_ORDERS`), so it ends within twice the nodes of the better order, where one
order alone can get lost for good on a puzzle the other settles at once. Each child starts from its parent's settled
state (:meth:`~fillsmt.fillomino.deduce.state.State.fork`), so its fixpoint looks only at what
its guess changes (the thesis' search, with neither, propagates every node from scratch, so
its rule counts, which the rating reports, stay as they were).

``last_conflict`` (issue 17, fifteenth session; on in the quick proof:
:data:`fillsmt.fillomino.features.QUICK_PROOF_LAST_CONFLICT` says why): the last-conflict
heuristic of Lecoutre, Saïs, Tabary and Vidal ("Reasoning from last conflict(s) in constraint
programming", 2009). When a guess "x is v" is refuted at its own fixpoint, (x, v) becomes the
*conflict*; every node expanded afterwards where x is unfixed and may still be v guesses "x is v"
there first, in place of its order's guess, until such a guess is not refuted (the conflict is
then forgotten) or another guess is (it becomes the conflict). A refutation that does not rest
on the guesses made since x's is thus found again at once under each of them on the way back up
(janko 285's proof refutes one 6-clue's two choices under seven unrelated guesses, 99 nodes in
group-exit order, 53 with the heuristic). Only which guess is made changes, so the search stays
complete and sound (the module text's argument holds for any guess).

``wiped_out`` (issue 17, sixteenth session; with ``last_conflict``, on in the quick proof:
:data:`fillsmt.fillomino.features.QUICK_PROOF_WIPED_OUT`): Lecoutre et al.'s conflict is the
*variable* left without a value. A guess "x is v" whose whole subtree has been walked and whose
complement "x is not v" is then refuted at its own fixpoint leaves x without a value at that
node: (x, v) becomes a second conflict, guessed where the first does not apply (its cell fixed,
or its value gone), and forgotten like the first once its guess is not refuted. Janko 268's
proof refutes a few left-column cells under every guess on the right: 183 nodes, 113 with it
and ``weights``.

``weights`` (issue 17, sixteenth session; on in the quick proof:
:data:`fillsmt.fillomino.features.QUICK_PROOF_WEIGHTS`): failure weights in the manner of
dom/wdeg (Boussemart, Hemery, Lecoutre and Sais, 2004), on cells. Every refuted node adds
:data:`WEIGHT_DECISION` to its decision's cell and 1 to every cell its own fixpoint changed.
Once the search has found a solution (before it, the order is left alone: it is the one that
finds solutions soon), the order's groups tied on its first criterion (``group-exit``: the fewest
exits) are taken by the most weight on their exits first, and a group's exit by the fewest
values, then the most weight; with no incomplete group, the cell with the fewest values, then the
most weight. All weights zero, this is the order itself. After its first solution a proof only
refutes, and the cells its refutations keep touching are where the next ones are likely to be.
Only which guess is made changes: complete and sound.

``shared_depth`` (issue 17, seventeenth session; 0 in the quick proof:
:data:`fillsmt.fillomino.features.QUICK_PROOF_SHARED_DEPTH`; -1, the default, off): at the nodes at
most that many guesses deep, the ``group-exit`` guess is made where the tight groups meet. Among
the groups tied on the order's first criterion (the fewest exits), each exit's *share* is the
number of them it is an exit of; the group taken is the one with the most shared exit, then as
the order (and ``weights``) says, and its exit is its most shared one, then the fewest values
(then the most weight). Deciding an exit that several of the tightest groups depend on settles
them all on both sides of the guess: janko 286's root, a 36-region's puzzle of 2-groups with two
exits each, offers 46 guesses whose proofs take 19 to 65 nodes, the order's own 33
(``benchmarks/root16_guess.py``); its cell shared by three groups of two exits (one 2-group and
two pieces of the corner 36-region) gives 23. Deeper in the tree the tight groups are the ones
the guesses above left, and the share is no better a guide than the order's: one guess deep,
janko 257's proof no longer finds its first solution within the quick proof's nodes
(``benchmarks/README.md``, "Issue 17, seventeenth session"). Depth counts guesses, so the
complements below the root (depth 0) guess where the tight groups meet too. Only which guess is
made changes: complete and sound.

``weighted_walk`` (issue 17, seventeenth session; an option of :func:`solve_strong`, on in the
race's search: :data:`fillsmt.fillomino.features.SEARCH_WEIGHTED_WALK`): failure weights
(``weights``) that break the order's ties from the root on, not only once a solution is found,
in the second phase's walk of :data:`WEIGHTED_WALK_ORDER` (``"instead"`` of its plain walk;
the other walks are as they were). From the root on, the weights settle the big-region puzzles
made here much sooner (12x12-big-11's proof 1.6 -> 0.2 s of CPU, 12x12-big-1's 2.7 -> 2.1 s);
hard-tail 266, which the ``big-value`` walk settles in the same nodes, pays for the costlier
nodes the weighing searches visit (its proof 1.8 -> 2.0 s). The weighing walk is a whole search
like the others and only which guess it makes depends on its weights: complete and sound, and
the phase's pooled answer is as argued for :func:`_second_phase`.

The strong search's nodes run the rules' rounds *staged* (
:func:`fillsmt.fillomino.deduce.fixpoint.run_rules`): the cheap per-value rules to their own
fixpoint first, the costly ones after; the same fixpoint, so the same tree, and a
contradiction (most of a proof's nodes) is found before the costly rules run.

Depth (thesis 6.2: "how many successive guesses in a row the program has made before starting
to backtrack"): the root, the puzzle after the rules alone, is at depth 0; a guess "x is v"
is one deeper than its parent; its complement "x is not v" stays at the parent's depth, since
the search explores it only once every solution with x = v is accounted for. So a cell whose
values are tried in turn costs one level, as in the thesis, except that the thesis counts its
last value as one more guess where here it is what remains once the others are refuted.
``max_depth`` is the deepest guess reached before the search stopped: 0 exactly when the rules
alone settle the puzzle (solve it, or prove it has no solution).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable

from fillsmt.errors import FillsmtError, InputError
from fillsmt.fillomino.deduce import ALL_RULES, Mask, initial_masks
from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.masks import values_of
from fillsmt.fillomino.deduce.capacity import SEARCH_RULES, capacity
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import adjacency

SEARCH_RULE_FUNCTIONS = {"capacity": capacity}

CELL_ORDERS: tuple[str, ...] = ("group-exit", "smallest-domain", "row-major")
"""Where the search guesses (see the module text); the first is the default."""

GROUP_KEYS = {  # the incomplete group to grow: least key (exits, value, size, first cell)
    "group-exit": lambda exits, k, size, start: (exits, k - size, start),
    "big-value": lambda exits, k, size, start: (-k, exits, start),
}
SEARCH_ORDERS: tuple[str, ...] = CELL_ORDERS + ("big-value",)
"""Every order :func:`solve_by_search` takes: :data:`CELL_ORDERS` and the strong search's."""

FIRST_PHASE_BUDGET = 50_000
"""Cells times nodes the strong search runs without probing before it starts again with probing
(500 nodes on a 10x10: janko 286's proof takes 413)."""

PROBE_BUDGET = 100_000
"""Cells times probes the strong search may spend probing at its root. Hard-tail 620 (20x36)
needs 939 probes (676 080) to fix 711 of its 720 cells; a budget of 2 000 000 settles it
(search alone, sixth session) but made the race's search child end too late on SIGHUP in
``tests/test_signals.py::test_bench_with_two_jobs`` (2.5 s), so it stays at 100 000."""

SECOND_PHASE_ORDERS: tuple[str, ...] = ("big-value", "group-exit")
"""Where the strong search's second phase guesses (:data:`SEARCH_ORDERS`): one walk per order,
from the same probed root, taking turns node by node (:func:`_second_phase`). ``big-value``
settles hard-tail 266 (2 724 nodes, where ``group-exit`` takes 29 562); ``group-exit`` settles
the big-region puzzles made here that ``big-value`` gets lost in (12x12-big-1: 4 429 nodes to its
solution and 4 557 to its proof, where ``big-value`` has neither in 30 s; 12x12-big-12's proof
797 nodes against 10 071): benchmarks/README.md, "Issue 17, fourteenth session"."""

WEIGHTED_WALK_ORDER = "group-exit"
"""``weighted_walk`` (module text): the order of the second phase's walk whose failure weights
break the order's ties from its root on."""


@dataclass(frozen=True)
class SearchOptions:
    """How a search walks its tree (module text); the defaults are the thesis' search. The
    fields from ``second_phase`` on concern :func:`solve_strong` alone."""

    rules: tuple[str, ...] = ALL_RULES
    """The deduction rules applied at every node (names from :data:`ALL_RULES`)."""
    search_rules: tuple[str, ...] = ()
    """The search-only rules (:data:`~fillsmt.fillomino.deduce.capacity.SEARCH_RULES`), run
    after the rules' fixpoint at every node, the two alternating to a common fixpoint."""
    cell_order: str = CELL_ORDERS[0]
    """Where to guess: one of :data:`SEARCH_ORDERS`."""
    probe_depth: int = -1
    """Probe exits (module text) at every node up to this depth (-1: nowhere)."""
    probe_budget: int | None = None
    """Cells times probes a search may spend in all (None: no bound)."""
    steiner: bool = False
    """``capacity`` also counts by Steiner trees (its module text)."""
    last_conflict: bool = False
    """A refuted guess is made again first where it still may be (module text)."""
    wiped_out: bool = False
    """With ``last_conflict``: so is a guess whose complement was refuted (module text)."""
    weights: bool = False
    """Once a solution is found, failure weights break the order's ties (module text)."""
    weights_from_root: bool = False
    """Failure weights break the order's ties from the root on (module text)."""
    shared_depth: int = -1
    """At most this many guesses deep, an order of groups guesses where the tight groups meet
    (module text; -1: nowhere)."""
    second_phase: bool = True
    """When the first phase does not settle the puzzle, start again with probing
    (:func:`solve_strong`); False: the first phase alone."""
    first_phase_budget: int = FIRST_PHASE_BUDGET
    """Cells times nodes of the strong search's first phase."""
    second_phase_orders: tuple[str, ...] = SECOND_PHASE_ORDERS
    """The orders of the second phase's walks, which take turns (:func:`_second_phase`)."""
    weighted_walk: bool = False
    """The second phase's :data:`WEIGHTED_WALK_ORDER` walk breaks its ties by failure weights
    from its root on (module text)."""

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

    def active(self, probing: bool) -> list[str]:
        """The names a search's ``rules_used`` counts: the rules, the search rules, and
        ``"probe"`` when it probes."""
        return [*self.rules, *self.search_rules] + ["probe"] * probing


THESIS_SEARCH = SearchOptions()
"""The thesis' search: the deduction rules at every node, every node's fixpoint from scratch,
the group-exit order (the rating, the generator and the uniqueness oracle)."""
STRONG_SEARCH = SearchOptions(search_rules=SEARCH_RULES, probe_budget=PROBE_BUDGET)
"""The strong search (:func:`solve_strong`) with none of the heuristics switched on."""
QUICK_SEARCH = STRONG_SEARCH
"""The plain quick search: ``solve`` runs it in its own process before the race."""
QUICK_PROOF_SEARCH = replace(STRONG_SEARCH, second_phase=False, last_conflict=True, wiped_out=True, weights=True,
                      shared_depth=0)
"""The quick proof (``--unique``, ``--forced``, ``count``): the first phase alone, with the last
conflict, the wiped-out guess, failure weights once a solution is found, and the guess where the
tight groups meet at the root and the complements below it."""
RACE_SEARCH = replace(STRONG_SEARCH, last_conflict=True, weighted_walk=True)
"""The race's search and ``solve --solver rules``: the last conflict in every walk, and the
second phase's group-exit walk weighing from its root on."""


@dataclass
class SearchResult:
    """What a search found, and how much work it took.

    ``solutions`` holds at most ``limit`` grids, in the order found. ``exhausted`` is true when
    nothing of the search space is left unexplored, so ``len(solutions)`` is then the exact
    number of solutions (or at least ``limit`` of them, when it equals ``limit``). It is false
    when the search stopped early: at ``limit`` solutions with alternatives still open, after
    ``max_nodes`` nodes, or at the deadline (``timed_out``).

    ``nodes`` counts the fixpoints of the rules computed (the root included); ``guesses`` the
    guesses explored ("x is v" children). ``max_depth`` is the thesis' measure (module text);
    ``solution_depth`` the number of guesses on the way to the first solution (None if none).
    ``rules_used`` adds up, over every node, the cells each rule fixed (a guessed cell itself
    not included); ``root_*`` describe the root alone: the rules without any guess.
    """

    solutions: list[Grid] = field(default_factory=list)
    exhausted: bool = False
    max_depth: int = 0
    solution_depth: int | None = None
    guesses: int = 0
    nodes: int = 0
    rules_used: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False
    root_fixed: int = 0
    """Cells with one value left at the root, clues included (0 after a contradiction)."""
    root_solved: bool = False
    root_contradiction: str | None = None
    root_rules: dict[str, int] = field(default_factory=dict)
    """The cells each rule fixed at the root (only rules that fixed some)."""
    probes: int = 0
    """Exits probed (``probe_depth``), and how many of them were refuted."""
    refuted: int = 0

    @property
    def unique(self) -> bool | None:
        """Whether the puzzle has exactly one solution, when the search settled it (a second
        solution found, or the search exhausted); None otherwise."""
        if len(self.solutions) >= 2:
            return False
        if self.exhausted:
            return len(self.solutions) == 1
        return None


class SearchError(FillsmtError):
    """The rules fixed every cell to a grid the independent checker rejects (a bug)."""


@dataclass(frozen=True)
class _Node:
    """A state still to be propagated (its parent's fixpoint, forked, plus one guess or its
    complement), and its depth in the search tree."""

    state: State
    depth: int
    guess: bool
    decision: tuple[int, Mask] | None = None
    """The guess or complement that made this node: (cell, the values it keeps)."""
    value: int = -1
    """The value its parent's guess gave the cell (the guess and its complement alike; -1
    where the guess kept several values: ``avoid``)."""


def solve_by_search(puzzle: Puzzle, options: SearchOptions = THESIS_SEARCH, *, limit: int = 1,
                    max_nodes: int | None = None, deadline: float | None = None,
                    first_nodes: int | None = None, avoid: Grid | None = None,
                    clock: Callable[[], float] = time.monotonic, progress=None) -> SearchResult:
    """Find up to ``limit`` solutions of ``puzzle`` by the rules plus backtracking.

    ``limit=2`` tests uniqueness (:attr:`SearchResult.unique`). ``max_nodes`` caps the
    fixpoints computed; ``deadline`` is a ``clock`` value (default :func:`time.monotonic`; the
    quick search's is the process's CPU time) after which no node is
    started (a fixpoint already running is finished first); ``first_nodes`` stops the search
    (as timed out) once it computed that many fixpoints without finding a solution. ``options``
    say how the search walks (:class:`SearchOptions`; those of the strong search's phases are
    not read here).

    ``avoid`` (a known solution) turns the search into a hunt for another one: ``avoid`` is
    never returned, and where the guessed cell may still hold ``avoid``'s value, the guess is
    that it does not (the complement, that it does, comes second). So ``limit=1`` with
    ``avoid`` decides uniqueness: unique exactly when the search is exhausted with no solution.

    ``progress`` (None, or an object with ``node(depth, open_cells, solutions)``) hears of every
    node once its fixpoint is computed: its depth, its cells with more than one value left (-1
    at a contradiction) and the solutions found before it (the race's watcher reads it:
    :class:`fillsmt.race.SearchProgress`). It changes nothing of the search.
    """
    if limit < 1:
        raise InputError(f"the solution limit must be at least 1, found {limit}")
    active = options.active(options.probe_depth >= 0)
    result = SearchResult(rules_used=dict.fromkeys(active, 0))
    search = _Search(puzzle, options, result, deadline, clock, avoid, progress)
    walk = _Walk(search, [_root(puzzle, active, options.steiner)])
    while walk.step(limit, first_nodes, max_nodes) is None:
        pass
    return result


def _root(puzzle: Puzzle, active: list[str], steiner: bool) -> _Node:
    """A search's root: the puzzle's own domains on a board that keeps its groups, to be
    settled by the first ``expand``; ``steiner``: ``capacity`` counts by Steiner trees there and
    in every state forked from it."""
    state = State(Board.of(puzzle.height, puzzle.width, keep=True), initial_masks(puzzle), active)
    state.steiner = steiner
    return _Node(state, 0, False)


@dataclass
class _Walk:
    """One depth-first walk of a search tree: the search and its stack of nodes to expand."""

    search: _Search
    stack: list[_Node]

    def step(self, limit: int, first_nodes: int | None = None, max_nodes: int | None = None) -> str | None:
        """Expand the next node. None while the walk goes on; else why it ended, its result
        updated: ``"limit"`` (``limit`` solutions found; ``exhausted`` says whether anything was
        left), ``"exhausted"``, ``"timed-out"`` (the deadline, or ``first_nodes`` without a
        solution) or ``"nodes"`` (``max_nodes``)."""
        search, stack = self.search, self.stack
        result = search.result
        while stack:
            if search.deadline is not None and search.clock() >= search.deadline or \
                    first_nodes is not None and not result.solutions and result.nodes >= first_nodes:
                result.timed_out = True
                return "timed-out"
            if max_nodes is not None and result.nodes >= max_nodes:
                return "nodes"
            node = stack.pop()
            stack.extend(reversed(search.expand(node)))
            if len(result.solutions) >= limit:
                result.exhausted = not stack
                return "limit"
            return None
        result.exhausted = True
        return "exhausted"


@dataclass
class _Search:
    """One search: what every node needs, and what the search has found out so far."""

    puzzle: Puzzle
    options: SearchOptions
    result: SearchResult
    deadline: float | None = None
    clock: Callable[[], float] = time.monotonic
    """What ``deadline`` is measured on."""
    avoid: Grid | None = None
    progress: object | None = None
    """Told of every node (:func:`solve_by_search`'s ``progress``)."""
    max_probes: int | None = field(init=False, default=None)
    """``options.probe_budget`` divided by the grid's cells."""
    conflict: tuple[int, int] | None = field(init=False, default=None)
    """``last_conflict`` (module text): the refuted guess, (cell, value), while it is the conflict."""
    second: tuple[int, int] | None = field(init=False, default=None)
    """``wiped_out`` (module text): the guess whose complement was refuted, (cell, value), while
    it is the second conflict."""
    weights: list[int] | None = field(init=False, default=None)
    """``weights`` (module text): each cell's failure weight (None: off)."""

    def __post_init__(self) -> None:
        options, cells = self.options, self.puzzle.height * self.puzzle.width
        if options.probe_budget is not None:
            self.max_probes = options.probe_budget // max(1, cells)
        if options.weights or options.weights_from_root:
            self.weights = [0] * cells

    def settle(self, state: State) -> str | None:
        """The rules' fixpoint, then the search rules; again until neither changes anything.
        The contradiction found, or None."""
        while True:
            contradiction = fixpoint(state, self.options.rules, bool(self.options.search_rules))
            if contradiction is not None or not self.options.search_rules:
                return contradiction
            before = len(state.changed_cells)
            try:
                for rule in self.options.search_rules:
                    SEARCH_RULE_FUNCTIONS[rule](state)
            except Contradiction as e:
                return str(e)
            if len(state.changed_cells) == before:
                return None

    def probe(self, state: State) -> str | None:
        """Probe every exit of every incomplete group (module text) on a settled ``state``,
        until a whole pass refutes none or the deadline passes. The contradiction found, or
        None."""
        again = True
        while again:
            again = False
            for e, k in _exits(state):
                bk = 1 << k
                if not state.dom[e] & bk or state.dom[e] == bk:
                    continue  # settled since the pass began
                if self.deadline is not None and self.clock() >= self.deadline:
                    return None
                if self.max_probes is not None and self.result.probes >= self.max_probes:
                    return None
                child = state.fork()
                child.assume(e, bk)
                self.result.probes += 1
                if self.settle(child) is not None:
                    self.result.refuted += 1
                    try:
                        state.restrict(e, ~bk, "probe")
                    except Contradiction as c:
                        return str(c)
                    contradiction = self.settle(state)
                    if contradiction is not None:
                        return contradiction
                    again = True
        return None

    def expand(self, node: _Node) -> list[_Node]:
        """Propagate one node, record what it shows, and return its children in the order to
        explore them (none at a dead end or a solution)."""
        puzzle, result, state, options = self.puzzle, self.result, node.state, self.options
        contradiction = self.settle(state)
        if contradiction is None and node.depth <= options.probe_depth:
            contradiction = self.probe(state)
        masks, fixed_by_rule = state.dom, state.fixed_by_rule
        result.nodes += 1
        result.guesses += node.guess
        result.max_depth = max(result.max_depth, node.depth)
        for rule, count in fixed_by_rule.items():
            result.rules_used[rule] += count
        unfixed = [x for x, m in enumerate(masks) if m & (m - 1)]
        if contradiction is not None and self.weights is not None and node.decision is not None:
            self.weigh(node.decision[0], state.changed_cells)
        if options.last_conflict and node.decision is not None:
            if node.guess:
                self.note_conflict(node.decision, contradiction is not None)
            if options.wiped_out:
                self.note_wiped_out(node, contradiction is not None)
        if self.progress is not None:
            self.progress.node(node.depth, -1 if contradiction else len(unfixed), len(result.solutions))
        if result.nodes == 1:
            result.root_fixed = 0 if contradiction else len(masks) - len(unfixed)
            result.root_solved = contradiction is None and not unfixed
            result.root_contradiction = contradiction
            result.root_rules = {r: n for r, n in fixed_by_rule.items() if n}
        if contradiction is not None:
            return []
        if not unfixed:
            grid = _solution(puzzle, masks)
            if grid != self.avoid:
                result.solutions.append(grid)
                if result.solution_depth is None:
                    result.solution_depth = node.depth
            return []
        again = self.conflict_guess(masks)
        if again is not None:
            cell, value = again
        else:
            cell, value = _guess(puzzle, masks, unfixed, options.cell_order,
                                 self.weights if result.solutions or options.weights_from_root else None,
                                 node.depth <= options.shared_depth)
        chosen, rest = 1 << value, masks[cell] & ~(1 << value)
        if self.avoid is not None:
            known = 1 << self.avoid[cell // puzzle.width][cell % puzzle.width]
            if masks[cell] & known:
                chosen, rest = masks[cell] & ~known, known
                value = -1
        children = []
        for allowed, deeper in ((chosen, True), (rest, False)):
            if options.search_rules or options.probe_depth >= 0:
                child = state.fork()
                child.assume(cell, allowed)
            else:  # the thesis' search: every node's fixpoint from scratch, as the rating has it
                masks = list(state.dom)
                masks[cell] = allowed
                child = State(state.board, masks, list(state.fixed_by_rule))
            children.append(_Node(child, node.depth + deeper, deeper, (cell, allowed), value))
        return children

    def note_conflict(self, decision: tuple[int, Mask] | None, refuted: bool) -> None:
        """``last_conflict`` (module text): a guess ``decision`` (cell, the one value it keeps)
        refuted becomes the conflict; the conflict's guess not refuted ends it."""
        if decision is None:
            return
        cell, allowed = decision
        if allowed & (allowed - 1):
            return  # ``avoid``'s guess keeps several values
        if refuted:
            self.conflict = (cell, allowed.bit_length() - 1)
        elif self.conflict == (cell, allowed.bit_length() - 1):
            self.conflict = None

    def note_wiped_out(self, node: _Node, refuted: bool) -> None:
        """``wiped_out`` (module text): a complement refuted makes its guess the second
        conflict; the second conflict's guess not refuted ends it."""
        if node.value < 0:
            return  # ``avoid``'s guess keeps several values
        guess = (node.decision[0], node.value)
        if not node.guess and refuted:
            self.second = guess
        elif node.guess and not refuted and self.second == guess:
            self.second = None

    def conflict_guess(self, masks: list[Mask]) -> tuple[int, int] | None:
        """The conflict's guess, else the second conflict's, where its cell is unfixed and may
        still take its value; else None."""
        for guess in (self.conflict, self.second):
            if guess is not None and _still_open(guess, masks):
                return guess
        return None

    def weigh(self, cell: int, changed: list[int]) -> None:
        """``weights`` (module text): a node refuted by its decision on ``cell``, its fixpoint
        having changed ``changed``."""
        weights = self.weights
        weights[cell] += WEIGHT_DECISION
        for x in set(changed):
            weights[x] += 1

def _exits(state: State) -> list[tuple[int, int]]:
    """Every (exit, value) of every incomplete group: the literals probing tries. Probing one
    assumes the exit holds the group's value and settles the state; a contradiction proves that
    no solution has it there (the rules and the search rules are sound), so the exit loses it."""
    out = []
    for k in values_of(state.anchored):
        found = state.groups(k)
        for i in found.incomplete:
            out.extend((e, k) for e in found.groups[i].exits(state.dom))
    return out


def _still_open(guess: tuple[int, int], masks: list[Mask]) -> bool:
    """Whether ``guess`` (cell, value) may be made: its cell is unfixed and may still take its value."""
    cell, value = guess
    m = masks[cell]
    return bool(m & (m - 1) and m >> value & 1)


def _guess(puzzle: Puzzle, masks: list[Mask], unfixed: list[int], cell_order: str,
           weights: list[int] | None = None, shared: bool = False) -> tuple[int, int]:
    """The cell to guess and the value to guess in it (module text); ``weights``: failure
    weights breaking the order's ties (``weights``, module text), None for none; ``shared``:
    an order of groups guesses where the tight groups meet (``shared_depth``, module text)."""
    if cell_order in GROUP_KEYS:
        exit_ = (_shared_group_exit if shared else _tightest_group_exit)(puzzle, masks, GROUP_KEYS[cell_order],
                                                                          weights)
        if exit_ is not None:
            return exit_
    if cell_order == "row-major":
        cell = unfixed[0]
    elif weights is None:
        cell = min(unfixed, key=lambda x: (masks[x].bit_count(), x))
    else:
        cell = min(unfixed, key=lambda x: (masks[x].bit_count(), -weights[x], x))
    m = masks[cell]
    return cell, (m & -m).bit_length() - 1


def _tightest_group_exit(puzzle: Puzzle, masks: list[Mask], order=GROUP_KEYS["group-exit"],
                         weights: list[int] | None = None) -> tuple[int, int] | None:
    """The exit and value of the incomplete group to grow (the least ``order`` key, module
    text), or None when no group is incomplete; with ``weights``, the groups tied on the key's
    first criterion by the most weight on their exits, and the exit by the most weight after
    the fewest values (``weights``, module text)."""
    best_key, best = None, None
    for start, size, exits, k in _incomplete_groups(puzzle, masks):
        key = _weighed(order(len(exits), k, size, start), exits, weights)
        if best_key is None or key < best_key:
            best_key, best = key, (exits, k)
    return None if best is None else (_exit(best[0], masks, weights), best[1])


def _shared_group_exit(puzzle: Puzzle, masks: list[Mask], order=GROUP_KEYS["group-exit"],
                       weights: list[int] | None = None) -> tuple[int, int] | None:
    """:func:`_tightest_group_exit` where the tight groups meet (``shared_depth``, module text):
    among the groups tied on ``order``'s first criterion, the group with the exit most of them
    share, then by ``order`` (and ``weights``); its most shared exit, then the fewest values
    (then the most weight). None when no group is incomplete."""
    groups = [(order(len(exits), k, size, start), exits, k) for start, size, exits, k in
              _incomplete_groups(puzzle, masks)]
    if not groups:
        return None
    first = min(key[0] for key, _, _ in groups)
    tied = [group for group in groups if group[0][0] == first]
    share: dict[int, int] = {}
    for _, exits, _ in tied:
        for x in exits:
            share[x] = share.get(x, 0) + 1
    best_key, best = None, None
    for key, exits, k in tied:
        key = (-max(share[x] for x in exits),) + _weighed(key, exits, weights)
        if best_key is None or key < best_key:
            best_key, best = key, (exits, k)
    return _exit(best[0], masks, weights, share), best[1]


def _weighed(key: tuple, exits, weights: list[int] | None) -> tuple:
    """A group's ``order`` key with, after its first criterion, the most failure weight on its
    exits (``weights``, module text; None: the key itself)."""
    return key if weights is None else (key[0], -sum(weights[x] for x in exits)) + key[1:]


def _exit(exits, masks: list[Mask], weights: list[int] | None = None, share: dict[int, int] | None = None) -> int:
    """The exit of a group to guess: the most shared (``share``, ``shared_depth``), then the
    fewest values, then the most failure weight (``weights``), then the first cell."""
    return min(exits, key=lambda x: (-share[x] if share else 0, masks[x].bit_count(),
                                     -weights[x] if weights else 0, x))


def _incomplete_groups(puzzle: Puzzle, masks: list[Mask]):
    """Every group (connected cells fixed to one value k) with fewer than k cells and an exit
    (an outside neighbour still allowing k): its first cell (row-major), size, exits and k. A
    group without an exit is skipped (the rules have then found a contradiction)."""
    table = adjacency(puzzle.height, puzzle.width)
    seen = [False] * len(masks)
    for start, m in enumerate(masks):
        if seen[start] or m & (m - 1):
            continue
        seen[start] = True
        size, exits, stack = 1, set(), [start]
        while stack:
            x = stack.pop()
            for y in table[x]:
                if masks[y] == m:
                    if not seen[y]:
                        seen[y] = True
                        size += 1
                        stack.append(y)
                elif masks[y] & m:
                    exits.add(y)
        k = m.bit_length() - 1
        if size < k and exits:
            yield start, size, exits, k


def _solution(puzzle: Puzzle, masks: list[Mask]) -> Grid:
    w = puzzle.width
    grid = tuple(tuple(masks[r * w + c].bit_length() - 1 for c in range(w))
                 for r in range(puzzle.height))
    problems = check_solution(puzzle.cells, grid)
    if problems:
        raise SearchError(f"{puzzle.source}: the rules fixed every cell, but the checker rejects "
                          f"the grid: {problems[0]}")
    return grid


WEIGHT_DECISION = 3
"""``weights`` (module text): what a refuted node adds to its decision's cell (every other cell
its fixpoint changed gets 1). Measured (``benchmarks/README.md``, "Issue 17, sixteenth session:
the wiped-out cell and failure weights"), with ``wiped_out``: 1, 3, 6 and 12 take
janko-thesis100's quick proofs to the same nodes within 1 % (268 111-113, 285 35-39); the
decision's cell alone takes 285's proof to 55 nodes, the changed cells alone 268's to 157."""

def solve_strong(puzzle: Puzzle, options: SearchOptions = STRONG_SEARCH, *, limit: int = 1,
                 deadline: float | None = None, first_nodes: int | None = None,
                 clock: Callable[[], float] = time.monotonic, progress=None) -> SearchResult:
    """The search the race and ``solve --solver rules`` use: first the search ``options`` say,
    within ``options.first_phase_budget`` cells times nodes; when that does not settle the
    puzzle and ``options.second_phase`` is on, the search starts again with exit probing at the
    root, then walks the tree in each of ``options.second_phase_orders`` by turns
    (:func:`_second_phase`). Probing pays on puzzles the plain search gets lost in (hard-tail
    299: settled at the root) and costs more than the whole search on those it settles at once
    (janko 286, hard-tail 485), hence the two phases. ``capacity`` counts by Steiner trees in
    proofs (``limit`` above 1) and in the second phase (and everywhere with ``options.steiner``):
    janko 286's proof 413 -> 29 nodes, 12x12-big-11's plain search 16 253 -> 1 158 nodes, where a
    plain solve settled in the first phase would pay the tree at its root for nothing. The result
    counts the nodes and probes of both phases; both are sound and complete, so the second
    phase's exhausted search is still a proof. ``first_nodes``: as for :func:`solve_by_search`
    (at most that many fixpoints without a solution, in each phase); ``clock``: what
    ``deadline`` is measured on; ``progress``: told of every node of both phases
    (:func:`solve_by_search`)."""
    phase_nodes = options.first_phase_budget // max(1, puzzle.height * puzzle.width)
    first = solve_by_search(puzzle, replace(options, steiner=options.steiner or limit > 1), limit=limit,
                            max_nodes=phase_nodes, deadline=deadline, first_nodes=first_nodes, clock=clock,
                            progress=progress)
    if len(first.solutions) >= limit or first.exhausted or first.timed_out or not options.second_phase:
        return first
    second = _second_phase(puzzle, options, limit, deadline, first_nodes, clock, progress)
    second.nodes += first.nodes
    second.guesses += first.guesses
    second.max_depth = max(second.max_depth, first.max_depth)
    return second


def _second_phase(puzzle: Puzzle, options: SearchOptions, limit: int, deadline: float | None,
                  first_nodes: int | None, clock: Callable[[], float], progress=None) -> SearchResult:
    """The strong search's second phase: the root settled and its exits probed once (the first
    walk's root), then one walk per order of ``options.second_phase_orders``, each from its own
    fork of that root, expanding one node each in turn (:func:`_walk_options`). Each walk is a
    whole search (sound and complete: any order is, module text), so the phase ends as soon as
    one of them does: an exhausted walk has found every solution (the others' are among them),
    and a walk that found ``limit`` solutions has found ``limit`` distinct ones; so have the
    walks together when their distinct solutions reach ``limit`` (each is a solution: the rules
    fixed every cell and the checker passed it). The deadline stops every walk (timed out);
    ``first_nodes`` counts the nodes of all walks; ``progress`` hears of every walk's nodes.
    Each walk keeps its own conflicts and failure weights. One order is the plain second phase,
    node for node."""
    active = options.active(True)
    walked = [_walk_options(options, i) for i in range(len(options.second_phase_orders))]
    results = [SearchResult(rules_used=dict.fromkeys(active, 0)) for _ in walked]
    searches = [_Search(puzzle, walk, result, deadline, clock, None, progress) for walk, result in zip(walked, results)]
    root = _root(puzzle, active, True)
    walks = [_Walk(searches[0], [root])]
    decider = walks[0]
    end = decider.step(limit)  # the root, settled and probed
    if end is None and decider.stack:  # open at the root: the other walks start from it, forked
        walks += [_Walk(search, [_Node(root.state.fork(), 0, False)]) for search in searches[1:]]
    while end is None:
        for walk in walks:
            before = len(walk.search.result.solutions)
            end = walk.step(limit)
            if end is not None:
                decider = walk
                break
            if len(walk.search.result.solutions) > before and len(_distinct(results)) >= limit:
                end = "pooled"
                break
            if first_nodes is not None and not any(r.solutions for r in results) and \
                    sum(r.nodes for r in results) >= first_nodes:
                for r in results:
                    r.timed_out = True
                end = "timed-out"
                break
    return _merged(results, decider.search.result if end in ("limit", "exhausted") else None, limit)


def _walk_options(options: SearchOptions, i: int) -> SearchOptions:
    """The options of the second phase's walk i: its order, probing at the root for the first
    walk (the root it settles is every walk's), the Steiner count, and failure weights from the
    root on for the :data:`WEIGHTED_WALK_ORDER` walk with ``weighted_walk``."""
    order = options.second_phase_orders[i]
    return replace(options, cell_order=order, probe_depth=-1 if i else 0, steiner=True,
                   weights_from_root=options.weights_from_root or options.weighted_walk and order == WEIGHTED_WALK_ORDER)


def _distinct(results: list[SearchResult]) -> list[Grid]:
    """The walks' solutions, each once, in the walks' order."""
    out: list[Grid] = []
    for r in results:
        for grid in r.solutions:
            if grid not in out:
                out.append(grid)
    return out


def _merged(results: list[SearchResult], decided: SearchResult | None, limit: int) -> SearchResult:
    """One result for the second phase's walks: the solutions and ``exhausted`` of the walk that
    ended it (``decided``), or else the walks' distinct solutions (up to ``limit``); the work of
    all of them added up; the root as the first walk saw it."""
    first = results[0]
    merged = SearchResult(rules_used={r: sum(x.rules_used[r] for x in results) for r in first.rules_used},
                          root_fixed=first.root_fixed, root_solved=first.root_solved,
                          root_contradiction=first.root_contradiction, root_rules=first.root_rules)
    if decided is not None:
        merged.solutions = list(decided.solutions)
        merged.exhausted = decided.exhausted
    else:
        merged.solutions = _distinct(results)[:limit]
    merged.timed_out = any(r.timed_out for r in results) and len(merged.solutions) < limit and not merged.exhausted
    merged.nodes = sum(r.nodes for r in results)
    merged.guesses = sum(r.guesses for r in results)
    merged.probes = sum(r.probes for r in results)
    merged.refuted = sum(r.refuted for r in results)
    merged.max_depth = max(r.max_depth for r in results)
    depths = [r.solution_depth for r in results if r.solution_depth is not None]
    merged.solution_depth = min(depths) if depths else None
    return merged


__all__ = ["CELL_ORDERS", "FIRST_PHASE_BUDGET", "PROBE_BUDGET", "QUICK_PROOF_SEARCH", "QUICK_SEARCH", "RACE_SEARCH",
           "SEARCH_ORDERS", "SECOND_PHASE_ORDERS", "STRONG_SEARCH", "THESIS_SEARCH", "WEIGHTED_WALK_ORDER", "SearchError",
           "SearchOptions", "SearchResult", "solve_by_search", "solve_strong"]
