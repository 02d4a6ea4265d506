"""Issue 17, fourteenth session: what does the racing search's progress look like over time?

    .venv/bin/python benchmarks/stall14_progress.py SECONDS [--unique] PUZZLES... > OUT.csv

Each puzzle presolved as the pipeline does, then the race's search (``Kind.search``: the strong
search, limit 1, or 2 with ``--unique``) run in this process for at most SECONDS of wall time,
alone, with a progress reporter that writes a row at 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 4,
... seconds (and at the end): the nodes, the deepest depth, the fewest open cells at any node
(a node without contradiction), the open cells after the presolve, the solutions found, and
the CPU seconds (``time.process_time``). Machine load shows in wall against CPU.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from fillsmt.fillomino.features import open_cells
from fillsmt.fillomino.kind import Fillomino
from fillsmt.fillomino.plain_format import read_puzzle

MARKS = (0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 30.0, 60.0)


class Tracer:
    """A ``progress`` for the search that writes a row at each of :data:`MARKS`."""

    def __init__(self, name: str, root_open: int, out) -> None:
        self.name, self.root_open, self.out = name, root_open, out
        self.nodes = self.deepest = self.solutions = 0
        self.fewest = root_open
        self.t0, self.c0 = time.perf_counter(), time.process_time()
        self.next = 0

    def node(self, depth: int, open_cells: int, solutions: int) -> None:
        self.nodes += 1
        self.deepest = max(self.deepest, depth)
        if open_cells >= 0:
            self.fewest = min(self.fewest, open_cells)
        self.solutions = solutions
        now = time.perf_counter() - self.t0
        while self.next < len(MARKS) and now >= MARKS[self.next]:
            self.row(MARKS[self.next])
            self.next += 1

    def row(self, mark) -> None:
        self.out.writerow([self.name, mark, round(time.perf_counter() - self.t0, 3),
                           round(time.process_time() - self.c0, 3), self.nodes, self.deepest, self.fewest,
                           self.root_open, self.solutions])


def main() -> None:
    args = sys.argv[1:]
    unique = "--unique" in args
    args = [a for a in args if a != "--unique"]
    seconds, paths = float(args[0]), args[1:]
    kind = Fillomino()
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "mark", "wall", "cpu", "nodes", "deepest", "fewest_open", "root_open", "solutions"])
    from fillsmt.fillomino.backtrack import solve_strong

    for path in paths:
        found = kind.presolve(read_puzzle(path))
        if found is None or found.puzzle is None:
            continue
        target = found.puzzle
        name = Path(path).parent.name[:5] + "/" + Path(path).stem
        tracer = Tracer(name, open_cells(target), out)
        result = solve_strong(target, limit=2 if unique else 1, deadline=time.monotonic() + seconds,
                              progress=tracer)
        tracer.solutions = len(result.solutions)
        tracer.row("end" if result.exhausted or len(result.solutions) >= (2 if unique else 1) else "stop")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
