"""Issue 17, twelfth session: ``fillsmt count`` with the quick search first (the default plan)
against the solver's session alone (the code before it), in one process, alternating per puzzle
and round: the minimum wall and CPU seconds over the rounds, the count, whether it is complete,
who counted.

    .venv/bin/python benchmarks/count12.py [--rounds N] [--limit N] PUZZLES... > OUT.csv

The solver's session alone is what the quick search falls back to; it is measured here by
turning the default plan's staging off (``pipeline.DEFAULT_STAGED``), which only ``count``'s
quick search reads in this script (no ``solve`` runs).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from fillsmt import pipeline
from fillsmt.drivers.registry import get_driver
from fillsmt.kinds import load


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=2)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    yices = get_driver("yices")
    out = csv.writer(sys.stdout)
    out.writerow(["puzzle", "session_wall", "session_cpu", "quick_wall", "quick_cpu", "count", "complete", "by"])
    for path in a.paths:
        puzzle = load(path)
        best: dict[str, list[float]] = {}
        answers = {}
        for r in range(a.rounds):
            for name in (("session", "quick") if r % 2 == 0 else ("quick", "session")):
                pipeline.DEFAULT_STAGED = name == "quick"
                t, c = time.perf_counter(), time.process_time()
                found = pipeline.count(puzzle, yices, a.limit, timeout=60)
                wall, cpu = time.perf_counter() - t, time.process_time() - c
                old = best.get(name, [wall, cpu])
                best[name] = [min(old[0], wall), min(old[1], cpu)]
                answers[name] = (len(found.grids), found.complete, "quick" if "before any solver" in found.message else "solver")
        if answers["session"][:2] != answers["quick"][:2]:
            raise SystemExit(f"{path}: the counts disagree: {answers}")
        out.writerow([path.rsplit("/", 1)[-1]] + [f"{v:.4f}" for k in ("session", "quick") for v in best[k]]
                     + [answers["quick"][0], answers["quick"][1], answers["quick"][2]])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
