"""Summarise ``proof11_second.py``'s CSV: per design, over the puzzles every design answered, the
sum of the second check's yices CPU (plus a fresh design's load and the probes' CPU), the sum of
conflicts, and per puzzle the design's cost divided by the current design's (``inc-cells``):
median, 90th percentile, largest, and how many puzzles it makes cheaper / dearer by more than
5 ms; with seed families (designs ``NAME-sK``) each clause's mean over the seeds per puzzle
and the puzzles it changes by more than 2 ms; then the puzzles named on the command line.

    python benchmarks/proof11_summary.py OUT.csv [--show 257,262] > OUT.md
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
from collections import defaultdict

BASE = "inc-cells"


def _seed_table(families: list[str], designs: list[str], cost: dict, puzzles: list[str]) -> None:
    """Per clause (a family ``NAME-sK`` of seeds K): its mean over the seeds per puzzle, summed;
    the puzzles where that mean is lower / higher than ``cells``'s by more than 2 ms."""
    seeds = {f: [d for d in designs if d.rsplit("-s", 1)[0] == f] for f in families}
    ref = "cells" if "cells" in families else families[0]
    families = [ref] + [f for f in families if f != ref]
    mean = {f: {p: statistics.mean(cost[d][p] for d in seeds[f]) for p in puzzles} for f in families}
    print()
    print(f"| clause | seeds | CPU s, mean over the seeds, summed | lower than {ref}'s (> 2 ms) | higher |")
    print("|---|---:|---:|---:|---:|")
    for f in families:
        lower = [p for p in puzzles if mean[f][p] < mean[ref][p] - 0.002]
        higher = [p for p in puzzles if mean[f][p] > mean[ref][p] + 0.002]
        print(f"| {f} | {len(seeds[f])} | {sum(mean[f].values()):.3f} | {len(lower)} | {len(higher)}"
              + (f" ({', '.join(higher)})" if f != ref and higher else "") + " |")
    print()
    print("| puzzle | " + " | ".join(f"{f} mean (min–max) ms" for f in families) + " |")
    print("|---|" + "---:|" * len(families))
    for p in puzzles:
        if max(mean[f][p] for f in families) < 0.015:
            continue
        cells = []
        for f in families:
            values = [cost[d][p] * 1000 for d in seeds[f]]
            cells.append(f"{statistics.mean(values):.0f} ({min(values):.0f}–{max(values):.0f})")
        print(f"| {p} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--show", default="257")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.csv)))
    cost: dict[str, dict[str, float]] = defaultdict(dict)
    conflicts: dict[str, dict[str, int]] = defaultdict(dict)
    first: dict[str, float] = {}
    designs: list[str] = []
    bad = []
    for r in rows:
        if r["design"] not in designs:
            designs.append(r["design"])
        if r["answer"].startswith("MISMATCH"):
            bad.append((r["puzzle"], r["design"]))
        cost[r["design"]][r["puzzle"]] = float(r["check_s"]) + float(r["load_s"]) + float(r["extra_s"])
        conflicts[r["design"]][r["puzzle"]] = int(r["conflicts"] or 0)
        first[r["puzzle"]] = float(r["first_s"])
    puzzles = sorted(set.intersection(*(set(cost[d]) for d in designs)))
    print(f"{len(puzzles)} puzzles; answers differing from {BASE}'s: {len(bad)}"
          + (f" ({', '.join(f'{p} {d}' for p, d in bad)})" if bad else ""))
    print()
    print(f"| design | CPU s (sum) | conflicts (sum) | ÷ {BASE} per puzzle: median | p90 | max "
          f"| cheaper by > 5 ms | dearer by > 5 ms | proof > first check |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = cost[BASE]
    for d in designs:
        c = cost[d]
        ratios = sorted(c[p] / max(base[p], 1e-3) for p in puzzles)
        p90 = ratios[min(len(ratios) - 1, int(0.9 * len(ratios)))]
        cheaper = sum(1 for p in puzzles if c[p] < base[p] - 0.005)
        dearer = sum(1 for p in puzzles if c[p] > base[p] + 0.005)
        over = sum(1 for p in puzzles if c[p] > first[p])
        print(f"| {d} | {sum(c[p] for p in puzzles):.3f} | {sum(conflicts[d][p] for p in puzzles)} | "
              f"{statistics.median(ratios):.2f} | {p90:.2f} | {ratios[-1]:.2f} | {cheaper} | {dearer} | {over} |")
    families = sorted({d.rsplit("-s", 1)[0] for d in designs if re.fullmatch(r".+-s\d+", d)})
    if families:
        _seed_table(families, designs, cost, puzzles)
    shown = [p for p in a.show.split(",") if p in puzzles]
    if shown:
        print()
        print("| puzzle | first check s | " + " | ".join(designs) + " |")
        print("|---|---:|" + "---:|" * len(designs))
        for p in shown:
            print(f"| {p} | {first[p]:.3f} | " + " | ".join(f"{cost[d][p]:.3f} ({conflicts[d][p]})" for d in designs) + " |")


if __name__ == "__main__":
    main()
