"""Issue 17, twelfth session: would a CPU-time cap on the quick proof's first solution pay (now
that the quick search's seconds are CPU time, a cap would not depend on the load)? Per puzzle, one
process, min of 3 rounds: the presolve's CPU; the quick proof's search to its first solution
(limit 1, no probing, at most 40 nodes: the nodes and CPU); the whole quick proof (CPU, nodes,
whether decisive); ``--unique`` through the race alone (wall, the quick proof turned off); the
plain solve and ``--unique`` as they are (wall). A policy "go on to the proof only when the first
solution came within T seconds" is then estimated from these columns (README).

    .venv/bin/python benchmarks/proof12_first_cap.py PUZZLES... > OUT.csv
"""

from __future__ import annotations

import csv
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import features
from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main() -> None:
    yices = get_driver("yices")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "pre", "n1", "t1", "n40solved", "full", "full_nodes", "decisive", "race_unique",
                  "plain", "unique_now"])
    for path in sys.argv[1:]:
        puzzle = read_puzzle(path)
        best: dict[str, float] = {}
        first = whole = None
        for _ in range(3):
            c = time.process_time()
            pre = KIND.presolve(puzzle)
            tp = time.process_time() - c
            if pre.puzzle is None or pre.grid is not None:
                break
            c = time.process_time()
            first = solve_strong(pre.puzzle, limit=1, first_nodes=features.QUICK_PROOF_FIRST, probing=False)
            t1 = time.process_time() - c
            c = time.process_time()
            whole = KIND.quick_search(pre.puzzle, 2)
            tf = time.process_time() - c
            kept, features.QUICK_PROOF_FIRST = features.QUICK_PROOF_FIRST, 0
            t = time.perf_counter()
            solve(puzzle, yices, timeout=30, unique=True, presolve="staged")
            race = time.perf_counter() - t
            features.QUICK_PROOF_FIRST = kept
            t = time.perf_counter()
            solve(puzzle, yices, timeout=30, presolve="staged")
            plain = time.perf_counter() - t
            t = time.perf_counter()
            solve(puzzle, yices, timeout=30, unique=True, presolve="staged")
            now = time.perf_counter() - t
            for key, v in (("pre", tp), ("t1", t1), ("full", tf), ("race", race), ("plain", plain), ("now", now)):
                best[key] = min(best.get(key, v), v)
        if not best:
            continue
        decisive = whole is not None and (whole.exhausted or len(whole.solutions) >= 2)
        out.writerow([path.rsplit("/", 1)[-1], f"{best['pre']:.4f}", first.nodes, f"{best['t1']:.4f}",
                      bool(first.solutions), f"{best['full']:.4f}", whole.nodes if whole else "", decisive,
                      f"{best['race']:.4f}", f"{best['plain']:.4f}", f"{best['now']:.4f}"])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
