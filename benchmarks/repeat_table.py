"""Summarise repeated janko runs (benchmarks/run_repeat.sh): one table row per run.

Per run: the median total time plain and with the uniqueness proof, the slowest plain puzzle,
the puzzles at or over 1 s, the median ratio unique/plain of each puzzle's total times, and
the puzzles at or over 2x. Usage: python benchmarks/repeat_table.py run1.csv run2.csv ...
"""

from __future__ import annotations

import csv
import statistics
import sys
from pathlib import Path


def per_puzzle(path: Path) -> dict[str, dict[str, float]]:
    """puzzle -> {"plain": total s, "unique": total s} of the solved runs in one CSV."""
    out: dict[str, dict[str, float]] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "sat" or row["checked"] != "true":
                raise SystemExit(f"{path}: {row['puzzle']} not solved and checked ({row['status']})")
            which = "unique" if row["unique"] else "plain"
            out.setdefault(Path(row["puzzle"]).stem, {})[which] = float(row["total_s"])
    return out


def main(paths: list[str]) -> None:
    print("| run | puzzles | median plain (s) | median with proof (s) | slowest plain | at or over 1 s "
          "| median ratio | at or over 2x (ratio) |")
    print("|---|---:|---:|---:|---|---|---:|---|")
    for path in map(Path, paths):
        runs = per_puzzle(path)
        both = {k: v for k, v in runs.items() if {"plain", "unique"} <= set(v)}
        ratios = {k: v["unique"] / v["plain"] for k, v in both.items()}
        slowest = max(runs, key=lambda k: runs[k].get("plain", 0.0))
        over1 = [k for k, v in runs.items() if v.get("plain", 0.0) >= 1.0]
        over2 = [f"{k} ({r:.2f})" for k, r in sorted(ratios.items()) if r >= 2.0]
        print(f"| {path.stem} | {len(both)} | {statistics.median(v['plain'] for v in both.values()):.3f} "
              f"| {statistics.median(v['unique'] for v in both.values()):.3f} "
              f"| {slowest} {runs[slowest]['plain']:.3f} s | {', '.join(over1) or 'none'} "
              f"| {statistics.median(ratios.values()):.2f} | {', '.join(over2) or 'none'} |")


if __name__ == "__main__":
    main(sys.argv[1:])
