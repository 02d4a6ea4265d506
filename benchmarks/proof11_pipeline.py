"""Issue 17, eleventh session (janko 257's yices proof): plain solve and ``--unique`` under each
"another solution" clause (``fillsmt.fillomino.blocking.BLOCKINGS``) through ``pipeline.solve``
(default configuration: staged, yices), one process, the arms alternating within every round,
per puzzle the minimum over the rounds of the wall seconds, the second check's wall seconds
(``times["unique"]``, when a session settled it), the ratio unique / plain, and who answered.

    .venv/bin/python benchmarks/proof11_pipeline.py [--rounds N] [--blockings cells,boundaries] PUZZLES... > OUT.csv

The plain solve does not block anything (no session), so it is run once per round, not per clause.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from proof10_pipeline import _who

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino import blocking
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--blockings", default=",".join(blocking.BLOCKINGS))
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    kept = blocking.BLOCKING
    arms = [("plain", None)] + [(f"u_{b}", b) for b in a.blockings.split(",")]
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle"] + [f"{k}_wall" for k, _ in arms] + [f"{k}_second" for k, _ in arms[1:]]
                 + [f"ratio_{k[2:]}" for k, _ in arms[1:]] + ["unique"] + [f"{k}_by" for k, _ in arms])
    for path in a.paths:
        puzzle = read_puzzle(path)
        wall: dict[str, float] = {}
        second: dict[str, float] = {}
        by, unique = {}, set()
        for _ in range(a.rounds):
            for key, clause in arms:
                blocking.BLOCKING = clause or kept
                t = time.perf_counter()
                r = solve(puzzle, yices, timeout=30, unique=clause is not None, presolve="staged")
                spent = time.perf_counter() - t
                wall[key] = min(wall.get(key, spent), spent)
                if "unique" in r.times:
                    second[key] = min(second.get(key, r.times["unique"]), r.times["unique"])
                by[key] = _who(r.message)
                if clause is not None:
                    unique.add(r.unique)
        blocking.BLOCKING = kept
        p = wall["plain"]
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt")] + [f"{wall[k]:.4f}" for k, _ in arms]
                     + [f"{second[k]:.4f}" if k in second else "" for k, _ in arms[1:]]
                     + [f"{wall[k] / max(p, 1e-4):.2f}" for k, _ in arms[1:]]
                     + ["/".join(str(u) for u in sorted(unique, key=str))] + [by[k] for k, _ in arms])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
