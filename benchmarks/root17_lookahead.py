"""Issue 17, seventeenth session: could a look-ahead at the root choose the proof's first guess?
For each puzzle, every guess its root offers (as ``root16_guess.py``: every exit of every
incomplete group, guessed to hold the group's value) with, beside the proof's nodes and CPU ms
when the root makes that guess (the rest of the tree in the search's own order, the sixteenth
session's quick proof), both sides of the guess settled at the root: the open cells left on each
(-1: refuted) and the product (open - left + 1) of the two sides (march's look-ahead measure;
-1 where a side is refuted). Fewest nodes first; first the order's own guess's proof and what
the look-ahead over every guess cost (CPU).

    .venv/bin/python benchmarks/root17_lookahead.py PUZZLES...
"""

from __future__ import annotations

import sys
import time

from root16_guess import KEPT, _proof, _root_guesses

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.backtrack import ALL_RULES, SEARCH_RULES, SearchResult, _root, _Search
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle


def _settled_root(puzzle):
    """The quick proof's search and its root, settled (the rules and the search rules)."""
    active = list(ALL_RULES) + list(SEARCH_RULES)
    search = _Search(puzzle, tuple(ALL_RULES), tuple(SEARCH_RULES), -1, None, None, "group-exit", None,
                     SearchResult(rules_used=dict.fromkeys(active, 0)))
    state = _root(puzzle, active, True).state
    if search.settle(state) is not None:
        raise SystemExit(f"{puzzle.source}: the root is refuted")
    return search, state


def _open(state) -> int:
    return sum(1 for m in state.dom if m & (m - 1))


def _forced_proof(puzzle, cell: int, value: int):
    first = [True]

    def forced(p, masks, unfixed, order, weights=None, shared=False):
        if first[0]:
            first[0] = False
            return cell, value
        return KEPT(p, masks, unfixed, order, weights, shared)
    backtrack._guess = forced
    try:
        return _proof(puzzle)
    finally:
        backtrack._guess = KEPT


def main() -> None:
    for path in sys.argv[1:]:
        puzzle = KIND.presolve(read_puzzle(path)).puzzle
        search, root = _settled_root(puzzle)
        open_, width, rows, looked = _open(root), puzzle.width, [], 0.0
        for cell, value in _root_guesses(puzzle):
            left = []
            t = time.process_time()
            for allowed in (1 << value, root.dom[cell] & ~(1 << value)):
                child = root.fork()
                child.assume(cell, allowed)
                left.append(-1 if search.settle(child) is not None else _open(child))
            looked += time.process_time() - t
            found, ms = _forced_proof(puzzle, cell, value)
            if found.unique is not True:
                raise SystemExit(f"{path}: r{cell // width}c{cell % width} = {value}: not proven unique")
            product = -1 if min(left) < 0 else (open_ - left[0] + 1) * (open_ - left[1] + 1)
            rows.append((found.nodes, ms, f"r{cell // width}c{cell % width} = {value}", left, product))
        found, ms = _proof(puzzle)
        print(f"{path.rsplit('/', 1)[-1]}: {open_} open cells at the root; the order's own guess: "
              f"{found.nodes} nodes {ms:.1f} ms; the look-ahead at the root ({2 * len(rows)} fixpoints) "
              f"{1000 * looked:.1f} ms")
        for nodes, ms, guess, (a, b), product in sorted(rows):
            print(f"  {guess:14s} {nodes:4d} nodes {ms:6.1f} ms   open left {a:3d} / {b:3d}   product {product}")


if __name__ == "__main__":
    main()
