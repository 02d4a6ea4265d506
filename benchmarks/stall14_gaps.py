"""Issue 17, fourteenth session: the longest stretch a search goes without progress before it
settles, in CPU seconds, the measure ``features.STALL_CPU`` bounds.

    .venv/bin/python benchmarks/stall14_gaps.py SECONDS [--unique] PUZZLES... > OUT.csv

Each puzzle presolved, then the race's search (``Kind.search``) run alone in this process for
at most SECONDS, with a ``progress`` that notes the CPU (``time.process_time``) of every node
with fewer open cells than any before it, or with more solutions found before it. Per puzzle:
the CPU to its first solution (empty if none), the longest gap between two such nodes before
that (or before the end), the nodes, and how it ended.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle


class Gaps:
    def __init__(self) -> None:
        self.c0 = time.process_time()
        self.last = 0.0
        self.fewest = 1 << 62
        self.solutions = 0
        self.longest = 0.0
        self.first = None
        self.nodes = 0

    def node(self, depth: int, open_cells: int, solutions: int) -> None:
        self.nodes += 1
        now = time.process_time() - self.c0
        if self.first is None:
            self.longest = max(self.longest, now - self.last)
        if solutions > self.solutions or 0 <= open_cells < self.fewest:
            self.fewest = min(self.fewest, open_cells) if open_cells >= 0 else self.fewest
            self.solutions = max(self.solutions, solutions)
            self.last = now
        if open_cells == 0 and self.first is None:
            self.first = now


def main() -> None:
    args = sys.argv[1:]
    unique = "--unique" in args
    args = [a for a in args if a != "--unique"]
    seconds, paths = float(args[0]), args[1:]
    kind = Fillomino()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "first_solution_cpu", "longest_gap_cpu", "nodes", "ended"])
    for path in paths:
        found = kind.presolve(read_puzzle(path))
        if found is None or found.puzzle is None:
            continue
        gaps = Gaps()
        result = kind.search(found.puzzle, 2 if unique else 1, time.monotonic() + seconds, gaps)
        ended = "settled" if result.exhausted or len(result.solutions) >= (2 if unique else 1) else "stopped"
        out.writerow([Path(path).stem, "" if gaps.first is None else round(gaps.first, 3),
                      round(gaps.longest, 3), gaps.nodes, ended])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
