"""Issue 17, tenth session (proofs): uniqueness-proof designs side by side, CPU s in one process.

    .venv/bin/python benchmarks/proof10_designs.py [--rounds N] [--designs a,b] PUZZLES... > OUT.csv
    python benchmarks/proof10_summary.py OUT.csv

For every puzzle the presolve leaves open with at most 150 open cells and whose quick proof
(``current`` below) settles it within its budget: the presolve's CPU s, the plain quick search
(``solve_strong``, limit 1, as ``fillsmt solve`` runs it in-process) and each design: CPU s (the
minimum over the rounds; the designs alternate within a round), nodes (fixpoints, probes counted
as nodes) and the answer (unique True/False, None: not settled within 500 nodes / 3 s). Every
design's answer is checked against ``current``'s and every grid it returns against the checker;
a disagreement stops the run. The ratio the target is about is (presolve + proof) / (presolve +
plain): ``proof10_summary.py``.

The designs other than ``current`` live here, not in fillsmt: none was kept (README, tenth
session). Each is sound and complete for the same reason as the search (``backtrack``'s module
text): a case split over a cell's values, or a removal proved by the rules' contradiction, loses
no solution.

``current``
    What ``fillsmt solve --unique`` runs in-process: the strong search's first phase, limit 2,
    first solution within 40 nodes (``solve_strong(limit=2, first_nodes=40, probing=False)``).
``avoid``
    The first solution S, then a second search that hunts for another (``avoid=S``: the guess
    at a cell is "not S's value" first).
``guided-row``, ``guided-left``
    Solution-guided refutation: from the settled root, for each open cell x assume "x is not
    S[x]" and settle; a contradiction fixes x to S[x] at the root (settled again). Passes repeat
    while any probe refutes; then the cell whose probe left the fewest open cells has its "not
    S[x]" side searched exhaustively (any solution there is a second one) and is fixed. Cells in
    row-major order, or fewest open cells left by their last probe first.
``wdeg-exits``, ``wdeg-tie``, ``wdeg-ratio``
    Learning the guess order from failures: every contradiction adds 1 to the weight of each
    cell its node changed; once the first solution is found the search guesses at the
    incomplete group with the fewest exits, then the most weight (exits), the fewest cells
    missing then the most weight (tie), or the least exits / (1 + weight) (ratio).
``sol-probe``
    Solution-guided exit probing: once the first solution S is found, the settled root is
    probed (every exit e of every incomplete k-group with S[e] != k is assumed k and settled;
    a contradiction removes k from e; passes repeat while any refutes; exits S has at k are
    skipped: with S in the state they cannot be refuted). The probed root domains hold every
    solution, so every node still on the stack is narrowed to them before its fixpoint; a root
    the probing fixes entirely is the proof.
``weak-defer``, ``weak-remember``, ``weak-all``, ``weak-all-remember``, ``weak-restart``
    Passing over guesses that split without deciding anything (the twins of
    ``proof10_twins.py``): once the first solution is found, the guess of the group-exit order is
    tried on both sides (each side forked and settled; a side settled this way is reused as the
    child); when neither side fixes more than the guessed cell and neither is a contradiction,
    the next group's guess is tried (at most 4; none better: the first). ``-remember``: a guess
    once found weak anywhere is not tried again (nor taken, while another group has a guess).
    ``weak-all``: from the root on, not only after the first solution (the proof's search then
    finds its first solution in another order, still within :data:`FIRST` nodes or not at all).
    ``weak-restart``: the first solution as ``current`` finds it, then ``weak-all-remember``'s
    search from the root, without the :data:`FIRST` bound. The look-ahead's settles that are not
    reused as children count as nodes.
``weak-late-60``, ``weak-late-100``
    ``current``; a proof still open after 60 / 100 nodes starts again from the root with
    ``backtrack``'s ``pass_weak`` (within what is left of the 500 nodes).
``weak-all-remember-2s``, ``weak-2s-fallback``
    ``weak-all-remember`` looking ahead at 2-groups only (a 2-clue choosing its partner; any
    other group's guess is taken as it comes): what ``backtrack``'s ``pass_weak`` does. The
    fallback: without a first solution within :data:`FIRST` nodes, ``current`` after it.
``capacity-first``
    The same search as ``current`` (same nodes) with the search rules (``capacity``) run once
    before the rules' fixpoint at every node: a node cost, not a tree, change.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.backtrack import (
    SEARCH_RULES, SearchError, SearchResult, _Node, _Search, solve_by_search, solve_strong)
from fillsmt.fillomino.deduce import ALL_RULES, initial_masks
from fillsmt.fillomino.deduce.board import Board, Contradiction
from fillsmt.fillomino.deduce.state import State
from fillsmt.fillomino.features import PROP_OPEN, open_cells
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.fillomino.verify import check_solution
from fillsmt.grid import neighbour_indices

NODES, SECONDS, FIRST = 500, 3.0, 40
"""The quick proof's bounds on a 10x10 (``features.quick_proof_budget``), for every design."""


def _start(puzzle, result: SearchResult, search_class=_Search, avoid=None) -> tuple[_Search, State]:
    """A search over ``puzzle`` with the strong search's rules, and its unsettled root."""
    active = list(ALL_RULES) + list(SEARCH_RULES) + ["probe"]
    result.rules_used = dict.fromkeys(active, 0)
    search = search_class(puzzle, ALL_RULES, SEARCH_RULES, -1, None, time.monotonic() + SECONDS,
                          "group-exit", avoid, result)
    return search, State(Board.of(puzzle.height, puzzle.width), initial_masks(puzzle), active)


def _run(search: _Search, stack: list[_Node], limit: int, after_each=None, first: bool = True) -> bool:
    """Depth first from ``stack`` (``solve_by_search``'s loop) until ``limit`` solutions, the end
    (True: exhausted) or the bounds (with ``first``, a first solution within :data:`FIRST` nodes);
    ``after_each(stack)`` after every node."""
    result = search.result
    while stack:
        if time.monotonic() >= search.deadline or result.nodes >= NODES or \
                first and not result.solutions and result.nodes >= FIRST:
            result.timed_out = True
            return False
        stack.extend(reversed(search.expand(stack.pop())))
        if len(result.solutions) >= limit:
            return not stack
        if after_each is not None and after_each(stack):
            return True
    return True


def current(puzzle) -> SearchResult:
    return solve_strong(puzzle, limit=2, deadline=time.monotonic() + SECONDS, first_nodes=FIRST, probing=False)


def _first(puzzle) -> SearchResult:
    return solve_by_search(puzzle, limit=1, deadline=time.monotonic() + SECONDS, max_nodes=NODES,
                           search_rules=SEARCH_RULES, first_nodes=FIRST)


def avoid(puzzle) -> SearchResult:
    first = _first(puzzle)
    if not first.solutions:
        return first
    hunt = solve_by_search(puzzle, limit=1, deadline=time.monotonic() + SECONDS, max_nodes=NODES - first.nodes,
                           search_rules=SEARCH_RULES, avoid=first.solutions[0])
    hunt.nodes += first.nodes
    hunt.solutions = first.solutions + hunt.solutions
    return hunt


def _guided(order: str):
    def run(puzzle) -> SearchResult:
        first = _first(puzzle)
        if not first.solutions:
            return first
        solution = first.solutions[0]
        result = SearchResult(nodes=first.nodes)
        search, root = _start(puzzle, result, avoid=solution)
        result.nodes += 1
        if search.settle(root) is not None:
            raise SearchError("the rules refute a checked solution")
        w = puzzle.width
        s = [1 << solution[x // w][x % w] for x in range(puzzle.height * w)]
        left: dict[int, int] = {}
        while True:
            unfixed = [x for x, m in enumerate(root.dom) if m & (m - 1)]
            if not unfixed:
                result.solutions, result.exhausted = [solution], True
                return result
            if order == "fewest-left":
                unfixed.sort(key=lambda x: (left.get(x, 0), x))
            progress, best = False, None
            for x in unfixed:
                m = root.dom[x]
                if not m & (m - 1):
                    continue
                if time.monotonic() >= search.deadline or result.nodes >= NODES:
                    result.timed_out = True
                    return result
                child = root.fork()
                child.assume(x, m & ~s[x])
                result.nodes += 1
                if search.settle(child) is not None:
                    root.assume(x, s[x])
                    if search.settle(root) is not None:
                        raise SearchError("the rules refute a checked solution")
                    progress = True
                    continue
                left[x] = sum(1 for v in child.dom if v & (v - 1))
                if best is None or left[x] < best[0]:
                    best = (left[x], x)
            if progress:
                continue
            x = best[1]
            child = root.fork()
            child.assume(x, root.dom[x] & ~s[x])
            exhausted = _run(search, [_Node(child, 0, False)], 1, first=False)
            if result.solutions:  # another solution, where x is not S's value
                result.solutions = [solution, result.solutions[0]]
                return result
            if not exhausted:
                return result
            root.assume(x, s[x])
            if search.settle(root) is not None:
                raise SearchError("the rules refute a checked solution")
    return run


class _Weighted(_Search):
    """The search, learning cell weights from contradictions (``wdeg-*``)."""

    mode = "exits"
    weights: list[int]

    def settle(self, state: State) -> str | None:
        contradiction = super().settle(state)
        if contradiction is not None:
            for x in set(state.changed_cells):
                self.weights[x] += 1
        return contradiction


def _groups_with_cells(puzzle, masks):
    """``backtrack._incomplete_groups`` with each group's cells (for its weight)."""
    for start, size, exits, k in backtrack._incomplete_groups(puzzle, masks):
        m, cells, stack = masks[start], {start}, [start]
        while stack:
            for y in neighbour_indices(puzzle.height, puzzle.width, stack.pop()):
                if masks[y] == m and y not in cells:
                    cells.add(y)
                    stack.append(y)
        yield start, cells, exits, k


def _weighted_guess(search: _Weighted, puzzle, masks, unfixed) -> tuple[int, int]:
    """group-exit with the weights (``wdeg-*``): the group's key as ``search.mode`` says."""
    weights = search.weights
    best_key, best = None, None
    for start, cells, exits, k in _groups_with_cells(puzzle, masks):
        wt = sum(weights[y] for y in cells) + sum(weights[y] for y in exits)
        size = len(cells)
        key = {"exits": (len(exits), -wt, k - size, start), "tie": (len(exits), k - size, -wt, start),
               "ratio": (len(exits) / (1 + wt), k - size, start)}[search.mode]
        if best_key is None or key < best_key:
            best_key, best = key, (min(exits, key=lambda x: (masks[x].bit_count(), -weights[x], x)), k)
    if best is not None:
        return best
    cell = min(unfixed, key=lambda x: (masks[x].bit_count(), -weights[x], x))
    return cell, (masks[cell] & -masks[cell]).bit_length() - 1


def _wdeg(mode: str):
    def run(puzzle) -> SearchResult:
        result = SearchResult()
        search, root = _start(puzzle, result, _Weighted)
        search.mode, search.weights = mode, [0] * (puzzle.height * puzzle.width)
        plain = backtrack._guess

        def guess(p, masks, unfixed, order, weights=None, shared=False):  # neither option here (sessions 16, 17)
            return _weighted_guess(search, p, masks, unfixed) if result.solutions else plain(p, masks, unfixed, order)
        backtrack._guess = guess
        try:
            result.exhausted = _run(search, [_Node(root, 0, False)], 2)
        finally:
            backtrack._guess = plain
        return result
    return run


class _Facts(_Search):
    """The search, narrowing every node to proven domains before its fixpoint (``sol-probe``)."""

    facts: list[int] | None = None

    def expand(self, node: _Node) -> list[_Node]:
        if self.facts is not None:
            dom = node.state.dom
            try:
                for x, m in enumerate(self.facts):
                    if dom[x] & ~m:
                        node.state.assume(x, dom[x] & m)
            except Contradiction:
                self.result.nodes += 1
                return []
        return super().expand(node)


def sol_probe(puzzle) -> SearchResult:
    result = SearchResult()
    search, root = _start(puzzle, result, _Facts)
    plain_exits = backtrack._exits

    def learn(stack) -> bool:
        if search.facts is not None or not result.solutions:
            return False
        flat = [v for row in result.solutions[0] for v in row]
        backtrack._exits = lambda state: [(e, k) for e, k in plain_exits(state) if flat[e] != k]
        state = root.fork()
        try:
            before = result.probes
            if search.probe(state) is not None:
                raise SearchError("probing refutes a checked solution")
            result.nodes += result.probes - before
        finally:
            backtrack._exits = plain_exits
        search.facts = state.dom
        return all(not m & (m - 1) for m in state.dom)
    result.exhausted = _run(search, [_Node(root, 0, False)], 2, learn)
    return result


class _CapacityFirst(_Search):
    def settle(self, state: State) -> str | None:
        if state.changed_cells:
            try:
                for rule in self.search_rules:
                    backtrack.SEARCH_RULE_FUNCTIONS[rule](state)
            except Contradiction as e:
                return str(e)
        return super().settle(state)


def capacity_first(puzzle) -> SearchResult:
    result = SearchResult()
    search, root = _start(puzzle, result, _CapacityFirst)
    result.exhausted = _run(search, [_Node(root, 0, False)], 2)
    return result


class _Lookahead(_Search):
    """The search, which in the proof (a first solution found) passes over weak guesses."""

    current: State | None = None
    looked = 0
    reused = 0
    ready: dict | None = None

    def expand(self, node: _Node) -> list[_Node]:
        self.current, self.ready = node.state, {}
        children = super().expand(node)
        for child in children:  # a child settled while looking ahead: that state, not again
            x = next((x for x, m in enumerate(child.state.dom) if m != node.state.dom[x]), None)
            settled = self.ready.get((x, child.state.dom[x])) if x is not None else None
            if settled is not None:
                child.state.__dict__.update(settled.__dict__)
                self.reused += 1
        return children


def _restart(puzzle) -> SearchResult:
    """``weak-restart``: the first solution as the kept proof finds it (group-exit, within
    :data:`FIRST` nodes), then the whole proof again from the root in ``weak-remember``'s order
    from the start."""
    first = _first(puzzle)
    if not first.solutions:
        return first
    proof = weak_defer(puzzle, remember=True, from_root=True, first=False)
    proof.nodes += first.nodes
    return proof


def _late(puzzle, after: int) -> SearchResult:
    """``weak-late-N``: ``current``, but a proof still open after N nodes starts again from the
    root passing over weak 2-group guesses (``backtrack``'s ``pass_weak``), within what is left
    of the 500 nodes."""
    head = solve_by_search(puzzle, limit=2, deadline=time.monotonic() + SECONDS, max_nodes=after,
                           search_rules=SEARCH_RULES, first_nodes=FIRST)
    if head.unique is not None or not head.solutions:
        return head
    proof = solve_by_search(puzzle, limit=2, deadline=time.monotonic() + SECONDS, max_nodes=NODES - after,
                            search_rules=SEARCH_RULES, pass_weak=True)
    proof.nodes += head.nodes
    return proof


def _fallback(puzzle) -> SearchResult:
    """``weak-2s-fallback``: ``weak-all-remember`` looking ahead at 2-groups only; without a
    first solution within :data:`FIRST` nodes, ``current``."""
    proof = weak_defer(puzzle, remember=True, from_root=True, only_value=2)
    if proof.solutions:
        return proof
    again = current(puzzle)
    again.nodes += proof.nodes
    return again


TRIES = 4
"""Groups ``weak-defer`` tries at a node before it takes the first one."""


def weak_defer(puzzle, remember: bool = False, from_root: bool = False, tries: int = TRIES,
               first: bool = True, only_value: int | None = None) -> SearchResult:
    """``weak-defer`` and ``weak-remember`` (module text)."""
    result = SearchResult()
    search, root = _start(puzzle, result, _Lookahead)
    plain = backtrack._guess
    known_weak: set[tuple[int, int]] = set()

    def weak(state: State, cell: int, allowed: int, open_: int) -> bool:
        child = state.fork()
        child.assume(cell, allowed)
        search.looked += 1
        if search.settle(child) is not None:
            return False
        search.ready[(cell, allowed)] = child
        return open_ - sum(1 for m in child.dom if m & (m - 1)) <= 1

    def guess(p, masks, unfixed, order, weights=None, shared=False):  # neither option here (sessions 16, 17)
        if not result.solutions and not from_root:
            return plain(p, masks, unfixed, order)
        every = backtrack._group_guesses(p, masks)
        candidates = [g for g in every if not (remember and g in known_weak)][:tries]
        for cell, k in candidates:
            if only_value is not None and k != only_value:
                return cell, k
            if not weak(search.current, cell, 1 << k, len(unfixed)) or \
                    not weak(search.current, cell, masks[cell] & ~(1 << k), len(unfixed)):
                return cell, k
            known_weak.add((cell, k))
        return (candidates or every)[0] if every else plain(p, masks, unfixed, order)
    backtrack._guess = guess
    try:
        result.exhausted = _run(search, [_Node(root, 0, False)], 2, first=first)
    finally:
        backtrack._guess = plain
    result.probes, result.refuted = search.looked, search.reused
    result.nodes += search.looked - search.reused
    return result


DESIGNS = {
    "current": current, "weak-defer": weak_defer,
    "weak-remember": lambda puzzle: weak_defer(puzzle, remember=True),
    "weak-all": lambda puzzle: weak_defer(puzzle, from_root=True),
    "weak-all-remember": lambda puzzle: weak_defer(puzzle, remember=True, from_root=True),
    "weak-restart": lambda puzzle: _restart(puzzle),
    "weak-all-remember-2s": lambda puzzle: weak_defer(puzzle, remember=True, from_root=True, only_value=2),
    "weak-2s-fallback": lambda puzzle: _fallback(puzzle),
    "weak-late-60": lambda puzzle: _late(puzzle, 60), "weak-late-100": lambda puzzle: _late(puzzle, 100), "avoid": avoid, "guided-row": _guided("row-major"),
    "guided-left": _guided("fewest-left"), "wdeg-exits": _wdeg("exits"), "wdeg-tie": _wdeg("tie"),
    "wdeg-ratio": _wdeg("ratio"), "sol-probe": sol_probe, "capacity-first": capacity_first,
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--designs", default=",".join(DESIGNS))
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    designs = a.designs.split(",")
    if "current" not in designs:
        designs.insert(0, "current")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "open", "presolve_s", "plain_s", "plain_nodes"]
                 + [f"{d}_{c}" for d in designs for c in ("s", "nodes", "unique")])
    for path in a.paths:
        puzzle = read_puzzle(path)
        t = time.process_time()
        found = KIND.presolve(puzzle)
        pre = time.process_time() - t
        if found.grid is not None or found.puzzle is None or open_cells(found.puzzle) > PROP_OPEN:
            continue
        p = found.puzzle
        best: dict[str, float] = {}
        runs: dict[str, SearchResult] = {}
        for _ in range(a.rounds):
            for name in ["plain"] + designs:
                fn = DESIGNS.get(name) or (lambda q: solve_strong(q, limit=1, deadline=time.monotonic() + SECONDS))
                t = time.process_time()
                r = fn(p)
                s = time.process_time() - t
                best[name] = min(best.get(name, s), s)
                runs[name] = r
        if runs["current"].unique is None:
            continue  # the quick proof leaves it to the race
        for name in designs:
            r = runs[name]
            for grid in r.solutions:
                if check_solution(p.cells, grid):
                    raise SystemExit(f"{path}: {name} returned a grid the checker rejects")
            if r.unique is not None and r.unique != runs["current"].unique:
                raise SystemExit(f"{path}: {name} says unique={r.unique}, current {runs['current'].unique}")
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt"), open_cells(p), f"{pre:.4f}",
                      f"{best['plain']:.4f}", runs["plain"].nodes]
                     + [x for d in designs for x in (f"{best[d]:.4f}", runs[d].nodes, runs[d].unique)])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
