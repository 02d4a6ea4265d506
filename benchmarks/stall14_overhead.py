"""Issue 17, fourteenth session: what the progress reporting costs the search.

    .venv/bin/python benchmarks/stall14_overhead.py ROUNDS PUZZLES...

The race's search (``Kind.search``, limit 1) on each presolved puzzle in this process, with
and without a :class:`fillsmt.race.SearchProgress`, alternating (order swapped every round);
the min over the rounds of the CPU seconds (``time.process_time``) and the nodes, as CSV.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.race import SearchProgress


def main() -> None:
    rounds, paths = int(sys.argv[1]), sys.argv[2:]
    kind = Fillomino()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "nodes", "cpu_without", "cpu_with", "ratio"])
    for path in paths:
        target = kind.presolve(read_puzzle(path)).puzzle
        best = {False: float("inf"), True: float("inf")}
        nodes = set()
        for r in range(rounds):
            for reporting in ((False, True) if r % 2 == 0 else (True, False)):
                c = time.process_time()
                found = kind.search(target, 1, None, SearchProgress() if reporting else None)
                best[reporting] = min(best[reporting], time.process_time() - c)
                nodes.add(found.nodes)
        out.writerow([Path(path).stem, "/".join(map(str, sorted(nodes))), round(best[False], 4),
                      round(best[True], 4), round(best[True] / best[False], 3)])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
