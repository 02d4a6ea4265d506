"""Time deduce() over puzzle files (the presolve of every solve): the sum over the puzzles of each one's best time of N rounds.

Used to check that the explain instrumentation (the ``why`` argument of ``State.restrict``) does
not slow the normal path: run it once against this tree and once with ``PYTHONPATH`` pointing at
an export of the base commit, interleaved (see benchmarks/README.md).

    python benchmarks/deduce_timing.py --rounds 5 PUZZLE...
"""

from __future__ import annotations

import argparse
import time

from fillsmt.fillomino.deduce import deduce
from fillsmt.fillomino.plain_format import read_puzzle


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("puzzles", nargs="+")
    args = ap.parse_args()
    puzzles = [read_puzzle(p) for p in args.puzzles]
    best = [float("inf")] * len(puzzles)
    for _ in range(args.rounds):
        for i, p in enumerate(puzzles):
            t = time.perf_counter()
            deduce(p)
            best[i] = min(best[i], time.perf_counter() - t)
    print(f"{sum(best):.3f}")


if __name__ == "__main__":
    main()
