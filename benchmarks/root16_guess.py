"""Issue 17, sixteenth session: how much a proof depends on its root's guess. For one puzzle,
the quick proof's search (``solve_strong``, limit 2, no probing, the sixteenth session's quick proof's
options: not the seventeenth's ``shared_depth``, which chooses the root's guess itself) is run
once per guess the root offers (every exit of every incomplete group, guessed to hold the group's
value), the rest of the tree in the search's own order; prints the nodes and CPU ms of each,
fewest nodes first, then the order's own.

    .venv/bin/python benchmarks/root16_guess.py ../shared/instances/fillomino/janko-thesis100/puzzles/286.txt

Every guess and its complement split the root's solutions, so each run is a whole proof: each
must prove the puzzle unique, or the script stops with an error.
"""

from __future__ import annotations

import sys
import time

from fillsmt.fillomino import backtrack, features
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle

KEPT = backtrack._guess


def _proof(puzzle):
    t = time.process_time()
    found = backtrack.solve_strong(puzzle, limit=2, probing=False, first_nodes=features.QUICK_PROOF_FIRST,
                                   last_conflict=True, wiped_out=features.QUICK_PROOF_WIPED_OUT,
                                   weights=features.QUICK_PROOF_WEIGHTS, shared_depth=-1)
    return found, 1000 * (time.process_time() - t)


def _root_guesses(puzzle) -> list[tuple[int, int]]:
    """The guesses the root offers: its first ``_guess`` call's incomplete groups' exits."""
    seen: list[tuple[int, int]] = []

    def spy(p, masks, unfixed, order, weights=None, shared=False):
        if not seen:
            seen.extend((e, k) for _, _, exits, k in backtrack._incomplete_groups(p, masks) for e in sorted(exits))
        return KEPT(p, masks, unfixed, order, weights, shared)
    backtrack._guess = spy
    try:
        _proof(puzzle)
    finally:
        backtrack._guess = KEPT
    return sorted(set(seen))


def main() -> None:
    puzzle = KIND.presolve(read_puzzle(sys.argv[1])).puzzle
    width = puzzle.width
    rows = []
    for cell, value in _root_guesses(puzzle):
        first = [True]

        def forced(p, masks, unfixed, order, weights=None, shared=False, guess=(cell, value)):
            if first[0]:
                first[0] = False
                return guess
            return KEPT(p, masks, unfixed, order, weights, shared)
        backtrack._guess = forced
        try:
            found, ms = _proof(puzzle)
        finally:
            backtrack._guess = KEPT
        if found.unique is not True:
            raise SystemExit(f"r{cell // width}c{cell % width} = {value}: not proven unique")
        rows.append((found.nodes, ms, f"r{cell // width}c{cell % width} = {value}"))
    for nodes, ms, guess in sorted(rows):
        print(f"{guess:14s} {nodes:4d} nodes {ms:6.1f} ms")
    found, ms = _proof(puzzle)
    print(f"the order's own: {found.nodes} nodes {ms:.1f} ms")


if __name__ == "__main__":
    main()
