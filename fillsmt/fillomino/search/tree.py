"""One search's tree: its nodes, the depth-first walk, and :func:`solve_by_search`.

A node's state is settled (:meth:`Search.settle`), probed if its depth asks for it
(:meth:`Search.probe`), and then is a dead end (a contradiction), a solution (every cell fixed,
checked by :func:`~fillsmt.fillomino.verify.check_solution`) or split by a guess
(:mod:`.guesses`) into two children. The walk is depth first, the guess before its complement.
"""

from __future__ import annotations

import time
from typing import Any, Callable, NamedTuple

from fillsmt.errors import InputError
from fillsmt.fillomino.deduce import Mask, initial_masks
from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.capacity import capacity
from fillsmt.fillomino.deduce.fixpoint import fixpoint
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.search.guesses import Conflicts, add_failure, guess, incomplete_groups
from fillsmt.fillomino.search.options import THESIS_SEARCH, SearchOptions
from fillsmt.fillomino.search.result import SearchError, SearchResult
from fillsmt.fillomino.verify import check_solution

SEARCH_RULE_FUNCTIONS = {"capacity": capacity}


class Node(NamedTuple):
    """A state still to be settled (its parent's, forked or rebuilt, plus one guess or its
    complement) and its depth: the root is at depth 0, a guess one deeper than its parent, a
    complement at its parent's depth."""

    state: State
    depth: int
    guess: bool
    decision: tuple[int, Mask] | None = None
    """The guess or complement that made this node: (cell, the values it keeps)."""
    value: int = -1
    """The value its parent's guess named (for the guess and its complement alike; -1 where
    the guess kept several values: ``avoid``)."""


def solve_by_search(
    puzzle: Puzzle,
    options: SearchOptions = THESIS_SEARCH,
    *,
    limit: int = 1,
    max_nodes: int | None = None,
    deadline: float | None = None,
    first_nodes: int | None = None,
    avoid: Grid | None = None,
    clock: Callable[[], float] = time.monotonic,
    progress=None,
) -> SearchResult:
    """Find up to ``limit`` solutions of ``puzzle`` by the rules plus backtracking, walking as
    ``options`` say.

    ``limit=2`` tests uniqueness (:attr:`SearchResult.unique`). ``max_nodes`` caps the
    fixpoints computed; ``deadline`` is a ``clock`` value after which no node is started (a
    fixpoint already running is finished first); ``first_nodes`` stops the search (as timed
    out) once it computed that many fixpoints without finding a solution.

    ``avoid`` (a known solution) turns the search into a hunt for another one: ``avoid`` is
    never returned, and where the guessed cell may still hold ``avoid``'s value, the guess is
    that it does not (the complement, that it does, comes second). So ``limit=1`` with
    ``avoid`` decides uniqueness: unique exactly when the search is exhausted with no solution.

    ``progress`` (None, or an object with ``node(depth, open_cells, solutions)``) hears of every
    node once its fixpoint is computed: its depth, its cells with more than one value left (-1
    at a contradiction) and the solutions found before it (:class:`fillsmt.engine.racers.SearchProgress`
    reads it). It changes nothing of the search.
    """
    if limit < 1:
        raise InputError(f"the solution limit must be at least 1, found {limit}")
    counted = options.counted(options.probe_depth >= 0)
    result = SearchResult(rules_used=dict.fromkeys(counted, 0))
    search = Search(puzzle, options, result, deadline, clock, avoid, progress)
    walk = Walk(search, [root(puzzle, counted, options.steiner)])
    while walk.step(limit, first_nodes, max_nodes) is None:
        pass
    return result


def root(puzzle: Puzzle, counted: list[str], steiner: bool) -> Node:
    """A search's root: the puzzle's own domains on a board that keeps its groups, to be
    settled by the first node expanded; ``steiner``: ``capacity`` counts by Steiner trees there
    and in every state forked from it."""
    state = State(Board.of(puzzle.height, puzzle.width, keep=True), initial_masks(puzzle), counted)
    state.steiner = steiner
    return Node(state, 0, False)


class Walk:
    """One depth-first walk of a search tree: the search and its stack of nodes to expand."""

    __slots__ = ("search", "stack")

    def __init__(self, search: Search, stack: list[Node]) -> None:
        self.search = search
        self.stack = stack

    def step(self, limit: int, first_nodes: int | None = None, max_nodes: int | None = None) -> str | None:
        """Expand the next node. None while the walk goes on; else why it ended, its result
        updated: ``"limit"`` (``limit`` solutions found; ``exhausted`` says whether anything was
        left), ``"exhausted"``, ``"timed-out"`` (the deadline, or ``first_nodes`` without a
        solution) or ``"nodes"`` (``max_nodes``)."""
        search, stack = self.search, self.stack
        result = search.result
        while stack:
            if (
                search.deadline is not None
                and search.clock() >= search.deadline
                or first_nodes is not None
                and not result.solutions
                and result.nodes >= first_nodes
            ):
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


class Search:
    """One search: what every node needs, and what the search has noted so far (its conflicts
    and failure weights).

    ``clock`` is what ``deadline`` is measured on; ``progress`` is told of every node
    (:func:`solve_by_search`'s ``progress``). ``max_probes`` is ``options.probe_budget`` divided
    by the grid's cells; ``weights`` each cell's failure weight (None: no weights)."""

    def __init__(
        self,
        puzzle: Puzzle,
        options: SearchOptions,
        result: SearchResult,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        avoid: Grid | None = None,
        progress: Any = None,
    ) -> None:
        self.puzzle, self.options, self.result = puzzle, options, result
        self.deadline, self.clock, self.avoid, self.progress = deadline, clock, avoid, progress
        cells = puzzle.height * puzzle.width
        self.max_probes: int | None = None if options.probe_budget is None else options.probe_budget // max(1, cells)
        self.conflicts = Conflicts()
        self.weights: list[int] | None = [0] * cells if options.weights or options.weights_from_root else None

    def settle(self, state: State) -> str | None:
        """The rules' fixpoint (in staged rounds when there are search rules:
        :func:`~fillsmt.fillomino.deduce.fixpoint.run_rules`), then the search rules; again
        until neither changes anything. The contradiction found, or None."""
        rules, search_rules = self.options.rules, self.options.search_rules
        while True:
            contradiction = fixpoint(state, rules, bool(search_rules))
            if contradiction is not None or not search_rules:
                return contradiction
            before = len(state.changed_cells)
            try:
                for rule in search_rules:
                    SEARCH_RULE_FUNCTIONS[rule](state)
            except Contradiction as e:
                return str(e)
            if len(state.changed_cells) == before:
                return None

    def probe(self, state: State) -> str | None:
        """Failed-literal probing on a settled ``state``: assume each exit of each incomplete
        k-group (:func:`exits`) is k and settle; a contradiction proves no solution has k there
        (every step of the settling is sound), so the exit loses k and the state is settled
        again. Repeated until a whole pass refutes none, the deadline passes or the probes reach
        ``max_probes``. The contradiction found, or None."""
        again = True
        while again:
            again = False
            for e, k in exits(state):
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

    def expand(self, node: Node) -> list[Node]:
        """Settle one node, record what it shows, and return its children in the order to
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
        if node.decision is not None:
            if contradiction is not None and self.weights is not None:
                add_failure(self.weights, node.decision[0], state.changed_cells)
            if options.last_conflict:
                self.conflicts.note(
                    node.guess, *node.decision, node.value, contradiction is not None, options.wiped_out
                )
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
            grid = solution(puzzle, masks)
            if grid != self.avoid:
                result.solutions.append(grid)
                if result.solution_depth is None:
                    result.solution_depth = node.depth
            return []
        again = self.conflicts.guess(masks)
        if again is not None:
            cell, value = again
        else:
            cell, value = guess(
                state,
                unfixed,
                options.cell_order,
                self.weights if result.solutions or options.weights_from_root else None,
                node.depth <= options.shared_depth,
            )
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
            else:  # the thesis' search: every node's fixpoint from scratch, as the rating counts it
                masks = list(state.dom)
                masks[cell] = allowed
                child = State(state.board, masks, list(state.fixed_by_rule))
            children.append(Node(child, node.depth + deeper, deeper, (cell, allowed), value))
        return children


def exits(state: State) -> list[tuple[int, int]]:
    """Every (exit, value) of every incomplete group (:func:`.guesses.incomplete_groups`): the
    literals probing tries."""
    return [(e, k) for _, _, cells, k in incomplete_groups(state) for e in cells]


def solution(puzzle: Puzzle, masks: list[Mask]) -> Grid:
    """The grid of a node whose every cell is fixed, checked by the independent checker."""
    w = puzzle.width
    grid = tuple(tuple(masks[r * w + c].bit_length() - 1 for c in range(w)) for r in range(puzzle.height))
    problems = check_solution(puzzle.cells, grid)
    if problems:
        raise SearchError(
            f"{puzzle.source}: the rules fixed every cell, but the checker rejects the grid: {problems[0]}"
        )
    return grid
