"""Issue 17, tenth session (proofs): why janko 286's proof is hard for the rules.

    .venv/bin/python benchmarks/proof10_steiner.py PUZZLE K [--values 1,2,36]

1. The fewest cells a region must have to hold every cell the rules fix to K (an exact
   node-weighted Steiner tree, Dreyfus-Wagner, over the grid's cells that still allow K after
   the rules; each fixed cell a terminal), and the smallest sets of those cells no K-region can
   hold together. ``capacity`` only counts pairs (two K-groups too far apart for one region);
   when only the whole set is too far apart, no pairwise count sees that there must be two
   K-regions.
2. With ``--values``, the search (the strong search's first phase, limit 1 then 2) on the
   presolved puzzle with every cell's domain cut to those values: what the proof would cost if
   a rule knew it (CPU s, nodes).
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import time

from fillsmt.fillomino import backtrack
from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.grid import neighbour_indices


def steiner(puzzle, k: int) -> None:
    h, w = puzzle.height, puzzle.width
    found = deduce(puzzle)
    n = h * w
    allow = [k in found.domains[x] for x in range(n)]
    terms = [x for x in range(n) if found.domains[x] == frozenset({k})]
    print("cells fixed to", k, ":", [(t // w + 1, t % w + 1) for t in terms])
    inf = n + 1
    best = [[inf] * n for _ in range(1 << len(terms))]  # best[S][v]: cells of a tree joining S and v

    def relax(row: list[int]) -> None:  # Dijkstra, every cell costs 1
        queue = [(c, v) for v, c in enumerate(row) if c < inf]
        heapq.heapify(queue)
        while queue:
            c, v = heapq.heappop(queue)
            if c > row[v]:
                continue
            for u in neighbour_indices(h, w, v):
                if allow[u] and c + 1 < row[u]:
                    row[u] = c + 1
                    heapq.heappush(queue, (c + 1, u))

    for i, t in enumerate(terms):
        best[1 << i][t] = 1
        relax(best[1 << i])
    for s in range(1, 1 << len(terms)):
        if s & (s - 1) == 0:
            continue
        row, sub = best[s], (s - 1) & s
        while sub:
            if sub < s ^ sub:
                a, b = best[sub], best[s ^ sub]
                for v in range(n):
                    if a[v] + b[v] - 1 < row[v]:
                        row[v] = a[v] + b[v] - 1
            sub = (sub - 1) & s
        relax(row)
    print("fewest cells of one region holding all of them:", min(best[-1]))
    for r in range(2, len(terms) + 1):
        too_far = [c for c in itertools.combinations(range(len(terms)), r)
                   if min(best[sum(1 << i for i in c)]) > k]
        if too_far:
            print(f"smallest sets no {k}-region holds: {len(too_far)} of {r} cells, e.g.",
                  [(terms[i] // w + 1, terms[i] % w + 1) for i in too_far[0]])
            return
    print(f"one {k}-region can hold every such cell")


def restricted(puzzle, values: list[int]) -> None:
    keep = sum(1 << v for v in values)
    plain = backtrack.initial_masks
    backtrack.initial_masks = lambda p: [m & keep for m in plain(p)]
    try:
        for limit in (1, 2):
            t = time.process_time()
            r = backtrack.solve_by_search(puzzle, limit=limit, search_rules=backtrack.SEARCH_RULES)
            print(f"domains cut to {values}, limit {limit}: {r.nodes} nodes, {time.process_time() - t:.3f} s CPU, "
                  f"unique {r.unique}")
    finally:
        backtrack.initial_masks = plain


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzle")
    ap.add_argument("k", type=int)
    ap.add_argument("--values")
    a = ap.parse_args()
    puzzle = KIND.presolve(read_puzzle(a.puzzle)).puzzle
    steiner(puzzle, a.k)
    if a.values:
        restricted(puzzle, [int(v) for v in a.values.split(",")])


if __name__ == "__main__":
    main()
