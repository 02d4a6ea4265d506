"""The strong search, in two phases: what the race and ``solve --solver rules`` run.

First phase: the search ``options`` describe (the search rules at every node, no probing),
within ``options.first_phase_budget`` cells times nodes. Second phase, when the first did not
settle the puzzle and ``options.second_phase`` is on: the search starts again from the root,
whose exits it probes, and walks the tree once per order of ``options.second_phase_orders``,
the walks taking turns node by node from forks of that one root. Probing pays where the plain
search gets lost and costs more than the whole search where it settles the puzzle at once,
hence the two phases; with two orders by turns the phase ends within twice the nodes of the
better order, where one order alone can get lost for good on a puzzle the other settles.

``capacity`` counts by Steiner trees in proofs (``limit`` above 1), in the second phase, and
wherever ``options.steiner`` says. Both phases are sound and complete, so an exhausted second
phase is still a proof; the result counts the work of both.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable

from fillsmt.fillomino.model import Grid, Puzzle
from fillsmt.fillomino.search.options import STRONG_SEARCH, WEIGHTED_WALK_ORDER, SearchOptions
from fillsmt.fillomino.search.result import SearchResult
from fillsmt.fillomino.search.tree import Node, Search, Walk, root, solve_by_search


def solve_strong(
    puzzle: Puzzle,
    options: SearchOptions = STRONG_SEARCH,
    *,
    limit: int = 1,
    deadline: float | None = None,
    first_nodes: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    progress=None,
) -> SearchResult:
    """Up to ``limit`` solutions of ``puzzle`` by the two phases (module text).
    ``first_nodes``, ``clock`` and ``progress`` as for :func:`~.tree.solve_by_search`, in each
    phase (the second counts the nodes of all its walks)."""
    phase_nodes = options.first_phase_budget // max(1, puzzle.height * puzzle.width)
    first = solve_by_search(
        puzzle,
        replace(options, steiner=options.steiner or limit > 1),
        limit=limit,
        max_nodes=phase_nodes,
        deadline=deadline,
        first_nodes=first_nodes,
        clock=clock,
        progress=progress,
    )
    if len(first.solutions) >= limit or first.exhausted or first.timed_out or not options.second_phase:
        return first
    second = _second_phase(puzzle, options, limit, deadline, first_nodes, clock, progress)
    second.nodes += first.nodes
    second.guesses += first.guesses
    second.max_depth = max(second.max_depth, first.max_depth)
    return second


def _second_phase(
    puzzle: Puzzle,
    options: SearchOptions,
    limit: int,
    deadline: float | None,
    first_nodes: int | None,
    clock: Callable[[], float],
    progress=None,
) -> SearchResult:
    """The second phase: the first walk settles and probes the root, then every walk
    (:func:`walk_options`) expands one node in turn, each from its own fork of that root and
    with its own conflicts and failure weights. Each walk is a whole search, sound and complete,
    so the phase ends as soon as one of them does: an exhausted walk has found every solution,
    and a walk that found ``limit`` solutions has found ``limit`` distinct ones; so have the
    walks together when their distinct solutions reach ``limit`` (each was checked). The
    deadline stops every walk (timed out); ``first_nodes`` counts the nodes of all walks. With
    one order this is that order's probing search, node for node."""
    counted = options.counted(True)
    results = [SearchResult(rules_used=dict.fromkeys(counted, 0)) for _ in options.second_phase_orders]
    searches = [
        Search(puzzle, walk_options(options, i), result, deadline, clock, None, progress)
        for i, result in enumerate(results)
    ]
    start = root(puzzle, counted, True)
    walks = [Walk(searches[0], [start])]
    decider = walks[0]
    end = decider.step(limit)  # the root, settled and probed
    if end is None and decider.stack:  # open at the root: the other walks start from it, forked
        walks += [Walk(search, [Node(start.state.fork(), 0, False)]) for search in searches[1:]]
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
            if (
                first_nodes is not None
                and not any(r.solutions for r in results)
                and sum(r.nodes for r in results) >= first_nodes
            ):
                for r in results:
                    r.timed_out = True
                end = "timed-out"
                break
    return _merged(results, decider.search.result if end in ("limit", "exhausted") else None, limit)


def walk_options(options: SearchOptions, i: int) -> SearchOptions:
    """The options of the second phase's walk i: its order, probing at the root for the first
    walk (the root it settles is every walk's), the Steiner count, and failure weights from the
    root on for the :data:`~.options.WEIGHTED_WALK_ORDER` walk with ``weighted_walk``."""
    order = options.second_phase_orders[i]
    weighs = options.weights_from_root or options.weighted_walk and order == WEIGHTED_WALK_ORDER
    return replace(options, cell_order=order, probe_depth=-1 if i else 0, steiner=True, weights_from_root=weighs)


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
    merged = SearchResult(
        rules_used={r: sum(x.rules_used[r] for x in results) for r in first.rules_used},
        root_fixed=first.root_fixed,
        root_solved=first.root_solved,
        root_contradiction=first.root_contradiction,
        root_rules=first.root_rules,
    )
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
