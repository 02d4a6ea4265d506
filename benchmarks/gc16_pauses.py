"""Issue 17, sixteenth session: the cyclic garbage collector's pauses in a long-lived process
(a ``fillsmt bench`` worker, a notebook): ``pipeline.solve(..., unique=True)`` on the given
puzzles, round after round in one process, every collection timed by a ``gc`` callback.

    .venv/bin/python benchmarks/gc16_pauses.py [--rounds N] [--freeze] PUZZLES...

Prints, per generation, the collections, their time in all and the longest, and the objects
they found unreachable (reference cycles); then the CPU milliseconds of each puzzle's solve,
least / median / most over the rounds. ``--freeze``: ``gc.freeze()`` once before the rounds
(what a bench worker does before each job since this session). Before the session's fix a
noted result held its state (a cycle per note, ~80 a node), so the collector found and freed
the search's garbage itself, up to 10 ms at a time.
"""

from __future__ import annotations

import argparse
import collections
import gc
import statistics
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--freeze", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    puzzles = [read_puzzle(p) for p in a.paths]
    solve(puzzles[0], yices, timeout=30, unique=True, presolve="staged")  # imports, first caches
    if a.freeze:
        gc.freeze()
    pauses: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    began = [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses[info["generation"]].append((time.perf_counter() - began[0], info["collected"]))

    cpu: dict[str, list[float]] = collections.defaultdict(list)
    gc.callbacks.append(timed)
    try:
        for _ in range(a.rounds):
            for path, puzzle in zip(a.paths, puzzles):
                t = time.process_time()
                solve(puzzle, yices, timeout=30, unique=True, presolve="staged")
                cpu[path].append(time.process_time() - t)
    finally:
        gc.callbacks.remove(timed)
    print("generation  collections  total_ms  longest_ms  unreachable")
    for generation, seen in sorted(pauses.items()):
        print(f"{generation:10d}  {len(seen):11d}  {1000 * sum(s for s, _ in seen):8.1f}  "
              f"{1000 * max(s for s, _ in seen):10.2f}  {sum(n for _, n in seen):11d}")
    print("puzzle  least_ms  median_ms  most_ms")
    for path, times in cpu.items():
        print(f"{path.rsplit('/', 1)[-1]}  {1000 * min(times):.1f}  {1000 * statistics.median(times):.1f}  "
              f"{1000 * max(times):.1f}")


if __name__ == "__main__":
    main()
