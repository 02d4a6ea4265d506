"""Per-size table of a `fillsmt bench` CSV (issue 17's growth-with-size table).

    python benchmarks/scaling_table.py benchmarks/results/scaling.csv [--per-puzzle]

For each configuration and grid size: runs solved (checked), median and slowest total time,
and the median time per cell in milliseconds (total / cells), so linear growth shows as a flat
per-cell column. With --per-puzzle, one line per puzzle and configuration instead.
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--per-puzzle", action="store_true")
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    config = lambda r: r["key"].rsplit("|", 1)[1]
    solved = lambda r: r["status"] == "unsat" or (r["status"] == "sat" and r["checked"] in ("True", "true"))
    if args.per_puzzle:
        print("| puzzle | configuration | status | total (s) | proof (s) | note |")
        print("|---|---|---|---:|---:|---|")
        for r in sorted(rows, key=lambda r: (r["puzzle"], config(r))):
            print(f"| {r['puzzle'].rsplit('/', 1)[-1]} | {config(r)} | {r['status']}{'' if r['unique'] in ('', 'False') else ', unique'} "
                  f"| {float(r['total_s']):.2f} | {r['unique_s'] or '–'} | {r['message'][:70]} |")
        return
    groups: dict[tuple[str, int, int], list[dict]] = defaultdict(list)
    for r in rows:
        groups[config(r), int(r["height"]), int(r["width"])].append(r)
    print("| configuration | size | solved | median total (s) | slowest (s) | median per cell (ms) |")
    print("|---|---|---:|---:|---:|---:|")
    for (conf, h, w), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] * kv[0][2])):
        times = [float(r["total_s"]) for r in rs if solved(r)]
        if not times:
            print(f"| {conf} | {h}×{w} | 0/{len(rs)} | – | – | – |")
            continue
        med = statistics.median(times)
        print(f"| {conf} | {h}×{w} | {len(times)}/{len(rs)} | {med:.3f} | {max(times):.3f} | {1000 * med / (h * w):.2f} |")


if __name__ == "__main__":
    main()
