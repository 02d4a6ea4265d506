"""Issue 17, ninth session (proofs): the rules' search alone against yices' session, per puzzle.

    .venv/bin/python benchmarks/proof9_alone.py PUZZLES... > benchmarks/results/proof9-alone.txt

For every puzzle the presolve leaves open with at most 150 open cells (the quick search's), one
line: name, open cells; the search (``solve_strong``, one process, CPU s, 3 s limit) to its first
solution: CPU s and nodes; the whole search with a solution limit of 2 (the proof): CPU s,
nodes, unique (None: not settled); yices on the default encoding in one session, no race, with
``--unique`` (``pipeline.solve``, wall s, 10 s limit): s and unique.
"""

import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.backtrack import solve_strong
from fillsmt.fillomino.features import PROP_OPEN, open_cells
from fillsmt.fillomino.kind import KIND
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main(paths: list[str]) -> None:
    yices = get_driver("yices")
    for path in paths:
        puzzle = read_puzzle(path)
        found = KIND.presolve(puzzle)
        if found.grid is not None or found.puzzle is None or open_cells(found.puzzle) > PROP_OPEN:
            continue
        t = time.process_time()
        first = solve_strong(found.puzzle, limit=1, deadline=time.monotonic() + 3)
        first_s = time.process_time() - t
        t = time.process_time()
        proof = solve_strong(found.puzzle, limit=2, deadline=time.monotonic() + 3)
        proof_s = time.process_time() - t
        t = time.perf_counter()
        session = solve(puzzle, yices, timeout=10, unique=True, race=False)
        session_s = time.perf_counter() - t
        print(path.rsplit("/", 1)[-1], open_cells(found.puzzle), f"{first_s:.4f} {first.nodes}",
              f"{proof_s:.4f} {proof.nodes} {proof.unique}", f"{session_s:.3f} {session.unique}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
