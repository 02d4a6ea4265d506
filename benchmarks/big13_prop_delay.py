"""Issue 17, thirteenth session: when should Z3 with the region propagator join the staged race?

    .venv/bin/python benchmarks/big13_prop_delay.py ROUNDS VARIANTS [--unique] PUZZLES... > OUT.csv
    # e.g. ROUNDS=2, VARIANTS=d10,d3: features.PROP_DELAY 10 s (the twelfth session's) and 3 s

``pipeline.solve`` (yices, presolve staged, 60 s) as ``fillsmt solve [--unique]`` runs it, one
puzzle after another in this process, the variants alternating (their order reversed every
other round); per run the wall and this process's CPU seconds, the status, uniqueness and who
answered. The racers run in their own processes, so the wall time is what counts.
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import features
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve

VARIANTS = {"d10": 10.0, "d3": 3.0, "d2": 2.0, "d1": 1.0, "d0": 0.0}


def main() -> None:
    args = sys.argv[1:]
    unique = "--unique" in args
    args = [a for a in args if a != "--unique"]
    rounds, names, paths = int(args[0]), args[1].split(","), args[2:]
    yices = get_driver("yices")
    out = csv.writer(sys.stdout)
    out.writerow(["round", "puzzle", "variant", "wall", "cpu", "status", "unique", "answered"])
    for r in range(rounds):
        for path in paths:
            puzzle = read_puzzle(path)
            for name in names if r % 2 == 0 else names[::-1]:
                features.PROP_DELAY = VARIANTS[name]
                t, c = time.perf_counter(), time.process_time()
                res = solve(puzzle, yices, timeout=60, presolve="staged", unique=unique)
                out.writerow([r, Path(path).stem, name, round(time.perf_counter() - t, 3),
                              round(time.process_time() - c, 3), res.status.value, res.unique,
                              (res.message or "")[:60]])
                sys.stdout.flush()


if __name__ == "__main__":
    main()
