"""``minimize`` on 10x10 puzzles (issue 19: under 30 s each), with its result checked.

Each puzzle is minimized with yices (the timed part); then, independently of the minimizer's
oracle (``fillsmt.solve --unique``, a fresh yices session per question), the minimized puzzle
must be unique and removing any one of its clues must give a second solution.

    python benchmarks/minimize_timing.py --csv benchmarks/results/minimize-10x10.csv PUZZLE...
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time

import fillsmt
from fillsmt.drivers.registry import get_driver
from fillsmt.repair import clues_of, minimize, with_clues

FIELDS = ["puzzle", "kind", "size", "clues_before", "clues_after", "seconds", "unique", "every_clue_needed"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("puzzles", nargs="+")
    ap.add_argument("--csv", required=True)
    args = ap.parse_args()
    driver = get_driver("yices")
    rows = []
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        for name in args.puzzles:
            puzzle = fillsmt.load(name)
            start = time.perf_counter()
            m = minimize(puzzle, driver)
            seconds = time.perf_counter() - start
            kept = clues_of(m.puzzle)
            print(f"{name}: minimized in {seconds:.2f} s, {len(clues_of(puzzle))} -> {len(kept)} clues",
                  file=sys.stderr, flush=True)
            unique = fillsmt.solve(m.puzzle, solver="yices", unique=True, timeout=120).unique is True
            needed = all(fillsmt.solve(with_clues(m.puzzle, [k for k in kept if k != clue]), solver="yices", timeout=120,
                                       unique=True).unique is False for clue in kept)
            row = {"puzzle": name, "kind": puzzle.kind, "size": f"{puzzle.height}x{puzzle.width}",
                   "clues_before": len(clues_of(puzzle)), "clues_after": len(kept), "seconds": round(seconds, 3),
                   "unique": unique, "every_clue_needed": needed}
            rows.append(row)
            writer.writerow(row)
            f.flush()
            print(row, file=sys.stderr, flush=True)
    for kind in sorted({r["kind"] for r in rows}):
        rs = [r for r in rows if r["kind"] == kind]
        s = [r["seconds"] for r in rs]
        print(f"| {kind} | {len(rs)} | {statistics.median(s):.2f} | {max(s):.2f} | "
              f"{sum(r['unique'] for r in rs)} | {sum(r['every_clue_needed'] for r in rs)} | "
              f"{statistics.median(r['clues_before'] for r in rs)} → {statistics.median(r['clues_after'] for r in rs)} |")


if __name__ == "__main__":
    main()
