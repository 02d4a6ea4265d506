"""Issue 17, tenth session (proofs): plain solve and ``--unique`` through ``pipeline.solve`` in one
process, alternating, per puzzle: the minimum over the rounds of wall and CPU seconds, the ratio
unique / plain, who answered.

    .venv/bin/python benchmarks/proof10_pipeline.py [--rounds N] PUZZLES... > OUT.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from fillsmt.drivers.registry import get_driver
from fillsmt.fillomino.plain_format import read_puzzle
from fillsmt.pipeline import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "plain_wall", "plain_cpu", "unique_wall", "unique_cpu", "ratio_wall",
                  "ratio_cpu", "unique", "plain_by", "unique_by"])
    for path in a.paths:
        puzzle = read_puzzle(path)
        best: dict[str, list[float]] = {}
        by = {}
        for _ in range(a.rounds):
            for unique in (False, True):
                t, c = time.perf_counter(), time.process_time()
                r = solve(puzzle, yices, timeout=30, unique=unique, presolve="staged")
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                key = "unique" if unique else "plain"
                old = best.get(key, [wall, cpu])
                best[key] = [min(old[0], wall), min(old[1], cpu)]
                by[key] = "quick" if "before any solver" in r.message else (
                    "search" if "rules' search" in r.message else ("rules" if "rules alone" in r.message else "solver"))
                if unique:
                    by["u"] = r.unique
        p, u = best["plain"], best["unique"]
        out.writerow([path.rsplit("/", 1)[-1].removesuffix(".txt"), f"{p[0]:.4f}", f"{p[1]:.4f}", f"{u[0]:.4f}",
                      f"{u[1]:.4f}", f"{u[0] / p[0]:.2f}", f"{u[1] / max(p[1], 1e-4):.2f}", by["u"], by["plain"],
                      by["unique"]])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
